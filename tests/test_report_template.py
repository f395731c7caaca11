"""The referee's report template (cipherlab.report.template) on small synthetic rows: a reference value the paper
quotes is labelled as one, each report lists its own paper's findings (a shared record said so once, in words), and
an attack is stated once, as the first concern, with the rows it refutes referring to it; the paper's own defects
substantive first, the headline table saying where a verdict differs between styles, a variant paper's finding rows
among our own findings, and a reject for a break naming the attack."""
from __future__ import annotations

import pandas as pd

from cipherlab.report import forest, template
from cipherlab.report.referee import Paper

from report_rows import report_bodies as _body, verdict_row as _row

ATTACK = "an encryption oracle for 257 chosen blocks, and no key"


def _claim(cid, verdict, *, tier="headline", concern="", section="s-other", source="", published="22.986 %"):
    return {"claim_id": cid, "paper": cid[:3], "where": "Section 8", "claim": f"quote of {cid}", "kind": "value",
            "rule": "holds", "published": published, "ours": "x", "verdict": verdict, "reason": f"reason of {cid}",
            "tier": tier, "concern": concern, "section": section, "source": source, "quantity": f"quantity of {cid}",
            "reference": "", "outcome": "", "measured": "", "covered_by": ""}


def _finding(cid, concern="", *, holds=True, section="s-finding"):
    return {"claim_id": cid, "paper": cid[:3], "verdict": "finding", "concern": concern, "section": section,
            "outcome": "established" if holds else "statement_false", "ours": "holds" if holds else "does not hold",
            "claim": "", "where": "ours", "reason": f"finding {cid}: {ATTACK}" if concern == "break"
            else f"finding {cid}"}


def _report(paper_id, rows, findings):
    out = template.report_sections(Paper(paper_id, "AES-2SBox", "aes2sbox", ""), pd.DataFrame(rows),
                                   pd.DataFrame(findings))
    return {s.key: s.body for s in out}


def test_a_reference_value_the_paper_quotes_is_labelled_as_one():
    ref = pd.Series(_claim("000-aval", "not reproduced", published="50 %",
                           source="Section 8 (prose)|minimum expected avalanche|reference"))
    own = pd.Series(_claim("000-t5", "reproduced", source="Table 5|speedup|encryption"))
    assert template.published_label(ref) == f"50 %, {template.REFERENCE_LABEL}"
    assert template.published_label(own) == "22.986 %"
    assert template.published_label(pd.Series({**own, "published": "\u2014"})) == "\u2014"
    body = _report("000", [ref, own], [])
    assert f"<td>50 %, {template.REFERENCE_LABEL}</td>" in body["headline"]
    assert "<td>22.986 %</td>" in body["headline"]
    assert f"(50 %, {template.REFERENCE_LABEL})" in body["summary"]


def test_the_figure_draws_a_reference_value_apart_from_the_papers_figures():
    claims = pd.DataFrame({"claim_id": ["000-aval", "000-t5"], "kind": ["value", "ratio"], "unit": ["%", "%"],
                           "published_value": [50.0, 22.986],
                           "source": ["Section 8 (prose)|minimum expected avalanche|reference", "Table 5|x|y"]})
    rows = pd.DataFrame([_claim("000-aval", "not reproduced"), _claim("000-t5", "reproduced")])
    rows = rows.assign(size="", style="", mode="", applied_band="")
    evidence = pd.DataFrame({"claim_id": ["000-aval", "000-t5"], "size": ["", ""], "style": ["", ""],
                             "mode": ["", ""], "estimate": [3.13, 24.0], "low": [3.1, 20.0], "high": [3.2, 28.0]})
    numbers = forest.claim_numbers(rows, claims, evidence)
    assert numbers.set_index("claim_id")["reference"].to_dict() == {"000-aval": True, "000-t5": False}
    fig = forest.forest_figure(numbers, "000")
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert forest.REFERENCE_LEGEND in legend and "published by the paper" in legend


def test_a_report_lists_its_own_findings_and_says_once_whose_a_shared_record_is():
    findings = [_finding("000-sec-attack", "break", section="security-attack"),
                _finding("000-sec-affine", "security"), _finding("000-ext-keys"), _finding("001-ext-keys")]
    rows001 = [_claim("001-weakened", "contradicted", concern="security", section="security-attack"),
               _claim("001-t5", "reproduced")]
    body = _report("001", rows001, findings)
    # the shared break still decides (the same cipher), and is said to be paper 000's record
    assert "Reject" in body["recommendation"]
    assert body["concerns"].count("that paper describes the same cipher") == 1
    assert "(Paper 000's record.)" in body["concerns"]           # the second shared concern: only named
    own, shared = body["findings"].split("Paper 000 describes the same subject as this paper (AES-2SBox)")
    assert "001-ext-keys" in own and "000-" not in own
    assert "000-sec-affine" in shared and "000-ext-keys" not in shared   # a duplicate of 001's own is left out
    # paper 000's report lists none of paper 001's rows
    body = _report("000", [_claim("000-t5", "reproduced")], findings)
    assert "001-" not in "".join(body.values())
    assert "describes the same subject" not in body["findings"]


def test_an_attack_is_stated_once_and_the_rows_it_refutes_refer_to_it():
    findings = [_finding("002-sec-attack", "break", section="security-attack")]
    rows = [_claim("002-keeps-level", "contradicted", concern="security", section="security-attack"),
            _claim("002-no-leak", "contradicted", concern="security", tier="supporting", section="security-attack"),
            _claim("002-reliable", "contradicted", concern="overclaim", section="security-attack"),
            _claim("002-t3", "contradicted", section="speed")]
    concerns = template.concern_rows(pd.DataFrame(rows), pd.DataFrame(findings))
    assert template.fallen_to_break(concerns) == {c: "002-sec-attack"
                                                  for c in ("002-keeps-level", "002-no-leak", "002-reliable")}
    body = _report("002", rows, findings)
    lines = body["concerns"].splitlines()
    assert lines[0].startswith("1. **The cipher is broken.**") and ATTACK in lines[0]
    assert "The same attack refutes 3 statements" in lines[0] and "quote of 002-no-leak" in lines[0]
    assert body["concerns"].count(ATTACK) == 1 and len(lines) == 2 and "002-t3" in lines[1]
    assert "reason of 002-reliable" not in body["overclaims"] and "first main concern" in body["overclaims"]
    assert ATTACK not in body["summary"] and ATTACK not in body["findings"]
    assert "reason of 002-keeps-level" not in body["headline"] and "reason of 002-t3" in body["headline"]
    assert body["headline"].count("The attack stated as the first main concern") == 2
    # without the break, each row states its own reason
    body = _report("002", rows, [])
    assert "reason of 002-keeps-level" in body["concerns"] and "first main concern" not in body["concerns"]


def test_the_recommendation_names_only_the_conditions_that_hold_for_the_paper():
    """The rule is written once; what a report says names the conditions its paper meets: a paper that proposes no
    design (report.proposes_no_design) is never told of a design's security, and its cautions weigh neither way."""
    rules = template.load_rules()
    assert "003" in rules["report"]["proposes_no_design"]
    for entry in rules["report"]["recommendation"][1:]:   # every grade but a break's applies to any paper
        assert "AES" not in entry["says"] and "design" not in entry["says"], entry["grade"]
    rows = [_claim("003-bound", "not testable", concern="method"), _claim("003-t2", "reproduced")]
    caution = [_finding("003-x-64bit-blocks", "security")]
    grade, says, why = template.recommendation(pd.DataFrame(rows), pd.DataFrame(caution), rules)
    assert grade == "major revision" and list(why["claim_id"]) == ["003-bound"]
    assert says.startswith(template.because(["method"], rules) + ": ")
    assert "design" not in says and "AES" not in says and "security" not in says
    body = _report("003", rows, caution)["recommendation"]
    assert "003-x-64bit-blocks" in body and "weigh neither for nor against" in body
    # the same finding on a paper that proposes a design is its design's weakness, and the report says so
    rows = [_claim("000-t2", "reproduced")]
    grade, says, _ = template.recommendation(pd.DataFrame(rows), pd.DataFrame([_finding("000-sec-affine", "security")]))
    assert grade == "major revision" and says.startswith("the design's security fails")
    assert template.recommendation(pd.DataFrame(rows), pd.DataFrame())[:2] == (
        "accept", rules["report"]["recommendation"][-1]["says"])


def test_a_condition_is_named_without_the_parentheses_that_say_how_rows_are_marked():
    rules = {"report": {"condition_text": {"a": "one thing (marked x, e.g. (nested)) holds", "b": "another"}}}
    assert template.because(["a"], rules) == "one thing holds"
    assert template.because(["a", "b"], rules) == "one thing holds and another"


def test_cautions_and_failed_checks_are_listed_with_their_references():
    """Issue 39, section 7: where the paper claims more than its model, the report says so with the reference (short
    GCM tags: SP 800-38D Appendix C), and a wrong statement of the literature (EAX is CTR + OMAC) is named with its
    source: a caution on a claim row in the overclaims section, a failed supporting check with its reference."""
    bound = {**_claim("003-bound-2-128", "reproduced", tier="supporting", concern="caution"),
             "reference": "NIST SP 800-38D, Appendix C: GCM's forgery bound grows with the message length"}
    eax = {**_claim("003-eax-ecbc", "contradicted", tier="supporting"),
           "reference": "Bellare, Rogaway and Wagner (FSE 2004): EAX = CTR + OMAC"}
    body = _report("003", [bound, eax, _claim("003-t2", "reproduced")],
                   [{**_finding("003-x-64bit", "security"), "reference": "Sweet32 (CCS 2016): 2^32 blocks"}])
    assert "Cautions on the paper's security sentences" in body["overclaims"]
    assert "SP 800-38D, Appendix C" in body["overclaims"] and "003-bound-2-128" in body["overclaims"]
    assert "EAX = CTR + OMAC" in body["supporting"]
    assert "Sweet32 (CCS 2016)" in body["findings"]
    # a paper with no caution gets no such list
    assert "Cautions" not in _report("003", [eax], [])["overclaims"]


# -- the defects, the headline table, our own findings and the recommendation, on verdict rows -------------



def test_the_papers_own_defects_come_substantive_first_headline_and_contradicted_before_the_rest():
    rows = [_row("000-typo", "not reproduced", tier="supporting", concern="defect"),
            _row("000-minor", "contradicted", tier="supporting", concern="defect"),
            _row("000-big", "contradicted", tier="headline", concern="defect")]
    body = _body("000", rows)
    order = [body["defects"].index(c) for c in ("000-big", "000-minor", "000-typo")]
    assert order == sorted(order)
    kinds = [(k, r["claim_id"]) for k, r in template.concern_rows(pd.DataFrame(rows))]
    assert kinds == [("contradicted", "000-big"), ("defect", "000-minor"), ("defect", "000-typo")]


def test_the_headline_table_says_where_a_speed_verdict_differs_between_implementation_styles():
    row = {**_row("000-t3", "reproduced"), "style": "reference",
           "other": "style=table, table: -0.06 % [-0.89, 0.61] \u2192 contradicted; "
                    "style=aesni, aesni: -88.9 % [-89, -88.7] \u2192 contradicted; size=1 MB: 3 % \u2192 reproduced"}
    same = {**row, "other": "style=table, table: 20 % [18, 22] \u2192 reproduced"}
    body = _body("000", [row, {**same, "claim_id": "000-t4"}])["headline"]
    assert ("reproduced in the reference style; contradicted in the table style (-0.06 % [-0.89, 0.61]) and in the "
            "aesni style (-88.9 % [-89, -88.7])") in body
    assert body.count("cl-style-dependence") == 1


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
