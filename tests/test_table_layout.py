"""Tests of cipherlab.present.table_layout."""
from __future__ import annotations

import pytest

from cipherlab.present import table_layout as L
from cipherlab.experiments.aes2sbox import avalanche

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


def test_fitted_table_folds_every_column_in_groups_that_fit_the_page():
    pairs = avalanche.avalanche_pairs(["000"], key=bytes(16))
    groups = L.column_groups(pairs, ["paper", "pair", "cipher"])
    assert sorted(sum(groups, [])) == sorted(c for c in pairs.columns if c not in ("paper", "pair", "cipher"))
    base = sum(L.column_px(pairs, k) for k in ("paper", "pair", "cipher"))
    assert all(base + sum(L.column_px(pairs, c) for c in g) <= L.PAGE_PX or len(g) == 1 for g in groups)
    assert len(groups) > 1                                  # four hex ciphertexts do not fit one table
    html = str(L.fitted_table(pairs, short=["paper", "pair", "changed_bits"], keys=["paper", "pair", "cipher"]))
    for c in pairs.columns:
        assert f">{L.label(c)}</th>" in html.split("<details>")[1]
    with pytest.raises(ValueError, match="keys"):
        L.column_groups(pairs, ["nope"])
    with pytest.raises(ValueError, match="not in it"):
        L.fitted_table(pairs, short=["nope"], keys=["paper"])
