"""The quick book as a reader sees it: headless Chromium (Debian's package) loads the front
page, the methods page (math) and a chapter; figures resolve, no local link is broken,
no page loads a script or style sheet from the network, and math renders offline.  Every
term a page uses is linked to its definition in the one glossary (cipherlab.report.glossary),
no page shows a rule or outcome by its internal name, and every verdict a page shows is a term
the glossary defines.

Without Chromium these tests are skipped, except under CI (``CI`` set), where they fail:
``.ci/run`` installs it with apt-get.
"""
from __future__ import annotations

import html as htmllib
import json
import os
import re
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from cipherlab.pipeline import chapters, paths
from pipeline_tree import copy_tree
pytestmark = pytest.mark.browser

HTML = paths.Profile("quick").html
#: The chapters' pages, in reading order, from the chapters' declarations.
CHAPTERS = chapters.names()


def chromium_path() -> "str | None":
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


@pytest.fixture(scope="module")
def book(quick_tree):
    """The quick book of the session's tree (one quick run per session, in a temporary copy)."""
    html = quick_tree.at(HTML)
    index = html / "index.html"
    assert index.is_file(), f"{index} was not built"
    return html


@pytest.fixture(scope="module")
def writable_book(book, tmp_path_factory):
    """A private copy of the built book, for the tests that write probe pages beside its pages: the session's
    quick tree is shared by the workers and never changes (another worker may be copying it)."""
    html = tmp_path_factory.mktemp("book") / "build" / "quick" / "book" / "_build" / "html"
    shutil.copytree(book, html, symlinks=True)
    return html


@pytest.fixture(scope="module")
def chromium():
    exe = chromium_path()
    if exe is None:
        message = "chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must have it (.ci/run installs it)", pytrace=False)
        pytest.skip(message)
    return exe


def browse(chromium: str, page: Path, *args: str) -> str:
    """Load ``page`` in headless Chromium (JavaScript runs for a few seconds of virtual time)."""
    with tempfile.TemporaryDirectory() as profile_dir:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", f"--user-data-dir={profile_dir}", "--virtual-time-budget=8000",
               "--window-size=1280,1800", *(args or ("--dump-dom",)), page.resolve().as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"chromium failed on {page.name}: {proc.stderr[-1500:]}"
    return proc.stdout


class _Refs(HTMLParser):
    """Collects (tag, attribute, value) of every href/src in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.refs.append((tag, name, value))


def page_text(html: str) -> str:
    """The visible text of a page, tags removed and white space collapsed."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"\s+", " ", text)


def refs(html: str) -> list[tuple[str, str, str]]:
    parser = _Refs()
    parser.feed(html)
    return parser.refs


def local_target(page: Path, value: str) -> "Path | None":
    """The file a local reference points to; None for external links, anchors, mailto, data: URIs."""
    parts = urlsplit(value)
    if parts.scheme in ("http", "https", "mailto", "data", "javascript") or value.startswith("//"):
        return None
    if parts.scheme == "file":
        return Path(unquote(parts.path))
    if not parts.path:
        return None  # "#anchor"
    return (page.parent / unquote(parts.path)).resolve()


def book_pages(html_dir: Path) -> list[Path]:
    """The book's pages (not the theme's Jinja templates under _static/)."""
    return sorted(p for p in html_dir.rglob("*.html") if "_static" not in p.relative_to(html_dir).parts)


def chapter_pages(html_dir: Path) -> list[Path]:
    """Every chapter's page; a chapter of the manifest without its page fails."""
    pages = [html_dir / f"{c}.html" for c in CHAPTERS]
    missing = [p.name for p in pages if not p.is_file()]
    assert not missing, f"chapters of the manifest without a page: {missing}"
    return pages


# --- static checks of every built page (no browser needed) -----------------------------------

def test_no_broken_local_links(book):
    pages = book_pages(book)
    assert len(pages) >= 4
    broken = []
    for page in pages:
        for tag, attr, value in refs(page.read_text(encoding="utf-8")):
            target = local_target(page, value)
            if target is not None and not target.exists():
                broken.append(f"{page.relative_to(book)}: <{tag} {attr}={value!r}>")
    assert not broken, "broken local links:\n" + "\n".join(broken[:30])


def test_no_script_or_style_from_the_network(book):
    """The book works offline: scripts, style sheets, images and fonts are all local files."""
    remote = []
    for page in book_pages(book):
        for tag, attr, value in refs(page.read_text(encoding="utf-8")):
            if tag in ("script", "link", "img", "iframe", "source") and local_target(page, value) is None \
                    and not value.startswith("#") and not value.startswith("data:"):
                if tag == "link" and "stylesheet" not in value and not value.endswith((".css", ".js")):
                    continue  # <link rel=...> to a page, not a resource
                remote.append(f"{page.relative_to(book)}: <{tag} {attr}={value!r}>")
    assert not remote, "resources loaded from the network:\n" + "\n".join(remote)


def test_chapters_that_draw_figures_show_them(book):
    """A chapter that declares figures (its chapter.py) shows images on its page."""
    for page in chapter_pages(book):
        saved = chapters.load().chapter(page.stem).figures
        if saved:
            images = [v for t, a, v in refs(page.read_text(encoding="utf-8")) if t == "img"]
            assert images, (f"{page.name}: the chapter saves {len(saved)} figures but its page shows none "
                            "(display them in the notebook: plt.show() or IPython.display.Image)")


def test_mathjax_is_local(book):
    methods = (book / "methods.html").read_text(encoding="utf-8")
    scripts = [v for t, a, v in refs(methods) if t == "script" and "mathjax" in v.lower()]
    assert scripts, "the methods page (which has math) loads no MathJax"
    for src in scripts:
        target = local_target(book / "methods.html", src)
        assert target is not None and target.is_file(), f"MathJax is not a local file: {src}"


def test_front_page_and_banner(book):
    html = (book / "findings.html").read_text(encoding="utf-8")
    intro = page_text(html)
    assert "built by the quick profile" in intro, "the run banner (profile) is missing"
    assert "make reproduce" in intro
    assert 'href="verdicts.html"' in html, "the front page does not link to the verdicts"


def test_verdict_and_environment_pages(book):
    verdicts = page_text((book / "verdicts.html").read_text(encoding="utf-8"))
    assert "reproduced" in verdicts
    env = page_text((book / "environment.html").read_text(encoding="utf-8"))
    for needle in ("cpu_model", "logical_cores", "date_utc", "python", "numba", "git_commit", "quick.yaml"):
        assert needle in env, f"environment page lacks {needle}"


# --- in the browser ------------------------------------------------------------------------------

def test_front_page_loads_in_chromium(book, chromium, tmp_path):
    dom = browse(chromium, book / "findings.html")
    assert "<title>" in dom and "cipherlab" in dom
    assert "Verdicts" in dom
    shot = tmp_path / "front.png"
    browse(chromium, book / "findings.html", f"--screenshot={shot}")
    assert shot.is_file() and shot.stat().st_size > 20_000


def test_math_renders_offline_in_chromium(book, chromium):
    dom = browse(chromium, book / "methods.html")
    assert "mjx-container" in dom, "MathJax did not typeset the methods page"


def test_a_chapter_loads_with_its_figures(book, chromium, tmp_path):
    chapters = chapter_pages(book)
    if not chapters:
        pytest.fail("no chapter page was built", pytrace=False)
    # The first chapter (reading order) that has figures.
    page = next((p for p in chapters if "<img" in p.read_text(encoding="utf-8")), chapters[0])
    dom = browse(chromium, page)
    images = [v for t, a, v in refs(dom) if t == "img" and a == "src" and not v.startswith("data:")]
    assert images, f"{page.name} shows no figure"
    for src in images:
        target = local_target(page, src)
        assert target is not None and target.is_file() and target.stat().st_size > 0, \
            f"{page.name}: figure {src} does not resolve"
    shot = tmp_path / f"{page.stem}.png"
    browse(chromium, page, f"--screenshot={shot}")
    assert shot.is_file() and shot.stat().st_size > 20_000


# --- every page as a reader meets it (issue: a book a reader can trust on every page) -----------

#: Injected into a copy of each page: after load, records the tables whose right edge runs past
#: the article's, measured by the browser at a 1400 px window.
_OVERFLOW_PROBE = """<script>
window.addEventListener('load', function () {
  var art = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  var edge = art.getBoundingClientRect().right + 2, out = [];
  document.querySelectorAll('table').forEach(function (t, i) {
    if (t.offsetParent === null || t.closest('details:not([open])')) return;   // hidden, or folded by the reader's choice
    var r = t.getBoundingClientRect();
    if (r.right > edge) out.push(i + ':' + Math.round(r.right - edge) + 'px:' + (t.innerText || '').slice(0, 60));
  });
  document.body.setAttribute('data-overflow', JSON.stringify(out));
});
</script>"""


def _rendered_table_cells(html: str) -> list[str]:
    cells = re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", html, flags=re.S | re.I)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip() for c in cells]


def test_no_table_cell_is_truncated_or_nan(book):
    bad = []
    for page in book_pages(book):
        for cell in _rendered_table_cells(page.read_text(encoding="utf-8")):
            if cell.endswith(("...", "…")) or cell in ("NaN", "nan", "None") or cell.startswith("<NA"):
                bad.append(f"{page.name}: {cell[:80]!r}")
    assert not bad, "truncated or missing-value cells:\n" + "\n".join(bad[:40])


def test_no_page_shows_a_path_object_or_a_raw_dict(book):
    bad = []
    for page in book_pages(book):
        text = page_text(page.read_text(encoding="utf-8"))
        for needle in ("PosixPath(", "WindowsPath(", str(paths.ROOT), str(book.parents[4])):  # checkout, tree
            if needle in text:
                bad.append(f"{page.name}: {needle}")
    assert not bad, "pages show paths of the machine that built them:\n" + "\n".join(bad)


def test_no_page_loads_anything_from_outside_the_book(book):
    outside = []
    for page in book_pages(book):
        for tag, attr, value in refs(page.read_text(encoding="utf-8")):
            if tag == "a":
                continue   # a link a reader may follow is not something the page loads
            parts = urlsplit(value)
            if parts.scheme in ("http", "https") or value.startswith("//"):
                outside.append(f"{page.name}: <{tag} {attr}={value!r}>")
            elif parts.scheme == "file":
                outside.append(f"{page.name}: <{tag} {attr}={value!r}> (an absolute local path)")
    assert not outside, "\n".join(outside[:30])


def test_every_page_fits_a_1400_px_window_and_is_photographed(writable_book, chromium):
    """Each page in Chromium at 1400 px: no table runs past the text column; a screenshot for review
    (in the book's copy, build/quick/screenshots/ beside it)."""
    book = writable_book
    shots = book.parents[2] / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    overflowing = []
    for page in book_pages(book):
        html = page.read_text(encoding="utf-8")
        if page.name in ("genindex.html", "search.html") or "bd-article" not in html:
            continue   # the index, the search page and index.html's redirect have no article
        probe = page.with_name(f"_probe_{page.name}")
        probe.write_text(html.replace("</body>", _OVERFLOW_PROBE + "</body>"), encoding="utf-8")
        try:
            dom = browse(chromium, probe, "--window-size=1400,1000", "--dump-dom")
        finally:
            probe.unlink()
        m = re.search(r'data-overflow="([^"]*)"', dom)
        assert m, f"{page.name}: the overflow probe did not run"
        found = json.loads(m.group(1).replace("&quot;", '"'))
        overflowing += [f"{page.name}: table {f}" for f in found]
        shot = shots / f"{page.stem}.png"
        browse(chromium, page, "--window-size=1400,1800", f"--screenshot={shot}")
        assert shot.is_file() and shot.stat().st_size > 10_000
    assert not overflowing, "tables wider than the page:\n" + "\n".join(overflowing)


# --- the referee's reports, the verdict page's anchors and filter, phone width (issue 26) ---------

#: The papers with a referee's report (cipherlab.report.referee.papers()).
REPORT_PAPERS = ("000", "001", "002", "003")


def browse_uri(chromium: str, uri: str, *args: str) -> str:
    """Like :func:`browse`, for a URI with a query string."""
    with tempfile.TemporaryDirectory() as profile_dir:
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", f"--user-data-dir={profile_dir}", "--virtual-time-budget=8000",
               "--window-size=1280,1800", *(args or ("--dump-dom",)), uri]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"chromium failed on {uri}: {proc.stderr[-1500:]}"
    return proc.stdout


@pytest.mark.parametrize("paper", REPORT_PAPERS)
def test_each_report_has_its_summary_headline_table_and_figure(book, chromium, paper):
    page = book / f"report_{paper}.html"
    assert page.is_file(), f"no referee's report for paper {paper}"
    dom = browse(chromium, page)
    text = page_text(dom)
    assert re.search(rf"Referee.s report: paper {paper}", text), "the report's title is not its paper's"   # ' or ’
    summary = re.search(r'<section id="summary">(.*?)</section>', dom, flags=re.S)
    assert summary and f"Paper {paper}" in page_text(summary.group(1)), "the report has no summary"
    assert re.search(r'<table class="cl-report-results">.*?<tr data-verdict=', dom, flags=re.S), \
        "the report has no headline table"
    figure = re.search(r'<section id="published-against-ours">(.*?)</section>', dom, flags=re.S)
    assert figure, "the report has no figure section"
    images = [v for t, a, v in refs(figure.group(1)) if t == "img" and a == "src"]
    assert images, "the report shows no figure"
    for src in images:
        target = local_target(page, src)
        assert target is not None and target.is_file() and target.stat().st_size > 5_000
    for section in ("main-concerns", "methodology", "recommendation"):
        assert f'<section id="{section}">' in dom, f"the report lacks its {section}"


def test_claim_anchors_resolve(book):
    verdicts_html = (book / "verdicts.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="(claim-[^"]+)"', verdicts_html))
    rows = pd_verdicts(book)
    assert {f"claim-{c}" for c in rows["claim_id"]} <= ids, "a claim has no row anchor on the verdict page"
    linked = set()
    for paper in REPORT_PAPERS:
        report = (book / f"report_{paper}.html").read_text(encoding="utf-8")
        linked |= set(re.findall(r'href="verdicts\.html#(claim-[^"]+)"', report))
    assert linked, "no report links a claim's row"
    assert linked <= ids, f"report links to missing anchors: {sorted(linked - ids)[:5]}"
    # Each chapter's verdict table links every claim id to its row on the verdict page.
    for page in (f"{name}.html" for name in CHAPTERS):
        dom = (book / page).read_text(encoding="utf-8")
        shown = set(re.findall(r'href="verdicts\.html#(claim-[^"]+)"', dom))
        assert shown, f"{page}: its verdict table links no claim to the verdict page"
        assert shown <= ids, f"{page} links to missing anchors: {sorted(shown - ids)[:5]}"


def pd_verdicts(book):
    import pandas as pd
    csv = book / "verdicts.csv"
    assert csv.is_file(), "verdicts.csv is not beside the verdict page (its download link)"
    assert 'href="verdicts.csv"' in (book / "verdicts.html").read_text(encoding="utf-8")
    return pd.read_csv(csv, dtype=str, keep_default_na=False)


def test_the_verdict_filter_shows_the_rows_of_verdicts_csv(book, chromium):
    rows = pd_verdicts(book)
    want = int(((rows["paper"] == "003") & (rows["verdict"] == "contradicted")).sum())
    uri = (book / "verdicts.html").resolve().as_uri() + "?paper=003&verdict=contradicted"
    dom = browse_uri(chromium, uri)
    trs = re.findall(r"<tr ([^>]*data-verdict=[^>]*)>", dom)
    four = set(rows["paper"])
    papers = [re.search(r'data-paper="([^"]*)"', t).group(1) for t in trs]
    assert sum(p in four for p in papers) == len(rows), "the verdict page does not show one row per claim"
    # the papers refereed through a variant are listed apart, each with its chapter
    assert all((book / f"variant_{p}.html").is_file() for p in set(papers) - four)
    visible = [t for t in trs if not re.search(r"\bhidden\b", t)]
    assert len(visible) == want, f"filter (003, contradicted) shows {len(visible)} rows, verdicts.csv has {want}"
    assert all('data-paper="003"' in t and 'data-verdict="contradicted"' in t for t in visible)
    assert f"{want} of {len(trs)} rows shown" in page_text(dom)


#: A phone-width frame around a page: headless Chromium will not make its window narrower than 500 px,
#: so the page is loaded in a 390 px iframe (its media queries see 390 px) and the frame's document is
#: measured: how far it scrolls sideways, and which elements stick out.
_PHONE_FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="%s" style="width:390px;height:1200px;border:0"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  setTimeout(function () {
    var doc = document.getElementById('f').contentDocument, out = [];
    var w = doc.documentElement.clientWidth;
    doc.querySelectorAll('body *').forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width && r.right > w + 1 && doc.defaultView.getComputedStyle(el).position !== 'fixed') {
        out.push(el.tagName + '.' + (el.className || '').toString().slice(0, 30) + ':' + Math.round(r.right - w));
      }
    });
    document.body.setAttribute('data-sideways', JSON.stringify({width: w,
      scroll: doc.documentElement.scrollWidth - w, out: out.slice(0, 5)}));
  }, 1500);
});
</script></body></html>"""


def phone_width(chromium: str, page: Path) -> dict:
    """``{width, scroll, out}`` of ``page`` shown 390 px wide (scroll: how far it scrolls sideways)."""
    frame = page.with_name(f"_phone_{page.name}")
    frame.write_text(_PHONE_FRAME % page.name, encoding="utf-8")
    try:
        dom = browse(chromium, frame, "--allow-file-access-from-files", "--dump-dom")
    finally:
        frame.unlink()
    m = re.search(r'data-sideways="([^"]*)"', dom)
    assert m, f"{page.name}: the phone-width probe did not run"
    return json.loads(m.group(1).replace("&quot;", '"'))


def test_no_page_scrolls_sideways_at_390_px(writable_book, chromium):
    """Every page at a phone's 390 px: the page itself never scrolls sideways (wide tables scroll in their box)."""
    book = writable_book
    wide = []
    for page in book_pages(book):
        html = page.read_text(encoding="utf-8")
        if page.name in ("genindex.html", "search.html") or "bd-article" not in html:
            continue
        found = phone_width(chromium, page)
        assert found["width"] <= 390, f"{page.name}: measured at {found['width']} px, not a phone's width"
        if found["scroll"] > 1:
            wide.append(f"{page.name}: {found['scroll']} px ({', '.join(found['out'])})")
    assert not wide, "pages wider than a 390 px phone:\n" + "\n".join(wide)


# --- every term defined where a reader meets it, no rule's internal name (issue 37) -------------

def _glossary():
    from cipherlab.report import glossary
    return glossary


def _marks():
    from cipherlab.present.verdict_table import MARKS
    return MARKS


#: Elements whose text a reader does not meet as prose: the marked terms themselves and other links,
#: code, headings, scripts, math, form controls, fold captions.
_NOT_PROSE = re.compile(r"<(a|code|pre|script|style|h[1-6]|button|select|label|summary|title|svg|mjx-container)\b"
                        r"[^>]*>.*?</\1>|<span class=\"math[^\"]*\">.*?</span>"
                        r"|<p class=\"[^\"]*admonition-title[^\"]*\">.*?</p>", re.S | re.I)


def article(html: str) -> str:
    """The page's article (what a reader reads), or "" for a page without one."""
    start, end = html.find('<article class="bd-article"'), html.rfind("</article>")
    return html[start:end] if 0 <= start < end else ""


def prose_text(html: str) -> str:
    """The article's prose, each text node apart (a tag becomes " | "): a term is marked within one text
    node, so "the <b>quick</b> profile" uses *profile*, and two cells' words never run together."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", _NOT_PROSE.sub(" ", article(html)), flags=re.S | re.I)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " | ", text)))


def test_every_term_a_page_uses_is_linked_to_its_definition(book):
    """The first use of each glossary term on a page links to its entry on the Glossary page, whose
    definition is the link's tooltip; a term left in the prose unmarked is a term used undefined."""
    glossary = _glossary()
    entries = {t.slug: t for t in glossary.terms()}
    gloss = (book / "glossary.html").read_text(encoding="utf-8")
    missing = [t.term for t in entries.values() if f'id="{t.slug}"' not in gloss]
    assert not missing, f"the Glossary page lacks entries for {missing}"
    undefined, wrong = [], []
    checked = 0
    for page in book_pages(book):
        html = page.read_text(encoding="utf-8")
        if page.name in ("genindex.html", "search.html", "glossary.html") or not article(html):
            continue
        checked += 1
        marked = set()
        for tag in re.findall(r'<a class="cl-term"[^>]*>', html):
            slug = re.search(r'data-term="([^"]+)"', tag).group(1)
            marked.add(slug)
            href = re.search(r'href="([^"]+)"', tag).group(1)
            title = re.search(r'title="([^"]*)"', tag)
            if slug not in entries or href != f"glossary.html#{slug}":
                wrong.append(f"{page.name}: {tag[:120]}")
            elif title is None or htmllib.unescape(title.group(1)) != entries[slug].plain:
                wrong.append(f"{page.name}: {slug}'s tooltip is not its definition")
        for term in glossary.find_terms(prose_text(html)):
            if term.slug not in marked:
                undefined.append(f"{page.name}: {term.term!r}")
    assert checked >= 10, f"only {checked} pages checked"
    assert not wrong, "term links that do not lead to their definition:\n" + "\n".join(wrong[:20])
    assert not undefined, "terms used without a link to their definition:\n" + "\n".join(undefined[:30])


def test_no_page_shows_a_rule_or_outcome_by_its_internal_name(book):
    """Rules and outcomes are named in words on every page; their internal names (``within_margin``,
    ``not_testable:``, ``holds:``) appear only as code, where the Methods page declares them."""
    from cipherlab.analysis.claims import RULES, load_rules
    internal = [n for n in (*RULES, *load_rules()["outcomes"]) if "_" in n or n == "pvalue"]
    prefixed = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, RULES)) + r"):\s")
    anywhere = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, internal)) + r")(?![\w-])")
    found = []
    for page in book_pages(book):
        html = page.read_text(encoding="utf-8")
        text = page_text(re.sub(r"<(code|pre)\b[^>]*>.*?</\1>", " ", article(html), flags=re.S | re.I))
        for m in list(prefixed.finditer(text)) + list(anywhere.finditer(text)):
            found.append(f"{page.name}: ...{text[max(m.start() - 40, 0):m.end() + 40]}...")
    assert not found, "internal names a reader meets:\n" + "\n".join(found[:30])


def test_every_verdict_and_tier_a_page_shows_is_defined(book, chromium):
    """Every badge (a verdict, a tier) and every column of a count table is a glossary term; the verdict
    page's key defines every verdict its count table can show; in the browser, the front page's first
    marked term carries its definition as a tooltip."""
    glossary = _glossary()
    shown = set()
    for page in book_pages(book):
        html = page.read_text(encoding="utf-8")
        for badge in re.findall(r'<span class="cl-verdict"[^>]*><span aria-hidden="true">[^<]*</span>(.*?)</span>',
                                html, flags=re.S):
            word = htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", badge)).strip())
            # "covered by <id>", "machine-bound: differs on this machine", "finding: inconclusive": the term, then
            # its particulars
            shown.add(re.sub(r"^(machine-bound|finding):.*$", r"\1", re.sub(r"^(covered by)\s+\S+$", r"\1", word)))
        shown |= set(re.findall(r'<span class="cl-tier cl-tier-\w+">(?:<a [^>]*>)?([^<]+)', html))
    assert shown, "no verdict badge on any page"
    undefined = []
    for word in sorted(shown):
        try:
            glossary.lookup(word)
        except ValueError:
            undefined.append(word)
    assert not undefined, f"badges a reader cannot look up: {undefined}"
    verdicts_html = (book / "verdicts.html").read_text(encoding="utf-8")
    key = re.search(r'<dl class="cl-key">(.*?)</dl>', verdicts_html, flags=re.S)
    assert key, "the verdict page has no key to its words"
    for table in re.findall(r'<table class="cl-counts">(.*?)</table>', verdicts_html, flags=re.S):
        for th in re.findall(r"<th>(.*?)</th>", table, flags=re.S)[1:]:
            word = htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", th))).strip(" " + "".join(m[2] for m in _marks().values()))
            if word != "total":
                assert f">{htmllib.escape(glossary.lookup(word).term)}</a></dt>" in key.group(1), \
                    f"the count table's column {word!r} is not in the verdict page's key"
    dom = browse(chromium, book / "findings.html")
    first = re.search(r'<a class="cl-term" data-term="([^"]+)"[^>]*title="([^"]*)"', dom)
    assert first, "the front page marks no term in the browser"
    assert htmllib.unescape(first.group(2)) == {t.slug: t for t in glossary.terms()}[first.group(1)].plain


# --- text from a file stays text (issue 33, item 8) -------------------------------------------------------------

def _payload(field: str) -> str:
    """What a hostile (or careless) file might hold in ``field``: a script, live links, an event handler,
    Markdown and MyST markup; ``field`` marks each so the test finds where it landed."""
    return (f"<script>document.title='pwned-{field}'</script> <a href=javascript:alert('{field}')>{field}-a</a> "
            f"<img src=x onerror=\"document.title='pwned-{field}-img'\"> [{field}-md](javascript:alert(1)) "
            f"**{field}-bold** ${field}$")


class _Live(HTMLParser):
    """Whatever in a page could run: script elements with our payload, javascript: links, event handlers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self._in_script = tag == "script"
        for name, value in attrs:
            if (value or "").strip().lower().startswith("javascript:") or (name.startswith("on") and "pwned" in (value or "")):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_data(self, data):
        if self._in_script and "pwned" in data:
            self.found.append(f"<script>{data[:60]}")

    def handle_endtag(self, tag):
        self._in_script = False


@pytest.fixture(scope="module")
def hostile_book(quick_tree, tmp_path_factory):
    """A copy of the quick run whose user-written files carry :func:`_payload` in every field a user writes:
    a variant's summary and about, every claim's text, where and note, a misprint's note, the coverage notes;
    then the chapters, the verdicts, the reports, the findings and the variant's chapter are rebuilt."""
    import csv

    tree = copy_tree(quick_tree, tmp_path_factory.mktemp("hostile") / "tree")
    variant = tree.root / "config" / "variants" / "xss-probe.yaml"
    variant.write_text(yaml_dump({"name": "xss-probe", "summary": _payload("summary"), "about": _payload("about"),
                                  "key_bytes": 16, "rounds": 4, "sbox": {"kind": "rijndael"},
                                  "linear": {"kind": "mixcolumns"}}))
    for name, fields in (("claims.csv", {"quote": "claim", "where": "where", "note": "note"}),
                         ("000_misprints.csv", {"note": "misprint"}), ("coverage.csv", {"note": "coverage"})):
        path = tree.root / "data" / "paper" / name
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        for row in rows:
            for column, field in fields.items():
                row[column] = f"{row[column]} {_payload(field)}".strip()
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    tree.snakemake("--cores", "2", "variant_xss-probe")
    return tree.at(HTML)


def yaml_dump(doc) -> str:
    import yaml
    return yaml.safe_dump(doc, sort_keys=False, width=1000, allow_unicode=True)


@pytest.mark.pipeline
def test_text_from_files_is_text_on_every_page(hostile_book, chromium):
    """The probe: a variant's summary reached the page as HTML (its script ran, the title became 31337, the
    javascript: link was live). Every field a user writes: shown as its characters, nothing runs."""
    pages = {p.name: p.read_text(encoding="utf-8") for p in hostile_book.glob("*.html")}
    live = {name: _Live() for name in pages}
    for name, text in pages.items():
        live[name].feed(text)
    assert not {n: p.found for n, p in live.items() if p.found}, "live markup from a file on the book's pages"
    # shown as text (Sphinx curls the quotes of text: look for the marker alone)
    where = {field: sorted(n for n, text in pages.items() if f"pwned-{field}" in htmllib.unescape(text))
             for field in ("summary", "about", "claim", "where", "note", "misprint", "coverage")}
    assert "variant_xss-probe.html" in where["summary"] and "variant_xss-probe.html" in where["about"]
    assert "verdicts.html" in where["claim"] and "verdicts.html" in where["where"]
    assert "report_000.html" in where["misprint"] and "findings.html" in where["coverage"]
    assert where["note"], "no page shows a claim's note"
    for name in sorted({n for names in where.values() for n in names}):
        dom = browse(chromium, hostile_book / name)
        title = re.search(r"<title>(.*?)</title>", dom, flags=re.S).group(1)
        assert "pwned" not in title, f"{name}: a script from a file ran (title {title!r})"
        assert "javascript:" not in "".join(re.findall(r'href="([^"]*)"', dom)).lower(), f"{name}: a live javascript: link"
