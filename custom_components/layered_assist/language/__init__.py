"""Language helpers shared by the layers and the tools: text normalization and numerals."""
