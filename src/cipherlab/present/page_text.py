"""Text a user wrote in a file, as text on a page of the book: the one escape at the render boundary.

A variant's ``summary`` and ``about`` (``config/variants/*.yaml``), a claim's text, ``where`` and
``note`` (``data/paper/claims.csv``), a misprint's or a coverage row's note reach the book's pages
inside Markdown (a notebook's ``Markdown`` output, which MyST renders, raw HTML included) or inside
HTML the library builds. Whatever such a file holds (``<script>``, ``<a href=javascript:...>``,
``[x](javascript:...)``, ``$math$``, ``**bold**``, a heading), the page shows it as the characters
it is and runs nothing: every place where such text reaches a page goes through
:func:`page_text` (Markdown) or :func:`page_html` (HTML).
"""
from __future__ import annotations

import html
import re
from typing import Any

__all__ = ["page_text", "page_html"]

#: Characters Markdown or MyST (roles, math) give a meaning to anywhere in a line, and HTML's ``<`` and ``&``.
_ACTIVE = re.compile(r"[\\`*_{}\[\]<>#|~$&]")
#: What makes a block of the line's start: a list item ("-", "+", "1.", "1)"), a definition or a fence (":"),
#: a target ("(name)=") or a comment ("%").
_LEADING = re.compile(r"^(\d{1,9}[.)](?=\s|$)|[-+:(%])")


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)


def page_text(value: Any) -> str:
    """``value`` as text in Markdown: one paragraph (whitespace collapsed), each character that is markup
    wherever it stands written as a numeric character reference (``<`` as ``&#60;``, ``[`` as ``&#91;``,
    ``*``, ``_``, ``$``, ``` ` ```, ``{`` ...), and so is a list or block marker at the start; Markdown shows a
    reference as the character and never reads it as markup. Also safe as an HTML element's content."""
    text = _ACTIVE.sub(lambda m: f"&#{ord(m.group())};", " ".join(_text(value).split()))
    return _LEADING.sub(lambda m: m.group()[:-1] + f"&#{ord(m.group()[-1])};", text)


def page_html(value: Any) -> str:
    """``value`` as text inside HTML (an element's content or a quoted attribute): ``& < > " '`` escaped."""
    return html.escape(_text(value), quote=True)
