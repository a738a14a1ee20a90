"""Tests for the Layered Assist integration."""
