"""The referee's reports, the verdict page and their shared counting (cipherlab.report.referee,
.verdict_page, .tiers, .forest) on small synthetic verdict rows: tiers counted apart, every verdict
told by a word and a mark, the applied band, stable anchors, the filter's attributes, the
recommendation worded as the verdicts support, and the forest plot's numbers."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from cipherlab.analysis.claims import claim_anchor
from cipherlab.present import verdict_table
from cipherlab.report import forest, referee, template, tiers, verdict_page
from cipherlab.report.book import chapter_toc, page_titles, retitle, toc_pages


def rows(spec, paper="000") -> pd.DataFrame:
    """``spec``: (claim suffix, verdict, tier) triples."""
    out = []
    for i, (name, verdict, tier) in enumerate(spec):
        out.append({"claim_id": f"{paper}-{name}", "paper": paper, "where": f"Table {i + 1}", "claim": "a quote",
                    "kind": "ratio", "rule": "within_margin (±25%)", "published": "22.986 %",
                    "ours": "5.2 % [1.1, 9.3]" if verdict != "not testable" else "—",
                    "control": "[-2.1, 1.78]" if verdict != "not testable" else "—",
                    "n": "20", "processes": "2", "size": "2048 B", "style": "table", "mode": "", "profile": "quick",
                    "verdict": verdict, "reason": f"reason {i}", "chapter": "aes2sbox", "section": f"aes2sbox-s{i}",
                    "other": "", "tier": tier, "condition": "", "covered_by": "000-other" if verdict == "covered" else "",
                    "reading": ""})
    return pd.DataFrame(out)


MIXED = rows([("t5-enc", "contradicted", "headline"), ("t5-dec", "reproduced", "headline"),
              ("t1-cells", "reproduced", "supporting"), ("t6-count", "reproduced", "supporting"),
              ("t3-p", "inconclusive", ""), ("dup", "covered", "supporting"),
              ("far", "not at condition", "headline")])


def test_counts_never_mix_the_tiers():
    table = tiers.tier_counts(MIXED)
    assert list(table.index) == ["headline", "supporting", "untiered"]
    assert table.loc["headline", "total"] == 3 and table.loc["supporting", "total"] == 3
    assert table.loc["supporting", "reproduced"] == 2 and table.loc["untiered", "inconclusive"] == 1
    text = tiers.tier_sentence(MIXED)
    assert text.startswith("Headline claims (3): 1 reproduced, 1 contradicted, 1 not at condition.")
    assert "Supporting checks (3): 2 reproduced, 1 covered." in text and "Untiered claims (1)" in text
    with pytest.raises(ValueError, match="unknown verdict"):
        tiers.tier_counts(rows([("x", "refuted", "")]))
    with pytest.raises(ValueError, match="tier must be"):
        tiers.tier_of("central")


def test_engine_verdicts_are_shown_in_words():
    labels = {r["verdict"]: tiers.verdict_label(r) for _, r in MIXED.iterrows()}
    assert labels["covered"] == "covered by 000-other"
    assert labels["not at condition"] == "not at the paper's condition"
    for v in (*tiers.ALL_VERDICTS, "finding"):
        bg, fg, mark, marker = verdict_table.MARKS[v]
        assert mark and marker and bg.startswith("#")
    markers = [m[3] for m in verdict_table.MARKS.values()]
    assert len(set(markers)) == len(markers), "two verdicts share a marker shape"


def test_the_band_applied_is_the_engines():
    r = MIXED.iloc[0].to_dict()
    assert tiers.applied_band(r | {"applied_band": "-3 .. 3"}) == (-3.0, 3.0)
    assert tiers.applied_band(r | {"applied_band": "782 .. 836"}) == (782.0, 836.0)   # around a non-zero null
    assert tiers.applied_band(r | {"applied_band": ""}) is None
    assert tiers.band_text(r | {"applied_band": "-3 .. 3", "ours": "+5 % [4, 6]", "control": "[-2.1, 1.78]"}) \
        == "-3 .. +3 % (A/A [-2.1, 1.78])"
    assert tiers.band_text(r | {"applied_band": ""}) == ""


def test_verdict_rows_have_anchors_filters_words_and_evidence_links():
    page = verdict_page.rows_html(MIXED.assign(applied_band="-3 .. 3"))
    ids = re.findall(r'<tr id="([^"]+)"', page)
    assert ids == [f"claim-{c}" for c in MIXED["claim_id"]]
    assert len(re.findall(r'data-paper="000" data-tier="(?:headline|supporting|untiered)" data-verdict=', page)) == 7
    assert "✗</span> contradicted" in page and "covered by 000-other" in page
    assert "noise band applied -3 .. +3 % (A/A [-2.1, 1.78])" in page
    assert 'href="aes2sbox.html#aes2sbox-s0"' in page
    form = verdict_page.filter_html(MIXED)
    for name in ("paper", "tier", "verdict"):
        assert f'data-filter="{name}"' in form
    assert '<option value="not at condition">' in form and "7 rows" in form
    assert claim_anchor("002-t3-enc-half") == "claim-002-t3-enc-half"
    counts = verdict_page.counts_html(MIXED)
    assert "headline claims" in counts and "supporting checks" in counts


def test_the_verdict_page_and_the_chapters_draw_a_row_with_the_same_renderer_and_the_same_notes():
    notes = {k: f"the {k} of this row" for k, _ in verdict_table.NOTES}
    row = MIXED.iloc[[0]].assign(misprint="printed BE, read as BF", **{k: v for k, v in notes.items()
                                                                      if k != "misprint"})
    page, chapter = verdict_page.rows_html(row), verdict_table.verdict_html(row)
    for k, words in verdict_table.NOTES:
        value = "printed BE, read as BF" if k == "misprint" else notes[k]
        assert f"{words}: {value}" in page and f"{words}: {value}" in chapter, k
    for html_ in (page, chapter):
        assert "✗</span> contradicted" in html_ and 'href="aes2sbox.html#aes2sbox-s0">evidence</a>' in html_
    # the page's form: its own link target and filter attributes; a chapter links the claim to the page's row
    assert '<tr id="claim-000-t5-enc" data-paper="000" data-tier="headline"' in page and "<tr id=" not in chapter
    assert 'href="verdicts.html#claim-000-t5-enc"' in chapter
    # without a band applied, the A/A control is shown as such; the page shows the band the rule applied instead
    assert "A/A control [-2.1, 1.78]" in verdict_page.rows_html(row.assign(applied_band="")) \
        and "A/A control [-2.1, 1.78]" in chapter
    assert "noise band applied -3 .. +3 % (A/A [-2.1, 1.78])" in verdict_page.rows_html(row.assign(applied_band="-3 .. 3"))


def _template_rows(spec, paper="000"):
    """``spec``: (suffix, verdict, tier, concern) rows with the registry's columns the template reads."""
    out = rows([(n, v, t) for n, v, t, _ in spec], paper)
    return out.assign(concern=[c for *_, c in spec], quantity=[f"the quantity of {n}" for n, *_ in spec],
                      reference=["NIST SP 800-38D, Appendix C" if c == "overclaim" else "" for *_, c in spec],
                      outcome=["", ] * len(spec), shown="", measured="2048 B, table style")


BREAK = pd.DataFrame([{"claim_id": "000-sec-codebook-attack", "paper": "000", "verdict": "finding", "concern": "break",
                       "outcome": "established", "ours": "holds", "claim": "a codebook attack", "where": "ours",
                       "reason": "A key-free codebook attack with an encryption oracle for 257 chosen blocks: it "
                                 "holds (every byte recovered)."}])


@pytest.mark.parametrize("spec, findings, grade", [
    ([("a", "reproduced", "headline", ""), ("b", "reproduced", "supporting", "")], None, "accept"),
    ([("a", "reproduced", "headline", ""), ("b", "inconclusive", "headline", "")], None, "minor revision"),
    ([("a", "reproduced", "headline", ""), ("b", "contradicted", "supporting", "defect")], None, "minor revision"),
    # not testable counts neither for nor against: a headline claim undecided, not an overclaim refuted
    ([("a", "reproduced", "headline", ""), ("b", "not testable", "headline", "overclaim")], None, "minor revision"),
    ([("a", "reproduced", "headline", ""), ("b", "inconclusive", "supporting", "overclaim")], None, "accept"),
    ([("a", "reproduced", "headline", ""), ("b", "not reproduced", "supporting", "overclaim")], None,
     "major revision"),
    ([("a", "reproduced", "headline", ""), ("b", "not reproduced", "headline", "")], None, "major revision"),
    ([("a", "reproduced", "headline", ""), ("b", "reproduced", "headline", "")], BREAK, "reject"),
])
def test_the_recommendation_follows_the_rule_written_once(spec, findings, grade):
    got, says, why = template.recommendation(_template_rows(spec), findings)
    assert got == grade and says
    if grade == "reject":
        assert list(why["claim_id"]) == ["000-sec-codebook-attack"]


def test_a_security_finding_that_holds_weighs_in_the_recommendation_and_leads_the_concerns():
    """A finding that the variant is equivalent to AES (a key-dependent constant folding into the round key) is
    a security finding: with every headline claim reproduced, it still asks for a major revision, and it is the
    first concern; one that does not hold weighs nothing."""
    spec = [("a", "reproduced", "headline", ""), ("b", "contradicted", "headline", "")]
    equivalent = pd.DataFrame([_finding("000-sec-iv-round-key", "security", True,
                                        "the key-dependent constant folds into the round key: AES itself")])
    grade, _, why = template.recommendation(_template_rows(spec[:1]), equivalent)
    assert grade == "major revision" and list(why["claim_id"]) == ["000-sec-iv-round-key"]
    assert [k for k, _ in template.concern_rows(_template_rows(spec), equivalent)][:2] == ["security", "contradicted"]
    false = pd.DataFrame([_finding("000-sec-iv-round-key", "security", False)])
    assert template.recommendation(_template_rows(spec[:1]), false)[0] == "accept"


def test_no_concern_never_says_untested_headline_claims_hold():
    from cipherlab.report.referee import Paper
    spec = [("a", "not testable", "headline", ""), ("b", "reproduced", "supporting", "")]
    body = {s.key: s.body for s in template.report_sections(Paper("000", "x", "aes2sbox", ""), _template_rows(spec))}
    assert "every headline claim holds" not in body["concerns"]
    assert "0 could be tested and decided here; 1 is not testable" in body["concerns"]


def test_overclaims_none_refuted_says_when_some_could_not_be_tested():
    """'None refuted' alone reads as a clean bill: where overclaims stand untested, the section says they are neither
    refuted nor supported, and lists them."""
    from cipherlab.report.referee import Paper
    paper = Paper("003", "AEAD modes", "aead", "")
    untested = [("ok", "reproduced", "headline", ""), ("resist", "not testable", "supporting", "overclaim")]
    body = {s.key: s.body for s in template.report_sections(paper, _template_rows(untested, "003"))}["overclaims"]
    assert body.startswith("None refuted by this run's evidence. 1 is stated beyond what can be tested here (below): "
                           "not refuted, and not supported either.") and "003-resist" in body
    clean = {s.key: s.body for s in template.report_sections(paper, _template_rows(untested[:1], "003"))}["overclaims"]
    assert clean == "None refuted by this run's evidence."


def test_the_recommendation_says_how_many_headline_claims_could_be_tested_at_all():
    spec = [("a", "reproduced", "headline", ""), ("b", "not testable", "headline", ""),
            ("c", "inconclusive", "headline", ""), ("d", "covered", "headline", ""),
            ("e", "contradicted", "supporting", "")]
    text = template.tested_sentence(_template_rows(spec))
    assert text == ("Of the paper's 3 headline claims (covered rows counted once), 1 could be tested and decided "
                    "here; 1 is not testable and 1 inconclusive, which count neither for nor against the paper.")


def test_a_break_is_the_first_concern_whatever_the_counts_say():
    spec = [("t5", "reproduced", "headline", ""), ("t3", "contradicted", "headline", ""),
            ("own", "contradicted", "supporting", "defect"), ("bound", "not testable", "supporting", "overclaim")]
    kinds = [k for k, _ in template.concern_rows(_template_rows(spec), BREAK)]
    assert kinds == ["break", "contradicted", "defect"]      # a not-testable overclaim is no concern


def _finding(cid, concern, holds, reason="our analysis: it holds"):
    return {"claim_id": cid, "paper": "000", "verdict": "finding", "concern": concern,
            "outcome": "established" if holds else "statement_false", "ours": "holds" if holds else "does not hold",
            "claim": "our experiment", "where": "ours", "reason": reason}


def test_the_designs_security_leads_the_concerns_after_a_break():
    """A security finding that holds (an affine S-box) and the paper's security evidence refuted (concern:
    security, any tier) come right after a break and before any other refuted claim; a security finding that
    does not hold, or a security row that is reproduced, is no concern."""
    spec = [("t3", "contradicted", "headline", ""), ("aval", "contradicted", "supporting", "security"),
            ("weak", "reproduced", "headline", "security"), ("own", "contradicted", "supporting", "defect")]
    findings = pd.concat([BREAK, pd.DataFrame([_finding("000-sec-affine", "security", True),
                                               _finding("000-sec-other", "security", False)])], ignore_index=True)
    got = [(k, r["claim_id"]) for k, r in template.concern_rows(_template_rows(spec), findings)]
    assert got == [("break", "000-sec-codebook-attack"), ("security", "000-sec-affine"), ("security", "000-aval"),
                   ("contradicted", "000-t3"), ("defect", "000-own")]
    from cipherlab.report.referee import Paper
    body = {s.key: s.body for s in template.report_sections(Paper("000", "AES-2SBox", "aes2sbox", ""),
                                                            _template_rows(spec), findings)}["concerns"]
    lines = body.splitlines()
    assert lines[0].startswith("1. **The cipher is broken.**") and "encryption oracle" in lines[0]
    assert lines[1].startswith("2. **A security finding about the design.**") and "The paper:" not in lines[1]
    assert lines[2].startswith("3. **The paper's security case fails.** The quantity of aval:")


def test_a_security_finding_about_a_design_the_paper_does_not_propose_follows_its_own_claims():
    """Paper 003 compares existing modes and proposes none (report.proposes_no_design): our finding about a choice
    it offers (64-bit blocks) is a caution after the paper's own refuted claims; paper 000's finding of the same
    kind is its design's weakness and leads."""
    assert "003" in template.load_rules()["report"]["proposes_no_design"]
    spec = [("t3", "contradicted", "headline", ""), ("own", "contradicted", "supporting", "defect")]
    offered = pd.DataFrame([{**_finding("003-x-64bit-blocks", "security", True), "paper": "003"}])
    got = [(k, r["claim_id"]) for k, r in template.concern_rows(_template_rows(spec, "003"), offered)]
    assert got == [("contradicted", "003-t3"), ("defect", "003-own"), ("caution", "003-x-64bit-blocks")]
    own = pd.DataFrame([_finding("000-sec-affine", "security", True)])
    got = [(k, r["claim_id"]) for k, r in template.concern_rows(_template_rows(spec), own)]
    assert got[0] == ("security", "000-sec-affine")
    from cipherlab.report.referee import Paper
    body = {s.key: s.body for s in template.report_sections(Paper("003", "AEAD modes", "aead", ""),
                                                            _template_rows(spec, "003"), offered)}["concerns"]
    assert body.splitlines()[2].startswith("3. **A caution about a design the paper compares")


def test_a_caution_on_a_claim_row_is_listed_whatever_its_verdict_and_weighs_neither_way():
    """concern: caution: a claim decided under the paper's own model that carries a caution of ours (GCM's forgery
    bound for a modified ciphertext) is listed among the cautions, after the paper's refuted claims, and leaves the
    grade as it was."""
    spec = [("own", "contradicted", "supporting", "defect"), ("eq1", "reproduced", "supporting", "caution")]
    got = [(k, r["claim_id"]) for k, r in template.concern_rows(_template_rows(spec, "003"), None)]
    assert got == [("defect", "003-own"), ("caution", "003-eq1")]
    plain = [("own", "contradicted", "supporting", "defect"), ("eq1", "reproduced", "supporting", "")]
    assert (template.recommendation(_template_rows(spec, "003"), None)[:2]
            == template.recommendation(_template_rows(plain, "003"), None)[:2])


def test_every_report_has_the_template_sections_in_order():
    from cipherlab.report.referee import Paper
    spec = [("t5", "contradicted", "headline", ""), ("t6", "reproduced", "headline", ""),
            ("own", "contradicted", "supporting", "defect"), ("bound", "not testable", "supporting", "overclaim")]
    protocol = pd.DataFrame({"aspect": ["machine"], "paper": ["an i3 laptop"], "ours": ["an EPYC"]})
    out = template.report_sections(Paper("000", "AES-2SBox", "aes2sbox", "cite"), _template_rows(spec), BREAK,
                                   protocol)
    assert [s.key for s in out] == list(template.SECTION_KEYS)
    body = {s.key: s.body for s in out}
    # the attack is stated once, with its attacker model, as the first concern; the summary refers to it
    assert "Recommendation: **reject**" in body["summary"] and "first main concern" in body["summary"]
    assert "encryption oracle for 257 chosen blocks" not in body["summary"]
    assert body["concerns"].startswith("1. **The cipher is broken.**")
    assert "encryption oracle for 257 chosen blocks" in body["concerns"]
    assert "an i3 laptop" in body["methodology"] and "an EPYC" in body["methodology"]
    assert "000-own" in body["defects"] and "000-bound" in body["overclaims"]
    assert "NIST SP 800-38D, Appendix C" in body["overclaims"] and "beyond what can be tested" in body["overclaims"]
    assert "Of the paper's 2 headline claims (covered rows counted once), 2 could be tested" in body["recommendation"]
    assert body["headline"].count("<tr data-verdict") == 2 and "the quantity of t5" in body["headline"]
    assert body["recommendation"].startswith("**Reject.**") and "methods.html" in body["recommendation"]
    rule = template.recommendation_rule_markdown()
    assert "1. **reject**" in rule and "attacker model" in rule


def test_forest_numbers_and_figure():
    claims = pd.DataFrame({"claim_id": ["000-t5-enc", "000-t5-dec", "000-t1-cells"], "kind": ["ratio", "ratio", "structural"],
                           "unit": ["%", "%", ""], "published_value": [22.986, 109.79, None]})
    evidence = pd.DataFrame({"claim_id": ["000-t5-enc", "000-t5-enc", "000-t5-dec"],
                             "size": ["2048 B", "60416 B", "2048 B"], "style": ["table"] * 3, "mode": [""] * 3,
                             "estimate": [5.2, 99.0, 40.0], "low": [1.1, 98.0, 36.0], "high": [9.3, 100.0, 44.0]})
    numbers = forest.claim_numbers(MIXED.assign(applied_band="-3 .. 3"), claims, evidence)
    assert list(numbers["claim_id"]) == ["000-t5-enc", "000-t5-dec"]
    assert numbers.iloc[0]["estimate"] == 5.2          # the evidence row the verdict was decided on
    assert numbers["ratio"].all() and numbers.iloc[0]["band"] == (-3.0, 3.0)
    fig = forest.forest_figure(numbers, "000")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    top = dict(zip(ax.get_yticks(), [t.get_text() for t in ax.get_yticklabels()]))
    assert [top[y] for y in sorted(top, reverse=True)] == ["000-t5-enc", "000-t5-dec"]   # in the table's order
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "contradicted" in legend and "published by the paper" in legend and "noise band applied" in legend
    assert forest.REFERENCE_LEGEND not in legend          # no reference value among these claims
    # the ratio axis is labelled as a reader writes ratios (1, 2, 5), never 10^0 or 2x10^0
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert labels and all(re.fullmatch(r"[\d.,]+", t) for t in labels), labels
    assert "1" in labels and not [t for t in ax.get_xticklabels(minor=True) if t.get_text()]
    empty = forest.forest_figure(numbers.iloc[0:0], "000")
    assert "no quantitative headline claim" in empty.axes[0].texts[0].get_text()


def test_toc_gives_each_paper_a_part_headed_by_its_reports(tmp_path):
    toc = {"root": "findings", "parts": [{"caption": "Results", "chapters": [{"file": "verdicts"}]},
                                         {"manifest": "papers"},
                                         {"caption": "Beyond", "chapters": [{"manifest": "chapters"}]}]}
    staged = chapter_toc(toc)
    captions = [p["caption"] for p in staged["parts"]]
    assert captions[1:4] == [c for c, _, _ in referee.parts()] == ["AES-2SBox: papers 000 and 001", "MAES: paper 002",
                                                                   "Block-cipher modes: paper 003"]
    pages = toc_pages(staged)
    assert pages.index("report_000") < pages.index("report_001") < pages.index("aes2sbox") < pages.index("report_002")
    assert pages.count("aes2sbox") == 1 and "security" in pages
    with pytest.raises(ValueError, match="must be 'papers'"):
        chapter_toc({"root": "x", "parts": [{"manifest": "chapters"}]})


def test_parameterised_pages_get_their_own_titles(tmp_path):
    import nbformat
    titles = page_titles("quick")
    assert titles["report_003"].startswith("Referee's report: paper 003")
    variant_titles = [t for p, t in titles.items() if p.startswith("variant_")]
    assert all(t.startswith("Refereeing a variant: ") for t in variant_titles)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Refereeing a variant\n\nText.")])
    path = tmp_path / "v.ipynb"
    nbformat.write(nb, path)
    assert retitle(path, "Refereeing a variant: aes-4-rounds")
    assert nbformat.read(path, as_version=4).cells[0].source == "# Refereeing a variant: aes-4-rounds\n\nText."


def test_the_protocol_table_fills_our_side_from_the_runs_provenance(monkeypatch):
    meta = {"cpu_model": "AMD EPYC", "cpu_mhz_os": "2596 MHz", "logical_cores": 2, "memory_gib": 23.5,
            "os": "Linux", "cpu_aes_ni": True, "python": "3.11.7", "packages": {"pycryptodome": "4.4.0"},
            "config": {"trials": 120, "phase2_trials": 36, "phase2_min_trial_seconds": 0.1, "processes": 12,
                       "warmup": 2, "forgery_warmup": 1, "forgery_trials": 240, "mb_bytes": 1000000}}
    monkeypatch.setattr(referee, "_run_meta", lambda chapter, profile: meta)
    table = referee.protocol_table("003", "full")
    assert list(table.columns) == list(template.PROTOCOL_COLUMNS)
    ours = dict(zip(table["aspect"], table["ours"]))
    assert ours["library"] == "PyCryptodome 4.4.0 in Python 3.11.7"
    assert ours["machine"].startswith("AMD EPYC, AES-NI: True (clock as the OS reports it: 2596 MHz; the Environment page") and "{" not in " ".join(ours.values())
    monkeypatch.setattr(referee, "_run_meta", lambda chapter, profile: {})
    assert "(not recorded in this run)" in referee.protocol_table("003", "full").loc[0, "ours"]
    # every paper the chapters declare has its protocol written down
    for paper in referee.report_papers():
        assert len(referee.protocol_table(paper, "full")) >= 3


def test_the_report_notebook_shows_every_section_of_the_template_under_its_title_in_order():
    """Each section is a heading of the notebook (a section of the page, in its table of contents), never a
    heading printed by code (which the book renders as a rubric): the headings are the template's titles."""
    import json
    from cipherlab.pipeline.paths import ROOT
    cells = json.loads((ROOT / "notebooks" / "report.ipynb").read_text(encoding="utf-8"))["cells"]
    text = lambda c: "".join(c["source"])   # noqa: E731
    titles = [text(c)[3:].strip() for c in cells if c["cell_type"] == "markdown" and text(c).startswith("## ")]
    assert titles == [template.TITLES[k] for k in template.SECTION_KEYS]
    shown = [re.search(r'report\["(\w+)"\]', text(c)).group(1) for c in cells
             if c["cell_type"] == "code" and 'report["' in text(c)]
    assert shown == list(template.SECTION_KEYS)
    assert not any("display(Markdown(f\"## " in text(c) for c in cells if c["cell_type"] == "code")


def test_a_machine_dependent_verdict_is_listed_apart_and_never_counted_as_the_papers_error():
    """A verdict two machines decided differently (portability ``machine-dependent``) is the machine's: it meets
    no condition of the paper's error (the recommendation), is the last concern and is named in the section
    across machines; compared with no machine, the same row counts."""
    from cipherlab.report.referee import Paper
    spec = [("t5", "contradicted", "headline", ""), ("t6", "reproduced", "headline", ""),
            ("own", "reproduced", "supporting", "")]
    paper = Paper("000", "AES-2SBox", "aes2sbox", "cite")
    alone = _template_rows(spec)
    assert template.recommendation(alone)[0] == "major revision"   # compared with no machine: counted
    mixed = alone.assign(machines="box-b: reproduced", portability="portable: the same verdict on all 2 machines")
    mixed.loc[mixed["claim_id"] == "000-t5", "portability"] = "machine-dependent: the verdict differs on box-b " \
                                                              "(reproduced)"
    grade, _, why = template.recommendation(mixed)
    assert grade == "accept" and why.empty
    assert [k for k, _ in template.concern_rows(mixed)] == ["machine-dependent"]
    body = {s.key: s.body for s in template.report_sections(paper, mixed)}
    assert body["concerns"].startswith("1. **The verdict differs between machines.**")
    assert "Across machines, machine-dependent: the verdict differs on box-b (reproduced)." in body["concerns"]
    assert ("2 of the paper's claims have the same verdict on every machine that measured them; 1 differ between "
            "machines and are counted apart, never as the paper's error: [000-t5](verdicts.html#claim-000-t5) "
            "(the verdict differs on box-b (reproduced))") in body["machines"]
    assert "cannot say" in {s.key: s.body for s in template.report_sections(
        paper, mixed.assign(portability=""))}["machines"]
    # decided here, undecided on another machine: the report says where it is undecided and what was decided
    open_there = mixed.copy()
    open_there.loc[open_there["claim_id"] == "000-t5", "portability"] = \
        "undecided on box-b (inconclusive); the same verdict where decided (contradicted on 1 machine)"
    text = {s.key: s.body for s in template.report_sections(paper, open_there)}["machines"]
    assert ("[000-t5](verdicts.html#claim-000-t5) is undecided on box-b (inconclusive); "
            "the same verdict where decided (contradicted on 1 machine).") in text
    assert "not compared" in {s.key: s.body for s in template.report_sections(paper, alone)}["machines"]


def test_a_size_machine_bound_by_evidence_is_named_in_the_section_across_machines_and_counted_apart():
    """A claim machine-bound by evidence (its size differs between two real machines: the verdict row is
    *machine-bound*, its portability says so) is named in the section across machines, and its row meets no
    condition of the paper's error."""
    from cipherlab.report.referee import Paper
    spec = [("t5", "machine-bound", "headline", ""), ("t6", "reproduced", "headline", "")]
    paper = Paper("000", "AES-2SBox", "aes2sbox", "cite")
    rows = _template_rows(spec).assign(machines="box-b: reproduced", portability="portable: the same verdict on "
                                                                                "all 2 machines")
    rows.loc[rows["claim_id"] == "000-t5", "portability"] = ("machine-bound by evidence: the size differs between "
                                                             "this run (2× [1.95, 2.05]) and box-b (2.6× [2.55, 2.65])")
    assert template.recommendation(rows)[0] == "accept"
    body = {s.key: s.body for s in template.report_sections(paper, rows)}["machines"]
    assert ("1 state a size that differs between two real machines beyond both runs' noise (machine-bound by "
            "evidence, counted apart, never as the paper's error: [000-t5](verdicts.html#claim-000-t5))") in body


def test_verdicts_changed_with_the_code_and_run_to_run_noise_are_said_apart_in_the_section_across_machines():
    """Rows whose exact evidence differs from the shipped run changed with the code or data (never the machine):
    the section across machines counts and links them apart instead of hiding them behind "none differs between
    machines"; a row that differs only from a run of the same CPU kind is named as run-to-run variation; the
    measured run-to-run noise of speed rows is said when given, and changes no recommendation."""
    from cipherlab.analysis.machines import CODE_CHANGED, SAME_CPU, RunNoise
    from cipherlab.report.referee import Paper
    spec = [("t5", "reproduced", "headline", ""), ("t6", "reproduced", "headline", ""),
            ("t7", "reproduced", "headline", "")]
    paper = Paper("003", "AEAD", "aead", "cite")
    rows = _template_rows(spec, "003").assign(machines="box-b: reproduced",
                                              portability="portable: the same verdict on all 2 machines")
    rows.loc[rows["claim_id"] == "003-t5", "portability"] = f"{CODE_CHANGED}, not the machine: the evidence is exact"
    rows.loc[rows["claim_id"] == "003-t6", "portability"] = f"{SAME_CPU}: the verdict differs on box-b (contradicted)"
    body = {s.key: s.body for s in template.report_sections(paper, rows)}["machines"]
    assert "1 of the paper's claims have the same verdict on every machine that measured them, and none differs " \
           "between machines." in body
    assert ("1 verdict differs from the shipped run because the code or data changed (not the machine: the "
            "evidence is exact, with no timing and no noise): [003-t5](verdicts.html#claim-003-t5).") in body
    assert "1 verdict differs only from a run on the same CPU kind (run-to-run variation, never the machine's): " \
           "[003-t6](verdicts.html#claim-003-t6)." in body
    assert "Run-to-run noise" not in body
    noisy = template.report_sections(paper, rows, noise=RunNoise(run="box-a", total=9, disjoint=2))
    assert ("of the 9 speed rows measured both here and in `box-a` (a run on the same CPU kind), 2 have 95 % "
            "intervals that do not overlap") in {s.key: s.body for s in noisy}["machines"]
    assert ({s.key: s.body for s in noisy}["recommendation"]
            == {s.key: s.body for s in template.report_sections(paper, rows)}["recommendation"])
    assert "Run-to-run noise" not in {s.key: s.body for s in template.report_sections(
        paper, rows, noise=RunNoise(run="box-a", total=0, disjoint=0))}["machines"]


@pytest.mark.parametrize("verdict, weighs", [("reproduced", False), ("contradicted", True), ("not reproduced", True),
                                             ("not testable", True), ("inconclusive", True)])
def test_a_flaw_of_the_papers_method_is_a_main_concern_after_security_and_asks_for_a_major_revision(verdict, weighs):
    """A row marked ``concern: method`` (the paper's protocol or method cannot decide the sentence it is used
    for) weighs whatever its verdict but *reproduced*, even not testable: it is a main concern after security and
    before the contradicted claims, and the recommendation is a major revision; reproduced, it weighs nothing."""
    from cipherlab.report.referee import Paper
    spec = [("s6", verdict, "headline", "method"), ("t2", "contradicted", "headline", ""),
            ("t3", "reproduced", "headline", "")]
    rows = _template_rows(spec, "003")
    kinds = [k for k, _ in template.concern_rows(rows)]
    assert ("method" in kinds) is weighs
    if weighs:
        assert kinds[0] == "method" and kinds.index("method") < kinds.index("contradicted")
        body = {s.key: s.body for s in template.report_sections(Paper("003", "AEAD", "aead", "cite"), rows)}
        assert body["concerns"].startswith("1. **The paper's method cannot decide what it is used for.**")
    alone = _template_rows([spec[0], spec[2]], "003")
    assert (template.recommendation(alone)[0] == "major revision") is weighs


def test_a_finding_of_ours_that_marks_a_method_flaw_weighs_only_when_it_holds():
    flaw = BREAK.assign(claim_id="003-x-forgery-power", paper="003", concern="method")
    rows = _template_rows([("t3", "reproduced", "headline", "")], "003")
    assert template.recommendation(rows, flaw)[0] == "major revision"
    assert [k for k, _ in template.concern_rows(rows, flaw)] == ["method"]
    assert template.recommendation(rows, flaw.assign(outcome="not_established", ours="does not hold"))[0] == "accept"


def test_concern_method_is_a_declared_concern_with_its_meaning_on_the_methods_page():
    from cipherlab.analysis.claims import CONCERNS, load_rules
    rules = load_rules()
    assert "method" in CONCERNS and "method" in rules["report"]["concerns"]
    assert "method" in rules["report"]["condition_text"]
    assert "method" in template.recommendation_rule_markdown(rules)


def test_the_shipped_reference_run_is_compared_with_nothing_not_with_itself():
    """When the shipped reference run IS this run (a book built from it, or the run `make contribute` shipped)
    and no other run was compared, the section across machines says so and compares nothing: no verdict count
    across machines, no run-to-run noise against a run of its own name."""
    from cipherlab.analysis.machines import RunNoise
    from cipherlab.report.referee import Paper
    spec = [("t5", "reproduced", "headline", ""), ("t6", "contradicted", "headline", "")]
    paper = Paper("002", "MAES", "maes", "cite")
    rows = _template_rows(spec, "002").assign(machines="amd-x: reproduced",
                                              portability="portable: the same verdict on all 2 machines")
    body = {s.key: s.body for s in template.report_sections(
        paper, rows, noise=RunNoise(run="amd-x", total=9, disjoint=0), reference="amd-x")}
    assert body["machines"].startswith("This run is the shipped reference run `amd-x` (`data/runs/amd-x/`)")
    assert "no verdict is compared across machines" in body["machines"]
    assert "Run-to-run noise" not in body["machines"] and "same verdict on every machine" not in body["machines"]
    # without the reference, the same rows are compared as before
    assert "same verdict on every machine" in {s.key: s.body for s in template.report_sections(
        paper, rows)}["machines"]


def test_reference_run_is_this_runs_own_shipped_run_only_when_no_other_run_was_compared(monkeypatch, tmp_path):
    """referee.reference_run: a book built from a shipped run names it; a tree whose measurement ids are a
    shipped run's names that run; a second run compared with it, or ids of no shipped run, name nothing."""
    from types import SimpleNamespace

    import cipherlab.analysis.machines as AM
    from cipherlab.pipeline import runs as R
    from cipherlab.report import referee
    prof = SimpleNamespace(shipped_run=None, name="full", table=lambda name: tmp_path / f"{name}.csv")
    monkeypatch.setattr(referee, "as_profile", lambda p: prof)
    shipped = [SimpleNamespace(name="amd-x", card={"run_ids": ["a", "b"]})]
    monkeypatch.setattr(R, "shipped_runs", lambda profile, exclude=(): [r for r in shipped if r.name not in exclude])
    monkeypatch.setattr(AM, "this_card", lambda p: {"run_ids": ["a", "b"]})
    assert referee.reference_run("full") == "amd-x"
    monkeypatch.setattr(AM, "this_card", lambda p: {"run_ids": ["c"]})
    assert referee.reference_run("full") == ""
    prof.shipped_run = "amd-x"
    assert referee.reference_run("full") == "amd-x"
    shipped.append(SimpleNamespace(name="box-b", card={"run_ids": ["z"]}))
    assert referee.reference_run("full") == ""


def test_a_printed_result_the_cipher_cannot_produce_is_data_not_the_designs_security():
    """concern: data (printed ciphertexts or avalanche figures the described cipher cannot produce): its own lead,
    after a flaw of the method and before single claims, and a condition of a major revision as security is; the
    same row marked security would say the paper's security case fails."""
    spec = [("t3", "contradicted", "headline", ""), ("printed", "contradicted", "supporting", "data"),
            ("own", "contradicted", "supporting", "defect")]
    got = [(k, r["claim_id"]) for k, r in template.concern_rows(_template_rows(spec), None)]
    assert got == [("data", "000-printed"), ("contradicted", "000-t3"), ("defect", "000-own")]
    from cipherlab.report.referee import Paper
    body = {s.key: s.body for s in template.report_sections(Paper("000", "AES-2SBox", "aes2sbox", ""),
                                                            _template_rows(spec), None)}["concerns"]
    assert body.splitlines()[0].startswith("1. **The paper prints a result the cipher it describes cannot produce.**")
    assert "security case" not in body
    alone = [("printed", "contradicted", "supporting", "data")]
    grade, says, _ = template.recommendation(_template_rows(alone), None)
    assert grade == "major revision" and "cannot come from the cipher it describes" in says
    refuted_not = [("printed", "reproduced", "supporting", "data")]
    assert template.recommendation(_template_rows(refuted_not), None)[0] == "accept"
