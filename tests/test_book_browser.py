"""The quick book as a reader sees it: headless Chromium (Debian's package) loads the front
page, the methods page (math) and a chapter; figures resolve, no local link is broken,
no page loads a script or style sheet from the network, and math renders offline.

Without Chromium these tests are skipped, except under CI (``CI`` set), where they fail:
``.ci/run`` installs it with apt-get.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from cipherlab import paths

from test_pipeline import run_quick_pipeline  # one quick run per session, shared

pytestmark = pytest.mark.browser

HTML = paths.Profile("quick").html
CHAPTERS = ("aes2sbox", "maes", "aead", "security")


def chromium_path() -> "str | None":
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None


@pytest.fixture(scope="module")
def book():
    run_quick_pipeline()
    index = HTML / "index.html"
    assert index.is_file(), f"{index} was not built"
    return HTML


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
    import re

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
    return [html_dir / f"{c}.html" for c in CHAPTERS if (html_dir / f"{c}.html").is_file()]


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
    """A chapter that saves figures (data/figures/quick/<chapter>_*.png) shows images on its page."""
    figures_dir = paths.Profile("quick").figures
    for page in chapter_pages(book):
        saved = sorted(figures_dir.glob(f"{page.stem}_*.png"))
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
    html = (book / "intro.html").read_text(encoding="utf-8")
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
    dom = browse(chromium, book / "intro.html")
    assert "<title>" in dom and "cipherlab" in dom
    assert "Verdicts" in dom
    shot = tmp_path / "front.png"
    browse(chromium, book / "intro.html", f"--screenshot={shot}")
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
