"""cipherlab.present.page_text: text from a file is text on a page, whatever it holds.

Rendered by MyST's own Markdown parser, with the book's extensions (book/_config.yml), the way the
book renders a notebook's Markdown output."""
from __future__ import annotations

import html
from html.parser import HTMLParser

import pytest
import yaml
from hypothesis import example, given, settings, strategies as st
from markdown_it.renderer import RendererHTML
from myst_parser.config.main import MdParserConfig
from myst_parser.parsers.mdit import create_md_parser

from cipherlab.present.page_text import page_html, page_text
from cipherlab.pipeline import paths

EXTENSIONS = set(yaml.safe_load((paths.BOOK_DIR / "_config.yml").read_text())["parse"]["myst_enable_extensions"])
MYST = create_md_parser(MdParserConfig(enable_extensions=EXTENSIONS), RendererHTML)
PAYLOAD = ("<script>document.title=31337</script> <a href=javascript:alert(4)>a4</a> "
           "<img src=x onerror=alert(5)> [md](javascript:alert(6)) **bold** $x^2$ {sub}`x` (t)= % c")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text += data


def _rendered(markdown: str) -> _Page:
    page = _Page()
    page.feed(MYST.render(markdown))
    page.close()
    return page


MARKUP = st.sampled_from(list("\\`*_{}[]()<>#+-!|~$&\"'=^:%@.\n\t ") + ["1.", "1)", "```", ":::", "$$", "<!--", "-->",
                                                                          "&amp;", "&#60;", "javascript:", "{role}"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(MARKUP, st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=8)),
                max_size=30).map("".join))
@example(PAYLOAD)
@example("1. x")
@example("- x")
@example("---")
@example("% comment")
@example("(target)=")
@example(": definition")
def test_markdown_shows_exactly_the_text_and_no_markup(text):
    collapsed = " ".join(text.split())
    page = _rendered("## heading\n\n" + page_text(text))
    if collapsed:
        assert page.tags == ["h2", "p"], (text, MYST.render(page_text(text)))
        assert page.text.split("\n", 1)[1].strip("\n") == collapsed
    else:
        assert page.tags == ["h2"]


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60))
@example(PAYLOAD)
def test_html_shows_exactly_the_text_in_content_and_attributes(text):
    page = _Page()
    page.feed(f'<p title="{page_html(text)}">{page_html(text)}</p>')
    page.close()
    assert page.tags == ["p"] and page.text == text


@pytest.mark.parametrize("value, expected", [(None, ""), (float("nan"), ""), (3, "3"), ("a < b", "a &#60; b")])
def test_missing_values_are_empty_and_others_their_text(value, expected):
    assert page_text(value) == expected and page_html(value) == html.escape(expected.replace("&#60;", "<"))


def test_a_note_with_asterisks_beside_a_link_is_not_italics_and_the_link_still_works():
    from markdown_it import MarkdownIt
    note = "the testable forms are the ratios 002-t1-* and 002-t2-* (see `x`) <script>alert(1)</script> [a](b) | c"
    out = MarkdownIt("commonmark").render(f"[002-t1-absolute](verdicts.html#claim-002-t1-absolute) ({page_text(note)})")
    assert "<em>" not in out and "<code>" not in out and "<script>" not in out and 'href="b"' not in out
    assert "002-t1-* and 002-t2-*" in out and "&lt;script&gt;" in out
    assert 'href="verdicts.html#claim-002-t1-absolute"' in out          # the markup around it still works
    assert page_text("12.5 % faster, 3 of 4 claims") == "12.5 % faster, 3 of 4 claims" and page_text(7) == "7"
