"""Layered device selection: catalog, local fast path, recall, local action, command schemas."""
