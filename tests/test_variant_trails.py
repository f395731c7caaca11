"""The wide-trail referee (cipherlab.experiments.variant.trails, cipherlab.ciphers.gfmatrix) and the S-box tables
(cipherlab.experiments.variant.sbox_tables), against published values and the naive references in tests/naive.py."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml
from hypothesis import given, settings, strategies as st

import naive
from cipherlab.ciphers import registry
from cipherlab.ciphers.variant_files import register_variant_file
from cipherlab.ciphers.gfmatrix import (AES_INV_MIX_MATRIX, AES_MIX_MATRIX, branch_number, circulant, gf_inverse_matrix,
                                        gf_mat_mul, gf_mat_vec, linear_branch_number)
from cipherlab.ciphers.sboxes import rijndael_sbox, second_sbox
from cipherlab.experiments.variant import sbox_tables, trails
from cipherlab.pipeline.paths import variant_file

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")

CIRC_1112 = circulant((1, 1, 1, 2))


@pytest.fixture
def scratch(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


def _register(tmp_path, name, linear, sbox=None):
    doc = {"name": name, "summary": "a test variant", "key_bytes": 16, "sbox": sbox or {"kind": "rijndael"},
           "linear": linear}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return register_variant_file(path).name


# --- GF(2^8) matrices ------------------------------------------------------------------------------

def test_the_aes_matrix_s_inverse_is_invmixcolumns_and_it_is_mds():
    assert gf_inverse_matrix(AES_MIX_MATRIX).tolist() == [list(r) for r in AES_INV_MIX_MATRIX]
    assert branch_number(AES_MIX_MATRIX) == linear_branch_number(AES_MIX_MATRIX) == 5
    assert naive.is_mds_naive([list(r) for r in AES_MIX_MATRIX])


def test_circulant_1112_is_invertible_with_branch_number_4():
    assert gf_inverse_matrix(CIRC_1112) is not None
    assert branch_number(CIRC_1112) == linear_branch_number(CIRC_1112) == 4
    assert not naive.is_mds_naive(CIRC_1112.tolist())
    # a witness: two equal input bytes cancel in two rows (rows 0 and 1 hold 1, 1 at positions 1, 2)
    x = np.array([0, 7, 7, 0], dtype=np.uint8)
    assert np.count_nonzero(x) + np.count_nonzero(gf_mat_vec(CIRC_1112, x)) == 4


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=16, max_size=16), st.lists(st.integers(0, 255), min_size=4, max_size=4))
def test_branch_number_inverse_and_mds_agree_with_the_naive_references(values, x):
    m = np.array(values, dtype=np.uint8).reshape(4, 4)
    inv = gf_inverse_matrix(m)
    assert (inv is not None) == (naive.gf_det_naive(m.tolist()) != 0)
    if inv is not None:
        assert gf_mat_mul(m, inv).tolist() == np.eye(4, dtype=int).tolist()
    b = branch_number(m)
    assert (b == 5) == naive.is_mds_naive(m.tolist())
    xv = np.array(x, dtype=np.uint8)
    if xv.any():  # the branch number is a minimum: no input goes below it
        assert np.count_nonzero(xv) + np.count_nonzero(gf_mat_vec(m, xv)) >= b
    assert linear_branch_number(m) == branch_number(m.T)


# --- the active-S-box MILP ------------------------------------------------------------------------

def test_aes_active_sboxes_are_the_wide_trail_values():
    # Daemen and Rijmen: 1, 5, 9, 25 active S-boxes in 1..4 rounds of AES
    assert [trails.active_sbox_bound(r, 5) for r in range(1, 5)] == [1, 5, 9, 25]
    table, times = trails.bound_table("aes", max_rounds=4)
    assert table["active_sboxes_differential"].tolist() == table["active_sboxes_linear"].tolist() == [1, 5, 9, 25]
    assert table["log2_differential_trail_bound"].tolist() == [-6.0, -30.0, -54.0, -150.0]
    assert table["both_below_2^-128"].tolist() == [False, False, False, True]
    assert len(times) == 4 and (times["milp_seconds"] >= 0).all()


def test_no_diffusion_is_one_active_sbox_per_round():
    assert [trails.active_sbox_bound(r, 2) for r in range(1, 9)] == list(range(1, 9))


def test_a_non_mds_matrix_gets_its_branch_number_s_bound():
    # two rounds: B active S-boxes; four rounds: B^2 (the wide-trail theorem's super-box bound)
    assert trails.active_sbox_bound(2, 4) == 4
    assert trails.active_sbox_bound(4, 4) == 16
    assert trails.active_sbox_bound(2, 3) == 3
    assert trails.active_sbox_bound(4, 3) == 9


@pytest.mark.parametrize("rounds, branch", [(0, 5), (1, 6), (1, 1), (True, 5), (2.0, 5)])
def test_the_milp_refuses_bad_arguments(rounds, branch):
    with pytest.raises(ValueError, match=r"rounds|branch"):
        trails.active_sbox_bound(rounds, branch)


# --- the layers and margins of ciphers -------------------------------------------------------------

@pytest.mark.parametrize("linear, expected", [
    ({"kind": "mixcolumns"}, ("mixcolumns", 5, 5, True)),
    ({"kind": "none"}, ("none", 2, 2, True)),
    ({"kind": "xor-iv"}, ("xor-iv", 2, 2, True)),
    ({"kind": "byte-map", "map": {"kind": "random", "seed": 1}}, ("byte-map", 2, 2, True)),
    ({"matrix": CIRC_1112.tolist()}, ("matrix", 4, 4, True)),
    ({"matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]}, ("matrix", 2, 2, True)),
])
def test_every_linear_layer_has_its_branch_numbers(scratch, tmp_path, linear, expected):
    name = _register(tmp_path, "toy-layer", linear)
    p = trails.layer_properties(name)
    assert (p["linear_layer"], p["differential_branch_number"], p["linear_branch_number"], p["invertible"]) == expected
    assert p["mds"] == (expected[1] == 5)


def test_aes_margin_and_a_non_mds_margin(scratch, tmp_path):
    aes = trails.margin_table("aes").iloc[0]
    assert (aes["rounds_needed"], aes["margin_rounds"], aes["active_sboxes_4_rounds"]) == (4, 6, 25)
    name = _register(tmp_path, "toy-circ", {"matrix": CIRC_1112.tolist()})
    circ = trails.margin_table(name).iloc[0]
    assert circ["active_sboxes_4_rounds"] == 16 and circ["bound_meaningful"]
    assert circ["rounds_needed"] > aes["rounds_needed"] and circ["margin_rounds"] < aes["margin_rounds"]
    # 16 x 6 = 96 bits after 4 rounds is not enough, the first round count past 128 bits is the one needed
    table, _ = trails.bound_table(name, max_rounds=int(circ["rounds_needed"]))
    assert table["both_below_2^-128"].tolist() == [False] * (int(circ["rounds_needed"]) - 1) + [True]


def test_the_bound_means_nothing_for_an_affine_sbox():
    register_variant_file(variant_file("aes-affine-sbox"))
    row = trails.margin_table("aes-affine-sbox").iloc[0]
    assert not row["bound_meaningful"] and "affine" in row["note"]
    assert row["differential_uniformity"] == 256 and row["nonlinearity"] == 0
    assert row["rounds_needed"] is pd.NA and row["margin_rounds"] is pd.NA
    table, _ = trails.bound_table("aes-affine-sbox", max_rounds=4)
    assert table["active_sboxes_differential"].tolist() == [1, 5, 9, 25]
    assert (table["log2_differential_trail_bound"] == 0).all() and not table["both_below_2^-128"].any()


# --- the S-box tables ------------------------------------------------------------------------------

PRESENT = np.array(sbox_tables.PRESENT_SBOX)


def test_the_sbox_table_of_aes_and_present_has_the_published_values():
    t = sbox_tables.sbox_table({"aes": rijndael_sbox(), "present": PRESENT}).set_index("map")
    aes, present = t.loc["aes"], t.loc["present"]
    assert (aes["differential_uniformity"], aes["nonlinearity"], aes["boomerang_uniformity"]) == (4, 112, 6)
    assert (aes["algebraic_degree"], aes["inverse_degree"], aes["linear_structures"], aes["fixed_points"]) == (7, 7, 0, 0)
    assert aes["cycle_type"] == "87 81 59 27 2"  # the AES S-box's five cycles
    assert (present["differential_uniformity"], present["nonlinearity"], present["boomerang_uniformity"]) == (4, 4, 16)
    assert (present["bits"], present["algebraic_degree"], present["inverse_degree"]) == (4, 3, 3)


def test_the_bct_matches_its_definition():
    bct = sbox_tables.boomerang_connectivity_table(PRESENT)
    assert all(bct[a, b] == naive.bct_entry_naive(list(PRESENT), a, b) for a in range(16) for b in range(16))
    s = rijndael_sbox()
    big = sbox_tables.boomerang_connectivity_table(s)
    rng = np.random.default_rng(3)
    for a, b in rng.integers(0, 256, size=(40, 2)):
        assert big[a, b] == naive.bct_entry_naive([int(v) for v in s], int(a), int(b))
    assert (big[0] == 256).all() and (big[:, 0] == 256).all()


def test_linear_structures_match_their_definition():
    found = {(a, b): c for a, b, c in sbox_tables.linear_structures(PRESENT)}
    for a in range(1, 16):
        for b in range(1, 16):
            assert ((a, b) in found) == naive.is_linear_structure_naive(list(PRESENT), a, b)
            if (a, b) in found:
                assert naive.dot(b, PRESENT[0] ^ PRESENT[a]) == found[(a, b)]
    assert len(sbox_tables.linear_structures(second_sbox()[0])) == 255 * 255  # an affine map: every pair


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_cycles_match_a_naive_walk(seed):
    s = np.random.default_rng(seed).permutation(256)
    assert sbox_tables.cycle_lengths(s) == naive.cycles_naive([int(v) for v in s])


def test_the_spectra_count_every_entry():
    sp = sbox_tables.spectra_table({"aes": rijndael_sbox(), "present": PRESENT})
    for name, n in (("aes", 256), ("present", 16)):
        for table in ("DDT", "|LAT|"):
            assert sp[(sp["map"] == name) & (sp["table"] == table)]["count"].sum() == (n - 1) ** 2
    aes_ddt = sp[(sp["map"] == "aes") & (sp["table"] == "DDT")].set_index("value")["count"].to_dict()
    assert aes_ddt == {0: 32640, 2: 32130, 4: 255}


def test_a_non_permutation_is_refused():
    with pytest.raises(ValueError, match="sbox: must be a permutation"):
        sbox_tables.sbox_table({"bad": np.zeros(256, dtype=np.uint8)})


# --- the trail bounds follow a variant file's own ShiftRows ---------------------------------------------

def test_the_active_sbox_bound_follows_a_variant_shift_rows(tmp_path):
    doc = {"name": "no-shift", "summary": "ShiftRows the identity", "key_bytes": 16, "sbox": {"kind": "rijndael"},
           "shift_rows": {"kind": "permutation", "permutation": list(range(16))}, "linear": {"kind": "mixcolumns"}}
    path = tmp_path / "no-shift.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    name = register_variant_file(path).name
    bounds, _ = trails.bound_table(name, 4)
    active = bounds.set_index("rounds")["active_sboxes_differential"]
    # without ShiftRows each column is its own 32-bit cipher: 1, 5, 6, 10 active S-boxes (AES: 1, 5, 9, 25)
    assert list(active) == [1, 5, 6, 10]
    aes, _ = trails.bound_table("aes", 4)
    assert list(aes["active_sboxes_differential"]) == [1, 5, 9, 25]
