"""Text from the data (a claim's note, a reason, a misprint's evidence) placed into the pages' markdown.

A note that says "the ratios 002-t1-* and 002-t2-*" is data, not markup: read as markdown its two
asterisks turn everything between them into italics, and a ``<`` could open raw HTML.  Every piece of
data text a page writes into markdown goes through :func:`md_escape`, which backslash-escapes the
characters markdown (CommonMark, as the book renders notebook outputs) would act on.
"""
from __future__ import annotations

import re

#: The ASCII punctuation markdown acts on inline (emphasis, code, links, raw HTML, tables, math).
_SPECIAL = re.compile(r"([\\`*_\[\]<>|{}$~#!])")


def md_escape(text: object) -> str:
    """``text`` as literal markdown: every character markdown would act on, backslash-escaped."""
    return _SPECIAL.sub(r"\\\1", str(text))
