"""Tests of the chat package: the loop, its messages, recovered calls and structured answers."""
