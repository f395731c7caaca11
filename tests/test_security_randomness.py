"""Tests of cipherlab.experiments.security.randomness."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from cipherlab.experiments.security import randomness


# -------------------------------------------------------------- SP 800-22

def _examples():
    path = resources.files("cipherlab.ciphers.vectors") / "sp800_22_examples.json"
    return json.loads(path.read_text())["examples"]


@pytest.mark.parametrize("ex", _examples(), ids=lambda e: f"{e['section']}-{e['test']}")
def test_sp800_22_worked_examples(ex):
    fn = getattr(randomness, ex["test"])
    got = fn(randomness.bits_from_string(ex["eps"]), **ex["params"])
    got = np.atleast_1d(got)
    assert np.allclose(got, ex["p_values"], atol=ex["tolerance"], rtol=0)


def test_longest_run_chi2_of_example():
    ex = next(e for e in _examples() if e["test"] == "longest_run")
    from scipy import special
    # the statistic the document prints gives our P-value exactly
    ours = randomness.longest_run(randomness.bits_from_string(ex["eps"]))
    assert abs(ours - special.gammaincc(1.5, ex["chi2"] / 2)) < 1e-7  # chi2 printed to 6 places


def test_sp800_22_rejects_obvious_patterns():
    zeros = np.zeros(4096, dtype=np.uint8)
    alt = np.tile([0, 1], 2048)
    assert randomness.frequency(zeros) < 1e-10
    assert randomness.runs(alt) < 1e-10
    assert randomness.frequency(alt) == 1.0
    df = randomness.run_tests(np.random.default_rng(0).integers(0, 2, 20000), serial_m=8, apen_m=6)
    assert len(df) == 9 and df.p_value.between(0, 1).all()


def test_sp800_22_pvalues_calibrated_on_random_bits():
    rng = np.random.default_rng(11)
    p = np.array([randomness.frequency(rng.integers(0, 2, 1000)) for _ in range(400)])
    assert 0.05 < (p < 0.1).mean() < 0.15


def test_randomness_runner_and_summary():
    inputs = {"zeros": bytes(4096)}
    df = randomness.ciphertext_randomness(inputs, ciphers=("aes", "maes-1"), n_sequences=4,
                                          serial_m=6, apen_m=4)
    sm = randomness.randomness_summary(df)
    ecb_maes = sm[(sm.cipher == "maes-1") & (sm["mode"] == "ecb")]
    assert not ecb_maes.passed.all()
    assert ecb_maes.byte_entropy.iloc[0] < 5  # 16 distinct bytes repeat
    assert (sm[(sm.cipher == "plaintext")].byte_entropy == 0).all()
    with pytest.raises(ValueError, match="n_sequences"):
        randomness.sequence_tests(bytes(16), n_sequences=4)


def test_bits_validation():
    with pytest.raises(ValueError, match="text"):
        randomness.bits_from_string("0102")
    with pytest.raises(ValueError, match="eps"):
        randomness.frequency([])
