"""The AES-2SBox chapter's driver (cipherlab.experiments.aes2sbox.driver): measure and build end to end on a
cut-down run in a temporary tree, every declared output by name, provenance as recorded, the same tables twice."""
from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from cipherlab.analysis import verdicts
from cipherlab.ciphers.sboxes import second_sbox
from cipherlab.experiments.aes2sbox import driver
from cipherlab.experiments.aes2sbox.chapter import CHAPTER
from cipherlab.experiments.aes2sbox.sboxes import sbox_grid
from cipherlab.pipeline import paths
from cipherlab.pipeline.inputs import write_input
from cipherlab.pipeline.provenance import run_metadata
from cipherlab.pipeline.results import read_raw, save_raw

TABLES, FIGURES = CHAPTER.all_tables, CHAPTER.figures
INPUTS = {"t000.txt": {"kind": "text", "bytes": 96}, "t001.txt": {"kind": "text", "bytes": 64}}


def _params(**changes):
    """A cut-down run's parameters, checked as the pipeline checks them."""
    return CHAPTER.make_params(dict(impls=["reference"], processes=1, avalanche_plaintexts=3, avalanche_keys=2,
                                    protocols={"000": {"file": "t000.txt", "trials": 3, "warmup": 0},
                                               "001": {"file": "t001.txt", "trials": 3, "warmup": 0}},
                                    inputs=INPUTS, **changes))


#: A pair a host could not build (as a host without AES-NI records it).
NOT_BUILT = {"protocol": "000", "file": "t000.txt", "cipher": "aes-2sbox", "impl": "aesni", "reason": "no AES-NI"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A stand-in Run whose quick tree (inputs, raw, tables) lives in a temporary folder, measured once,
    its raw file saved as the framework saves it (here with a pair that could not be built) and read back."""
    root = tmp_path_factory.mktemp("quick")
    with pytest.MonkeyPatch.context() as mp:
        for name in ("inputs", "raw", "tables", "figures"):
            (root / name).mkdir()
            mp.setattr(paths.Profile, name, property(lambda self, t=name: root / t))
        prof = paths.Profile("quick")
        for name, spec in INPUTS.items():
            write_input(prof.input_file(name), spec, seed=5)
        run = SimpleNamespace(profile=prof, seed=5, params=_params())
        measured = driver.measure(run)
        frame, extra = measured[driver.SPEED]
        save_raw(frame, driver.SPEED, prof, meta=run_metadata(profile="quick", seed=run.seed, config={},
                                                               **{**extra, "skipped": [NOT_BUILT]}))
        raw = {driver.SPEED: read_raw(driver.SPEED, prof)}
        yield SimpleNamespace(run=run, measured=measured, raw=raw, built=driver.build(run, raw))
        plt.close("all")


def test_measure_returns_the_raw_frame_and_the_provenance_the_page_reads(tree):
    assert set(tree.measured) == {driver.SPEED}
    frame, extra = tree.measured[driver.SPEED]
    assert set(extra) == {"run_id", "min_trial_seconds", "kb_bytes", "first_call_seconds", "skipped",
                          "empty_call_seconds"}
    assert extra["kb_bytes"] == 1024 and extra["empty_call_seconds"] > 0
    assert extra["min_trial_seconds"] == float(verdicts.load_rules()["min_trial_seconds"])
    assert set(frame["run_id"]) == {extra["run_id"]}
    assert extra["skipped"] == [] and len(extra["first_call_seconds"]) == 2 * 3 * 2   # protocols x objects x ops
    assert set(zip(frame["cipher"], frame["instance"])) == {("aes", "main"), ("aes", "control"), ("aes-2sbox", "main")}
    assert dict(frame.groupby("protocol")["bytes"].first()) == {"000": 96, "001": 64}
    assert (frame.groupby(["protocol", "impl", "cipher", "instance", "operation"])["trial"].nunique() == 3).all()


def test_build_gives_every_declared_output_and_nothing_else(tree):
    built = tree.built
    assert sorted(built) == sorted(CHAPTER.outputs)
    assert all(isinstance(built[n], Figure) for n in FIGURES)
    # released by pyplot: not drawn again at the end of the notebook cell that built them
    assert not any(plt.fignum_exists(built[n].number) for n in FIGURES)
    assert all(isinstance(built[n], pd.DataFrame) and len(built[n]) for n in TABLES)
    # Table 1 is our second S-box for the run's key byte, in the papers' layout
    expected = sbox_grid(second_sbox(127, "xor-index")[0]).reset_index()
    pd.testing.assert_frame_equal(built["aes2sbox_table1"], expected)
    # the pair measure could not time is a row of Table 5 with its reason, not dropped
    speed = built["aes2sbox_speedup"]
    assert len(speed[speed["status"] == "timed"]) == 2 * 2     # 2 papers x 2 operations, reference style (it decides)
    assert speed.loc[speed["status"] != "timed", ["paper", "style", "status"]].values.tolist() == [
        ["000", "aesni", "aes-2sbox not timed in this style: no AES-NI"]] * 2      # encrypt, decrypt
    # the avalanche counts follow the run's parameters: 3 plaintexts x 2 keys x 128 flips per cipher
    assert set(built["aes2sbox_avalanche_summary"]["flips"]) == {3 * 2 * 128}
    evidence = built["evidence_aes2sbox"]
    assert set(evidence["claim_id"]) <= set(verdicts.load_claims()["claim_id"])
    assert {"000-t1-second-sbox", "001-t5-enc-speedup", "001-avalanche-slightly-below-50"} <= set(evidence["claim_id"])


def test_build_is_the_same_twice_and_follows_the_parameters(tree):
    again = driver.build(tree.run, tree.raw)
    for name in CHAPTER.tables:        # the non-timing tables
        assert tree.built[name].to_csv(index=False) == again[name].to_csv(index=False), name
    other = driver.build(SimpleNamespace(profile=tree.run.profile, seed=5,
                                         params=_params(construction="xor-sbox", xor_byte=0)), tree.raw)
    plt.close("all")
    assert set(other["aes2sbox_sbox_diff"]["construction"]) == {"xor-sbox"}
    assert other["aes2sbox_table1"].iloc[0, 1] == f"{second_sbox(0, 'xor-sbox')[0][0]:02X}"


def test_evidence_table_refuses_an_unknown_claim():
    from cipherlab.analysis.evidence import evidence_table
    from cipherlab.analysis.evidence import Evidence
    with pytest.raises(ValueError, match=r"unknown claim ids \['000-no-such-claim'\]"):
        evidence_table([Evidence("000-no-such-claim", holds=True)])


def test_speed_raw_restores_the_papers_three_digits():
    raw = {driver.SPEED: pd.DataFrame({"protocol": [0, 1], "x": [1, 2]})}
    assert driver.speed_raw(raw)["protocol"].tolist() == ["000", "001"]
    assert raw[driver.SPEED]["protocol"].tolist() == [0, 1]          # the caller's frame is left alone
    assert driver.skipped_pairs({}).columns.tolist() == driver.SKIPPED_COLUMNS
    assert np.all(driver.skipped_pairs({"skipped": [dict.fromkeys(driver.SKIPPED_COLUMNS, "x")]}) == "x")


def test_every_page_view_shows_what_measure_and_build_gave(tree, monkeypatch):
    """The two notebooks' cells, in page order, on the cut-down run: each view shows something, none fails."""
    from cipherlab.experiments import outputs
    from cipherlab.experiments.aes2sbox import views
    shown = []
    monkeypatch.setattr(views, "display", lambda *objs: shown.extend(objs))
    monkeypatch.setattr(outputs, "show_figure", lambda run, name: shown.append(run.profile.figure(name)))
    monkeypatch.setattr(views.warnings, "simplefilter", lambda *a, **k: None)   # leave the session's filters alone
    run, built = tree.run, outputs.save(CHAPTER, tree.run, tree.built)
    pages = [lambda: views.insecure_warning(), lambda: views.files_timed(run), lambda: views.not_timed(run),
             lambda: views.trial_times(run, tree.raw),
             lambda: views.construction(built), lambda: views.differing_cells(built),
             lambda: views.sbox_grids(run, built), lambda: views.construction_finding(built),
             lambda: views.speed_run(run, tree.raw), lambda: views.speedup(built), lambda: views.welch(run, tree.raw),
             lambda: views.audit(built), lambda: views.avalanche_pairs(built), lambda: views.avalanche(run, built),
             lambda: views.avalanche_finding(built), lambda: views.verdicts(run)]
    for page in pages:
        before = len(shown)
        page()
        assert len(shown) > before
    assert all(p.is_file() for p in shown if hasattr(p, "is_file"))      # the saved figures
    text = " ".join(getattr(o, "data", "") or "" for o in shown if hasattr(o, "data"))
    assert "InsecureCipherWarning" in text and "paper 000: `t000.txt`, 96 bytes, 3 trials" in text
    assert "Empty-call overhead" in text and "3 interleaved trials per case" in text


def test_the_chapter_decides_the_saved_evidence_as_the_built_one(tree):
    """outputs.decided reads the evidence file the verdicts page reads; the verdicts are those of the built frame."""
    from cipherlab.analysis.verdicts import chapter_verdicts
    from cipherlab.experiments import outputs
    outputs.save(CHAPTER, tree.run, tree.built)
    saved = outputs.decided(CHAPTER, tree.run)
    built = chapter_verdicts(CHAPTER.name, tree.built["evidence_aes2sbox"])
    assert len(saved) > 0 and set(saved["chapter"]) == {"aes2sbox"}
    pd.testing.assert_frame_equal(saved[["claim_id", "verdict", "reason"]].reset_index(drop=True),
                                  built[["claim_id", "verdict", "reason"]].reset_index(drop=True))
