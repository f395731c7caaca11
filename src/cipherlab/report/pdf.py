"""The book as PDF: a referee's report per paper and the whole book, printed from the built HTML.

``python -m cipherlab.report.pdf PROFILE`` (``make pdf [QUICK=1]``) prints, with headless
Chromium (Debian's package, the one the browser tests use), each page of the built book to PDF
without the browser's header and footer (``--no-pdf-header-footer``), offline (``file://``, no
network), after the page's own scripts ran (MathJax, the verdict filter).  The book's print style
(``book/_static/cipherlab.css``, ``@media print``) leaves the article alone on the page.

It writes ``build/<profile>/pdf/report-<paper>.pdf`` (each referee's report) and
``cipherlab-book.pdf`` (every page of the table of contents, in its order, joined with
``pdfunite`` from Debian's ``poppler-utils``), and copies them into the HTML book's ``pdf/``
directory, where the book's ".pdf" button links them.

Why Chromium and not jupyter-book's LaTeX builder: the pages are mostly HTML the notebooks
write (tables, badges, the verdict filter); LaTeX drops raw HTML outputs, so the PDF would lose
exactly the tables a referee reads, and a texlive install is some 1 GB more for CI.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from cipherlab.pipeline.paths import Profile
from cipherlab.report import referee
from cipherlab.report.book import toc_pages

#: Chromium's flags: headless, offline, no first-run work, no header or footer on the pages.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--no-pdf-header-footer", "--run-all-compositor-stages-before-draw",
                  "--virtual-time-budget=6000")


class PdfError(RuntimeError):
    """A tool is missing or a page did not print."""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise PdfError("chromium is not installed (apt-get install -y chromium): it prints the book to PDF")


def print_page(page: Path, out: Path, exe: "str | None" = None) -> Path:
    """Print one HTML page to ``out`` (PDF), atomically; a page that does not print is a :class:`PdfError`."""
    if not page.is_file():
        raise PdfError(f"{page} does not exist: build the book first (make reproduce)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    with tempfile.TemporaryDirectory() as user_dir:
        cmd = [exe or chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={user_dir}", f"--print-to-pdf={tmp}",
               page.resolve().as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or not tmp.is_file() or tmp.stat().st_size == 0:
        raise PdfError(f"chromium did not print {page.name}: {proc.stderr[-800:]}")
    tmp.replace(out)
    return out


def join(parts: "list[Path]", out: Path) -> Path:
    """Join PDFs in order with ``pdfunite`` (poppler-utils)."""
    exe = shutil.which("pdfunite")
    if exe is None:
        raise PdfError("pdfunite is not installed (apt-get install -y poppler-utils): it joins the book's pages")
    tmp = out.with_name(out.name + ".part")
    subprocess.run([exe, *map(str, parts), str(tmp)], check=True, capture_output=True)
    tmp.replace(out)
    return out


def book_pages(profile: str) -> list[str]:
    """The book's pages in table-of-contents order (the staged ``_toc.yml``)."""
    toc = yaml.safe_load((Profile(profile).book_src / "_toc.yml").read_text(encoding="utf-8"))
    return toc_pages(toc)


def pdf_dir(profile: str) -> Path:
    return Profile(profile).build / "pdf"


def build(profile: str) -> list[Path]:
    """Every PDF of the profile's book; returns their paths."""
    html = Profile(profile).html
    out_dir = pdf_dir(profile)
    exe = chromium()
    written = []
    with tempfile.TemporaryDirectory() as work:
        pages = []
        for name in book_pages(profile):
            page = html / f"{name}.html"
            if not page.is_file():
                raise PdfError(f"{page.name} is in the table of contents but not in the built book: rebuild the book")
            pages.append(print_page(page, Path(work) / f"{len(pages):03d}-{name}.pdf", exe))
            if name.startswith("report_"):
                paper = name.removeprefix("report_")
                referee.check_paper(paper)
                target = out_dir / f"report-{paper}.pdf"
                out_dir.mkdir(parents=True, exist_ok=True)
                shutil.copy2(pages[-1], target)
                written.append(target)
        out_dir.mkdir(parents=True, exist_ok=True)
        written.append(join(pages, out_dir / "cipherlab-book.pdf"))
    served = html / "pdf"
    served.mkdir(exist_ok=True)
    for path in written:
        shutil.copy2(path, served / path.name)
    return written


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in ("full", "quick"):
        print("usage: python -m cipherlab.report.pdf {full,quick}", file=sys.stderr)
        return 2
    try:
        written = build(argv[0])
    except (PdfError, OSError, subprocess.CalledProcessError) as exc:
        print(f"error: PDF build failed: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"pdf: {path} ({os.path.getsize(path)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
