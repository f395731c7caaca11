"""The pipeline's plumbing: paths, config, atomic writes, provenance, generated inputs, the chapter
declarations (types, parameters, discovery), the machine lock and the notebook-kernel launcher.

Imports nothing else of cipherlab (CONTRIBUTING.md, "Layers").
"""
