"""Tests of cipherlab.experiments.maes.keyspace."""
from __future__ import annotations

import math

import pytest

from cipherlab.experiments.maes import keyspace

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


# --- key space ---------------------------------------------------------------


def test_keyspace_numbers_are_powers_of_two():
    ks = keyspace.keyspace_table()
    assert list(ks["key_bits"]) == [128, 192, 256]
    for b, keys, half in zip(ks["key_bits"], ks["keys"], ks["expected_trials"]):
        assert int(keys) == 2 ** b and int(half) == 2 ** (b - 1)
    assert ks["published_key_bits"].all()
    assert ks.loc[0, "log10_keys"] == pytest.approx(128 * math.log10(2))
    assert (ks["accepted_by"] == "aes maes-1 maes-2").all()
    odd = keyspace.keyspace_table((3, 64))
    assert odd.loc[0, "keys"] == "8" and not odd.loc[0, "published_key_bits"]
    assert odd["accepted_by"].tolist() == ["", ""]
    with pytest.raises(ValueError, match="keys_per_second"):
        keyspace.keyspace_table(keys_per_second=0)
