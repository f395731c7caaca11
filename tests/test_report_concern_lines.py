"""The main concerns of a report (cipherlab.report.concern_lines, through the template): every concern is listed,
each one line with the claim in plain words and the number that decided it, most important first; machine-bound
sizes said apart, never the paper's error; a caution on the paper's own claim never filed as one about a design it
compares."""
from __future__ import annotations

import pandas as pd

from cipherlab.report import concern_lines

from report_rows import report_bodies as _body, verdict_row as _row




def test_every_concern_is_listed_each_as_one_line_with_its_deciding_number_not_its_reason():
    rows = [_row(f"000-c{i:02d}", "contradicted") for i in range(14)]
    body = _body("000", rows)["concerns"]
    lines = body.splitlines()
    assert len(lines) == 14 and "more of these kinds" not in body
    assert lines[0] == ("1. **A headline claim is contradicted.** The quantity of 000-c00: 12 % &#91;10, 14&#93; "
                        "here against the paper's 50 %. [000-c00](verdicts.html#claim-000-c00)")
    assert "long machine reason" not in body


def test_a_statement_is_decided_in_a_concern_line_by_the_leading_clauses_of_its_evidence():
    row = _row("000-t4", "contradicted", concern="defect", tier="supporting", kind="structural",
               ours="does not hold", published="\u2014",
               detail="Table 4 prints the means 195 and 92.95 ms (decryption); not its encryption means")
    line = concern_lines.concern_line("defect", pd.Series(row), {})
    assert line.startswith("**The paper disagrees with itself.** The quantity of 000-t4: Table 4 prints the means "
                           "195 and 92.95 ms (decryption); not its encryption means. [000-t4]")


def test_a_concern_line_keeps_the_arithmetic_and_drops_long_asides():
    """A short parenthesis is part of the figure (a referee read "9 x = 0.27 us" with its operands gone); a long one
    is an aside for the verdict page; clauses beyond the line's length are cut, never the first one's figure."""
    detail = ("encryption, approach 1: 9 x (0.06 - 0.03) = 0.27 us saved against a 43 us gap "
              "(Table II's MixColumns and XOR rows over the nine middle rounds of one block); "
              "encryption, approach 2: 9 x (0.06 - 0.03) = 0.27 us saved against a 44 us gap; "
              "decryption, approach 1: 9 x (2.36 - 0.04) = 20.88 us saved against a 222 us gap")
    got = concern_lines.deciding(pd.Series(_row("002-t2", "contradicted", kind="structural", ours="does not hold",
                                                published="\u2014", detail=detail)))
    assert got.startswith("encryption, approach 1: 9 x (0.06 - 0.03) = 0.27 us saved against a 43 us gap; "
                          "encryption, approach 2: 9 x (0.06 - 0.03) = 0.27 us")
    assert "nine middle rounds" not in got and "20.88" not in got and len(got) <= concern_lines.CLAUSE_MAX


def test_machine_bound_rows_are_counted_apart_from_the_decided_and_listed_largest_difference_first():
    rows = [_row("003-a", "reproduced"),
            _row("003-small", "machine-bound", ours="160 % [150, 170]", published="150 %", outcome="differs_here"),
            _row("003-big", "machine-bound", ours="270 % [262, 279]", published="150 %", outcome="differs_here"),
            _row("003-agree", "machine-bound", ours="600 %", published="604 %", outcome="agrees_here")]
    body = _body("003", rows)
    assert "1 could be tested and decided here; 3 are machine-bound" in body["recommendation"]
    line = [x for x in body["concerns"].splitlines() if "not the paper's error" in x]
    assert len(line) == 1 and line[0].index("003-big") < line[0].index("003-small") and "003-agree" not in line[0]
    assert "270 % &#91;262, 279&#93; here against 150 % printed" in line[0]
    many = [_row(f"003-m{i}", "machine-bound", ours=f"{200 + i} %", published="150 %", outcome="differs_here")
            for i in range(6)]
    line = [x for x in _body("003", many)["concerns"].splitlines() if "not the paper's error" in x][0]
    assert all(f"003-m{i}" in line for i in range(6)) and "more" not in line   # every one, none cut off


def test_a_caution_on_the_papers_own_claim_is_not_filed_as_one_about_a_design_it_compares():
    rows = [_row("003-eq1", "reproduced", tier="supporting", concern="caution", kind="structural", ours="holds",
                 published="\u2014", detail="the right tag verifies at every tag length")]
    finding = {**_row("003-x-64bit", "finding", tier="supporting", concern="security", kind="structural",
                      ours="64 bits", published="\u2014", detail="Blowfish 64 bits"), "outcome": "established"}
    body = _body("003", rows, [finding])
    lines = body["concerns"].splitlines()
    compared = [x for x in lines if "a design the paper compares" in x]
    own = [x for x in lines if "the paper's own claim" in x]
    assert len(compared) == 1 and "003-x-64bit" in compared[0]
    assert len(own) == 1 and "003-eq1" in own[0]
    rec = body["recommendation"]
    assert rec.index("designs the paper compares") < rec.index("003-x-64bit") < rec.index("the paper's own claims")
    assert rec.index("the paper's own claims") < rec.index("003-eq1")


def test_a_defect_line_never_calls_the_papers_own_number_ours():
    """A defect sets the paper against itself: the number in its line is the paper's, never "here"."""
    row = _row("000-own", "not reproduced", concern="defect", tier="supporting", kind="value", ours="19.5 %",
               published="50 %", detail="Table 6 prints 19.531 % for pair 2")
    got = concern_lines.deciding(pd.Series(row))
    assert got == "Table 6 prints 19.531 % for pair 2" and "here" not in got


def test_a_concern_with_no_quantity_has_no_empty_label():
    row = {**_row("x-finding", "finding", concern="ineffective", tier="", kind="structural", ours="holds",
                  published="", detail="the modification adds nothing to the round function"),
           "quantity": "", "claim": ""}
    line = concern_lines.concern_line("ineffective", pd.Series(row), {})
    assert line.startswith("**The modification is ineffective.** The modification adds nothing") and " : " not in line
