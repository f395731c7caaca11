"""Data text in the pages' markdown (cipherlab.report.markup): shown as written, never read as markup."""
from __future__ import annotations

from markdown_it import MarkdownIt

from cipherlab.report.markup import md_escape


def render(text: str) -> str:
    return MarkdownIt("commonmark").render(text)


def test_a_note_with_asterisks_is_not_italics():
    note = "the testable forms are the ratios 002-t1-* and 002-t2-* (see `x`) <script>alert(1)</script> [a](b) | c"
    out = render(f"[002-t1-absolute](verdicts.html#claim-002-t1-absolute) ({md_escape(note)})")
    assert "<em>" not in out and "<code>" not in out and "<script>" not in out and 'href="b"' not in out
    assert "002-t1-* and 002-t2-*" in out and "&lt;script&gt;" in out
    assert 'href="verdicts.html#claim-002-t1-absolute"' in out          # the markup around it still works


def test_plain_text_is_unchanged():
    assert md_escape("12.5 % faster, 3 of 4 claims") == "12.5 % faster, 3 of 4 claims"
    assert md_escape(7) == "7"
