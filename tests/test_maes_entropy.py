"""Tests of cipherlab.experiments.maes.entropy."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

import cipherlab
from cipherlab.experiments.maes import image as figure8
from cipherlab.experiments.maes import common, entropy
from cipherlab.analysis.paper import published
from cipherlab.names import MODES

from maes_synthetic import IV, KEY

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


# --- histograms, entropy, chi-square ----------------------------------------


def test_entropy_and_chi_square_of_known_histograms():
    flat = np.tile(np.arange(256, dtype=np.uint8), 64)
    const = np.zeros(4096, dtype=np.uint8)
    two = np.repeat(np.array([0, 255], dtype=np.uint8), 2048)
    tab = entropy.entropy_table({("flat", "x"): flat, ("const", "x"): const, ("two", "x"): two}).set_index("cipher")
    assert tab.loc["flat", "entropy_bits"] == pytest.approx(8.0, abs=1e-12)
    assert tab.loc["const", "entropy_bits"] == pytest.approx(0.0, abs=1e-12)
    assert tab.loc["two", "entropy_bits"] == pytest.approx(1.0, abs=1e-12)
    assert tab.loc["flat", "chi2"] == pytest.approx(0.0, abs=1e-9)
    assert tab.loc["flat", "p_value"] == pytest.approx(1.0)
    assert bool(tab.loc["flat", "uniform_at_alpha"]) and not bool(tab.loc["const", "uniform_at_alpha"])


def test_chi_square_agrees_with_scipy():
    data = np.random.default_rng(7).integers(0, 256, 10_000, dtype=np.uint8)
    row = entropy.entropy_table({("r", "x"): data}).iloc[0]
    ref = st.chisquare(np.bincount(data, minlength=256))
    assert row["chi2"] == pytest.approx(ref.statistic, rel=1e-12)
    assert row["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    counts = np.bincount(data, minlength=256) / data.size
    assert row["entropy_bits"] == pytest.approx(-(counts[counts > 0] * np.log2(counts[counts > 0])).sum(), rel=1e-12)


def test_entropy_table_carries_published_values():
    pub = published("002", "Table IV").set_index("row")["number"]
    data = np.arange(256, dtype=np.uint8)
    tab = entropy.entropy_table({("aes", "ecb"): data, ("maes-2", "cbc"): data, ("plain", "none"): data})
    by = tab.set_index("cipher")["published_entropy"]
    assert by["aes"] == pub[common.TABLE4_ROWS["aes"]]
    assert by["maes-2"] == pub[common.TABLE4_ROWS["maes-2"]]
    assert math.isnan(by["plain"])
    with pytest.raises(ValueError, match="alpha"):
        entropy.entropy_table({("aes", "ecb"): data}, alpha=0)


def test_expected_entropy_uniform_matches_simulation():
    n = 4096
    rng = np.random.default_rng(3)
    sims = [cipherlab.analysis.stats.byte_entropy(rng.integers(0, 256, n, dtype=np.uint8)) for _ in range(200)]
    assert entropy.expected_entropy_uniform(n) == pytest.approx(np.mean(sims), abs=2e-3)
    assert entropy.entropy_sd_uniform(n) == pytest.approx(np.std(sims, ddof=1), rel=0.25)
    with pytest.raises(ValueError, match="n_bytes"):
        entropy.expected_entropy_uniform(0)
    assert entropy.bytes_for_expected_entropy(entropy.expected_entropy_uniform(n)) == pytest.approx(n)
    with pytest.raises(ValueError, match="entropy_bits"):
        entropy.bytes_for_expected_entropy(8.0)


def test_entropy_comparison_same_image_and_mode(image):
    small = np.ascontiguousarray(image[:128, :128])
    ims = figure8.image_ciphertexts(small, KEY, IV)
    ctrl = {("aes", md): figure8.encrypt_image(small, "aes", md, entropy.second_key(KEY), IV) for md in MODES}
    d = entropy.entropy_comparison(ims, ctrl).set_index(["cipher", "mode"])
    assert set(d.index) == {(c, md) for c in ("maes-1", "maes-2", "aes (second key)") for md in MODES}
    assert entropy.second_key(KEY) != KEY and len(entropy.second_key(KEY)) == len(KEY)
    for md in MODES:
        h = cipherlab.analysis.stats.byte_entropy(ims[("maes-2", md)]) - cipherlab.analysis.stats.byte_entropy(ims[("aes", md)])
        assert d.loc[("maes-2", md), "difference_bits"] == pytest.approx(h)
        assert d.loc[("maes-2", md), "low_bits"] < h < d.loc[("maes-2", md), "high_bits"]
    assert d.loc[("maes-2", "ecb"), "high_bits"] < d.loc[("aes (second key)", "ecb"), "low_bits"]
    pub = published("002", "Table IV").set_index("row")["number"]
    assert d.loc[("maes-2", "cbc"), "published_difference_bits"] == pytest.approx(
        pub[common.TABLE4_ROWS["maes-2"]] - pub[common.TABLE4_ROWS["aes"]])
    assert np.isnan(d.loc[("aes (second key)", "cbc"), "published_difference_bits"])
    with pytest.raises(ValueError, match="control"):
        entropy.entropy_comparison(ims, {("maes-1", "ecb"): ims[("maes-1", "ecb")]})
    with pytest.raises(ValueError, match="confidence"):
        entropy.entropy_comparison(ims, confidence=1.5)
