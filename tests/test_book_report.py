"""The referee's reports, the verdict page and their shared counting (cipherlab.report.referee,
.verdict_page, .tiers, .forest) on small synthetic verdict rows: tiers counted apart, every verdict
told by a word and a mark, the applied band, stable anchors, the filter's attributes, the
recommendation worded as the verdicts support, and the forest plot's numbers."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from cipherlab.analysis.claims import claim_anchor
from cipherlab.report import forest, referee, tiers, verdict_page
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
        bg, fg, mark, marker = tiers.MARKS[v]
        assert mark and marker and bg.startswith("#")
    markers = [m[3] for m in tiers.MARKS.values()]
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


@pytest.mark.parametrize("verdicts, grade", [
    (["reproduced", "reproduced"], "supported"),
    (["reproduced", "inconclusive"], "partly supported"),
    (["reproduced", "contradicted"], "partly supported"),
    (["contradicted", "not reproduced", "inconclusive"], "not supported"),
    ([], "none"),
])
def test_recommendation_follows_the_verdicts(verdicts, grade):
    head = rows([(f"c{i}", v, "headline") for i, v in enumerate(verdicts)])
    text, got = referee.recommendation(head)
    assert got == grade
    assert str(len(verdicts)) in text or not verdicts


def test_report_sections_from_the_rows():
    summary = referee.summary_markdown(MIXED, "000")
    assert summary.count(". ") >= 2 and "Of its 3 headline claims, 1 reproduced, 1 contradicted" in summary
    scope = referee.scope_markdown(MIXED, "000")
    assert "**Headline claims** (3)" in scope and "(verdicts.html#claim-000-t5-enc)" in scope
    table = referee.results_html(MIXED, "000")
    assert table.count("<tr data-verdict") == 3 and "verdicts.html#claim-000-t5-dec" in table
    assert "Methods" in referee.methodology_markdown("000", MIXED)
    fix = referee.easy_hard_fix_markdown(MIXED, "000")
    assert "### What the authors should fix" in fix and "000-t5-enc" in fix
    assert "Table 1 (misprints)" not in fix and "Table 1, row 1, column 7" in fix   # data/paper/000_misprints.csv
    with pytest.raises(ValueError, match="paper must be one of"):
        referee.check_paper("004")


def test_untiered_registry_is_said_not_hidden():
    untiered = rows([("a", "reproduced", ""), ("b", "contradicted", "")])
    head, tiered = referee.headline_rows(untiered, "000")
    assert not tiered and len(head) == 2
    assert "does not yet mark headline claims" in referee.summary_markdown(untiered, "000")
    assert "Until the claims registry marks headline claims" in referee.recommendation_markdown(untiered, "000")


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
    assert "contradicted" in legend and "published" in legend and "noise band applied" in legend
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


def test_a_machine_dependent_verdict_is_listed_apart_and_never_counted_as_the_papers_error():
    mixed = MIXED.assign(machines="box-b: reproduced", portability="portable: the same verdict on all 2 machines")
    mixed.loc[mixed["claim_id"] == "000-t5-enc", "portability"] = "machine-dependent: the verdict differs on box-b " \
                                                                   "(reproduced)"
    fix = referee.easy_hard_fix_markdown(mixed, "000")
    should_fix = fix.split("### What the authors should fix", 1)[1]
    assert "000-t5-enc" not in should_fix and "Verdicts that differ between machines belong to the machine" in fix
    text, grade = referee.recommendation(mixed[mixed["tier"] == "headline"])
    assert grade == "partly supported" and "none was refuted" in text   # the contradicted one is the machine's
    text, grade = referee.recommendation(MIXED[MIXED["tier"] == "headline"])   # compared with no machine: counted
    assert "did not hold" in text
