"""`make pdf` on the quick book: each referee's report and the whole book as PDF (headless Chromium
prints the built HTML; poppler-utils joins and reads it).  Each report has at least 2 pages, its
text is extractable (its title, summary and recommendation), its figure is in it as an image, and
no page carries the browser's header or footer (the file:// URL, the date).  Each PDF opens on a
title page with the fields an editor checks (paper, version, commit, build, profile, machine,
dates); no link points to a file of the machine that printed it; folds print open; every page's
header names the profile, and on a picture of the pages (pdftoppm) the quick profile's header is red.

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
from pipeline_tree import copy_tree

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
def pdf_tree(quick_tree, tmp_path_factory):
    """A copy of the run's quick tree (the shared one never changes) in which the pipeline's `pdf` target
    (what `make pdf QUICK=1` runs) has built the quick book's PDFs."""
    _need("chromium", "chromium")
    _need("pdfunite", "poppler-utils")
    tree = copy_tree(quick_tree, tmp_path_factory.mktemp("pdf") / "tree")
    tree.snakemake("--cores", "1", "pdf")
    return tree


@pytest.fixture(scope="module")
def pdfs(pdf_tree):
    """The folder of the quick book's PDFs."""
    return pdf_tree.at(paths.Profile("quick").build / "pdf")


def pdfinfo(path) -> dict[str, str]:
    text = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


def pdftext(path, first: "int | None" = None, last: "int | None" = None) -> str:
    pages = [*(("-f", str(first)) if first else ()), *(("-l", str(last)) if last else ())]
    return subprocess.run(["pdftotext", "-layout", *pages, str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


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
    for needle in (f"Referee.s report: paper {paper}", "Summary", "The headline claims", "Recommendation"):
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


def test_the_book_links_the_pdfs(pdfs, pdf_tree):
    html = pdf_tree.at(paths.Profile("quick").html)
    for name in [f"report-{p}.pdf" for p in PAPERS] + ["cipherlab-book.pdf"]:
        assert (html / "pdf" / name).is_file(), f"{name} is not beside the HTML book, where its button links"
    script = (html / "_static" / "cipherlab.js").read_text(encoding="utf-8")
    assert "btn-download-pdf-button" in script and "pdf/report-" in script


# --- a PDF an editor can use (issue 37) -----------------------------------------------------------

def run_info(tree) -> dict:
    import json
    return json.loads(tree.at(paths.Profile("quick").html / "run.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", [f"report-{p}" for p in PAPERS] + ["cipherlab-book"])
def test_each_pdf_opens_on_a_title_page_naming_the_run(pdfs, pdf_tree, name):
    info = run_info(pdf_tree)
    first = flat(pdftext(pdfs / f"{name}.pdf", 1, 1))
    title = f"Referee.s report: paper {name[-3:]}" if name.startswith("report-") else "cipherlab: checking"
    assert re.search(title, first), f"{name}: page 1 is not its title page: {first[:300]}"
    for field in ("quick", info["config"], f"version {info['cipherlab_version']}", info["git_commit"],
                  info["build_id"], info["built_utc"], *info["measurement_runs"][:1]):
        assert field in first, f"{name}: the title page lacks {field!r}"
    assert info["machines"] and info["machines"][0].split(",")[0] in first, f"{name}: the title page names no machine"
    assert re.search(r"printed \d{4}-\d\d-\d\d \d\d:\d\d UTC", first), f"{name}: no print date"
    assert "QUICK PROFILE" in first and "not the papers" in first, f"{name}: page 1 does not say it is the quick profile"


def test_no_pdf_links_a_file_of_the_machine_that_printed_it(pdfs):
    for pdf in sorted(pdfs.glob("*.pdf")):
        urls = subprocess.run(["pdfinfo", "-url", str(pdf)], capture_output=True, text=True, check=True).stdout
        links = [line.split()[-1] for line in urls.splitlines()[1:] if line.strip()]
        local = [u for u in links if not u.startswith(("http://", "https://", "mailto:"))]
        assert not local, f"{pdf.name} links files of this machine: {local[:5]}"


def test_every_page_names_the_profile_in_its_header(pdfs):
    for name in ("report-002", "cipherlab-book"):
        pdf = pdfs / f"{name}.pdf"
        pages = int(pdfinfo(pdf)["Pages"].strip())
        assert flat(pdftext(pdf)).count("QUICK PROFILE") >= pages, f"{name}: a page without the profile's header"


def test_folds_print_open(pdfs, pdf_tree):
    """The content of the book's folds ("The full table") is in the book PDF, not only their captions."""
    html = pdf_tree.at(paths.Profile("quick").html)
    text = flat(pdftext(pdfs / "cipherlab-book.pdf"))
    checked = []
    for page in sorted(html.glob("*.html")):
        source = page.read_text(encoding="utf-8")
        outside = re.sub(r"<details\b.*?</details>", " ", source, flags=re.S)   # what prints without the folds
        # the book's own folds (a table's "The full table"), not the theme's folded code cells, which print hidden
        for fold in re.findall(r"<details(?: open)?>.*?</summary>(.*?)</details>", source, flags=re.S)[:2]:
            cells = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", c)).strip()
                     for c in re.findall(r"<td\b[^>]*>(.*?)</td>", fold, flags=re.S)]
            # a number (right-aligned, never wrapped across lines) that only the fold shows
            cell = next((c for c in cells if len(c) >= 5 and re.fullmatch(r"[0-9.e+−-]+", c) and c not in outside),
                        None)
            if cell:
                checked.append((page.name, cell))
    assert len(checked) >= 3, f"too few folded tables to check: {checked}"
    missing = [(page, cell) for page, cell in checked if cell not in text.replace(" ", "")]
    assert not missing, f"folded content missing from the PDF (printed closed?): {missing[:5]}"


def test_the_pages_as_pictures(pdfs, tmp_path):
    """pdftoppm renders a report's first pages: the title page is not blank, and the top of every page
    carries the quick profile's red header."""
    import numpy as np
    from PIL import Image
    pdf = pdfs / "report-002.pdf"
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "3", str(pdf), str(tmp_path / "p")], check=True)
    shots = sorted(tmp_path.glob("p-*.png"))
    assert len(shots) == 3
    for shot in shots:
        px = np.asarray(Image.open(shot).convert("RGB")).astype(int)
        r, g, b = px[..., 0], px[..., 1], px[..., 2]
        reddish = (r > g + 60) & (r > b + 40)             # the header's red, anti-aliased at 40 dpi
        top = int(px.shape[0] * 0.06)
        assert reddish[:top].sum() > 20, f"{shot.name}: no red profile header at the top of the page"
        assert ((r + g + b) < 450).sum() > 1500, f"{shot.name}: the page is (nearly) blank"
