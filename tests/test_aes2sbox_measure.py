"""Tests of cipherlab.experiments.aes2sbox.measure."""
from __future__ import annotations

import pytest

from cipherlab.experiments.aes2sbox import common, measure
from cipherlab.experiments.aes2sbox.chapter import CHAPTER

from aes2sbox_synthetic import FIPS_KEY

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


def test_speed_cases_time_a_control_instance_and_skip_what_cannot_be_built():
    data = bytes(range(256)) * 3 + b"odd"
    skipped = []
    cases = measure.speed_cases(data, key=FIPS_KEY, impls=("reference", "aesni"), labels={"protocol": "000"},
                          skipped=skipped)
    got = {(c["cipher"], c["instance"], c["impl"], c["operation"]) for c in cases}
    want = {(c, i, "reference", o) for c, i in (("aes", "main"), ("aes", "control"), ("aes-2sbox", "main"))
            for o in common.OPERATIONS}
    assert want <= got
    # aesni is cipherlab's AES-NI style (every registered cipher); where the CPU lacks it,
    # AES-2SBox is listed as skipped and no control is timed
    if any(c["cipher"] == "aes-2sbox" and c["impl"] == "aesni" for c in cases):
        assert not skipped
    else:
        assert [(s["cipher"], s["impl"]) for s in skipped] == [("aes-2sbox", "aesni")]
        assert not any(c["instance"] == "control" and c["impl"] == "aesni" for c in cases)
    dec = next(c for c in cases if c["cipher"] == "aes-2sbox" and c["operation"] == "decrypt")
    assert dec["fn"]().tobytes() == data and dec["bytes"] == len(data) and dec["protocol"] == "000"
    ctl = next(c for c in cases if c["instance"] == "control" and c["operation"] == "encrypt")
    main = next(c for c in cases if c["instance"] == "main" and c["cipher"] == "aes" and c["impl"] == "reference"
                and c["operation"] == "encrypt")
    assert ctl["fn"]().tobytes() == main["fn"]().tobytes() and ctl["fn"] is not main["fn"]
    # the operations are not a parameter: a direct caller's bad one is named (it would be timed as decrypt)
    with pytest.raises(ValueError, match=r"^operations must be one of \('encrypt', 'decrypt'\), got 'sign'$"):
        measure.speed_cases(data, key=FIPS_KEY, impls=("reference",), operations=("sign",))
    # the styles are the chapter's parameter: a bad one stops at the door, naming the key
    for bad in (["fast"], []):
        with pytest.raises(ValueError, match=r"aes2sbox\.impls"):
            CHAPTER.make_params({"impls": bad})


def test_run_protocols_gives_tidy_batched_trials():
    raw, first, skipped = measure.run_protocols({"001": {"file": "f", "trials": 2, "warmup": 0}}, lambda name: b"a" * 100,
                                          key=FIPS_KEY, impls=("table",), progress=False, min_trial_seconds=1e-3)
    assert len(raw) == 3 * 2 * 2 and set(raw["protocol"]) == {"001"} and (raw["seconds"] > 0).all()
    assert (raw["calls"] > 1).all()       # a 100-byte call is far shorter than 1 ms: batched
    assert set(zip(raw["cipher"], raw["instance"])) == {("aes", "main"), ("aes", "control"), ("aes-2sbox", "main")}
    assert len(first) == 6 and (first["first_call_seconds"] > 0).all() and skipped.empty
    # a protocol is the chapter's parameter: one without trials stops at the door, naming the key
    with pytest.raises(ValueError, match=r"aes2sbox\.protocols\.001: 'trials' is a required property"):
        CHAPTER.make_params({"protocols": {"001": {"file": "f", "warmup": 0}}})
