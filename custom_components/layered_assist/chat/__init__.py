"""The chat with the model: OpenAI-compatible client and the tool-calling loop."""
