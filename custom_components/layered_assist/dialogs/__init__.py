"""Multi-turn dialogs: climate confirmation and confirmation of risky device commands."""
