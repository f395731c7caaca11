"""Analysis shared by every chapter: timing, statistics, claims, the verdict engine, published values,
the table renderer and figures.

Imports only the pipeline layer (CONTRIBUTING.md, "Layers").
"""
