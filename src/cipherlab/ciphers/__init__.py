"""ciphers: see CONTRIBUTING.md, "Layers"."""
