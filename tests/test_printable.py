"""A built page made ready to print (cipherlab.report.printable): folds open, no link to another file of
the book, the profile in every page's header, a title page with the fields an editor checks first."""
from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from cipherlab.report import printable

INFO = {"profile": "quick", "config": "config/quick.yaml", "cipherlab_version": "0.1.0",
        "git_commit": "0123456789abcdef0123456789abcdef01234567+dirty", "build_id": "20261127T101500Z-ab12",
        "built_utc": "2026-11-27 10:15 UTC", "measurement_runs": ["20261127T100000Z-0001", "20261127T100500Z-0002"],
        "machines": ["AMD EPYC 9R14 (test), 2 logical cores, 23.4 GiB, host vm"]}

PAGE = """<!DOCTYPE html><html><head><title>Referee's report: paper 002 (MAES) &#8212; cipherlab: checking</title>
</head><body data-x="1"><article class="bd-article">
<p><a class="reference internal" href="verdicts.html#claim-002-t1-x">002-t1-x</a>
<a href='maes.html'>the chapter</a> <a href="#summary">summary</a> <a href="report_002.html#scope">scope</a>
<a href="https://doi.org/10.6028/NIST.FIPS.197-upd1">FIPS 197</a> <a href="mailto:x@example.org">mail</a>
<a href="_images/fig.png"><img src="_images/fig.png"></a></p>
<details><summary>The full table (12 columns)</summary><table><tr><td>inside</td></tr></table></details>
<details open><summary>already open</summary></details>
</article></body></html>"""


def test_links_to_other_files_keep_their_text_only():
    out = printable.unlink_local(PAGE, "report_002.html")
    hrefs = re.findall(r'href="([^"]*)"|href=\'([^\']*)\'', out)
    kept = sorted(a or b for a, b in hrefs)
    assert kept == ["#scope", "#summary", "https://doi.org/10.6028/NIST.FIPS.197-upd1", "mailto:x@example.org"]
    assert '<a class="cl-xref reference internal">002-t1-x</a>' in out          # the claim id stays, as text
    assert '<a class="cl-xref">the chapter</a>' in out
    assert '<img src="_images/fig.png">' in out                                # images are not links


def test_every_fold_prints_open():
    out = printable.open_folds(PAGE)
    assert out.count("<details open") == 2 and "<details>" not in out


def test_print_copy_has_the_page_style_and_the_title_page_first():
    title = printable.title_page_html(INFO, title="Referee's report: paper 002", subtitle="MAES", citation="cite")
    out = printable.print_copy(PAGE, "report_002.html", INFO, title)
    assert out.index("@page") < out.index("</head>")
    assert printable.QUICK_HEADER in out and "0123456789ab" in out           # the profile and the commit, every page
    assert '"Referee\'s report: paper 002 (MAES)"' in out                      # the footer names the page
    assert 'counter(page) " of " counter(pages)' in out
    assert re.search(r'<body data-x="1"><section class="cl-title-page">', out)
    assert "file://" not in out and 'href="maes.html"' not in out
    with pytest.raises(printable.PrintError, match="not a page of the built book"):
        printable.print_copy("<p>no page</p>", "x.html", INFO)


def test_the_full_profile_header_names_the_build_not_a_warning():
    style = printable.page_style(dict(INFO, profile="full"), "Verdicts")
    assert "full profile" in style and INFO["build_id"] in style and "QUICK" not in style


def test_the_title_page_holds_the_fields_an_editor_checks():
    printed = dt.datetime(2026, 11, 27, 11, 0, tzinfo=dt.timezone.utc)
    page = printable.title_page_html(INFO, title="Referee's report: paper 002", subtitle="MAES",
                                     citation='"MAES", a modified AES', printed=printed)
    text = re.sub(r"<[^>]+>", " ", page)
    for needle in ("Referee&#x27;s report: paper 002", "MAES", "quick", "config/quick.yaml", "version 0.1.0",
                   INFO["git_commit"], INFO["build_id"], "2026-11-27 10:15 UTC", INFO["measurement_runs"][0],
                   "AMD EPYC 9R14 (test)", "2026-11-27 11:00 UTC", "not the papers"):
        assert needle in text, needle
    full = printable.title_page_html(dict(INFO, profile="full", measurement_runs=[], machines=[]), title="t")
    assert "not the papers" not in full and "none were present" in full and "not recorded" in full


def test_run_info_is_read_from_the_built_book(tmp_path):
    with pytest.raises(printable.PrintError, match="rebuild the book"):
        printable.read_run_info(tmp_path)
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(printable.PrintError, match="not JSON"):
        printable.read_run_info(tmp_path)
    (tmp_path / "run.json").write_text(json.dumps({"profile": "quick"}), encoding="utf-8")
    with pytest.raises(printable.PrintError, match="lacks"):
        printable.read_run_info(tmp_path)
    (tmp_path / "run.json").write_text(json.dumps(INFO), encoding="utf-8")
    assert printable.read_run_info(tmp_path) == INFO


def test_page_title_drops_the_book_name():
    assert printable.page_title(PAGE) == "Referee's report: paper 002 (MAES)"
    assert printable.page_title("<html></html>") == "cipherlab"


def test_short_tables_stay_whole_and_long_ones_may_break():
    short = "<table class='x'><tr><td>a</td></tr><tr><td>b</td></tr></table>"
    long_rows = "<table>" + "<tr><td>r</td></tr>" * (printable.KEEP_ROWS + 1) + "</table>"
    long_text = "<table><tr><td>" + "word " * printable.KEEP_CHARS + "</td></tr></table>"
    out = printable.keep_short_tables(short + long_rows + long_text)
    assert out.count("data-print-keep") == 1 and out.startswith("<table data-print-keep class='x'>")
    assert printable.keep_short_tables(out) == out
