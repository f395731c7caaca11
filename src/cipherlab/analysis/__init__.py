"""analysis: see CONTRIBUTING.md, "Layers"."""
