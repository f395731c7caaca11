"""The book as PDF: a referee's report per paper and the whole book, printed from the built HTML.

``python -m cipherlab.report.pdf PROFILE`` (``make pdf [QUICK=1]``) prints, with headless
Chromium (Debian's package, the one the browser tests use), each page of the built book to PDF
without the browser's header and footer (``--no-pdf-header-footer``), offline (``file://``, no
network), after the page's own scripts ran (MathJax, the verdict filter).  Each page is printed as
:mod:`cipherlab.report.printable` makes it ready: folds open, no link to another file of the book
(a PDF read anywhere has no ``file://`` path to follow), the profile and commit in every page's
header, the page's title and number in its footer, and a title page before the book and before
each report (the paper, cipherlab's version and commit, the build, the profile, the measurement
runs and their machines, the dates).  The book's print style (``book/_static/cipherlab.css``,
``@media print``) leaves the article alone on the page, folds and wide boxes printed whole.

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
from cipherlab.report import printable, referee
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


def print_page(page: Path, out: Path, exe: "str | None" = None, *, info: "dict | None" = None,
               title_page: "str | None" = None) -> Path:
    """Print one HTML page to ``out`` (PDF), atomically; a page that does not print is a :class:`PdfError`.

    With ``info`` (the book's ``run.json``) the page is printed as :func:`cipherlab.report.printable.print_copy`
    makes it (folds open, no link to another file, the profile in every page's header, ``title_page`` first),
    from a copy beside it so that its images and styles resolve; without, as it is.
    """
    if not page.is_file():
        raise PdfError(f"{page} does not exist: build the book first (make reproduce)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    source = page
    if info is not None:
        source = page.with_name(f"_print_{page.name}")
        source.write_text(printable.print_copy(page.read_text(encoding="utf-8"), page.name, info, title_page),
                          encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory() as user_dir:
            cmd = [exe or chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={user_dir}", f"--print-to-pdf={tmp}",
                   source.resolve().as_uri()]
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    finally:
        if source != page:
            source.unlink(missing_ok=True)
    if proc.returncode != 0 or not tmp.is_file() or tmp.stat().st_size == 0:
        raise PdfError(f"chromium did not print {page.name}: {proc.stderr[-800:]}")
    tmp.replace(out)
    return out


def book_title(profile: str) -> str:
    """The book's title (its ``_config.yml``)."""
    cfg = yaml.safe_load((Profile(profile).book_src / "_config.yml").read_text(encoding="utf-8")) or {}
    return str(cfg.get("title") or "cipherlab")


def title_page(profile: str, page: str, info: dict) -> "str | None":
    """The title page a PDF starts with: the book's before its first page, a paper's before its report."""
    pages = book_pages(profile)
    if page == pages[0]:
        return printable.title_page_html(info, title=book_title(profile),
                                         subtitle="The whole book: what this run found, the verdicts, a referee's "
                                                  "report and a chapter per paper, the methods and the machine.")
    if page.startswith("report_"):
        p = referee.check_paper(page.removeprefix("report_"))
        return printable.title_page_html(info, title=f"Referee's report: paper {p.id}", subtitle=p.subject,
                                         citation=p.citation)
    return None


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
    try:
        info = printable.read_run_info(html)
    except printable.PrintError as exc:
        raise PdfError(str(exc)) from None
    written = []
    with tempfile.TemporaryDirectory() as work:
        pages = []
        for name in book_pages(profile):
            page = html / f"{name}.html"
            if not page.is_file():
                raise PdfError(f"{page.name} is in the table of contents but not in the built book: rebuild the book")
            pages.append(print_page(page, Path(work) / f"{len(pages):03d}-{name}.pdf", exe, info=info,
                                    title_page=title_page(profile, name, info)))
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
