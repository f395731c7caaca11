"""Tests of cipherlab.experiments.aes2sbox.sboxes."""
from __future__ import annotations

import numpy as np
import pytest

from cipherlab.experiments.aes2sbox import common, sboxes
from cipherlab.ciphers.sboxes import second_sbox

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


# --- Tables 1-2 ---------------------------------------------------------------

def test_sbox_grid_layout():
    sbox = np.arange(256, dtype=np.uint8)[::-1].copy()
    grid = sboxes.sbox_grid(sbox)
    assert grid.shape == (16, 16)
    assert grid.loc["0", "0"] == "FF" and grid.loc["1", "7"] == f"{255 - 0x17:02X}" and grid.loc["F", "F"] == "00"
    with pytest.raises(ValueError, match="256"):
        sboxes.sbox_grid(np.zeros(10, dtype=np.uint8))
    printed = sbox.copy()
    printed[0x17] = 0x00
    marked = sboxes.sbox_grid(sbox, printed)
    assert marked.loc["1", "7"] == f"{255 - 0x17:02X} (printed 00)"
    assert (marked != grid).sum().sum() == 1


def test_sbox_diff_lists_exactly_the_differing_cells():
    ours, ours_inv = second_sbox(0x7F)
    pub, pub_inv = ours.copy(), ours_inv.copy()
    pub[0x17] = pub[0x5D]          # a duplicate, as in the papers' misprint
    pub_inv[0x00] ^= 0x10           # a second, one-bit difference in the inverse
    d = sboxes.sbox_diff(ours, ours_inv, pub, pub_inv)
    assert list(zip(d["table"], d["index"])) == [("Table 1", "17"), ("Table 2", "00")]
    assert d.loc[0, "published"] == f"{pub[0x17]:02X}" and d.loc[0, "ours"] == f"{ours[0x17]:02X}"
    assert "misprint" in d.loc[0, "cause"] and "row 5 column D" in d.loc[0, "cause"]
    assert d.loc[1, "differing_bits"] == 1
    assert sboxes.sbox_diff(ours, ours_inv, ours, ours_inv).empty


@pytest.mark.parametrize("which", common.PAPERS)
def test_published_tables_differ_from_construction_in_cells_found_naively(which):
    ours, ours_inv = second_sbox(sboxes.published_key_byte(which))
    pub, pub_inv = sboxes.published_sboxes(which)
    expected = {("Table 1", f"{x:02X}") for x in range(256) if ours[x] != pub[x]} | \
               {("Table 2", f"{x:02X}") for x in range(256) if ours_inv[x] != pub_inv[x]}
    d = sboxes.sbox_diff_table(which)
    assert set(zip(d["table"], d["index"])) == expected
    assert len(d) == len(expected)


def test_construction_match_counts_agree_with_naive_count():
    cm = sboxes.construction_match_table(["000"]).set_index(["table", "construction"])
    pub, _ = sboxes.published_sboxes("000")
    lit, _ = second_sbox(0x7F, "xor-sbox")
    assert cm.loc[("Table 1", "xor-sbox"), "matching"] == sum(int(a == b) for a, b in zip(lit, pub))
    assert not cm.loc[("Table 1", "xor-index"), "printed_is_permutation"]


def test_bad_paper_is_rejected():
    with pytest.raises(ValueError, match="paper"):
        sboxes.published_sboxes("002")
