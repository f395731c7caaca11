"""cipherlab.analysis.machines: verdicts across machines, on synthetic runs decided by the real engine.

Two claims of the registry carry the synthetic evidence: a speed ordering (``002-t1-aes-keyexp-faster``, an
A/A-controlled speedup in %) and a structural statement (``000-t1-second-sbox``); every other claim has none,
so it is "not measured" on a shipped run. The shipped runs are real folders (:mod:`cipherlab.pipeline.runs`)
in a temporary tree, their evidence decided again by :func:`cipherlab.analysis.machines.shipped_measured`.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cipherlab.analysis import machines as M
from cipherlab.analysis.claims import load_claims
from cipherlab.analysis.evidence import Evidence, evidence_frame, read_evidence_file
from cipherlab.analysis.verdicts import decide_all
from cipherlab.pipeline import paths, runs

SPEED, SBOX = "002-t1-aes-keyexp-faster", "000-t1-second-sbox"
CLAIMS = load_claims()
TWO = CLAIMS[CLAIMS["claim_id"].isin([SPEED, SBOX])]


def evidence(estimate, low, high, holds=True) -> pd.DataFrame:
    rows = [Evidence(SPEED, estimate=estimate, low=low, high=high, n=400, processes=12, control_low=-1.0,
                     control_high=1.0, unit="%", profile="quick", section="maes-table1"),
            Evidence(SBOX, holds=holds, profile="quick", section="aes2sbox-sboxes")]
    return evidence_frame(rows)


def here(estimate=6.7, low=5.2, high=8.8) -> M.Measured:
    ev = evidence(estimate, low, high)
    ev.insert(0, "chapter", "maes")
    ev = ev.fillna({c: "" for c in ("size", "style", "mode", "profile", "unit", "detail", "section", "reading")})
    return M.Measured(M.THIS_RUN, "this machine", "", "", decide_all(TWO, ev), ev)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "RUNS_DIR", tmp_path / "data" / "runs")
    return tmp_path


def ship(name: str, frame: pd.DataFrame, *, chapter: str = "maes", profile: str = "quick", emulated=None) -> None:
    """A shipped run folder holding only a card and one chapter's evidence."""
    folder = paths.RUNS_DIR / name
    (folder / "evidence").mkdir(parents=True)
    data = frame.to_csv(index=False, lineterminator="\n").encode()
    (folder / "evidence" / f"evidence_{chapter}.csv").write_bytes(data)
    import hashlib
    card = {"format": runs.FORMAT, "profile": profile, "machine": name, "commit": "c" * 40,
            "emulated": {"name": emulated} if emulated else None, "cpu": {"model": "Test CPU"},
            "dates": {"last": "2026-11-27T10:00:00+00:00"},
            "files": {"raw": {}, "evidence": {chapter: {"sha256": hashlib.sha256(data).hexdigest()}}}}
    (folder / "card.json").write_text(json.dumps(card))


def test_a_shipped_runs_evidence_is_decided_by_this_engine_claim_by_claim(tree):
    ship("box-a", evidence(-20, -25, -15))
    measured = M.shipped_measured(runs.load_run("box-a"), CLAIMS)
    verdicts = measured.rows.set_index("claim_id")["verdict"]
    assert verdicts[SPEED] == "contradicted" and verdicts[SBOX] == "reproduced"
    others = verdicts.drop([SPEED, SBOX])
    testable = CLAIMS.set_index("claim_id").loc[others.index, "rule"] != "not_testable"
    assert (others[testable.to_numpy()] == M.NOT_MEASURED).all()   # no evidence there: not measured, not an error


def test_compare_gives_each_runs_verdict_speed_ratio_and_whether_the_sizes_differ(tree):
    ship("box-a", evidence(6.5, 5.0, 8.0))        # the same verdict, overlapping intervals
    ship("box-b", evidence(40.0, 35.0, 45.0))     # the same verdict, a size apart
    ship("box-c", evidence(-20.0, -25.0, -15.0))  # the opposite verdict
    others = [M.shipped_measured(r, CLAIMS) for r in runs.shipped_runs("quick")]
    table = M.compare(here(), others, CLAIMS)
    speed = table[table["claim_id"] == SPEED].set_index("run")
    assert list(speed.index) == [M.THIS_RUN, "box-a", "box-b", "box-c"]
    assert speed["speed"].all() and not table.loc[table["claim_id"] == SBOX, "speed"].any()
    assert speed.loc[M.THIS_RUN, "estimate"] == pytest.approx(1.067)
    assert speed.loc["box-b", "ratio_to_this"] == pytest.approx(1.067 / 1.40)
    assert list(speed["size_differs"]) == [False, False, True, True]
    assert list(speed["verdict_differs"]) == [False, False, False, True]
    assert np.isnan(speed.loc[M.THIS_RUN, "ratio_to_this"])


def test_portability_names_the_machines_that_differ_and_never_counts_a_claim_not_measured(tree):
    ship("box-a", evidence(6.5, 5.0, 8.0))
    ship("box-c", evidence(-20.0, -25.0, -15.0))
    others = [M.shipped_measured(r, CLAIMS) for r in runs.shipped_runs("quick")]
    table = M.compare(here(), others, CLAIMS)
    port = M.portability(table).set_index("claim_id")
    assert port.loc[SPEED, "portability"] == "machine-dependent: the verdict differs on box-c (contradicted)"
    assert port.loc[SPEED, "machines"] == "box-a: reproduced; box-c: contradicted"
    assert port.loc[SPEED, "machine_dependent"]
    assert port.loc[SBOX, "portability"].startswith("portable: the same verdict on all 3 machines")
    rows = M.with_portability(here().rows, table)
    assert M.machine_dependent(rows) == {SPEED}
    wide = M.differing(table)
    assert list(wide["claim_id"]) == [SPEED] and wide.iloc[0][M.THIS_RUN] == "reproduced"
    assert wide.iloc[0]["box-c"] == "contradicted"


def test_a_machine_that_could_not_decide_a_claim_makes_it_neither_portable_nor_machine_dependent(tree):
    ship("box-a", evidence(6.5, 5.0, 8.0))
    ship("box-d", evidence(1.0, -3.0, 5.0))   # within the noise band there: inconclusive
    others = [M.shipped_measured(r, CLAIMS) for r in runs.shipped_runs("quick")]
    table = M.compare(here(), others, CLAIMS)
    port = M.portability(table).set_index("claim_id")
    assert port.loc[SPEED, "portability"] == ("undecided on box-d (inconclusive); the same verdict where decided "
                                              "(reproduced on 2 machines)")
    assert not port.loc[SPEED, "machine_dependent"]   # an undecided machine never excuses a decided verdict
    wide = M.differing(table)
    assert list(wide["claim_id"]) == [SPEED] and not wide.iloc[0]["machine-dependent"]
    undecided_here = M.compare(here(1.0, -3.0, 5.0), others, CLAIMS)
    assert M.portability(undecided_here).set_index("claim_id").loc[SPEED, "portability"].startswith(
        "undecided on this run (inconclusive), box-d (inconclusive)")


def test_a_run_missing_a_chapter_shows_its_claims_not_measured_there(tree):
    ship("box-a", evidence(6.5, 5.0, 8.0).iloc[[1]], chapter="aes2sbox")   # the sbox claim only
    others = [M.shipped_measured(r, CLAIMS) for r in runs.shipped_runs("quick")]
    port = M.portability(M.compare(here(), others, CLAIMS)).set_index("claim_id")
    assert port.loc[SPEED, "machines"] == f"box-a: {M.NOT_MEASURED}"
    assert port.loc[SPEED, "portability"] == "not measured on another machine"
    assert not port.loc[SPEED, "machine_dependent"]


def test_a_run_of_an_older_registry_keeps_what_it_measured_and_drops_retired_claims(tree):
    frame = evidence(6.5, 5.0, 8.0)
    old = frame.iloc[[0]].assign(claim_id="002-a-claim-since-removed")
    ship("old-run", pd.concat([frame, old], ignore_index=True).drop(columns=["reading"]))  # an older layout too
    measured = M.shipped_measured(runs.load_run("old-run"), CLAIMS)
    assert measured.retired == ["002-a-claim-since-removed"]
    assert measured.rows.set_index("claim_id").loc[SPEED, "verdict"] == "reproduced"


def test_runs_of_another_profile_are_not_compared(tree):
    ship("full-run", evidence(-20.0, -25.0, -15.0), profile="full")
    assert runs.shipped_runs("quick") == []


def test_with_no_shipped_run_the_rows_carry_empty_machine_columns():
    table = M.compare(here(), [], CLAIMS)
    rows = M.with_portability(here().rows, table)
    assert set(rows["machines"]) == {""} and set(rows["portability"]) == {""}
    assert M.machine_dependent(rows) == set()


def test_an_edited_shipped_evidence_file_is_refused(tree):
    ship("box-a", evidence(6.5, 5.0, 8.0))
    path = paths.RUNS_DIR / "box-a" / "evidence" / "evidence_maes.csv"
    path.write_text(path.read_text().replace("6.5", "60.5"))
    with pytest.raises(runs.RunError, match="evidence_maes.csv: SHA-256"):
        M.shipped_measured(runs.load_run("box-a"), CLAIMS)


def test_read_evidence_file_fills_the_columns_an_older_cipherlab_did_not_write(tmp_path):
    path = tmp_path / "evidence_x.csv"
    evidence(1, 0, 2).drop(columns=["reading", "detail"]).to_csv(path, index=False)
    frame = read_evidence_file(path, "x")
    assert list(frame.columns)[:2] == ["chapter", "claim_id"] and set(frame["reading"]) == {""}


# --- machine-bound by evidence: a size declared to carry over that differs between two real machines ----------

SIZED, DECLARED = "002-t2-mixcol-half", "002-t1-sha3-1-twice"   # within_margin 100 % +-25 %: carries size, direction
# The two rows as the registry holds them, but declared as these tests need (the registry may re-read a row):
# SIZED carries its size and is decided in the table style, DECLARED carries only its direction.
SIZED_CLAIMS = CLAIMS[CLAIMS["claim_id"].isin([SIZED, DECLARED])].copy()
SIZED_CLAIMS.loc[SIZED_CLAIMS["claim_id"] == SIZED, ["carries", "decided_by", "readings"]] = ["size", "style=table", ""]
SIZED_CLAIMS.loc[SIZED_CLAIMS["claim_id"] == DECLARED, "carries"] = "direction"


def sized(estimate, low, high, control=1.0) -> pd.DataFrame:
    """Evidence of the two sized claims: one speed ratio each (%, an A/A band of +-control, the floor 3 %)."""
    rows = [Evidence(cid, estimate=estimate, low=low, high=high, n=400, processes=12, control_low=-control,
                     control_high=control, unit="%", profile="quick", style=style, section=section)
            for cid, style, section in ((SIZED, "table", "maes-table2"), (DECLARED, "", "maes-table1"))]
    ev = evidence_frame(rows)
    ev.insert(0, "chapter", "maes")
    return ev.fillna({c: "" for c in ("size", "style", "mode", "profile", "unit", "detail", "section", "reading")})


def sized_here(estimate=100.0, low=95.0, high=105.0, emulated="") -> M.Measured:
    ev = sized(estimate, low, high)
    return M.Measured(M.THIS_RUN, "this machine", emulated, "", decide_all(SIZED_CLAIMS, ev), ev)


def sized_there(name, estimate, low, high, emulated="", control=1.0) -> M.Measured:
    ev = sized(estimate, low, high, control)
    return M.Measured(name, f"{name} (Test CPU)", emulated, "", decide_all(SIZED_CLAIMS, ev), ev)   # as a label


def test_a_size_declared_to_carry_over_that_differs_between_two_real_machines_is_machine_bound_by_evidence():
    here, there = sized_here(), sized_there("box-b", 160.0, 155.0, 165.0)
    assert here.rows.set_index("claim_id").loc[SIZED, "verdict"] == "reproduced"      # the declaration alone
    assert there.rows.set_index("claim_id").loc[SIZED, "verdict"] == "not reproduced"
    bound = M.bound_by_evidence(here, [there], SIZED_CLAIMS)
    assert set(bound.here) == {SIZED} and set(bound.pairs[SIZED]) == {"box-b"}    # DECLARED: declared, not evidence
    row = bound.here[SIZED]
    assert (row["verdict"], row["outcome"], row["carries"]) == ("machine-bound", "agrees_here", "size")
    assert row["shown"] == "machine-bound: agrees on this machine"
    assert "100 % [95, 105] here and 160 % [155, 165] on box-b (Test CPU)" in row["reason"]
    assert "±3 %, ±3 %" in row["reason"]                                            # both runs' noise, the floor
    assert bound.there[("box-b", SIZED)]["outcome"] == "differs_here"               # on that machine: differs


@pytest.mark.parametrize("there, why", [
    ((103.0, 98.0, 108.0), "overlapping intervals"),
    ((112.0, 110.0, 114.0), "apart, but by less than both runs' noise (2.4 % < 3 % + 3 %)"),
    ((-20.0, -25.0, -15.0), "the direction flips"),
    ((1.0, -2.0, 2.5), "no direction beyond the noise there"),
])
def test_a_size_is_not_machine_bound_by_evidence_unless_apart_beyond_both_runs_noise_with_the_direction_held(
        there, why):
    bound = M.bound_by_evidence(sized_here(), [sized_there("box-x", *there)], SIZED_CLAIMS)
    assert bound.here == {} and bound.pairs == {}, why


def test_the_gap_is_weighed_against_the_sum_of_both_runs_noise_and_the_factor_of_the_rules_file():
    from cipherlab.analysis.claims import load_rules
    rules = load_rules()
    # ratio scale: here [1.95, 2.05], there [2.20, 2.30]: the nearer edges 2.20 / 2.05 - 1 = 7.32 % apart
    assert M.bound_by_evidence(sized_here(), [sized_there("box-b", 125.0, 120.0, 130.0)], SIZED_CLAIMS, rules).pairs
    wide = sized_there("box-b", 125.0, 120.0, 130.0, control=5.0)         # that run's noise +-5 %: 3 + 5 > 7.32
    assert not M.bound_by_evidence(sized_here(), [wide], SIZED_CLAIMS, rules).pairs
    gap = 2.20 / 2.05 * 100 - 100
    for factor, bound in ((gap / 6 * 0.99, True), (gap / 6 * 1.01, False)):
        changed = {**rules, "across_machines": {"size_apart": factor}}
        there = sized_there("box-b", 125.0, 120.0, 130.0)
        assert bool(M.bound_by_evidence(sized_here(), [there], SIZED_CLAIMS, changed).pairs) is bound, factor
    with pytest.raises(ValueError, match="across_machines: size_apart must be a number >= 0"):
        M.bound_by_evidence(sized_here(), [there], SIZED_CLAIMS, {**rules, "across_machines": {"size_apart": "x"}})


def test_an_emulated_run_never_makes_a_size_machine_bound_by_evidence():
    no_aes = sized_there("no-aes", 160.0, 155.0, 165.0, emulated="no-aes")
    assert M.bound_by_evidence(sized_here(), [no_aes], SIZED_CLAIMS).pairs == {}
    real = sized_there("box-b", 160.0, 155.0, 165.0)
    assert M.bound_by_evidence(sized_here(emulated="no-aes"), [real], SIZED_CLAIMS).pairs == {}   # this run emulated
    assert set(M.bound_by_evidence(sized_here(), [no_aes, real], SIZED_CLAIMS).pairs[SIZED]) == {"box-b"}


def test_decide_across_puts_the_machine_bound_status_on_this_runs_row_that_runs_and_the_comparison(tree):
    ship("box-b", sized(160.0, 155.0, 165.0).drop(columns="chapter"))
    here = sized_here()
    rows, table = M.decide_across("quick", here.rows, here.evidence, SIZED_CLAIMS)
    mine = rows.set_index("claim_id")
    assert mine.loc[SIZED, "verdict"] == "machine-bound" and "box-b" in mine.loc[SIZED, "reason"]
    assert mine.loc[DECLARED, "verdict"] == here.rows.set_index("claim_id").loc[DECLARED, "verdict"]
    assert mine.loc[SIZED, "portability"] == ("machine-bound by evidence: the size differs between this run "
                                              "(2× [1.95, 2.05]) and box-b (2.6× [2.55, 2.65])")
    sub = table[table["claim_id"] == SIZED].set_index("run")
    assert list(sub["verdict"]) == ["machine-bound", "machine-bound"] and sub["bound_by_evidence"].all()
    assert not table.loc[table["claim_id"] == DECLARED, "bound_by_evidence"].any()
    assert M.machine_dependent(rows) == set()          # a status of the machine, never a verdict that differs


def test_with_no_second_real_machine_decide_across_keeps_the_declarations_verdicts(tree):
    here = sized_here()
    rows, _ = M.decide_across("quick", here.rows, here.evidence, SIZED_CLAIMS)
    cols = [c for c in here.rows.columns]
    pd.testing.assert_frame_equal(rows[cols], here.rows)                       # a book from one run alone
    ship("no-aes", sized(160.0, 155.0, 165.0).drop(columns="chapter"), emulated="no-aes")
    rows, table = M.decide_across("quick", here.rows, here.evidence, SIZED_CLAIMS)
    pd.testing.assert_frame_equal(rows[cols], here.rows)                       # the emulated run: ignored
    assert not table["bound_by_evidence"].any()


def test_the_methods_page_states_the_rule_with_the_factor_of_the_rules_file():
    from cipherlab.analysis.claims import load_rules
    from cipherlab.report.methods_text import rules_markdown
    rules = load_rules()
    assert "apart by more than 1 times the sum of the two runs' noise half-widths" in rules_markdown(rules)
    changed = {**rules, "across_machines": {"size_apart": 2.5}}
    assert "apart by more than 2.5 times the sum" in rules_markdown(changed)


def test_a_book_built_from_an_emulated_shipped_run_is_no_second_real_machine(tree):
    ship("box-b", sized(160.0, 155.0, 165.0).drop(columns="chapter"))
    ship("box-e", sized(100.0, 95.0, 105.0).drop(columns="chapter"), emulated="no-aes")
    here = sized_here()
    emulated = paths.Profile("quick", tree="runs/box-e")            # make from-run RUN=box-e QUICK=1
    assert M.measured_here(emulated, here.rows, here.evidence).emulated == "no-aes"
    rows, table = M.decide_across(emulated, here.rows, here.evidence)
    assert rows.set_index("claim_id").loc[SIZED, "verdict"] == "reproduced" and not table["bound_by_evidence"].any()
    real = paths.Profile("quick", tree="runs/box-b")                 # a real run's book, the other real run absent
    assert M.measured_here(real, here.rows, here.evidence).emulated == ""


# --- the same CPU kind is another run; exact evidence is never the machine's -------------------------------------

KIND = "AuthenticAMD family 25 model 17 stepping 1 | aes avx2"


def _with_cpu(m: M.Measured, cpu: str, commit: str = "") -> M.Measured:
    return M.Measured(m.run, m.machine, m.emulated, commit or m.commit, m.rows, m.evidence, m.retired, cpu)


def test_cpu_kind_needs_both_the_cpu_id_and_the_flags_and_ignores_the_flags_order():
    card = {"cpu": {"id": "AuthenticAMD family 25 model 17 stepping 1", "flags": "avx2 aes"}}
    assert M.cpu_kind(card) == KIND
    assert M.cpu_kind({"cpu": {"id": "AuthenticAMD family 25 model 17 stepping 1"}}) == ""
    assert M.cpu_kind({"cpu": {"id": "not readable", "flags": "aes"}}) == "" and M.cpu_kind(None) == ""


def test_exact_evidence_is_evidence_no_row_of_which_is_timed():
    ev = evidence(6.7, 5.2, 8.8)
    assert M.exact_evidence(ev[ev["claim_id"] == SBOX])               # a structural fact
    assert not M.exact_evidence(ev[ev["claim_id"] == SPEED])          # an A/A control: timed
    assert not M.exact_evidence(ev)                                   # one timed row makes the claim timed
    speed = evidence_frame([Evidence(SBOX, estimate=400.0, holds=True, unit="MB/s")])
    assert not M.exact_evidence(speed)                                # a unit of speed: timed
    fit = evidence_frame([Evidence(SBOX, estimate=1.0, low=0.5, high=1.5, unit="%", statistic="size_change")])
    assert not M.exact_evidence(fit)                                  # a timing statistic
    assert not M.exact_evidence(ev[:0])


def test_a_verdict_that_differs_on_exact_evidence_changed_with_the_code_not_the_machine(tree):
    ship("box-a", evidence(6.5, 5.0, 8.0, holds=False))   # the structural fact now false there: exact evidence
    other = M.shipped_measured(runs.load_run("box-a"), CLAIMS)
    table = M.compare(_with_cpu(here(), "", "d" * 40), [other], CLAIMS)
    port = M.portability(table).set_index("claim_id")
    text = port.loc[SBOX, "portability"]
    assert text.startswith(M.CODE_CHANGED) and not port.loc[SBOX, "machine_dependent"]
    assert "this run (commit dddddddddddd) gives reproduced" in text and "box-a (commit cccccccccccc)" in text
    assert M.machine_dependent(M.with_portability(here().rows, table)) == set()


def test_exact_evidence_decided_on_one_run_and_undecided_on_another_changed_with_the_code_too():
    """A structural check inconclusive here and contradicted on a shipped run of an older commit: no machine and no
    noise undecides exact evidence, so the code or data changed (both commits named), never 'undecided on'."""
    base = dict(paper="003", tier="supporting", machine="", emulated="", reason="", speed=False, estimate=np.nan,
                low=np.nan, high=np.nan, ratio_to_this=np.nan, size_differs=False, verdict_differs=True,
                bound_by_evidence=False, same_cpu=False, exact=True)
    table = pd.DataFrame([{**base, "claim_id": "w1", "run": M.THIS_RUN, "commit": "e" * 40, "verdict": "inconclusive"},
                          {**base, "claim_id": "w1", "run": "box-z", "commit": "f" * 40, "verdict": "contradicted"}])
    port = M.portability(table).set_index("claim_id").loc["w1"]
    assert port["portability"].startswith(M.CODE_CHANGED) and not port["machine_dependent"]
    assert "this run (commit eeeeeeeeeeee) gives inconclusive" in port["portability"]
    assert "box-z (commit ffffffffffff) gives contradicted" in port["portability"]
    timed = M.portability(table.assign(exact=False)).set_index("claim_id").loc["w1", "portability"]
    assert timed.startswith("undecided on this run (inconclusive)")   # timed evidence: a run may not decide it


def test_a_timed_verdict_that_differs_on_the_same_cpu_kind_is_run_to_run_variation_not_the_machines(tree):
    ship("box-c", evidence(-20.0, -25.0, -15.0))
    other = M.shipped_measured(runs.load_run("box-c"), CLAIMS)
    same = M.compare(_with_cpu(here(), KIND), [_with_cpu(other, KIND)], CLAIMS)
    port = M.portability(same).set_index("claim_id")
    assert port.loc[SPEED, "portability"].startswith(M.SAME_CPU + ": the verdict differs on box-c (contradicted)")
    assert not port.loc[SPEED, "machine_dependent"]
    assert "all of one CPU kind" in port.loc[SBOX, "portability"]
    apart = M.compare(_with_cpu(here(), KIND), [_with_cpu(other, KIND + " avx512f")], CLAIMS)   # other flags
    assert M.portability(apart).set_index("claim_id").loc[SPEED, "machine_dependent"]


def test_a_run_on_the_same_cpu_kind_never_makes_a_size_machine_bound_by_evidence():
    here_, there = _with_cpu(sized_here(), KIND), sized_there("box-b", 160.0, 155.0, 165.0)
    assert M.bound_by_evidence(here_, [_with_cpu(there, KIND)], SIZED_CLAIMS).pairs == {}
    assert set(M.bound_by_evidence(here_, [_with_cpu(there, KIND + " x")], SIZED_CLAIMS).pairs) == {SIZED}


def test_a_same_path_speed_up_decided_under_every_style_is_never_machine_bound_by_evidence():
    anyr = SIZED_CLAIMS.copy()
    anyr.loc[anyr["claim_id"] == SIZED, "readings"] = "any"
    here_, there = sized_here(), sized_there("box-b", 160.0, 155.0, 165.0)
    assert M.bound_by_evidence(here_, [there], anyr).pairs == {}


def _noise_comparison():
    """A synthetic comparison: this run and a shipped run of the same CPU kind, three speed claims (one with
    disjoint intervals), one exact claim and one speed claim the other run did not measure."""
    base = dict(paper="003", tier="headline", machine="", emulated="", commit="", verdict="reproduced", reason="",
                ratio_to_this=np.nan, verdict_differs=False, bound_by_evidence=False, exact=False)
    rows = []
    for cid, here, there in [("s1", (1.0, 1.1), (1.05, 1.2)), ("s2", (2.0, 2.1), (2.2, 2.3)),
                             ("s3", (3.0, 3.1), (3.0, 3.1))]:
        rows.append({**base, "claim_id": cid, "run": M.THIS_RUN, "speed": True, "estimate": sum(here) / 2,
                     "low": here[0], "high": here[1], "size_differs": False, "same_cpu": True})
        rows.append({**base, "claim_id": cid, "run": "box-a", "speed": True, "estimate": sum(there) / 2,
                     "low": there[0], "high": there[1], "size_differs": here[1] < there[0] or here[0] > there[1],
                     "same_cpu": True})
    rows.append({**base, "claim_id": "x1", "run": M.THIS_RUN, "speed": False, "estimate": 1.0, "low": 1.0,
                 "high": 1.0, "size_differs": False, "same_cpu": True})
    rows.append({**base, "claim_id": "x1", "run": "box-a", "speed": False, "estimate": 2.0, "low": 2.0,
                 "high": 2.0, "size_differs": False, "same_cpu": True})
    rows.append({**base, "claim_id": "s4", "run": M.THIS_RUN, "speed": True, "estimate": 1.0, "low": 0.9,
                 "high": 1.1, "size_differs": False, "same_cpu": True})
    rows.append({**base, "claim_id": "s4", "run": "box-a", "speed": False, "estimate": np.nan, "low": np.nan,
                 "high": np.nan, "size_differs": False, "same_cpu": True, "verdict": M.NOT_MEASURED})
    return pd.DataFrame(rows)


def test_run_to_run_noise_counts_speed_rows_with_disjoint_intervals_against_a_run_of_the_same_cpu_kind():
    comparison = _noise_comparison()
    assert M.run_to_run_noise(comparison) == M.RunNoise(run="box-a", total=3, disjoint=1)
    assert M.run_to_run_noise(comparison, {"s1", "s3"}) == M.RunNoise(run="box-a", total=2, disjoint=0)
    assert M.run_to_run_noise(comparison.assign(same_cpu=False)) is None   # another CPU kind: not run-to-run noise
    assert M.run_to_run_noise(comparison[comparison["run"] == M.THIS_RUN]) is None


def test_the_machines_page_says_the_run_to_run_noise():
    from cipherlab.report.machines import summary_markdown
    text = summary_markdown(_noise_comparison())
    assert ("of the 3 speed rows measured both here and in `box-a` (the same CPU kind), **1** have 95 % intervals "
            "that do not overlap") in text
    assert "changes no verdict" in text
