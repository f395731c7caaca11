"""The cipher core: kernels, key schedules, modes, AES-NI, the cipher registry, known-answer vectors.

Imports nothing else of cipherlab (CONTRIBUTING.md, "Layers").
"""
