"""The pipeline's plumbing: paths, config, atomic writes, provenance, generated inputs, the chapter
manifest, the machine lock and the notebook-kernel launcher.

Imports nothing else of cipherlab (CONTRIBUTING.md, "Layers").
"""
