"""cipherlab.pipeline.provenance: the run metadata every raw file carries."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from cipherlab.pipeline import provenance


def test_run_metadata_has_the_provenance_fields():
    meta = provenance.run_metadata(profile="quick", seed=3, config={"a": 1}, compile_seconds=0.5)
    for key in ("run_id", "profile", "date_utc", "seed", "config", "cpu_model", "logical_cores",
                "numba_threads", "python", "packages", "git_commit", "compile_seconds"):
        assert key in meta
    assert meta["packages"]["numpy"] == np.__version__
    assert provenance.new_run_id() != provenance.new_run_id()


def test_run_metadata_records_clock_boost_governor_and_load():
    meta = provenance.run_metadata(profile="quick")
    for key in ("cpu_mhz_os", "cpu_boost", "cpu_governor"):
        assert isinstance(meta[key], str) and meta[key]  # a value, or "not readable"
    assert meta["cpu_boost"] in ("on", "off", provenance.NOT_READABLE)
    for key in ("load_average_start", "load_average_end"):
        value = meta[key]
        assert value == provenance.NOT_READABLE or (len(value) == 3 and all(x >= 0 for x in value))
    assert meta["load_average_start"] == provenance.LOAD_AT_START


def test_unreadable_cpufreq_is_said(monkeypatch):
    monkeypatch.setattr(provenance, "_read_first_line", lambda path: None)
    assert provenance.cpu_governor() == provenance.cpu_boost() == "not readable"
    monkeypatch.setattr(provenance, "_read_first_line",
                        lambda path: "1" if path.endswith("no_turbo") else None)
    assert provenance.cpu_boost() == "off"


_AES_RECORD = """
import json
from cipherlab.ciphers import cpu
from cipherlab.ciphers.modes import available_impls
from cipherlab.pipeline import provenance
env = provenance.environment_summary()
print(json.dumps({"cpu": env["cpu_aes_ni"], "jit": env["jit_aes_ni"], "host": cpu.host_has_aesni(),
                  "kernels": "aesni" in available_impls()}))
"""


def _aes_record(**env):
    out = subprocess.run([sys.executable, "-c", _AES_RECORD], env={**os.environ, **env}, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_record_says_aes_ni_as_the_cipher_core_decides_it_under_a_generic_jit_target_too():
    # One decision (cipherlab.ciphers.cpu): the record's jit_aes_ni is whether the hardware style runs,
    # cpu_aes_ni whether the CPU has the instructions (what PyCryptodome uses), on either JIT target.
    here, generic = _aes_record(), _aes_record(NUMBA_CPU_NAME="generic")
    assert here["jit"] == here["kernels"] and here["cpu"] == here["host"]
    assert generic["jit"] is False and generic["kernels"] is False
    assert generic["cpu"] == generic["host"] == here["host"]   # the CPU did not change, only the JIT target
