"""pipeline: see CONTRIBUTING.md, "Layers"."""
