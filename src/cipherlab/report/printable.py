"""A built page made ready to print: what :mod:`cipherlab.report.pdf` hands to headless Chromium.

A page of the HTML book is written for a browser: folds (``<details>``) closed, links to other pages
of the book as relative ``.html`` paths, the quick profile's banner at the top of the site.  In a
PDF read anywhere those become content missing, links to ``file:///`` paths of the machine that
printed it, and a profile named nowhere after page 1.  :func:`print_copy` turns the page's HTML
into its printed form:

* every fold is open (``<details open>``): the full tables are printed, not their summaries;
* a short table is kept on one page, a long one breaks between its rows (:func:`keep_short_tables`);
* a link to another page of the book keeps its text (a claim's link *is* its claim id) but loses
  its target, so the PDF holds no ``file://`` link; links within the page stay (Chromium makes them
  links inside the PDF), links to the web stay;
* each page's header names the profile and the commit (a quick book's in red, saying that its
  numbers are not results), its footer the page's title and "page N of M" (CSS page-margin boxes);
* a PDF's first page is a title page (:func:`title_page_html`): the paper (or the book), cipherlab's
  version and commit, the build id, the profile, the measurement runs and their machines, and the
  dates the book was built and printed, read from the book's ``run.json``
  (:func:`cipherlab.report.book.run_info`).

The rest of the print style lives with the book's screen style, in ``book/_static/cipherlab.css``.
"""
from __future__ import annotations

import datetime as dt
import html
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

#: The book's run record beside its pages (written by cipherlab.report.book.stage).
RUN_INFO_NAME = "run.json"

#: What a quick-profile PDF says at the top of every page.
QUICK_HEADER = "QUICK PROFILE: tiny samples for testing, not the papers' protocols; its numbers are not results"

_A_TAG = re.compile(r"<a\b[^>]*>", re.I)
_HREF = re.compile(r"""\shref\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_DETAILS = re.compile(r"<details\b(?![^>]*\sopen\b)", re.I)
_TITLE = re.compile(r"<title>(.*?)</title>", re.I | re.S)


class PrintError(ValueError):
    """The page or the book's run record cannot be read as a printable page."""


def read_run_info(html_dir: Path) -> dict:
    """The built book's ``run.json``; a missing or unreadable file is a :class:`PrintError` saying what to do."""
    path = Path(html_dir) / RUN_INFO_NAME
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PrintError(f"{path} is missing: rebuild the book (make reproduce) before printing it") from None
    except ValueError as exc:
        raise PrintError(f"{path} is not JSON ({exc}): rebuild the book") from None
    missing = [k for k in ("profile", "git_commit", "build_id", "built_utc", "cipherlab_version") if k not in info]
    if missing:
        raise PrintError(f"{path} lacks {missing}: rebuild the book")
    return info


def _local_page_link(href: str, page_name: str) -> "str | None":
    """For a link to another file of the book, None (drop it); for one within ``page_name``, its ``#fragment``;
    for a link to the web (or mail), the link unchanged."""
    parts = urlsplit(html.unescape(href))
    if parts.scheme in ("http", "https", "mailto"):
        return href
    if not parts.path:
        return href                      # "#anchor": within the page
    if parts.scheme in ("", "file") and Path(parts.path).name == page_name and parts.fragment:
        return "#" + parts.fragment      # this page, named by its file
    return None


def unlink_local(page_html: str, page_name: str) -> str:
    """Every ``<a href>`` to another file of the book without its target (the text stays, marked ``cl-xref``)."""
    def repl(m: "re.Match[str]") -> str:
        tag = m.group(0)
        h = _HREF.search(tag)
        if not h:
            return tag
        href = h.group(1) if h.group(1) is not None else h.group(2)
        kept = _local_page_link(href, page_name)
        if kept == href:
            return tag
        if kept is not None:
            return tag[:h.start()] + f' href="{html.escape(kept)}"' + tag[h.end():]
        rest = tag[:h.start()] + tag[h.end():]
        if re.search(r"\sclass\s*=", rest, re.I):
            return re.sub(r"""(\sclass\s*=\s*["'])""", r"\1cl-xref ", rest, count=1, flags=re.I)
        return rest[:-1] + ' class="cl-xref">'

    return _A_TAG.sub(repl, page_html)


#: A table of at most this many rows and characters of text (about a third of a page) is kept on one page;
#: a longer one breaks between its rows.
KEEP_ROWS = 14
KEEP_CHARS = 1200
_TABLE = re.compile(r"<table\b([^>]*)>(.*?)</table>", re.S | re.I)


def keep_short_tables(page_html: str) -> str:
    """Mark each short table (:data:`KEEP_ROWS` rows, :data:`KEEP_CHARS` characters of text or fewer)
    ``data-print-keep``: the print style keeps it on one page, while a long one breaks between rows (its
    header repeated) instead of leaving the rest of a page empty before it."""
    def repl(m: "re.Match[str]") -> str:
        rows = len(re.findall(r"<tr\b", m.group(2), re.I))
        chars = len(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(2))))
        if rows > KEEP_ROWS or chars > KEEP_CHARS or "data-print-keep" in m.group(1):
            return m.group(0)
        return f"<table data-print-keep{m.group(1)}>{m.group(2)}</table>"

    return _TABLE.sub(repl, page_html)


def open_folds(page_html: str) -> str:
    """Every ``<details>`` open."""
    return _DETAILS.sub("<details open", page_html)


def page_title(page_html: str) -> str:
    """The page's ``<title>`` without the book's name after it."""
    m = _TITLE.search(page_html)
    title = html.unescape(re.sub(r"\s+", " ", m.group(1))).strip() if m else ""
    return re.split(r"\s+[—–|-]\s+cipherlab", title)[0].strip() or "cipherlab"


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def page_style(info: dict, title: str) -> str:
    """The ``@page`` rules of one printed page: the profile in its header, the title and page number in its footer
    (the site's quick-profile banner is left out: every page's header says it)."""
    profile = str(info["profile"])
    commit = str(info["git_commit"])[:12]
    if profile == "full":
        header, colour = f"cipherlab · full profile · commit {commit} · build {info['build_id']}", "#444"
    else:
        header, colour = f"{QUICK_HEADER} · commit {commit}", "#b0182a"
    return ("<style>.bd-header-announcement { display: none !important; } @page { "
            f"@top-center {{ content: {_css_string(header)}; color: {colour}; font: 600 7.5pt sans-serif; }} "
            f"@bottom-left {{ content: {_css_string(title)}; color: #555; font: 7.5pt sans-serif; }} "
            '@bottom-right { content: "page " counter(page) " of " counter(pages); color: #555; '
            "font: 7.5pt sans-serif; } }</style>")


def _row(name: str, value: str) -> str:
    return f"<tr><th>{html.escape(name)}</th><td>{value}</td></tr>"


def title_page_html(info: dict, *, title: str, subtitle: str = "", citation: str = "",
                    printed: "dt.datetime | None" = None) -> str:
    """The title page of a PDF: what it is, then the fields an editor checks first."""
    printed = printed or dt.datetime.now(dt.timezone.utc)
    profile = str(info["profile"])
    esc = html.escape
    runs = list(info.get("measurement_runs") or [])
    machines = list(info.get("machines") or [])
    rows = [
        _row("profile", f"<b>{esc(profile)}</b> (<code>{esc(str(info.get('config', '')))}</code>)"),
        _row("cipherlab", f"version {esc(str(info['cipherlab_version']))}, git commit "
                          f"<code>{esc(str(info['git_commit']))}</code>"),
        _row("build", f"<code>{esc(str(info['build_id']))}</code>, built {esc(str(info['built_utc']))}"),
        _row("measurement runs", ", ".join(f"<code>{esc(r)}</code>" for r in runs[:6])
             + (f" and {len(runs) - 6} more" if len(runs) > 6 else "") if runs else "none were present"),
        _row("machine" if len(machines) <= 1 else "machines", "<br>".join(esc(m) for m in machines) or "not recorded"),
        _row("printed", f"{printed:%Y-%m-%d %H:%M} UTC, from the built HTML book by headless Chromium"),
    ]
    warning = ("" if profile == "full" else
               '<p class="cl-title-warning">Quick profile: tiny samples for testing, not the papers\' protocols. '
               "Its numbers and verdicts show that the pipeline runs; they are not results. "
               "<code>make reproduce</code> and <code>make pdf</code> build the full profile's.</p>")
    return (f'<section class="cl-title-page"><p class="cl-title-kicker">cipherlab</p>'
            f"<h1>{esc(title)}</h1>"
            + (f'<p class="cl-title-sub">{esc(subtitle)}</p>' if subtitle else "")
            + (f'<p class="cl-title-cite">{esc(citation)}</p>' if citation else "")
            + warning
            + f'<table class="cl-title-fields">{"".join(rows)}</table></section>')


def print_copy(page_html: str, page_name: str, info: dict, title_page: "str | None" = None) -> str:
    """``page_html`` as it is printed: folds open, no link to another file, the page style, an optional title page."""
    out = keep_short_tables(open_folds(unlink_local(page_html, page_name)))
    style = page_style(info, page_title(page_html))
    if "</head>" not in out or "<body" not in out:
        raise PrintError(f"{page_name} has no <head> or <body>: it is not a page of the built book")
    out = out.replace("</head>", style + "</head>", 1)
    if title_page:
        out = re.sub(r"(<body\b[^>]*>)", lambda m: m.group(1) + title_page, out, count=1)
    return out
