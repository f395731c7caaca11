"""report: see CONTRIBUTING.md, "Layers"."""
