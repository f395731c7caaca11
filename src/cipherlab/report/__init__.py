"""What turns a run into a book: the notebook runner, the front page and the book builder.

Imports the layers below it (CONTRIBUTING.md, "Layers").
"""
