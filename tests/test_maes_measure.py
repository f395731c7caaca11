"""Tests of cipherlab.experiments.maes.measure."""
from __future__ import annotations

import numpy as np
import pytest

import cipherlab
from cipherlab.experiments.maes import measure, tables

from maes_synthetic import KEY

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def test_case_functions_compute_what_they_claim():
    from cipherlab.ciphers import aes, maes
    cases = measure.table1_cases(KEY)
    assert len(cases) == 2 * (2 + 2 * 2 * 2)   # both languages
    assert [c["role"] for c in cases[:2]] == ["main", "control"]
    assert {c["impl"] for c in cases} == set(measure.TABLE1_LANGUAGES)
    by = {(c["impl"], c["cipher"], c["operation"], c["iv_source"], c["role"]): c["fn"] for c in cases}
    for lang in measure.TABLE1_LANGUAGES:   # both languages compute the same bytes
        assert np.array_equal(by[(lang, "aes", "key_expansion", "none", "control")](), aes.expand_key(KEY))
        for a, c in ((1, "maes-1"), (2, "maes-2")):
            for src in ("sha3", "keyexp"):
                assert np.array_equal(by[(lang, c, "iv_generation", src, "main")](), maes.maes_ivs(KEY, a, src))
        rk, ivs = by[(lang, "maes-1", "setup", "keyexp", "main")]()
        assert np.array_equal(rk, aes.expand_key(KEY)) and np.array_equal(ivs, maes.maes_ivs(KEY, 1, "keyexp"))
    assert {c["impl"] for c in measure.table1_cases(KEY, languages=("numba",))} == {"numba"}
    with pytest.raises(ValueError, match="languages"):
        measure.table1_cases(KEY, languages=("java",))
    stage = measure.table2_cases(8)
    assert len(stage) == 2 * (3 + 2 + 3)
    assert {(c["role"], c["blocks"]) for c in stage} == {("main", 8), ("control", 8), ("dispatch", 1)}
    for c in stage:  # the control computes the same thing as the main case
        if c["role"] == "control":
            twin = next(x for x in stage if x["role"] == "main" and x["impl"] == c["impl"]
                        and x["operation"] == c["operation"])
            assert np.array_equal(c["fn"](), twin["fn"]())
    block = measure.table3_cases(KEY)
    assert len(block) == 4 * 2 * 2
    assert sum(c["role"] == "control" for c in block) == 2 * 2
    assert all(c["cipher"] == "aes" for c in block if c["role"] == "control")
    for c in block:
        assert len(bytes(c["fn"]())) == 16
    enc = [c for c in block if c["cipher"] == "maes-2" and c["impl"] == "reference"]
    ct = next(c for c in enc if c["operation"] == "encrypt")["fn"]()
    pt = next(c for c in enc if c["operation"] == "decrypt")["fn"]()
    assert bytes(cipherlab.new(KEY, cipher="maes-2", padding=False).encrypt_block(bytes(pt))) == bytes(ct)
    with pytest.raises(ValueError, match="data"):
        measure.bulk_cases(KEY, np.zeros(15, dtype=np.uint8))
    with pytest.raises(ValueError, match="iv"):
        measure.bulk_cases(KEY, np.zeros(32, dtype=np.uint8), modes=("cbc",))
    with pytest.raises(ValueError, match="n_blocks"):
        measure.table2_cases(0)


def test_compile_times_frame_is_tidy():
    ct = measure.compile_times(measure.table3_cases(KEY)[:2], run_id="r")
    assert list(ct.columns[:8]) == ["cipher", "impl", "mode", "operation", "bytes", "trial", "seconds", "run_id"]
    assert (ct["trial"] == 0).all() and (ct["seconds"] > 0).all() and (ct["run_id"] == "r").all()


def test_measure_all_batches_and_reports_overhead(short_run):
    assert set(short_run) == set(measure.RAW_EXPERIMENTS)
    block = short_run["maes_block"]
    assert (block["calls"] > 1).all()  # a one-block call is far below 0.2 ms: batched
    assert set(block["role"]) == {"main", "control"}
    assert (short_run["maes_overhead"]["seconds"] > 0).all()
    assert tables.overhead_us(short_run["maes_overhead"]) < 100
