"""The aead chapter's declaration (parameters checked once, at the door) and its driver's measurement."""
from types import SimpleNamespace

import pandas as pd
import pytest

from cipherlab.analysis import verdicts
from cipherlab.experiments.aead import chapter
from cipherlab.experiments.aead import driver
from cipherlab.experiments.aead.chapter import CHAPTER, Params
from cipherlab.experiments.aead.chapter import input_name
from cipherlab.pipeline import params as P


def test_defaults_are_the_papers_protocol_and_quick_shrinks_only():
    full = CHAPTER.run("full").params
    assert full == Params() and full.sizes_mb == (0.1, 0.5, 1, 3, 5) and full.phase2_trials == 36
    quick = CHAPTER.run("quick").params
    changed = P.changed(quick)
    # the quick profile names the sizes and counts it shrinks; the protocol's choices stay the paper's
    assert {"sizes_mb", "forgery_sizes_mb", "trials", "phase2_trials"} <= set(changed)
    assert not {"mb_bytes", "aad", "key_bytes", "nonce_bytes", "message", "field_old", "field_new"} & set(changed)
    assert CHAPTER.run("quick", {"phase2_trials": 7}).params.phase2_trials == 7


@pytest.mark.parametrize("values, message", [
    ({"trials": 1}, r"aead\.trials: 1 is less than the minimum of 2"),
    ({"phase2_trials": "many"}, r"aead\.phase2_trials: 'many' is not of type 'integer'"),
    ({"phase2_min_trial_seconds": 10}, r"aead\.phase2_min_trial_seconds: 10 is greater than or equal to"),
    ({"mb_bytes": 1000}, r"aead\.mb_bytes: 1000 is not one of"),
    ({"nonce_bytes": {"gcm": 16, "ccm": 20, "eax": 16}}, r"aead\.nonce_bytes\.ccm: 20 is greater than the maximum"),
    ({"nonce_bytes": {"gcm": 16}}, r"aead\.nonce_bytes: 'ccm' is a required property"),
    ({"sizes_mb": []}, r"aead\.sizes_mb: \[\] should be non-empty"),
    ({"processes": 0}, r"aead\.processes: 0 is less than the minimum of 1"),
    ({"trails": 3}, r"aead: Additional properties are not allowed \('trails' was unexpected\)"),
    # the inputs follow from the sizes: not a parameter
    ({"inputs": {}}, r"aead: Additional properties are not allowed \('inputs' was unexpected\)"),
    # cross-field rules (Params.check): said before anything is timed, not after
    ({"forgery_sizes_mb": [0.1, 1]}, r"aead\.forgery_sizes_mb: give 3 different sizes"),
    ({"message": "short"}, r"aead\.message: must be a whole number of 16-byte blocks"),
    ({"field_old": "amount=0200"}, r"aead\.field_old: 'amount=0200' does not occur in aead\.message"),
    ({"field_new": "amount=99"}, r"aead\.field_new: must have as many bytes as aead\.field_old"),
])
def test_bad_values_are_refused_at_the_door_naming_the_key(values, message):
    with pytest.raises(ValueError, match=message):
        P.make(Params, values, where="aead")


def test_outputs_declared_once_and_figures_apart_from_tables():
    assert set(CHAPTER.tables).isdisjoint(CHAPTER.timing_tables)
    assert set(CHAPTER.figures).isdisjoint(CHAPTER.all_tables)   # one `built` holds tables and figures
    assert CHAPTER.evidence == "evidence_aead" and CHAPTER.papers == ("003",)


TINY = {"sizes_mb": [0.001, 0.002, 0.003], "forgery_sizes_mb": [0.001, 0.002, 0.003], "processes": 1, "trials": 2,
        "phase2_trials": 3, "phase2_min_trial_seconds": 0.004, "warmup": 0, "forgery_trials": 2, "forgery_warmup": 0}


def test_each_size_is_named_once_and_its_input_follows():
    """A profile names the sizes; the generated inputs, one per distinct size, follow from them (and mb_bytes)."""
    p = P.make(Params, {"sizes_mb": [0.001, 0.002], "forgery_sizes_mb": [0.001, 0.002, 0.004]})
    assert p.phase_bytes == [1000, 2000] and p.forgery_bytes == [1000, 2000, 4000]
    assert P.derived(p) == {"inputs": {input_name(n): {"kind": "text", "bytes": n} for n in (1000, 2000, 4000)}}
    assert P.to_config(p)["inputs"] == P.derived(p)["inputs"]        # recorded beside the parameters
    binary = P.make(Params, {"mb_bytes": 2**20, "sizes_mb": [1], "forgery_sizes_mb": [1, 2, 3]})
    assert binary.phase_bytes == [1048576] and sorted(P.derived(binary)["inputs"]) == [
        input_name(n * 2**20) for n in (1, 2, 3)]
    # the pipeline generates exactly these files
    from cipherlab.pipeline import config
    quick = config.load_config("quick")
    assert {n for n in config.input_specs(quick) if n.startswith("aead_")} == set(
        P.derived(CHAPTER.run("quick").params)["inputs"])


def test_measure_returns_every_raw_file_with_its_provenance(tmp_path):
    for n in (1000, 2000, 3000):
        (tmp_path / input_name(n)).write_bytes(b"x" * n)
    run = SimpleNamespace(profile=SimpleNamespace(input_file=lambda name: tmp_path / name), seed=5,
                          params=P.make(Params, TINY))
    measured = driver.measure(run)
    assert tuple(measured) == CHAPTER.raw
    floor = float(verdicts.load_rules()["min_trial_seconds"])
    # phase 2's trials last at least phase2_min_trial_seconds when that is the longer
    expected = {"aead_phase1": (2, 0, floor), "aead_phase2": (3, 0, max(floor, 0.004)),
                "aead_forgery": (2, 0, floor)}
    for name, (trials, warmup, seconds) in expected.items():
        frame, extra = measured[name]
        assert (extra["trials"], extra["warmup"], extra["min_trial_seconds"]) == (trials, warmup, seconds)
        assert extra["call_overhead_s"] > 0 and set(frame["run_id"]) == {extra["run_id"]}
        main = frame[frame["instance"] == "main"]
        assert (main.groupby(["cipher", "mode", "operation", "bytes"]).size() == trials).all()
        assert set(main["bytes"]) == {1000, 2000, 3000}
    outcomes = measured["aead_forgery_outcomes"]
    assert isinstance(outcomes, pd.DataFrame) and len(outcomes) == 3 * 3 * 3 * 2   # modes x sizes x kinds x tags


@pytest.mark.parametrize("profile", ["full", "quick"])
def test_config_declares_the_inputs_the_chapter_reads(profile):
    sec = CHAPTER.run(profile).config
    sizes = chapter.mb_to_bytes(sec["sizes_mb"], sec["mb_bytes"]) + chapter.mb_to_bytes(sec["forgery_sizes_mb"],
                                                                                  sec["mb_bytes"])
    declared = sec["inputs"]
    for n in set(sizes):
        spec = declared[chapter.input_name(n)]
        assert spec == {"kind": "text", "bytes": n}
    msg = sec["message"].encode()
    assert len(msg) % 16 == 0 and sec["field_old"].encode() in msg
