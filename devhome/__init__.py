"""The development Home Assistant: provisioning and a chat command."""
