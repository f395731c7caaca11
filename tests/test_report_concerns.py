"""The main concerns of a report (cipherlab.report.concern_lines, through the template): every concern is listed,
each one line with the claim in plain words and the number that decided it, most important first; the paper's own
defects substantive first; machine-bound sizes said apart, never the paper's error; a caution on the paper's own
claim never filed as one about a design it compares."""
from __future__ import annotations

import pandas as pd

from cipherlab.report import concern_lines, template
from cipherlab.report.referee import Paper


def _row(cid, verdict, *, tier="headline", concern="", kind="ratio", ours="12 % [10, 14]", published="50 %",
         detail="", outcome=""):
    return {"claim_id": cid, "paper": cid[:3], "where": "Sec. 1", "claim": f"quote of {cid}", "kind": kind,
            "rule": "holds", "published": published, "ours": ours, "verdict": verdict,
            "reason": f"a long machine reason of {cid}, with every clause the engine wrote", "tier": tier,
            "concern": concern, "section": "s", "quantity": f"the quantity of {cid}", "reference": "",
            "outcome": outcome, "measured": "", "covered_by": "", "detail": detail}


def _body(paper, rows, findings=None):
    out = template.report_sections(Paper(paper, "subject", "aes2sbox", ""), pd.DataFrame(rows),
                                   pd.DataFrame(findings) if findings is not None else None)
    return {s.key: s.body for s in out}


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


def test_the_papers_own_defects_come_substantive_first_headline_and_contradicted_before_the_rest():
    rows = [_row("000-typo", "not reproduced", tier="supporting", concern="defect"),
            _row("000-minor", "contradicted", tier="supporting", concern="defect"),
            _row("000-big", "contradicted", tier="headline", concern="defect")]
    body = _body("000", rows)
    order = [body["defects"].index(c) for c in ("000-big", "000-minor", "000-typo")]
    assert order == sorted(order)
    kinds = [(k, r["claim_id"]) for k, r in template.concern_rows(pd.DataFrame(rows))]
    assert kinds == [("contradicted", "000-big"), ("defect", "000-minor"), ("defect", "000-typo")]


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


def test_the_headline_table_says_where_a_speed_verdict_differs_between_implementation_styles():
    row = {**_row("000-t3", "reproduced"), "style": "reference",
           "other": "style=table, table: -0.06 % [-0.89, 0.61] \u2192 contradicted; "
                    "style=aesni, aesni: -88.9 % [-89, -88.7] \u2192 contradicted; size=1 MB: 3 % \u2192 reproduced"}
    same = {**row, "other": "style=table, table: 20 % [18, 22] \u2192 reproduced"}
    body = _body("000", [row, {**same, "claim_id": "000-t4"}])["headline"]
    assert ("reproduced in the reference style; contradicted in the table style (-0.06 % [-0.89, 0.61]) and in the "
            "aesni style (-88.9 % [-89, -88.7])") in body
    assert body.count("cl-style-dependence") == 1


def test_the_section_across_machines_names_the_machines_and_the_papers_own_apart():
    rows = [{**_row("000-t5", "reproduced"), "portability": "portable: the same verdict on all 2 machines"}]
    protocol = pd.DataFrame({"aspect": ["machine"], "paper": ["Intel Core i3-4010U at 1.70 GHz (Section 6.2)"],
                             "ours": ["an EPYC"]})
    out = template.report_sections(Paper("000", "s", "aes2sbox", ""), pd.DataFrame(rows), protocol=protocol,
                                   machines=("AMD EPYC 9454P", "AMD EPYC 9B45"))
    text = {s.key: s.body for s in out}["machines"]
    assert ("The machines compared (this run's and the shipped runs') are AMD EPYC 9454P; AMD EPYC 9B45: a verdict "
            "that agrees on all of them says nothing about the paper's own (Intel Core i3-4010U at 1.70 GHz "
            "(Section 6.2))") in text
    unstated = protocol.assign(paper="not stated")
    out = template.report_sections(Paper("001", "s", "aes2sbox", ""), pd.DataFrame(rows).assign(claim_id="001-t5",
                                   paper="001"), protocol=unstated)
    assert "the paper's own, which it does not state" in {s.key: s.body for s in out}["machines"]


def test_a_finding_among_the_papers_own_rows_is_listed_in_our_own_findings():
    """A variant's claims file records its extensions (verdict finding) beside its claims: the report lists them
    under our own findings, once, beside the battery's findings, never 'None bearing on this paper'."""
    scaling = {**_row("abk-time-scaling", "finding", tier="supporting", kind="structural", ours="holds"),
               "paper": "abk", "reason": "The printed times grow by a constant step per block: it holds.",
               "outcome": "established"}
    rows = [_row("abk-avalanche", "not testable", kind="value"), scaling]
    battery = pd.DataFrame([{"claim_id": "variant_abk", "concern": "ineffective", "outcome": "established",
                             "ours": "holds", "verdict": "finding", "reason": "As strong as AES."}])
    body = {s.key: s.body for s in template.report_sections(Paper("abk", "s", "variant_abk", ""),
                                                            pd.DataFrame(rows), battery)}
    assert "None bearing" not in body["findings"]
    assert body["findings"].count("[abk-time-scaling]") == 1 and "variant_abk" in body["findings"]
    alone = {s.key: s.body for s in template.report_sections(Paper("abk", "s", "variant_abk", ""),
                                                             pd.DataFrame(rows))}
    assert "The printed times grow by a constant step per block" in alone["findings"]


def test_a_reject_for_a_break_names_the_attack_and_its_attacker_model_and_the_rule_says_so():
    attack = {"claim_id": "000-sec-codebook", "paper": "000", "verdict": "finding", "concern": "break",
              "outcome": "established", "ours": "holds", "claim": "our experiment", "where": "ours",
              "quantity": "whether an attacker with an encryption oracle for 257 chosen blocks and no key reads X",
              "reason": "A codebook attack: it holds."}
    body = _body("000", [_row("000-t5", "reproduced")], [attack])
    assert body["recommendation"].startswith("**Reject.**")
    assert ("The attack: an attacker with an encryption oracle for 257 chosen blocks and no key reads X."
            in body["recommendation"])
    weak = {**attack, "concern": "security"}
    assert "The attack:" not in _body("000", [_row("000-t5", "reproduced")], [weak])["recommendation"]
    rule = template.recommendation_rule_markdown()
    assert "names the attack and its attacker model" in rule and "never the paper's error" in rule
    assert "headline claims before supporting checks" in rule


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
