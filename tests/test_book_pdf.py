"""`make pdf` on the quick book: each referee's report and the whole book as PDF (headless Chromium
prints the built HTML; poppler-utils joins and reads it).  Each report has at least 2 pages, its
text is extractable (its title, summary and recommendation), its figure is in it as an image, and
no page carries the browser's header or footer (the file:// URL, the date).

Without Chromium or poppler-utils these tests are skipped, except under CI (``CI`` set), where
they fail: ``.ci/run`` installs both.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from cipherlab.pipeline import paths

pytestmark = pytest.mark.browser

PAPERS = ("000", "001", "002", "003")


def _need(tool: str, package: str) -> str:
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is not installed (apt-get install -y {package})"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must have it (.ci/run installs it)", pytrace=False)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def pdfs(quick_tree):
    """The quick book's PDFs, built by the pipeline's `pdf` target (what `make pdf QUICK=1` runs)."""
    _need("chromium", "chromium")
    _need("pdfunite", "poppler-utils")
    quick_tree.snakemake("--cores", "1", "pdf")
    out = quick_tree.at(paths.Profile("quick").build / "pdf")
    return out


def pdfinfo(path) -> dict[str, str]:
    text = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


def pdftext(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def images(path) -> list[str]:
    """The colour images of at least 400 px width in the PDF (the figures; not the grey shadows a theme may leave)."""
    out = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    figures = []
    for line in out.splitlines()[2:]:
        cols = line.split()
        if len(cols) > 5 and int(cols[3]) >= 400 and cols[5] != "gray":
            figures.append(line)
    return figures


@pytest.mark.parametrize("paper", PAPERS)
def test_each_report_pdf_has_pages_text_and_its_figure(pdfs, paper):
    pdf = pdfs / f"report-{paper}.pdf"
    assert pdf.is_file() and pdf.stat().st_size > 20_000, f"{pdf.name} missing or empty"
    pages = int(pdfinfo(pdf)["Pages"].strip())
    assert pages >= 2, f"{pdf.name} has {pages} page(s)"
    text = pdftext(pdf)
    flat = re.sub(r"\s+", " ", text)
    for needle in (f"Referee.s report: paper {paper}", "Summary", "Results per headline claim", "Recommendation"):
        assert re.search(needle, flat), f"{pdf.name}: no extractable text {needle!r}"
    assert images(pdf), f"{pdf.name} holds no image: its figure is missing"
    # no browser header or footer: they print the page's URL and the date on every page
    assert "file://" not in text and not re.search(r"\b\d{1,2}/\d{1,2}/\d{2,4},", text)


def test_the_book_pdf_holds_every_page(pdfs):
    book = pdfs / "cipherlab-book.pdf"
    assert book.is_file()
    pages = int(pdfinfo(book)["Pages"].strip())
    reports = sum(int(pdfinfo(pdfs / f"report-{p}.pdf")["Pages"].strip()) for p in PAPERS)
    assert pages > reports
    flat = re.sub(r"\s+", " ", pdftext(book))
    for needle in ("What this run found", "Verdicts", "Referee.s report: paper 003", "References"):
        assert re.search(needle, flat), f"the book PDF lacks {needle!r}"
    assert len(images(book)) >= len(PAPERS)


def test_the_book_links_the_pdfs(pdfs, quick_tree):
    html = quick_tree.at(paths.Profile("quick").html)
    for name in [f"report-{p}.pdf" for p in PAPERS] + ["cipherlab-book.pdf"]:
        assert (html / "pdf" / name).is_file(), f"{name} is not beside the HTML book, where its button links"
    script = (html / "_static" / "cipherlab.js").read_text(encoding="utf-8")
    assert "btn-download-pdf-button" in script and "pdf/report-" in script
