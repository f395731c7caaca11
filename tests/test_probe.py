"""The bound probe (``cipherlab.ciphers.probe``): it measures every width this process may run and says
why not the others, its figures hang together (the bound is the best width's CTR block, the AES units'
bound comes from the chains), it is cached per process and never runs at import. No speed is
asserted: the numbers are the machine's, the tests check what is made of them."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from cipherlab.ciphers import probe
from cipherlab.ciphers.cpu import aesni_status, vaes_status, zmm_status

STATUS = {128: aesni_status(), 256: vaes_status(), 512: zmm_status()}


@pytest.fixture(scope="module")
def measured():
    return probe.measure(repeats=2)


def test_every_width_is_measured_or_says_why(measured):
    assert set(measured.widths) == {128, 256, 512}
    for width, row in measured.widths.items():
        if STATUS[width]:
            assert row.status == f"not measured: {STATUS[width]}" and math.isnan(row.aes_per_cycle)
            continue
        assert row.status == "" and row.aes_per_cycle > 0 and row.blocks_per_instruction == probe.WIDTHS[width]
        assert row.block_rounds_per_cycle == pytest.approx(row.aes_per_cycle * probe.WIDTHS[width])
        assert set(row.ctr_cycles_per_byte) == set(probe.ROUNDS)
        assert all(v > 0 and math.isfinite(v) for v in row.ctr_cycles_per_byte.values())


@pytest.mark.skipif(bool(aesni_status()), reason="no AES-NI on this CPU / JIT target: nothing to measure")
def test_the_bound_is_the_best_width_and_the_aes_units_come_from_the_chains(measured):
    rows = measured.measured()
    for bits, rounds in probe.ROUNDS.items():
        best = min(rows, key=lambda r: r.ctr_cycles_per_byte[bits])
        assert measured.best_width(bits) == best.width
        rate = max(r.block_rounds_per_cycle for r in rows)
        assert measured.aes_bound(bits) == pytest.approx(rounds / (16 * rate))
        assert measured.bound(bits) == max(best.ctr_cycles_per_byte[bits], measured.aes_bound(bits))
        assert measured.formula(bits, 256) == probe.instruction_bound(rounds, 2)
    assert measured.clock_hz > 0


def test_the_record_is_plain_json(measured):
    record = json.loads(json.dumps(measured.as_dict()))
    assert set(record["bound_cycles_per_byte"]) == {"128", "192", "256"}
    assert set(record["widths"]) == {"128", "256", "512"}
    assert {r["status"] for w, r in record["widths"].items() if not STATUS[int(w)]} <= {"measured"}


def test_instruction_bound_states_its_assumption():
    assert probe.instruction_bound(10) == pytest.approx(10 / 32)                 # 2 block-rounds per cycle
    assert probe.instruction_bound(10, blocks_per_instruction=2) == pytest.approx(10 / 64)
    assert probe.instruction_bound(14, per_cycle=1) == pytest.approx(14 / 16)


def test_the_result_is_cached_per_process(measured):
    assert probe.measure(repeats=2) is measured


def test_gain_is_nan_unless_both_widths_ran(measured):
    both = not (STATUS[256] or STATUS[512])
    assert math.isnan(measured.gain(512, 256)) != both
    if both:
        assert measured.gain(512, 256) == pytest.approx(
            measured.widths[512].block_rounds_per_cycle / measured.widths[256].block_rounds_per_cycle)
        assert probe.zmm_gain() > 0
    if not both:
        assert math.isnan(probe.zmm_gain())


def test_import_runs_nothing_and_no_aes_ni_is_said():
    """Importing cipherlab compiles no probe; without AES-NI (``NUMBA_CPU_NAME=generic``) the probe
    measures nothing and says why for every width, the bound is NaN, and nothing aborts."""
    code = ("import cipherlab, json; from cipherlab.ciphers import probe; "
            "assert probe._run_chains.signatures == [] and probe.measure.cache_info().currsize == 0; "
            "p = probe.measure(repeats=1); "
            "print(json.dumps([p.widths[w].status for w in (128, 256, 512)]), p.bound(128))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_CPU_NAME": "generic"})
    assert run.returncode == 0, run.stderr[-800:]
    statuses, bound = run.stdout.rsplit(maxsplit=1)
    assert all(s.startswith("not measured: ") and "generic" in s for s in json.loads(statuses))
    assert bound == "nan"
