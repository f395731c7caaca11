"""The decision engine on synthetic evidence: every rule, wide and narrow intervals, either side, the boundaries."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.analysis import verdicts as V
from cipherlab.present.verdict_table import MARKS, badge, verdict_html
from cipherlab.report.methods_text import meanings_markdown, rules_markdown
RULES = V.load_rules()


def claim(rule="within_margin", published="20", null="0", margin="0.25", alpha="", expect="", **kw):
    row = {c: "" for c in V.CLAIM_COLUMNS}
    row.update(claim_id="x", paper="000", where="Table 5", quote="q", kind="ratio", scope="claim",
               published=published, null=null, rule=rule, margin=margin, alpha=alpha, expect=expect,
               tier="headline", carries="size", quantity="the quantity")
    row.update(kw)
    return row


def decide(c, **ev):
    claims = _load([c])
    return V.decide(claims.iloc[0], V.Evidence("x", **ev), RULES).verdict


def _load(rows, tmp=None):
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as fh:
        pd.DataFrame(rows, columns=list(V.CLAIM_COLUMNS)).to_csv(fh, index=False)
    return V.load_claims(fh.name)


# within_margin: published 20 %, margin 25 % -> margin [15, 25]; A/A band +-2 %, floored to +-3 %, which each
# edge of the margin carries scaled: 15 +- 3.45 and 25 +- 3.75, so "within beyond the noise" is [18.45, 21.25]
AA = dict(control_low=-2.0, control_high=2.0)


@pytest.mark.parametrize("lo, hi, expected", [
    (19.0, 21.0, "reproduced"),         # inside the margin, beyond the noise at both edges
    (18.45, 21.25, "reproduced"),       # on the edges' bands: still inside
    (16.0, 24.0, "inconclusive"),       # inside the margin, but within the noise of its edges
    (12.0, 14.0, "inconclusive"),       # outside the margin, but within the noise of its lower edge
    (28.8, 40.0, "not reproduced"),     # beyond the upper edge's band
    (30.0, 40.0, "not reproduced"),     # larger, same direction
    (5.0, 10.0, "not reproduced"),      # smaller, same direction
    (-1.0, 1.5, "contradicted"),        # within the noise band: no speedup
    (-20.0, -10.0, "contradicted"),     # the other way
    (-5.0, 40.0, "inconclusive"),       # too wide
    (10.0, 20.0, "inconclusive"),       # straddles the band's lower edge
    (1.0, 8.0, "not reproduced"),       # far below the claim, though not clearly beyond the noise
])
def test_within_margin(lo, hi, expected):
    assert decide(claim(), estimate=(lo + hi) / 2, low=lo, high=hi, **AA) == expected


def test_within_margin_without_direction_cannot_contradict():
    c = claim(published="7.99", null="", margin="0.01")
    assert decide(c, estimate=7.95, low=7.94, high=7.96) == "reproduced"
    assert decide(c, estimate=7.5, low=7.4, high=7.6) == "not reproduced"
    assert decide(c, estimate=7.9, low=7.8, high=8.0) == "inconclusive"


def test_noise_floor_widens_a_narrow_control():
    # control [-0.1, 0.1] but floor 3 %: 0.8 % is still no effect against a claimed 20 %
    c = claim(published="20", margin="10")
    assert decide(c, estimate=0.8, low=0.6, high=0.9, control_low=-0.1, control_high=0.1, unit="%") == "contradicted"
    # the floor is in %: evidence in another unit takes its control as it is
    assert decide(c, estimate=0.8, low=0.6, high=0.9, control_low=-0.1, control_high=0.1, unit="bits") == "reproduced"


@pytest.mark.parametrize("statistic, lo, hi, expected", [
    # a speed ratio of two code paths: the A/A band (+-7.6) meets the margin's edge 10 -> inconclusive
    ("", -0.5, 4.5, "inconclusive"),
    ("speed_ratio", -0.5, 4.5, "inconclusive"),
    # one code path at two sizes, or a fit's misfit: declared without a band, the interval alone decides
    ("size_change", -0.5, 4.5, "reproduced"),
    ("fit_misfit", -0.5, 4.5, "reproduced"),
    ("size_change", -0.5, 9.99, "reproduced"),       # just inside the margin's edge
    ("size_change", -0.5, 10.5, "inconclusive"),     # across the edge
    ("size_change", 10.01, 12.0, "contradicted"),    # wholly outside
])
def test_each_statistic_is_decided_against_the_noise_of_its_own_kind(statistic, lo, hi, expected):
    assert V.load_rules()["noise_by_statistic"][statistic or "speed_ratio"] in ("aa", "none")
    c = claim(rule="equivalent", published="", margin="10", unit="%")
    assert decide(c, estimate=(lo + hi) / 2, low=lo, high=hi, control_low=-2.45, control_high=7.62, unit="%",
                  statistic=statistic) == expected


def test_an_undeclared_statistic_is_rejected():
    with pytest.raises(ValueError, match="statistic must be empty or one of"):
        V.Evidence("x", statistic="span")


def test_a_noisy_machine_is_inconclusive_and_a_claim_inside_the_noise_is_as_small_as_stated():
    wide = dict(control_low=-30.0, control_high=25.0, unit="%")
    assert decide(claim(), estimate=20.0, low=18.0, high=22.0, **wide) == "inconclusive"
    # an interval wholly beyond even a wide band shows the effect: a noisy machine cannot show an absence,
    # but it can show an effect beyond its own noise
    assert decide(claim(rule="ordering", published="", margin=""), estimate=50, low=40, high=60, **wide) \
        == "reproduced"
    assert decide(claim(rule="ordering", published="", margin=""), estimate=50, low=20, high=80, **wide) \
        == "inconclusive"
    inside = dict(control_low=-5.0, control_high=5.0, unit="%")
    # a claimed 3 % inside a +-5 % band: ours inside it too agrees with it, whatever its sign
    assert decide(claim(published="3", margin="0.5"), estimate=0.0, low=-1.0, high=1.0, **inside) == "reproduced"


@pytest.mark.parametrize("lo, hi, expected", [
    (5.0, 9.0, "reproduced"),
    (-9.0, -5.0, "contradicted"),
    (-1.5, 1.5, "inconclusive"),       # a tie within the band, and the claim states no size: below resolution
    (-1.0, 6.0, "inconclusive"),
    (2.0, 2.0, "inconclusive"),        # exactly on the noise edge belongs to the band: not beyond it
    (-5.0, 1.0, "inconclusive"),       # reaches no further than the band in the claimed direction
    (2.0, 9.0, "inconclusive"),        # touches the edge from inside: not beyond it, not excluded
])
def test_ordering(lo, hi, expected):
    assert decide(claim(rule="ordering", published="", margin=""), estimate=lo, low=lo, high=hi, **AA) == expected


@pytest.mark.parametrize("value, expected", [
    (0.0, "contradicted"),      # exactly no effect, and no band to hide one: "improved" is refuted, size or not
    (-0.5, "contradicted"),     # exactly the other way
    (0.5, "reproduced"),        # exactly in the claimed direction
])
def test_an_exact_value_without_a_noise_band_decides_an_ordering_that_states_no_size(value, expected):
    """Exact evidence (an S-box's SAC, a count) has no A/A band: an ordering that states no size is decided on it,
    never left below resolution, which only a noise band can make."""
    assert decide(claim(rule="ordering", published="", margin=""), estimate=value) == expected


@pytest.mark.parametrize("lo, hi, expected", [
    (-0.004, 0.006, "reproduced"),
    (0.02, 0.03, "contradicted"),
    (-0.03, -0.02, "contradicted"),
    (0.0, 0.02, "inconclusive"),
])
def test_equivalent(lo, hi, expected):
    assert decide(claim(rule="equivalent", published="", margin="0.01"), estimate=lo, low=lo, high=hi) == expected


@pytest.mark.parametrize("p, lo, hi, expected", [
    (0.001, 5.0, 9.0, "reproduced"),
    (0.001, 0.5, 1.5, "inconclusive"),     # "significant" but within the noise band, no size stated
    (0.2, -1.0, 1.0, "inconclusive"),
    (0.2, -1.0, 8.0, "inconclusive"),
    (0.04, 3.0, 9.0, "reproduced"),
    (0.001, -9.0, -5.0, "contradicted"),   # significant, but the other way: never supports the claim
    (0.2, 3.0, 9.0, "inconclusive"),       # beyond the band but not significant
])
def test_significance(p, lo, hi, expected):
    c = claim(rule="significance", published="", margin="", alpha="0.05")
    assert decide(c, estimate=lo, low=lo, high=hi, p_value=p, **AA) == expected


@pytest.mark.parametrize("expect, p, expected", [
    ("reject", 0.001, "reproduced"), ("reject", 0.5, "contradicted"),
    ("retain", 0.5, "reproduced"), ("retain", 0.001, "contradicted"),
    ("retain", 0.01, "reproduced"),   # p == alpha is not below it
])
def test_pvalue(expect, p, expected):
    c = claim(rule="pvalue", published="", margin="", alpha="0.01", expect=expect)
    assert decide(c, p_value=p) == expected


def test_a_claim_without_evidence_links_to_its_chapter_section():
    claims = _load([claim(rule="not_testable", published="", margin="", note="unnamed CPU", section="aead-absolute")])
    out = V.decide_all(claims, V.evidence_frame([]).assign(chapter=[]), RULES)
    assert out.loc[0, "chapter"] == "aead" and 'href="aead.html#aead-absolute"' in verdict_html(out)


def test_holds_and_not_testable():
    assert decide(claim(rule="holds", published="", margin=""), holds=True) == "reproduced"
    assert decide(claim(rule="holds", published="", margin=""), holds=False) == "contradicted"
    c = _load([claim(rule="not_testable", published="", margin="", note="absolute speed of an unnamed CPU")]).iloc[0]
    assert V.decide(c, None, RULES).verdict == "not testable"


def test_missing_evidence_fields_are_errors():
    with pytest.raises(ValueError, match="interval"):
        decide(claim(), estimate=1.0, **AA)     # an estimate with a control but no interval
    with pytest.raises(ValueError, match="holds"):
        decide(claim(rule="holds", published="", margin=""), estimate=1.0)
    with pytest.raises(ValueError, match="p_value"):
        decide(claim(rule="pvalue", published="", margin="", alpha="0.01", expect="reject"))


@pytest.mark.parametrize("field, value, match", [
    ("rule", "vibes", "rule must be one of"),
    ("kind", "opinion", "kind must be one of"),
    ("scope", "mine", "scope must be one of"),
    ("paper", "999", "paper must be one of"),
    ("published", "fast", "numeric published value"),
])
def test_bad_claim_rows_name_the_field(field, value, match):
    with pytest.raises(ValueError, match=match):
        _load([claim(**{field: value})])


def test_duplicate_claim_ids_are_rejected():
    with pytest.raises(ValueError, match="duplicate"):
        _load([claim(), claim()])


@pytest.mark.parametrize("kw, match", [
    (dict(low=2.0, high=1.0), "low must be <= high"),
    (dict(low=1.0), "together"),
    (dict(estimate=float("nan")), "finite"),
    (dict(p_value=1.5), "p_value"),
    (dict(holds="yes"), "holds"),
])
def test_bad_evidence_is_rejected(kw, match):
    with pytest.raises(ValueError, match=match):
        V.Evidence("x", **kw)


def test_decide_all_needs_evidence_for_every_claim_and_a_claim_for_every_evidence():
    claims = _load([claim()])
    with pytest.raises(ValueError, match="no evidence"):
        V.decide_all(claims, V.evidence_frame([]).assign(chapter=[]), RULES)
    ev = V.evidence_frame([V.Evidence("y", estimate=1.0, low=0.0, high=2.0)]).assign(chapter="c")
    with pytest.raises(ValueError, match="unknown claim"):
        V.decide_all(claims, ev, RULES)


def test_decided_by_picks_one_style_and_reports_the_others():
    claims = _load([claim(decided_by="style=reference")])
    ev = V.evidence_frame([
        V.Evidence("x", estimate=20.0, low=18.0, high=22.0, style="reference", **AA),
        V.Evidence("x", estimate=0.5, low=-0.5, high=1.0, style="table", **AA),
    ]).assign(chapter="c")
    out = V.decide_all(claims, ev, RULES)
    assert out["verdict"].tolist() == ["reproduced"]
    assert out["style"].tolist() == ["reference"]
    assert "table" in out["other"].iloc[0] and "contradicted" in out["other"].iloc[0]


def test_decided_by_can_name_several_conditions():
    claims = _load([claim(decided_by="style=table; size=16 B")])
    ev = V.evidence_frame([
        V.Evidence("x", estimate=20.0, low=18.0, high=22.0, style="table", size="16 B", **AA),
        V.Evidence("x", estimate=0.5, low=-0.5, high=1.0, style="table", size="1 MB", **AA),
    ]).assign(chapter="c")
    assert V.decide_all(claims, ev, RULES)["size"].tolist() == ["16 B"]
    with pytest.raises(ValueError, match="decided_by terms"):
        V.decide_all(_load([claim(decided_by="colour=red")]), ev, RULES)


def test_extensions_get_findings_and_are_not_counted():
    claims = _load([claim(), claim(claim_id="ext", scope="extension", rule="holds", published="", margin="", tier="")])
    ev = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, **AA),
                           V.Evidence("ext", holds=True)]).assign(chapter="c")
    out = V.decide_all(claims, ev, RULES)
    assert out.set_index("claim_id").loc["ext", "verdict"] == V.FINDING
    counts = V.verdict_counts(out)
    assert counts.loc["all", "total"] == 1
    assert list(counts.columns) == [*V.VERDICTS, "total"]      # no status occurs: no status column
    two = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, **AA),
                            V.Evidence("ext", holds=True, style="table"),
                            V.Evidence("ext", holds=False, style="reference")]).assign(chapter="c")
    claims = _load([claim(), claim(claim_id="ext", scope="extension", rule="holds", published="", margin="", tier="",
                                   decided_by="style=table")])
    other = V.decide_all(claims, two, RULES).set_index("claim_id").loc["ext", "other"]
    assert other == "reference: does not hold"     # a finding carries no verdict word, not even beside it


def test_an_extension_whose_outcome_decides_nothing_is_shown_as_such():
    claims = _load([claim(claim_id="ext", scope="extension", rule="equivalent", published="", margin="5", unit="%",
                          tier="")])
    straddles = V.evidence_frame([V.Evidence("ext", estimate=0.4, low=-1.7, high=4.0, **AA)]).assign(chapter="c")
    inside = V.evidence_frame([V.Evidence("ext", estimate=0.1, low=-0.5, high=0.5, **AA)]).assign(chapter="c")
    row = V.decide_all(claims, straddles, RULES).iloc[0]
    assert (row["verdict"], row["outcome"], row["shown"]) == (V.FINDING, "undecided", "finding: inconclusive")
    row = V.decide_all(claims, inside, RULES).iloc[0]
    assert (row["verdict"], row["shown"]) == (V.FINDING, V.FINDING)


def test_speed_evidence_uses_the_declared_statistic_and_the_control():
    rng = np.random.default_rng(0)
    old, new = rng.normal(1.2, 0.01, 200), rng.normal(1.0, 0.01, 200)
    a, b = rng.normal(1.0, 0.01, 200), rng.normal(1.0, 0.01, 200)
    ev = V.speed_evidence("x", old, new, a, b, style="table", size="16 B")
    assert 18 < ev.low <= ev.estimate <= ev.high < 22
    assert ev.control_low < 0 < ev.control_high
    assert ev == V.speed_evidence("x", old, new, a, b, style="table", size="16 B")   # seeded


def test_the_real_claims_file_loads():
    claims = V.load_claims()
    assert set(claims.columns) >= set(V.CLAIM_COLUMNS)


def test_methods_page_states_every_rule_and_parameter_from_the_rules_file():
    text = rules_markdown(RULES)
    for name in V.RULES:
        assert f"`{name}`" in text
    assert f"**{RULES['speed_statistic']}**" in text
    assert f"{int(RULES['bootstrap_resamples'])} seeded resamples" in text
    assert ("within each round" in text) == (RULES["speed_pairing"] == "rounds")
    changed = dict(RULES, speed_statistic="q25", speed_pairing="none",
                   rules=dict(RULES["rules"], equivalent={"margin": 0.5}))
    other = rules_markdown(changed)
    assert "**q25**" in other and "margin = 0.5" in other and "within each round" not in other


@pytest.mark.parametrize("change, match", [
    ({"speed_pairing": "trials"}, "speed_pairing must be one of rounds, none"),
    ({"speed_pairing": "rounds", "speed_statistic": "q25"}, "needs speed_statistic median or mean"),
])
def test_the_rules_file_refuses_a_pairing_it_cannot_apply(tmp_path, change, match):
    import yaml
    bad = tmp_path / "verdicts.yaml"
    bad.write_text(yaml.safe_dump(dict(RULES, **change)))
    with pytest.raises(ValueError, match=match):
        V.load_rules(bad)


def test_evidence_round_trips_through_its_table(tmp_path, monkeypatch):
    from cipherlab.pipeline import paths
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    claims = _load([claim()])
    from cipherlab.analysis import evidence as E
    monkeypatch.setattr(E, "load_claims", lambda path=None: claims)
    prof = paths.Profile("quick")
    rows = [V.Evidence("x", estimate=20.0, low=18.0, high=22.0, n=30, size="1 B", style="table", **AA)]
    V.save_evidence(rows, "c", prof)
    back = V.load_evidence(prof, ["c"])
    assert back.loc[0, "claim_id"] == "x" and back.loc[0, "n"] == 30 and back.loc[0, "style"] == "table"
    assert V.decide_all(claims, back, RULES)["verdict"].tolist() == ["reproduced"]
    with pytest.raises(ValueError, match="unknown claim"):
        V.save_evidence([V.Evidence("nope", holds=True)], "c", prof)
    with pytest.raises(FileNotFoundError, match="evidence_d"):
        V.load_evidence(prof, ["d"])


def test_verdict_html_escapes_shows_the_condition_and_links_the_section():
    claims = _load([claim(quote="a < b", section="aes2sbox-speed")])
    ev = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, size="60416 B", style="table",
                                      profile="quick", **AA)]).assign(chapter="aes2sbox")
    html = verdict_html(V.decide_all(claims, ev, RULES))
    assert "a &lt; b" in html and 'href="aes2sbox.html#aes2sbox-speed"' in html
    assert "60416 B, table style, quick" in html and MARKS["reproduced"][0] in html


def test_every_claim_names_the_section_of_a_chapter_that_writes_its_evidence():
    from cipherlab.pipeline.chapters import evidence_chapters   # the manifest's chapters that write evidence
    claims = V.load_claims()
    owners = claims["section"].str.partition("-")[0]
    assert set(owners) <= set(evidence_chapters()), sorted(set(owners) - set(evidence_chapters()))
    assert sum(len(V.claims_of_chapter(c, claims)) for c in evidence_chapters()) == len(claims)


def _declared_elsewhere(chapter: str) -> dict:
    """The claims of other papers a chapter declares it decides (``OTHER_PAPER_CLAIMS`` of its evidence module)."""
    import importlib
    try:
        module = importlib.import_module(f"cipherlab.experiments.{chapter}.evidence")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "OTHER_PAPER_CLAIMS", {}))


def test_a_claim_decided_outside_its_papers_chapters_is_declared_by_the_chapter_that_decides_it():
    """A claim's section puts it in a chapter; that chapter reads its paper (its declared ``paper`` globs), or it
    declares the claim by id, so no claim lands in another paper's chapter by a mistyped label."""
    from fnmatch import fnmatch
    from cipherlab.pipeline.chapters import load, evidence_chapters
    manifest = load()
    claims = V.load_claims()
    declared = {}
    for chapter in evidence_chapters():
        reads = manifest.chapter(chapter).paper
        mine = V.claims_of_chapter(chapter, claims)
        elsewhere = {c: p for c, p in zip(mine["claim_id"], mine["paper"])
                     if not any(fnmatch(f"{p}_claims.csv", g) for g in reads)}
        assert elsewhere == _declared_elsewhere(chapter), chapter
        declared.update(elsewhere)
    # the MixColumns premise of papers 000 and 001 is the one such case: decided where MixColumns' share is measured
    assert declared == {"000-s4-mixcolumns-most-resources": "000", "001-s4-mixcolumns-most-resources": "001"}
    assert set(claims.loc[claims["claim_id"].isin(declared), "section"]) == {"maes-steps"}


# ----------------------------------------------------------------------------- the table of meanings, rule by rule
# Every word each rule can give, on synthetic evidence (A/A band +-2 unless said; no unit, so no 3 % floor).
EVERY_WORD = [
    # within_margin, directional: published 20, margin 25 % -> [15, 25], each edge +-2: within beyond the noise [17, 23]
    ("within_margin", dict(), dict(low=17.5, high=22.5, **AA), "reproduced"),
    ("within_margin", dict(), dict(low=16.0, high=24.0, **AA), "inconclusive"),   # within the noise of the edges
    ("within_margin", dict(), dict(low=13.5, high=14.5, **AA), "inconclusive"),   # outside, within an edge's noise
    ("within_margin", dict(), dict(low=30.0, high=40.0, **AA), "not reproduced"),
    ("within_margin", dict(), dict(low=-20.0, high=-10.0, **AA), "contradicted"),
    ("within_margin", dict(), dict(low=-1.0, high=1.0, **AA), "contradicted"),
    ("within_margin", dict(), dict(low=-5.0, high=40.0, **AA), "inconclusive"),
    ("within_margin", dict(published="1.5"), dict(low=-1.0, high=1.0, **AA), "reproduced"),   # as small as stated
    ("within_margin", dict(published="1.5"), dict(low=3.0, high=5.0, **AA), "not reproduced"),  # larger than stated
    ("within_margin", dict(published="1.5"), dict(low=1.0, high=5.0, **AA), "inconclusive"),    # across the edge
    ("within_margin", dict(published="3"), dict(low=-1.0, high=1.0, **AA), "inconclusive"),     # near: 1-2 h
    # ordering (null 0)
    ("ordering", dict(published="", margin=""), dict(low=5.0, high=9.0, **AA), "reproduced"),
    ("ordering", dict(published="", margin=""), dict(low=-9.0, high=-5.0, **AA), "contradicted"),
    ("ordering", dict(published="", margin=""), dict(low=-1.0, high=1.0, **AA), "inconclusive"),  # no size stated
    ("ordering", dict(published="", margin=""), dict(low=1.0, high=9.0, **AA), "inconclusive"),
    # small_effect ("slightly faster"): the band +-2 around 0
    ("small_effect", dict(published="", margin=""), dict(low=-1.0, high=1.5, **AA), "reproduced"),
    ("small_effect", dict(published="", margin=""), dict(low=3.0, high=9.0, **AA), "not reproduced"),
    ("small_effect", dict(published="", margin=""), dict(low=-9.0, high=-3.0, **AA), "contradicted"),
    ("small_effect", dict(published="", margin=""), dict(low=1.0, high=3.0, **AA), "inconclusive"),
    # a slight lead in percent beyond the band: as small as stated up to slight_pct (15), beyond it larger, across it
    # inconclusive; the reverse beyond the band still contradicts
    ("small_effect", dict(published="", margin=""), dict(low=4.0, high=11.0, unit="%", **AA), "reproduced"),
    ("small_effect", dict(published="", margin=""), dict(low=4.0, high=15.0, unit="%", **AA), "reproduced"),
    ("small_effect", dict(published="", margin=""), dict(low=15.5, high=25.0, unit="%", **AA), "not reproduced"),
    ("small_effect", dict(published="", margin=""), dict(low=10.0, high=20.0, unit="%", **AA), "inconclusive"),
    ("small_effect", dict(published="", margin=""), dict(low=-11.0, high=-4.0, unit="%", **AA), "contradicted"),
    # across the band's upper edge, none of it reversed and all of it within 15 %: as small as stated (002-t3-opt-
    # enc-slight, 1.93 % [-0.92, 5.55] against a band of +-3.18); across the lower edge it stays inconclusive
    ("small_effect", dict(published="", margin=""), dict(low=-0.9, high=5.5, unit="%", **AA), "reproduced"),
    ("small_effect", dict(published="", margin=""), dict(low=-5.0, high=1.0, unit="%", **AA), "inconclusive"),
    # a sameness of no direction (expect: either, "very close"): the same reach on either side, whatever its sign
    ("small_effect", dict(published="", margin="", expect="either"), dict(low=-4.7, high=4.6, unit="%", **AA),
     "reproduced"),
    ("small_effect", dict(published="", margin="", expect="either"), dict(low=-14.0, high=-4.0, unit="%", **AA),
     "reproduced"),
    ("small_effect", dict(published="", margin="", expect="either"), dict(low=-1.0, high=1.0, unit="%", **AA),
     "reproduced"),
    ("small_effect", dict(published="", margin="", expect="either"), dict(low=10.0, high=20.0, unit="%", **AA),
     "inconclusive"),
    ("small_effect", dict(published="", margin="", expect="either"), dict(low=-25.0, high=-16.0, unit="%", **AA),
     "contradicted"),
    ("small_effect", dict(published="", margin="", expect="either"), dict(low=16.0, high=25.0, unit="%", **AA),
     "contradicted"),
    # ordering with a stated bound: "at least 150 % faster" (null 150; band +-2 % scaled by 2.5 around 150)
    ("ordering", dict(published="150", null="150", margin=""), dict(low=160.0, high=170.0, unit="%", **AA),
     "reproduced"),
    ("ordering", dict(published="150", null="150", margin=""), dict(low=40.0, high=60.0, unit="%", **AA),
     "not reproduced"),
    ("ordering", dict(published="150", null="150", margin=""), dict(low=-60.0, high=-40.0, unit="%", **AA),
     "contradicted"),
    ("ordering", dict(published="150", null="150", margin=""), dict(low=145.0, high=155.0, unit="%", **AA),
     "inconclusive"),
    # equivalent (null 0, margin 0.01)
    ("equivalent", dict(published="", margin="0.01"), dict(low=-0.005, high=0.005), "reproduced"),
    ("equivalent", dict(published="", margin="0.01"), dict(low=0.02, high=0.03), "contradicted"),
    ("equivalent", dict(published="", margin="0.01"), dict(low=0.0, high=0.03), "inconclusive"),
    # equivalent with an A/A band (+-2): each edge of the margin +-5 carries it, within beyond the noise [-3, 3]
    ("equivalent", dict(published="", margin="5"), dict(low=-2.5, high=2.5, **AA), "reproduced"),
    ("equivalent", dict(published="", margin="5"), dict(low=-4.0, high=4.0, **AA), "inconclusive"),
    ("equivalent", dict(published="", margin="5"), dict(low=6.0, high=6.5, **AA), "inconclusive"),
    ("equivalent", dict(published="", margin="5"), dict(low=7.5, high=9.0, **AA), "contradicted"),
    # significance
    ("significance", dict(published="", margin="", alpha="0.05"), dict(low=5.0, high=9.0, p_value=0.001, **AA),
     "reproduced"),
    ("significance", dict(published="", margin="", alpha="0.05"), dict(low=-9.0, high=-5.0, p_value=0.001, **AA),
     "contradicted"),
    ("significance", dict(published="", margin="", alpha="0.05"), dict(low=-1.0, high=1.0, p_value=0.001, **AA),
     "inconclusive"),
    ("significance", dict(published="", margin="", alpha="0.05"),
     dict(low=-1.0, high=1.0, p_value=0.001, stated=23.0, **AA), "contradicted"),   # the paper's means: 23 %
    ("significance", dict(published="", margin="", alpha="0.05"), dict(low=1.0, high=9.0, p_value=0.001, **AA),
     "inconclusive"),
    # pvalue, holds, not_testable
    ("pvalue", dict(published="", margin="", alpha="0.01", expect="retain"), dict(p_value=0.5), "reproduced"),
    ("pvalue", dict(published="", margin="", alpha="0.01", expect="retain"), dict(p_value=0.001), "contradicted"),
    ("holds", dict(published="", margin=""), dict(holds=True), "reproduced"),
    ("holds", dict(published="", margin=""), dict(holds=False), "contradicted"),
]


@pytest.mark.parametrize("rule, claim_kw, ev, expected", EVERY_WORD,
                         ids=[f"{r}-{e}-{i}" for i, (r, _, _, e) in enumerate(EVERY_WORD)])
def test_every_word_under_every_rule(rule, claim_kw, ev, expected):
    assert decide(claim(rule=rule, **claim_kw), estimate=(ev.get("low", 0) + ev.get("high", 0)) / 2, **ev) == expected


def test_each_rule_gives_each_word_it_can():
    """The table above is complete: every rule reaches every word the table of meanings lets it reach."""
    reach = {}
    for rule, _, _, word in EVERY_WORD:
        reach.setdefault(rule, set()).add(word)
    interval = {"reproduced", "not reproduced", "contradicted", "inconclusive"}
    assert reach["within_margin"] == interval and reach["ordering"] == interval
    assert reach["small_effect"] == interval
    assert reach["significance"] == interval - {"not reproduced"}      # states no size
    assert reach["equivalent"] == interval - {"not reproduced"}
    assert reach["pvalue"] == reach["holds"] == {"reproduced", "contradicted"}


def test_a_tie_inside_the_band_means_the_same_word_under_every_interval_rule_for_the_same_stated_size():
    tie = dict(estimate=0.0, low=-1.0, high=1.0, p_value=0.5, **AA)
    clear = {decide(claim(), **tie),                                             # published 20, band +-2
             decide(claim(rule="ordering", published="", margin=""), stated=20.0, **tie),
             decide(claim(rule="significance", published="", margin="", alpha="0.05"), stated=20.0, **tie)}
    assert clear == {"contradicted"}
    small = {decide(claim(published="1"), **tie),
             decide(claim(rule="ordering", published="", margin=""), stated=1.0, **tie),
             decide(claim(rule="significance", published="", margin="", alpha="0.05"), stated=1.0, **tie),
             decide(claim(rule="small_effect", published="", margin=""), **tie)}
    assert small == {"reproduced"}
    unstated = {decide(claim(rule="ordering", published="", margin=""), **tie),
                decide(claim(rule="significance", published="", margin="", alpha="0.05"), **tie)}
    assert unstated == {"inconclusive"}


# ----------------------------------------------------------------------------- small claimed effects, at their edges
# band +-2 (AA, no unit): small within 1 h = 2 of the null, clear beyond 2 h = 4
@pytest.mark.parametrize("stated, expected", [(2.0, "reproduced"), (2.01, "inconclusive"), (4.0, "inconclusive"),
                                              (4.01, "contradicted"), (-2.0, "reproduced")])
def test_no_effect_contradicts_only_a_stated_effect_clearly_beyond_the_band(stated, expected):
    assert decide(claim(rule="ordering", published="", margin=""), estimate=0.5, low=0.0, high=1.0, stated=stated,
                  **AA) == expected


@pytest.mark.parametrize("lo, hi, expected", [(-2.0, 2.0, "reproduced"), (-2.0, 2.01, "inconclusive"),
                                              (2.01, 3.0, "not reproduced"), (-3.0, -2.01, "contradicted")])
def test_a_small_stated_gap_is_decided_on_the_band_at_its_edges(lo, hi, expected):
    """003-t7-order: the paper prints CCM 1.42 % faster than EAX, a gap below the floor; ours 1.38 % agrees."""
    assert decide(claim(rule="ordering", published="", margin=""), estimate=(lo + hi) / 2, low=lo, high=hi,
                  stated=1.42, **AA) == expected


def test_the_small_effect_sizes_come_from_the_rules_file():
    wider = dict(RULES, small_effect={"small": 3.0, "clear": 4.0})
    c = _load([claim(rule="ordering", published="", margin="")]).iloc[0]
    ev = V.Evidence("x", estimate=0.5, low=0.0, high=1.0, stated=5.0, **AA)
    assert V.decide(c, ev, RULES).verdict == "contradicted"     # 5 > 2 x 2
    assert V.decide(c, ev, wider).verdict == "reproduced"       # 5 <= 3 x 2: small


# ----------------------------------------------------------------------------- machine-bound sizes
def _machine(lo, hi, rule="within_margin", **kw):
    c = _load([claim(rule=rule, carries="direction", **kw)]).iloc[0]
    return V.decide(c, V.Evidence("x", estimate=(lo + hi) / 2, low=lo, high=hi, unit="%", control_low=-2.0,
                                  control_high=2.0), RULES)


@pytest.mark.parametrize("lo, hi, verdict, outcome", [
    (19.0, 21.0, "machine-bound", "agrees_here"),     # published 20 +- 25 %, each edge with its band
    (40.0, 50.0, "machine-bound", "differs_here"),    # the direction holds: a size of this machine, never refuted
    (5.0, 9.0, "machine-bound", "differs_here"),
    (16.0, 24.0, "machine-bound", "unclear_here"),
    (-9.0, -5.0, "contradicted", "reversed"),         # the direction carries over: it is decided
    (-1.0, 1.0, "contradicted", "no_effect"),         # a clear claimed effect, none beyond the noise
    (1.0, 9.0, "inconclusive", "undecided"),          # the direction itself not established
])
def test_a_machine_bound_size_is_counted_apart_and_its_direction_decided(lo, hi, verdict, outcome):
    d = _machine(lo, hi)
    assert (d.verdict, d.outcome) == (verdict, outcome)
    if verdict == "machine-bound":
        assert "on this machine" in d.reason and "not reproduced" not in d.reason


@pytest.mark.parametrize("lo, hi, outcome", [(170.0, 180.0, "agrees_here"), (40.0, 60.0, "differs_here"),
                                             (-60.0, -40.0, "reversed")])
def test_a_machine_bound_bound_agrees_or_differs_on_this_machine(lo, hi, outcome):
    assert _machine(lo, hi, rule="ordering", published="150", null="150", margin="").outcome == outcome


def test_a_machine_bound_status_is_shown_with_its_place_and_counted_apart():
    claims = _load([claim(carries="direction")])
    ev = V.evidence_frame([V.Evidence("x", estimate=45.0, low=40.0, high=50.0, unit="%", **AA)]).assign(chapter="c")
    out = V.decide_all(claims, ev, RULES)
    assert out.loc[0, "shown"] == "machine-bound: differs on this machine"
    counts = V.verdict_counts(out, statuses=True)
    assert counts.loc["all", "total"] == 0 and counts.loc["all", V.MACHINE_BOUND] == 1


@pytest.mark.parametrize("field, value, match", [("carries", "", "carries must be one of"),
                                                 ("carries", "nothing", "not_testable"),
                                                 ("readings", "some", "readings must be")])
def test_the_registry_refuses_what_carries_and_readings_cannot_mean(field, value, match):
    with pytest.raises(ValueError, match=match):
        _load([claim(**{field: value})])


@pytest.mark.parametrize("lo, hi, outcome", [(35.0, 47.0, "differs_here"), (5.0, 11.0, "agrees_here"),
                                             (10.0, 20.0, "unclear_here"), (-1.0, 1.0, "as_small_as_stated"),
                                             (-9.0, -4.0, "reversed")])
def test_a_slight_effect_between_two_code_paths_is_said_on_this_machine_once_its_direction_holds(lo, hi, outcome):
    got = _machine(lo, hi, rule="small_effect", published="", margin="").outcome
    assert got == outcome


def test_the_registry_refuses_a_direction_small_effect_cannot_mean():
    with pytest.raises(ValueError, match="small_effect takes expect = either"):
        _load([claim(rule="small_effect", published="", margin="", expect="reject")])


def test_a_sameness_beyond_the_band_says_so_in_its_reason():
    claims = _load([claim(rule="small_effect", published="", margin="", expect="either")])
    ev = V.evidence_frame([V.Evidence("x", estimate=-0.4, low=-4.7, high=4.6, unit="%", **AA)]).assign(chapter="c")
    reason = V.decide_all(claims, ev, RULES).loc[0, "reason"]
    assert "whatever its sign" in reason and "inside this machine" not in reason.split("though")[0]


def test_an_absolute_number_is_never_covered_by_a_ratio_row():
    with pytest.raises(ValueError, match="never covered"):
        _load([claim(), claim(claim_id="y", rule="not_testable", carries="nothing", note="a laptop's time",
                              covered_by="x", published="", margin="")])


# ----------------------------------------------------------------------------- stand-ins, proxies, bounds
def test_a_stand_in_illustrates_and_never_decides():
    claims = _load([claim(rule="ordering", published="", margin="")])
    ev = V.evidence_frame([V.Evidence("x", estimate=-50.0, low=-55.0, high=-45.0, stand_in="our modified key "
                                      "expansion", **AA)]).assign(chapter="c")
    row = V.decide_all(claims, ev, RULES).iloc[0]
    assert row["verdict"] == "not testable" and row["outcome"] == "stand_in" and "stand-in" in row["reason"]
    assert row["ours"].startswith("-50")
    # beside a row of the paper's own construction, the stand-in is shown and the other decides
    both = V.evidence_frame([V.Evidence("x", estimate=-50.0, low=-55.0, high=-45.0, stand_in="ours", reading="a",
                                        **AA),
                             V.Evidence("x", estimate=20.0, low=18.0, high=22.0, reading="b", **AA)])
    row = V.decide_all(claims, both.assign(chapter="c"), RULES).iloc[0]
    assert row["verdict"] == "reproduced" and "stand-in, not deciding" in row["other"]


def test_a_declared_proxy_decides_and_its_label_says_what_it_stands_for():
    claims = _load([claim(condition="size=16 B")])
    ev = V.Evidence("x", estimate=20.0, low=18.0, high=22.0, size="1048576 B, per block", proxy_for="size=16 B",
                    proxy_why="one block's call is mostly call overhead", **AA)
    row = V.decide_all(claims, V.evidence_frame([ev]).assign(chapter="c"), RULES).iloc[0]
    assert row["verdict"] == "reproduced"
    assert "a proxy for 16 B: one block's call is mostly call overhead" in row["measured"]
    assert "proxy for 16 B" in row["reason"]
    plain = V.Evidence("x", estimate=20.0, low=18.0, high=22.0, size="1048576 B, per block", **AA)
    assert V.decide_all(claims, V.evidence_frame([plain]).assign(chapter="c"), RULES)["verdict"].iloc[0] \
        == V.NOT_AT_CONDITION
    with pytest.raises(ValueError, match="together"):
        V.Evidence("x", proxy_for="size=16 B")


@pytest.mark.parametrize("bound, lo, hi, expected", [
    ("lower", 5.0, 9.0, "reproduced"),         # a lower bound above the band: the quantity is above it too
    ("lower", -9.0, -5.0, "inconclusive"),     # a lower bound below: says nothing of the quantity
    ("upper", -9.0, -5.0, "contradicted"),     # an upper bound below the band: the quantity is below it too
    ("upper", 5.0, 9.0, "inconclusive"),
])
def test_a_bound_decides_only_in_its_own_direction(bound, lo, hi, expected):
    assert decide(claim(rule="ordering", published="", margin=""), estimate=lo, low=lo, high=hi, bound=bound,
                  **AA) == expected


# ----------------------------------------------------------------------------- readings: most
@pytest.mark.parametrize("words, how, expected", [
    (["reproduced", "reproduced", "contradicted"], "most", "reproduced"),
    (["reproduced", "reproduced", "contradicted"], "every", "contradicted"),
    (["reproduced", "inconclusive", "contradicted", "contradicted"], "most", "contradicted"),
    (["reproduced", "reproduced", "inconclusive", "contradicted"], "most", "inconclusive"),
    (["reproduced", "reproduced", "reproduced", "inconclusive", "contradicted"], "most", "reproduced"),
])
def test_readings_most_take_the_median_reading(words, how, expected):
    order = RULES["combine_order"]
    assert words[V.combine_verdicts(words, how, order)] == expected


def test_a_ranking_over_sizes_is_decided_by_most_sizes_not_the_smallest_gap():
    """003-t2-tp-order-enc: CCM faster than EAX by +47 % at 0.1 MB falling to +1.5 % at 5 MB."""
    rows = [dict(reading=f"size={s} B", size=f"{s} B", estimate=e, low=e - 2, high=e + 2)
            for s, e in ((100000, 47.0), (500000, 20.0), (1000000, 9.0), (3000000, 5.5), (5000000, 1.5))]
    row = _readings(*rows, rule="ordering", published="", margin="", readings="most")
    assert row["verdict"] == "reproduced"
    assert _readings(*rows, rule="ordering", published="", margin="")["verdict"] == "inconclusive"


def test_the_words_come_from_the_table_of_meanings_alone():
    for word, entry in RULES["verdicts"].items():
        for outcome in entry["outcomes"]:
            assert V.verdict_of(outcome, RULES) == word
    swapped = dict(RULES, verdicts={**RULES["verdicts"],
                                    "not reproduced": {**RULES["verdicts"]["not reproduced"], "outcomes": []},
                                    "inconclusive": {**RULES["verdicts"]["inconclusive"],
                                                     "outcomes": ["undecided", "claim_in_noise", "too_noisy",
                                                                  "size_excluded"]}})
    c = _load([claim()]).iloc[0]
    assert V.decide(c, V.Evidence("x", estimate=35.0, low=30.0, high=40.0, **AA), swapped).verdict == "inconclusive"


def test_the_band_is_scaled_at_a_non_zero_null_not_added():
    # +-3 % around a claimed 809 % is +-3 x 9.09 = +-27.3 points: 830 is inside it, 840 beyond
    c = claim(rule="ordering", published="809", null="809", margin="")
    assert decide(c, estimate=830.0, low=825.0, high=835.0, control_low=-3.0, control_high=3.0, unit="%") \
        == "inconclusive"
    assert decide(c, estimate=845.0, low=840.0, high=850.0, control_low=-3.0, control_high=3.0, unit="%") \
        == "reproduced"


def test_the_noise_limit_is_relative_to_the_effect():
    wide = dict(control_low=-25.0, control_high=25.0, unit="%")
    # an effect 20x the band is decided, a small one touching the band is not (one wholly beyond it is)
    assert decide(claim(rule="ordering", published="", margin=""), estimate=500.0, low=480.0, high=520.0,
                  **wide) == "reproduced"
    assert decide(claim(rule="ordering", published="", margin=""), estimate=50.0, low=20.0, high=80.0,
                  **wide) == "inconclusive"
    # a claimed 500 % against a measured nothing: the claim is 20x the band, so its absence is decided
    assert decide(claim(published="500"), estimate=0.0, low=-5.0, high=5.0, **wide) == "contradicted"


def test_an_exact_value_is_its_own_interval():
    c = claim(published="-128", null="", margin="0.01", unit="log2")
    assert decide(c, estimate=-128.0, unit="log2") == "reproduced"
    assert decide(c, estimate=128.0, unit="log2") == "not reproduced"


# ----------------------------------------------------------------------------- reasons agree with their numbers
hyp = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

_num = st.floats(-300, 300, allow_nan=False, allow_infinity=False)


def _check_reason(reason, lo, hi, a, b, outcome):
    if outcome not in ("claim_in_noise", "too_noisy"):
        assert f"[{V._fmt(lo)}, {V._fmt(hi)}]" in reason or lo == hi, reason
    if " within the A/A noise band" in reason:
        assert a <= lo and hi <= b, reason
    if " above the A/A noise band" in reason:
        assert lo > b, reason
    if " below the A/A noise band" in reason:
        assert hi < a, reason
    if "(the opposite direction)" in reason:
        assert "reverse" in reason


@settings(max_examples=300, deadline=None)
@given(lo=_num, width=st.floats(0, 100), h=st.floats(0.5, 15), published=_num.filter(lambda x: abs(x) > 1e-3),
       rule=st.sampled_from(["within_margin", "ordering", "significance"]), p=st.floats(0, 1))
def test_a_reason_says_where_the_interval_lies_as_it_does(lo, width, h, published, rule, p):
    hi = lo + width
    kw = dict(published=str(published)) if rule == "within_margin" else dict(published="", margin="", alpha="0.05")
    c = _load([claim(rule=rule, **kw)]).iloc[0]
    d = V.decide(c, V.Evidence("x", estimate=(lo + hi) / 2, low=lo, high=hi, p_value=p, control_low=-h,
                               control_high=h), RULES)
    _check_reason(d.basis, lo, hi, -h, h, d.outcome)
    side = 1 if (rule != "within_margin" or published >= 0) else -1
    # the word agrees with the place the reason names
    if d.outcome == "as_small_as_stated":      # a claimed effect inside the band: ours inside it too
        assert -h <= lo and hi <= h and abs(published) <= h
    elif d.verdict == "reproduced":
        assert (lo > h) if side > 0 else (hi < -h)
    if d.verdict == "contradicted":
        assert (hi <= h) if side > 0 else (lo >= -h)
        assert "no effect beyond the noise" in d.basis or "reverse of the claim" in d.basis
        assert "opposite of the claim" in d.reason or "no larger than" in d.reason


def test_the_sha3_reason_names_the_reverse_and_never_no_effect():
    """The reason of issue 22: an interval far below the band was called 'no effect beyond the band'."""
    c = _load([claim(published="100", margin="0.25")]).iloc[0]
    d = V.decide(c, V.Evidence("x", estimate=-80.5, low=-80.8, high=-80.1, control_low=-3.0, control_high=3.0,
                               unit="%"), RULES)
    assert d.verdict == "contradicted" and "below the A/A noise band" in d.basis and "reverse" in d.basis
    assert "no effect" not in d.basis and "opposite of the claim" in d.reason


@pytest.mark.parametrize("column, owner", [("reference", "the reference 50 %"), ("AES-2SBox", "the paper's 50 %")])
def test_a_reason_names_a_quoted_reference_value_as_the_references_and_a_printed_one_as_the_papers(
        column, owner, monkeypatch):
    """000's avalanche claim: the 50 % is the literature's yardstick the paper quotes (its transcription column
    is ``reference``), not a figure of the paper's; the same number printed as the paper's own is the paper's."""
    from cipherlab.analysis import claims as C
    monkeypatch.setattr(C, "_published_from_source", lambda paper, source: ("50", "%"))
    c = _load([claim(published="", source=f"Section 8 (prose)|minimum expected avalanche|{column}")]).iloc[0]
    for lo, hi in ((3.1, 3.2), (48.0, 52.0)):      # far below the margin; inside it
        d = V.decide(c, V.Evidence("x", estimate=(lo + hi) / 2, low=lo, high=hi, unit="%"), RULES)
        assert owner in d.reason, d.reason
        other = "the paper's" if column == "reference" else "the reference"
        assert other not in d.reason


def test_a_reason_without_a_control_names_the_no_effect_value():
    c = _load([claim(rule="ordering", published="", margin="")]).iloc[0]
    d = V.decide(c, V.Evidence("x", estimate=0.0002, low=0.0001, high=0.0003, unit="bits"), RULES)
    assert "no-effect value 0" in d.basis and "no noise band" not in d.basis and d.verdict == "reproduced"
    assert "beyond the no-effect value" in d.reason


# ----------------------------------------------------------------------------- statuses: covered, not at condition
def test_a_covered_claim_is_shown_by_its_covering_row_and_counted_apart():
    claims = _load([claim(), claim(claim_id="y", rule="not_testable", published="", margin="", note="absolute",
                                   covered_by="x", tier="supporting")])
    ev = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, **AA)]).assign(chapter="c")
    out = V.decide_all(claims, ev, RULES).set_index("claim_id")
    assert out.loc["y", "verdict"] == V.COVERED and out.loc["y", "basis"] == "covered by x"
    assert out.loc["y", "reason"] == "The quantity: tested at x, which decides the same sentence."
    counts = V.verdict_counts(out.reset_index())
    assert counts.loc["all", "total"] == 1 and counts.loc["all", "apart"] == 1
    detail = V.verdict_counts(out.reset_index(), statuses=True)
    assert detail.loc["all", V.COVERED] == 1 and detail.loc["all", V.NOT_AT_CONDITION] == 0


@pytest.mark.parametrize("target, match", [("y", "another claim id"), ("nope", "another claim id"),
                                           ("z", "itself covered")])
def test_covered_by_must_name_a_deciding_row(target, match):
    rows = [claim(claim_id="y", covered_by=target), claim(claim_id="z", covered_by="w"), claim(claim_id="w")]
    with pytest.raises(ValueError, match=match):
        _load(rows)


def test_evidence_at_another_condition_never_decides():
    claims = _load([claim(condition="size=5 MB")])
    small = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, size="1000 B", **AA)])
    out = V.decide_all(claims, small.assign(chapter="c"), RULES)
    assert out["verdict"].tolist() == [V.NOT_AT_CONDITION]
    assert "1000 B" in out["basis"].iloc[0] and "within ±25%" in out["basis"].iloc[0]    # what it measured
    assert "measured only at 1000 B" in out["reason"].iloc[0]
    assert out["ours"].iloc[0].startswith("20")
    big = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, size="5000000 B", **AA)])
    assert V.decide_all(claims, big.assign(chapter="c"), RULES)["verdict"].tolist() == ["reproduced"]
    assert V.verdict_counts(out).loc["all", "total"] == 0


def test_a_condition_names_valid_terms():
    with pytest.raises(ValueError, match="condition"):
        _load([claim(condition="colour=red")])
    with pytest.raises(ValueError, match="one size"):
        _load([claim(condition="size=big")])


# ----------------------------------------------------------------------------- readings
def _readings(*rows, **claim_kw):
    claims = _load([claim(**claim_kw)])
    ev = V.evidence_frame([V.Evidence("x", **AA, **r) for r in rows]).assign(chapter="c")
    return V.decide_all(claims, ev, RULES).iloc[0]


def test_readings_combine_by_the_declared_rule_every_reading_must_hold():
    good = dict(estimate=20.0, low=18.0, high=22.0)
    bad = dict(estimate=0.0, low=-1.0, high=1.0)
    row = _readings(dict(reading="mode=cbc", mode="cbc", **good), dict(reading="mode=ctr", mode="ctr", **bad))
    assert row["verdict"] == "contradicted" and row["reading"] == "mode=ctr"
    assert "mode=cbc: reproduced" in row["basis"] and "under mode=ctr" in row["reason"]
    row = _readings(dict(reading="mode=cbc", mode="cbc", **good), dict(reading="mode=ctr", mode="ctr", **good))
    assert row["verdict"] == "reproduced" and row["reading"].startswith("every reading")


def test_under_most_a_machine_bound_reading_is_no_reproduced_one():
    small, beyond = dict(estimate=0.0, low=-1.0, high=1.0), dict(estimate=41.0, low=35.0, high=47.0)
    kw = dict(rule="small_effect", published="", margin="", carries="direction")
    # 1 reproduced and 2 machine-bound of 3: most readings are not reproduced outright, so the whole is the machine's
    row = _readings(dict(reading="size=1", **beyond), dict(reading="size=2", **beyond), dict(reading="size=3", **small),
                    readings="most", **kw)
    assert (row["verdict"], row["outcome"]) == ("machine-bound", "differs_here")
    assert "1 reproduced; a reading whose size belongs to the machine never counts as reproduced" in row["reason"]
    # 2 reproduced of 3: most readings reproduce; the reason counts the machine-bound one apart
    row = _readings(dict(reading="size=1", **beyond), dict(reading="size=2", **small), dict(reading="size=3", **small),
                    readings="most", **kw)
    assert row["verdict"] == "reproduced"
    assert ("most readings decide: 2 of 3 readings give reproduced and 1 machine-bound, whose size belongs to the "
            "machine") in row["reason"]


def test_under_every_a_machine_bound_reading_never_counts_as_reproduced():
    small, beyond = dict(estimate=0.0, low=-1.0, high=1.0), dict(estimate=41.0, low=35.0, high=47.0)
    slight = dict(estimate=8.0, low=6.0, high=10.0, unit="%")
    kw = dict(rule="small_effect", published="", margin="", carries="direction")
    # two readings reproduce, one is the machine's size beyond a slight effect: the whole is the machine's
    row = _readings(dict(reading="size=1", **beyond), dict(reading="size=2", **small), dict(reading="size=3", **small),
                    **kw)
    assert (row["verdict"], row["outcome"], row["reading"]) == ("machine-bound", "differs_here", "size=1")
    assert "never counts as reproduced" in row["reason"]
    # the least favourable machine outcome decides among machine-bound readings (differs before agrees)
    row = _readings(dict(reading="size=1", **slight), dict(reading="size=2", **beyond), **kw)
    assert (row["verdict"], row["outcome"]) == ("machine-bound", "differs_here")
    row = _readings(dict(reading="size=1", **slight), dict(reading="size=2", **small), **kw)
    assert (row["verdict"], row["outcome"]) == ("machine-bound", "agrees_here")
    # a counted verdict against the claim still decides before any machine-bound reading
    row = _readings(dict(reading="size=1", **beyond), dict(reading="size=2", estimate=-6.0, low=-8.0, high=-4.0), **kw)
    assert row["verdict"] == "contradicted"
    # every reading reproduced: reproduced, as before
    assert _readings(dict(reading="size=1", **small), dict(reading="size=2", **small), **kw)["verdict"] == "reproduced"


@pytest.mark.parametrize("lo, hi, outcome", [(5.0, 11.0, "agrees_here"), (-4.0, 4.0, "agrees_here"),
                                             (35.0, 47.0, "differs_here"), (-47.0, -35.0, "differs_here"),
                                             (10.0, 20.0, "unclear_here")])
def test_a_sameness_between_two_code_paths_is_said_on_this_machine(lo, hi, outcome):
    got = _machine(lo, hi, rule="small_effect", published="", margin="", expect="either")
    assert (got.verdict, got.outcome) == ("machine-bound", outcome)
    assert "within ±15 %" in got.reason


@pytest.mark.parametrize("lo, hi, carries, verdict, outcome", [
    (100.0, 130.0, "size", "reproduced", "established"),          # under the upper bound 340, the direction held
    (400.0, 450.0, "size", "not reproduced", "size_excluded"),    # above the upper bound, beyond its band
    (330.0, 350.0, "size", "inconclusive", "undecided"),          # across the bound's band
    (-30.0, -20.0, "size", "contradicted", "reversed"),           # the direction itself fails
    (-1.0, 1.0, "size", "contradicted", "no_effect"),
    (100.0, 130.0, "direction", "machine-bound", "agrees_here"),
    (400.0, 450.0, "direction", "machine-bound", "differs_here"),
    (330.0, 350.0, "direction", "machine-bound", "unclear_here"),
    (-30.0, -20.0, "direction", "contradicted", "reversed"),
])
def test_an_upper_bound_holds_below_it_and_fails_above_it(lo, hi, carries, verdict, outcome):
    c = _load([claim(rule="ordering", published="340", null="340", margin="", expect="at_most",
                     carries=carries)]).iloc[0]
    d = V.decide(c, V.Evidence("x", estimate=(lo + hi) / 2, low=lo, high=hi, unit="%", control_low=-2.0,
                               control_high=2.0), RULES)
    assert (d.verdict, d.outcome) == (verdict, outcome)
    if outcome in ("established", "agrees_here", "differs_here"):
        assert "upper" in d.reason and "340" in d.reason


def test_readings_the_paper_leaves_open_give_a_verdict_only_where_every_fair_reading_reaches_it():
    good, bad = dict(estimate=20.0, low=18.0, high=22.0), dict(estimate=0.0, low=-1.0, high=1.0)
    far = dict(estimate=40.0, low=39.0, high=41.0)             # beyond the size, the direction held: not reproduced

    def opened(*rows):
        return _readings(*(dict(reading=f"r={i}", **r) for i, r in enumerate(rows)), readings="open")
    assert opened(good, good)["verdict"] == "reproduced"
    assert opened(bad, bad)["verdict"] == "contradicted"
    # a fair reading holds where another fails: the sentence's meaning would decide, and the paper does not give it
    row = opened(good, bad)
    assert row["verdict"] == "inconclusive" and row["outcome"] == "readings_disagree"
    assert "the paper leaves open which of 2 readings it means, and they disagree (r=0: reproduced, " \
           "r=1: contradicted)" in row["reason"]
    # the row shows every reading's figure, not one reading's beside "inconclusive", and the A/A control
    assert row["ours"] == "r=0: 20 [18, 22]; r=1: 0 [-1, 1]" and row["control"] == "[-2, 2]"
    assert "r=1: 0 [-1, 1] (A/A control [-2, 2]), contradicted" in row["reason"]
    assert _readings(dict(reading="r=0", **good), dict(reading="r=1", **bad))["verdict"] == "contradicted"  # every
    # every reading against the claim: the mildest verdict against it, the one every reading supports
    row = opened(bad, far)
    assert row["verdict"] == "not reproduced" and row["reading"] == "r=1" and "each against the claim" in row["reason"]
    assert V.verdict_of("readings_disagree", RULES) == "inconclusive"


def test_decided_by_admits_the_plausible_readings_and_shows_the_others():
    good = dict(estimate=20.0, low=18.0, high=22.0)
    bad = dict(estimate=0.0, low=-1.0, high=1.0)
    row = _readings(dict(reading="mode=ecb", mode="ecb", **bad), dict(reading="mode=cbc", mode="cbc", **good),
                    dict(reading="mode=ctr", mode="ctr", **good), decided_by="mode=cbc|ctr")
    assert row["verdict"] == "reproduced" and "mode=ecb" in row["other"] and "contradicted" in row["other"]


def test_per_size_readings_outside_the_claims_sizes_do_not_decide():
    good = dict(estimate=20.0, low=18.0, high=22.0)
    bad = dict(estimate=-20.0, low=-22.0, high=-18.0)
    row = _readings(dict(reading="size=1000 B", size="1000 B", **bad), dict(reading="size=0.1 MB", size="100000 B",
                                                                             **good),
                    dict(reading="size=5 MB", size="5000000 B", **good), condition="size=0.1 MB|5 MB")
    assert row["verdict"] == "reproduced" and f"size=1000 B: -20 [-22, -18] → {V.NOT_AT_CONDITION}" in row["other"]


def test_several_rows_without_readings_are_an_error():
    with pytest.raises(ValueError, match="reading"):
        _readings(dict(estimate=1.0, low=0.0, high=2.0), dict(estimate=1.0, low=0.0, high=2.0, style="table"))


# ----------------------------------------------------------------------------- misprints and the rendered table
def test_a_claim_read_under_a_misprint_shows_it_on_its_row():
    claims = V.load_claims()
    row = claims[claims["claim_id"] == "003-s52-approx-2-128"]
    ev = V.evidence_frame([V.Evidence("003-s52-approx-2-128", estimate=-128.0, unit="log2")]).assign(chapter="aead")
    out = V.decide_all(row, ev, RULES).iloc[0]
    assert out["verdict"] == "reproduced" and "read as -128" in out["misprint"] and "Section 6" in out["misprint"]


def test_every_paper_has_a_misprints_file_and_every_entry_gives_its_evidence():
    """Every paper has the file (a paper with no documented misprint has its header only: a figure the paper
    prints alike in several places is its error, read as printed, never a misprint)."""
    from cipherlab.pipeline.paths import PAPER_DATA_DIR
    for paper in ("000", "001", "002", "003"):
        df = pd.read_csv(PAPER_DATA_DIR / f"{paper}_misprints.csv", dtype=str, keep_default_na=False)
        assert list(df.columns) == ["paper", "table", "row", "column", "value", "unit", "note"]
        assert df["table"].str.endswith("(misprints)").all()
        assert df["note"].str.contains("printed|Section|Table|arithmetic").all()


def _contributing_block() -> str:
    from cipherlab.pipeline.paths import ROOT
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start, end = "<!-- verdict-meanings: rendered from config/verdicts.yaml -->\n", "<!-- /verdict-meanings -->"
    return text[text.index(start) + len(start):text.index(end)]


def test_contributing_and_the_methods_page_hold_the_one_table_of_meanings():
    table = meanings_markdown(RULES)
    assert _contributing_block().strip() == table.strip()
    assert table in rules_markdown(RULES)
    for word in RULES["verdicts"]:
        assert f"*{word}*" in table


def test_every_real_claim_has_a_tier_and_a_valid_condition():
    claims = V.load_claims()
    papers = claims[claims["scope"] == "claim"]
    assert papers["tier"].isin(("headline", "supporting")).all()
    assert claims["tier"].isin(("headline", "supporting", "")).all()
    with pytest.raises(ValueError, match="tier must be one of"):
        _load([claim(tier="")])
    with pytest.raises(ValueError, match="tier must be one of"):
        _load([claim(tier="main")])


def test_side_verdicts_under_other_styles_respect_the_claims_direction():
    """A 2.8x slowdown in another style, however significant, is shown as contradicting "significantly faster"."""
    claims = _load([claim(rule="significance", published="", margin="", alpha="0.05", decided_by="style=reference")])
    ev = V.evidence_frame([
        V.Evidence("x", estimate=20.0, low=18.0, high=22.0, p_value=0.001, style="reference", **AA),
        V.Evidence("x", estimate=-64.0, low=-65.0, high=-63.0, p_value=1e-9, style="table", **AA),
    ]).assign(chapter="c")
    out = V.decide_all(claims, ev, RULES).iloc[0]
    assert out["verdict"] == "reproduced" and "table: -64 [-65, -63] → contradicted" in out["other"]


def test_the_verdict_table_writes_the_statuses_as_the_table_of_meanings_shows_them():
    claims = _load([claim(condition="size=5 MB"), claim(claim_id="y", covered_by="x", rule="not_testable",
                                                        published="", margin="", note="n")])
    ev = V.evidence_frame([V.Evidence("x", estimate=20.0, low=18.0, high=22.0, size="1000 B", **AA)])
    html = verdict_html(V.decide_all(claims, ev.assign(chapter="c"), RULES))
    import html as _html
    assert badge(V.COVERED, "covered by x") in html
    assert badge(V.NOT_AT_CONDITION, RULES['verdicts'][V.NOT_AT_CONDITION]['shown']) in html
    assert _html.escape(RULES['verdicts'][V.NOT_AT_CONDITION]['shown']) in html


@pytest.mark.parametrize("h, published, lo, hi, expected", [
    (20.0, "3", -1.0, 1.0, "reproduced"),        # a band of exactly +-20 % is not too noisy: as small as stated
    (20.5, "3", -1.0, 1.0, "inconclusive"),      # just wider: a size within the noise cannot be shown
    (25.0, "250", -1.0, 1.0, "contradicted"),    # the claimed effect exactly 10x the band: its absence shows
    (25.1, "250", -1.0, 1.0, "inconclusive"),    # just under 10x
    (20.5, "", 49.0, 51.0, "reproduced"),        # wholly beyond a band wider than the limit: the effect shows
    (20.5, "", 20.0, 51.0, "inconclusive"),      # touching that band: the limit applies
])
def test_the_noise_limit_boundaries(h, published, lo, hi, expected):
    c = claim(rule="ordering", published="", margin="") if not published else claim(published=published)
    assert decide(c, estimate=(lo + hi) / 2, low=lo, high=hi, control_low=-h, control_high=h, unit="%") == expected


@pytest.mark.parametrize("lo, expected", [(162.5, "inconclusive"), (162.6, "reproduced")])
def test_the_scaled_band_edge_at_a_bound(lo, expected):
    # "at least 150 %" with an A/A band of +-5 %: around 150 the band is +-5 x 2.5 = 137.5 .. 162.5,
    # and an interval starting on its upper edge is not beyond it
    c = claim(rule="ordering", published="150", null="150", margin="")
    assert decide(c, estimate=lo + 5, low=lo, high=lo + 10, control_low=-5.0, control_high=5.0, unit="%") == expected


def test_evidence_in_another_unit_than_the_claims_is_an_error():
    with pytest.raises(ValueError, match="evidence in 'bits' for a claim in '%'"):
        decide(claim(unit="%"), estimate=20.0, low=18.0, high=22.0, unit="bits")


# ----------------------------------------------------------------------------- against the naive reference
import naive  # noqa: E402


@settings(max_examples=400, deadline=None)
@given(lo=st.floats(-30, 30, allow_nan=False), width=st.floats(0, 30), h=st.floats(0.5, 10),
       stated=st.one_of(st.none(), st.floats(-40, 40, allow_nan=False)))
def test_an_ordering_decides_as_the_naive_reading_of_the_table_of_meanings(lo, width, h, stated):
    hi = lo + width
    got = decide(claim(rule="ordering", published="", margin=""), estimate=(lo + hi) / 2, low=lo, high=hi,
                 control_low=-h, control_high=h, stated=stated)
    assert got == naive.ordering_word(lo, hi, h, stated), (lo, hi, h, stated)


@settings(max_examples=300, deadline=None)
@given(lo=st.floats(-30, 60, allow_nan=False), width=st.floats(0, 30), h=st.floats(0.5, 5),
       published=st.floats(12, 50))
def test_a_machine_bound_size_never_gets_a_word_of_the_size(lo, width, h, published):
    hi = lo + width
    got = decide(claim(published=str(published), carries="direction"), estimate=(lo + hi) / 2, low=lo, high=hi,
                 control_low=-h, control_high=h)
    assert got == naive.machine_bound_word(lo, hi, h, published, 0.25), (lo, hi, h, published)
    assert got != "not reproduced"


def test_a_whole_number_is_shown_in_full_not_rounded_to_three_figures():
    from cipherlab.analysis.compare import fmt
    assert fmt(2001.0) == "2001" and fmt(4096) == "4096" and fmt(-12.0) == "-12"
    assert fmt(2001.5) == "2e+03" and fmt(0.15625) == "0.156" and fmt(1e9) == "1e+09"


def test_among_readings_of_one_verdict_the_least_favourable_interval_is_shown():
    """'Every step must rise': three inconclusive steps; the one reaching lowest is named, not the first."""
    assert V.combine_verdicts(["inconclusive"] * 3, "every", RULES["combine_order"], [-1.4, 2.0, -13.3]) == 2
    assert V.combine_verdicts(["inconclusive", "reproduced"], "every", RULES["combine_order"], [5.0, -9.0]) == 0
    c = _load([claim(rule="ordering", published="", margin="", unit="%")]).iloc[0]
    rows = V.evidence_frame([V.Evidence("x", estimate=e, low=lo, high=hi, unit="%", reading=r, statistic="size_change")
                             for e, lo, hi, r in ((7.6, -1.4, 17.5, "step=1"), (-5.7, -13.3, 2.5, "step=2"))])
    picked, decision, label = V._combine(c, rows, RULES)
    assert picked["reading"] == "step=2" and decision.verdict == "inconclusive" and "-13.3" in decision.basis


# ----------------------------------------------------------------------------- readings: any (same-path speed-ups)
@pytest.mark.parametrize("words, expected", [
    (["not reproduced", "contradicted", "contradicted"], "not reproduced"),
    (["contradicted", "reproduced", "inconclusive"], "reproduced"),
    (["contradicted", "inconclusive"], "inconclusive"),
    (["contradicted", "contradicted"], "contradicted"),
])
def test_readings_any_take_the_most_favourable_reading(words, expected):
    assert words[V.combine_verdicts(words, "any", RULES["combine_order"])] == expected


def test_among_readings_of_one_verdict_any_shows_the_most_favourable_interval():
    assert V.combine_verdicts(["not reproduced"] * 3, "any", RULES["combine_order"], [-85.0, 39.0, 0.1]) == 1


# published 20 % +-25 %, A/A +-2 % (floor 3): within beyond the noise is [18.45, 21.25]
STYLE = {"reference": dict(estimate=20.0, low=19.0, high=21.0),      # within the margin: reproduced
         "far": dict(estimate=40.0, low=39.0, high=41.0),            # far above: the size excluded
         "table": dict(estimate=0.2, low=-0.5, high=0.8),            # no effect beyond the noise
         "aesni": dict(estimate=-85.0, low=-86.0, high=-84.0)}       # the opposite direction


def _styles(*names):
    return [dict(reading=f"style={n}", style=n, **STYLE[n]) for n in names]


def test_a_same_path_speed_up_is_reproduced_if_any_style_reproduces_its_size():
    row = _readings(*_styles("reference", "table", "aesni"), readings="any")
    assert row["verdict"] == "reproduced" and row["reading"] == "style=reference"
    assert "any reading may hold: 1 of 3 readings give reproduced" in row["reason"]
    for name in ("style=table: 0.2 [-0.5, 0.8], contradicted", "style=aesni: -85 [-86, -84], contradicted"):
        assert name in row["reason"]                  # every style's figure in the reason
    assert _readings(*_styles("reference", "table", "aesni"))["verdict"] == "contradicted"   # every: the least


def test_a_same_path_speed_up_is_not_reproduced_when_no_style_comes_within_the_margin():
    row = _readings(*_styles("far", "table", "aesni"), readings="any")
    assert row["verdict"] == "not reproduced" and row["reading"] == "style=far"
    assert "style=table: 0.2 [-0.5, 0.8], contradicted" in row["reason"]
    assert _readings(*_styles("table", "aesni"), readings="any")["verdict"] == "contradicted"


def test_every_reading_is_named_with_its_figure_when_all_agree():
    """Two readings of one claim (say two readings of "stable"): the reason shows both readings' figures."""
    row = _readings(*_styles("far"), dict(reading="style=other", style="other", estimate=45.0, low=44.0, high=46.0))
    assert row["verdict"] == "not reproduced" and row["reading"].startswith("every reading")
    assert "the same under every reading: style=far: 40 [39, 41], not reproduced; style=other: 45 [44, 46]" \
        in row["reason"]
    # the figure at the head is one reading's, named: the least favourable, style=far's 40
    assert row["reason"].split(" (under ")[1].startswith("style=far; the same under every reading")


def test_the_registry_admits_readings_any():
    assert _load([claim(readings="any")]).iloc[0]["readings"] == "any"


# ----------------------------------------------------------------------------- readings: monotone ("every step")
def test_family_scale_is_bonferronis_widening_of_each_interval():
    from cipherlab.analysis.stats import family_scale, widen
    assert family_scale(0.95, 1) == pytest.approx(1.0)
    assert family_scale(0.95, 12) == pytest.approx(2.8653 / 1.95996, rel=1e-4)    # z(1 - 0.05/24) / z(0.975)
    assert widen(10.0, 9.0, 12.0, 2.0) == (8.0, 14.0)
    with pytest.raises(ValueError, match="confidence"):
        family_scale(1.5, 3)


def _steps(*steps, end=(30.0, 25.0, 35.0)):
    rows = [dict(reading=f"step={i}", estimate=e, low=lo, high=hi, unit="%") for i, (e, lo, hi) in enumerate(steps)]
    e, lo, hi = end
    return [*rows, dict(reading="end-to-end", estimate=e, low=lo, high=hi, unit="%")]


MONO = dict(rule="ordering", published="", margin="", readings="monotone")
#: 12 steps, A/A +-2 % floored to +-3 %: the scale for m = 12 is 1.462, so a step at -6 [-7, -5] widens to
#: [-7.46, -4.54], wholly below -3 (reversed), while -4.5 [-5.5, -3.5] widens to [-5.96, -3.04]: still reversed,
#: and -4 [-5, -3.2] widens to [-5.46, -2.83], across the band: not reversed at the family-wise level
RISE = (5.0, 4.0, 6.0)


@pytest.mark.parametrize("step, expected", [
    ((-6.0, -7.0, -5.0), "contradicted"),
    ((-4.5, -5.5, -3.5), "contradicted"),
    ((-4.0, -5.0, -3.2), "inconclusive"),     # reversed uncorrected, not at the family-wise level: no move shown
    ((0.0, -1.0, 1.0), "inconclusive"),       # a flat step is no step against the claim, and no rise either
    (RISE, "reproduced"),                     # every step rises beyond the noise at the family-wise level
])
def test_a_monotone_claim_is_contradicted_only_by_a_step_reversed_at_the_family_wise_level(step, expected):
    """A step reversed beyond the noise (family-wise) contradicts; a step inside it leaves the claim of a move at every
    step inconclusive however far the end-to-end change reaches; only every step beyond the noise reproduces it."""
    row = _readings(*_steps(*([RISE] * 11), step), **MONO)
    assert row["verdict"] == expected, row["reason"]
    if expected == "reproduced":
        assert row["reading"] == "end-to-end" and "every step of 12" in row["reason"]
    elif expected == "inconclusive":
        assert row["reading"] == "step=11" and "1 of 12 steps inside it" in row["reason"]
        assert "not established" in row["reason"]
    else:
        assert row["reading"] == "step=11" and "family-wise level" in row["reason"]


def test_a_monotone_claim_takes_its_direction_from_the_end_to_end_change():
    assert _readings(*_steps(RISE, RISE, end=(1.0, -1.0, 2.0)), **MONO)["verdict"] == "inconclusive"
    assert _readings(*_steps(RISE, RISE, end=(-20.0, -25.0, -15.0)), **MONO)["verdict"] == "contradicted"
    with pytest.raises(ValueError, match="readings: monotone needs one reading 'end-to-end'"):
        _readings(dict(reading="step=0", estimate=5.0, low=4.0, high=6.0),
                  dict(reading="step=1", estimate=5.0, low=4.0, high=6.0), **MONO)


def test_chapter_verdicts_decides_only_the_chapters_claims_and_every_row_is_the_chapters():
    claims = _load([claim(claim_id="mine", section="c-speed"), claim(claim_id="theirs", section="d-speed"),
                    claim(claim_id="bare", rule="not_testable", published="", margin="", note="n", section="c-x")])
    ev = V.evidence_frame([V.Evidence(claim_id="mine", estimate=20.0, low=19.0, high=21.0, **AA)])
    out = V.chapter_verdicts("c", ev, claims, RULES).set_index("claim_id")
    assert sorted(out.index) == ["bare", "mine"] and set(out["chapter"]) == {"c"}
    assert out.loc["mine", "verdict"] == V.decide_all(claims[claims["section"] == "c-speed"], ev.assign(chapter="c"),
                                                      RULES).iloc[0]["verdict"]
    with pytest.raises(ValueError):   # evidence of a claim that is not the chapter's is refused, as by decide_all
        V.chapter_verdicts("d", ev, claims, RULES)


# ----------------------------------------------------------------------------- ordering, expect: slight (a ranking
# whose printed gaps the sentence calls slight, 003-t5/t6/t7-order): a printed gap up to small_effect.slight_pct (15 %)
# in the claimed direction is a slight effect (decided as small_effect decides one), a larger one a strict order
SLIGHT = dict(rule="ordering", published="", margin="", unit="%")


@pytest.mark.parametrize("stated, expect, lo, hi, expected", [
    (14.3, "slight", 0.4, 10.8, "reproduced"),       # 003-t6-order's CCM over EAX: in its direction, within 15 %
    (14.3, "", 0.4, 10.8, "inconclusive"),           # the same as a strict order: its low end inside the band
    (15.0, "slight", 0.4, 10.8, "reproduced"),       # the edge of the slight reach is slight
    (15.01, "slight", 0.4, 10.8, "inconclusive"),    # beyond it: a strict order again
    (1.4, "slight", -1.0, 1.0, "reproduced"),        # a printed gap inside the floor, ours inside the band too:
                                                     # as small as stated, its sign hidden (003-t7-order)
    (5.0, "slight", -1.0, 1.0, "inconclusive"),      # a printed gap near the floor (between 1 and 2 half-widths):
                                                     # its absence cannot show on this machine (below_resolution)
    (14.3, "slight", -1.0, 1.0, "contradicted"),     # a printed gap clearly beyond the floor (this machine resolves
                                                     # it) and no effect beyond the noise: refuted (002-t3-opt-enc-slight)
    (14.3, "slight", -1.0, 4.0, "reproduced"),       # partly beyond the band in its direction: a slight effect
    (14.3, "slight", 16.0, 20.0, "not reproduced"),  # wholly beyond the slight reach: larger than stated
    (14.3, "slight", -10.0, -5.0, "contradicted"),   # reversed beyond the band
    (150.0, "slight", 140.0, 160.0, "reproduced"),   # a wide printed gap: a strict order, held
])
def test_an_order_called_slight_is_decided_on_each_printed_gap(stated, expect, lo, hi, expected):
    ev = dict(estimate=(lo + hi) / 2, low=lo, high=hi, unit="%", stated=stated, **AA)
    assert decide(claim(expect=expect, **SLIGHT), **ev) == expected


@pytest.mark.parametrize("stated, lo, hi, expected", [
    (148.0, 259.0, 274.0, "reproduced"),             # 003-t7-order's GCM over CCM: a gap beyond slight is a strict
                                                     # order the sentence states no size for: its direction decides
    (148.0, 130.0, 170.0, "reproduced"),             # (a ratio of two printed times, whatever it prints)
    (14.3, 5.0, 10.0, "agrees_here"),                # a slight gap, ours beyond the noise within the slight reach
    (1.4, -1.0, 1.0, "agrees_here"),                 # a slight gap inside the noise: as small as stated, a size of
                                                     # the machine all the same (as 003-s52-ccm-eax-close's sameness)
    (14.3, 16.0, 20.0, "differs_here"),              # a slight gap, ours wholly beyond the slight reach
    (14.3, 10.0, 20.0, "unclear_here"),              # across the slight reach, the direction held
    (14.3, -10.0, -5.0, "contradicted"),             # reversed: the direction never belongs to the machine
    (148.0, -10.0, -5.0, "contradicted"),
    (148.0, -1.0, 1.0, "contradicted"),              # no effect where a gap clearly beyond the floor is printed
])
def test_a_printed_gap_between_two_code_paths_is_said_on_this_machine_once_the_order_holds(stated, lo, hi,
                                                                                           expected):
    ev = dict(estimate=(lo + hi) / 2, low=lo, high=hi, unit="%", stated=stated, **AA)
    got = V.decide(_load([claim(expect="slight", carries="direction", **SLIGHT)]).iloc[0], V.Evidence("x", **ev),
                   RULES)
    if expected.endswith("_here"):
        assert (got.verdict, got.outcome) == ("machine-bound", expected), got
    else:
        assert got.verdict == expected, got


def test_an_order_alone_between_two_code_paths_stays_an_order_whatever_gap_its_table_prints():
    # 003-s6-gcm-fastest-reject, "AES-GCM showed faster rejection latency": the evidence carries the gap Tables 5-7
    # print, the claim states none; made machine-bound by another machine's evidence, its order still decides
    ev = V.Evidence("x", estimate=241.0, low=233.0, high=251.0, unit="%", stated=97.0, **AA)
    got = V.decide(_load([claim(carries="direction", **SLIGHT)]).iloc[0], ev, RULES)
    assert (got.verdict, got.outcome) == ("reproduced", "established"), got


def test_a_slight_printed_gap_is_not_agreed_with_because_a_loaded_machine_widened_the_band():
    # 002-t3-opt-enc-slight: a printed 13.3 % gap, ours within the band. Quiet (band +-3 %): refuted. Loaded (band
    # +-8 %: the gap is now near the floor): undecided, never "as small as stated".
    quiet = dict(estimate=0.5, low=-1.0, high=2.0, unit="%", stated=13.3, **AA)
    loaded = dict(quiet, control_low=-8.0, control_high=8.0)
    assert decide(claim(expect="slight", **SLIGHT), **quiet) == "contradicted"
    assert decide(claim(expect="slight", **SLIGHT), **loaded) == "inconclusive"


def test_expect_slight_is_only_for_an_ordering():
    with pytest.raises(ValueError, match="rule ordering takes expect = slight"):
        _load([claim(expect="either", **SLIGHT)])


@pytest.mark.parametrize("lo, hi, says", [(3.7, 8.1, "within ±15 % (the most a slight effect reaches)"),
                                          (0.0, 0.0, "inside the no-effect value")])
def test_a_sameness_without_a_noise_band_says_the_slight_reach_decided_it(lo, hi, says):
    """A sameness (small_effect, expect: either) on a statistic with no A/A band (003-f9-cast-flat-enc's size change):
    an interval off zero was decided by the slight reach, and its reason never calls it 'inside the no-effect value'."""
    c = _load([claim(rule="small_effect", published="", margin="", expect="either", unit="%")]).iloc[0]
    d = V.decide(c, V.Evidence("x", estimate=(lo + hi) / 2, low=lo, high=hi, unit="%"), RULES)
    assert d.verdict == "reproduced" and says in d.reason, d.reason


# ----------------------------------------------------------------------------- the reading a combined row shows
def test_under_most_the_row_shows_the_median_reading_never_the_most_favourable_of_its_verdict():
    """Five sizes, three beyond the noise (+47, +12, +7 %), two inside it: most readings decide reproduced, and the
    row shows the median reading (+7 %), not the first or the most favourable (+47 %)."""
    sizes = [(47.0, 44.0, 50.0), (12.0, 10.0, 13.0), (7.0, 4.5, 8.0), (2.4, 1.8, 2.9), (1.9, -0.3, 2.8)]
    row = _readings(*(dict(reading=f"size={i}", estimate=e, low=lo, high=hi, unit="%")
                      for i, (e, lo, hi) in enumerate(sizes)), rule="ordering", published="", margin="",
                    readings="most")
    assert row["verdict"] == "reproduced" and row["reading"] == "size=2", row["reason"]
    assert V.combine_verdicts(["reproduced", "inconclusive"], "most", ["inconclusive", "reproduced"]) == 1
    assert V.combine_verdicts(["reproduced"] * 3, "most", ["reproduced"], favour=[9.0, 1.0, 5.0]) == 2


def test_a_sameness_of_no_direction_shows_the_reading_farthest_from_sameness():
    """'Convergent values' under every reading (small_effect, expect: either): the least favourable reading is the
    one whose interval reaches farthest from zero on either side, not the one with the lowest lower edge."""
    near, far = dict(estimate=0.0, low=-0.7, high=0.7), dict(estimate=0.2, low=-0.3, high=1.8)
    row = _readings(dict(reading="mode=gcm", **near), dict(reading="mode=ccm", **far), rule="small_effect",
                    published="", margin="", expect="either")
    assert row["verdict"] == "reproduced" and "; under mode=ccm:" in row["basis"], row["basis"]
