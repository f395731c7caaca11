"""Presentation: how tables, numbers, figures, page text and verdict rows look on a page (no deciding here).

The layer between the chapters (``experiments/``) and what they compute (``analysis/``): the chapters and the
book's pages (``report/``) render through it; ``analysis/`` never imports it, nor IPython or matplotlib.
"""
