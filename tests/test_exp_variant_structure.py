"""Tests of the variant battery: byte-locality and the codebook path (experiments.variant.structure)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.security.driver import attack_targets
from cipherlab.experiments.variant import structure

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


# ---------------------------------------------------------------- structure and the codebook

@pytest.mark.parametrize("cipher, local", [("aes", False), ("aes-2sbox", True), ("maes-1", True)])
def test_byte_locality_from_dependency(cipher, local):
    _, rates = structure.dependency_by_round(cipher, n_keys=1, n_plaintexts=8, max_rounds=10)
    assert structure.is_byte_local(rates[10]) is local
    assert structure.is_byte_local(rates[1])   # one round has no MixColumns: byte-local for all


@pytest.mark.parametrize("cipher, local", [("aes-2sbox", True), ("aes", False)])
def test_codebook_path(cipher, local):
    targets = {"image": attack_targets(seed=0, image_stride=8, text_bytes=16)["image"]}
    table, recovered = structure.codebook_table(cipher, targets, local, seed=1)
    assert bool(table["ran"].all()) is local
    if local:
        assert table["exact"].all() and (table["queries"] == 257).all()
        assert np.array_equal(recovered[("ecb", "image")], targets["image"].reshape(-1))
    else:
        assert recovered == {}


def test_property_rounds():
    rounds = pd.DataFrame({"rounds": [1, 2, 3], "byte_local": [True, False, False], "affine": [True] * 3,
                           "balanced": [True, True, False], "full_diffusion": [False, False, True]})
    p = structure.property_rounds(rounds).set_index("property")
    assert list(p.index) == list(structure.PROPERTIES)
    assert p.loc["balanced", "last_round_holding"] == 2 and p.loc["balanced", "first_round_failing"] == 3
    assert p.loc["byte_local", "first_round_failing"] == 2
    assert p.loc["byte_local", "last_round_holding"] == 1
    assert pd.isna(p.loc["affine", "first_round_failing"])
    assert p.loc["full_diffusion", "first_round_holding"] == 3
