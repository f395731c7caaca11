"""The variant families without code (cipherlab.ciphers.keyed, run by cipherlab.ciphers._variant_shapes):
known answers for encrypt and decrypt from tests/naive.py in every style each family has, frozen vectors,
and a randomized round trip per family in every mode."""
from __future__ import annotations

import numpy as np
import pytest
import yaml
from hypothesis import given, settings, strategies as st

import cipherlab
import naive
from cipherlab.ciphers.variant_files import build_from_description, load_variant

pytestmark = pytest.mark.usefixtures("quiet_research_warning")

SEED3 = [int(v) for v in np.random.default_rng(3).permutation(256)]
PERM = [2, 8, 13, 12, 1, 9, 6, 5, 11, 4, 15, 3, 10, 7, 0, 14]
CIRCULANT = [[1, 1, 1, 2], [2, 1, 1, 1], [1, 2, 1, 1], [1, 1, 2, 1]]


def _xor_all(data) -> int:
    out = 0
    for b in data:
        out ^= b
    return out


def _gf_matrix_inverse(m):
    """The inverse of a 4 x 4 matrix over GF(2^8), by Gauss-Jordan with tests/naive.py's field operations."""
    a = [list(row) + [int(i == j) for j in range(4)] for i, row in enumerate(m)]
    for col in range(4):
        pivot = next(r for r in range(col, 4) if a[r][col])
        a[col], a[pivot] = a[pivot], a[col]
        inv = naive.gf_inverse(a[col][col])
        a[col] = [naive.gf_mul(inv, v) for v in a[col]]
        for r in range(4):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v ^ naive.gf_mul(f, w) for v, w in zip(a[r], a[col])]
    return [row[4:] for row in a]


def _rounds(key, spec, additional=None):
    """``(sboxes, perms, middle)`` of a family for ``key``, from tests/naive.py alone."""
    nr = naive.NR[len(key)]
    rk = naive.round_keys(key)
    return spec["naive"](key, rk, nr, additional)


#: Each family: the variant file's blocks and its naive construction (key, round keys, Nr, additional byte).
FAMILIES = {
    "key-shuffle": {
        "doc": {"sbox": {"kind": "derived", "from": "key", "steps": [{"shuffle": {"bytes": "all"}}]},
                "linear": {"kind": "mixcolumns"}},
        "naive": lambda key, rk, nr, a: ([naive.ksa_shuffle_naive(naive.SBOX, key)] * nr, [naive.AES_PERM] * nr,
                                         ("mixcolumns",))},
    "key-affine": {
        "doc": {"sbox": {"kind": "derived", "from": "key",
                         "steps": [{"affine": {"matrix": "rotate", "matrix_byte": 0, "constant_byte": 1}},
                                   {"rotate": {"byte": 2}}]},
                "linear": {"kind": "mixcolumns"}},
        "naive": lambda key, rk, nr, a: (
            [naive.rotate_table_naive(naive.affine_table_naive(naive.SBOX, rotate=key[0], constant=key[1]), key[2])]
            * nr, [naive.AES_PERM] * nr, ("mixcolumns",))},
    "key-xor": {
        "doc": {"sbox": {"kind": "derived", "from": "key", "steps": [{"xor": {"byte": "xor-all"}}]},
                "linear": {"kind": "mixcolumns"}},
        "naive": lambda key, rk, nr, a: ([[v ^ _xor_all(key) for v in naive.SBOX]] * nr, [naive.AES_PERM] * nr,
                                         ("mixcolumns",))},
    "additional-xor": {
        "doc": {"additional_key": 0x5A, "sbox": {"kind": "derived", "steps": [{"xor": {"byte": "additional"}}]},
                "linear": {"kind": "mixcolumns"}},
        "naive": lambda key, rk, nr, a: ([[v ^ (0x5A if a is None else a) for v in naive.SBOX]] * nr,
                                         [naive.AES_PERM] * nr, ("mixcolumns",))},
    "round-maps": {
        "doc": {"sbox": {"kind": "per-round", "maps": [{"kind": "rijndael"}, {"kind": "random", "seed": 3}]},
                "linear": {"kind": "matrix", "matrix": CIRCULANT}},
        "naive": lambda key, rk, nr, a: ([naive.SBOX if r % 2 else SEED3 for r in range(1, nr + 1)],
                                         [naive.AES_PERM] * nr,
                                         ("matrix", CIRCULANT, _gf_matrix_inverse(CIRCULANT)))},
    "round-key-sbox": {
        "doc": {"sbox": {"kind": "derived", "from": "round-key",
                         "steps": [{"rotate": {"byte": 0}}, {"xor": {"byte": 5}}]},
                "linear": {"kind": "mixcolumns"}},
        "naive": lambda key, rk, nr, a: ([[v ^ rk[r][5] for v in naive.rotate_table_naive(naive.SBOX, rk[r][0])]
                                          for r in range(1, nr + 1)], [naive.AES_PERM] * nr, ("mixcolumns",))},
    "fixed-shift": {
        "doc": {"sbox": {"kind": "rijndael"}, "shift_rows": {"kind": "permutation", "permutation": PERM},
                "linear": {"kind": "none"}},
        "naive": lambda key, rk, nr, a: ([naive.SBOX] * nr, [PERM] * nr, ("none",))},
    "round-key-shift": {
        "doc": {"sbox": {"kind": "random", "seed": 3},
                "shift_rows": {"kind": "derived", "from": "round-key", "method": "row-offsets", "bytes": [0, 1, 2, 3]},
                "linear": {"kind": "byte-map", "map": {"kind": "second-sbox", "construction": "xor-index",
                                                       "xor_byte": 0x7F}}},
        "naive": lambda key, rk, nr, a: ([SEED3] * nr, [naive.row_offsets_perm_naive([b % 4 for b in rk[r][:4]])
                                                        for r in range(1, nr + 1)],
                                         ("byte-map", *naive.second_sbox(0x7F, "xor-index")))},
    "key-shuffle-shift": {
        "doc": {"sbox": {"kind": "derived", "from": "round-key", "steps": [{"shuffle": {"bytes": [0, 1, 2, 3]}}]},
                "shift_rows": {"kind": "derived", "from": "key", "method": "shuffle"},
                "linear": {"kind": "mixcolumns"}},
        "naive": lambda key, rk, nr, a: ([naive.ksa_shuffle_naive(naive.SBOX, rk[r][:4]) for r in range(1, nr + 1)],
                                         [naive.shuffle_perm_naive(key)] * nr, ("mixcolumns",))},
}

#: One frozen known answer per family (key 00..0f, block 10..1f; 128-bit key), from tests/naive.py when the
#: families were added: a change to the library or to the naive reference shows here.
FROZEN = {
    "key-shuffle": "b3cd316bf1eaf25c64a68e13de8fcb8b",
    "key-affine": "f211f5aff0c0c49b748234828a22373d",
    "key-xor": "07feef74e1d5036e900eee118e949293",
    "additional-xor": "eea71ab43c8c4601b9dd8c37a4cf1bb4",
    "round-maps": "09be702a9d16f1ae894706d835f840a1",
    "round-key-sbox": "3eab7fa28932323d092d787e2209d85f",
    "fixed-shift": "d52bef0d5a4483d5acd7664510ab44b2",
    "round-key-shift": "d75d5c410cf5f1652e1e122e1aac759a",
    "key-shuffle-shift": "4ffbf0d308d420e36af1c257cb6ae9cb",
}


def _info(tmp_path_factory, family):
    folder = tmp_path_factory.mktemp("families")
    doc = {"name": family, "summary": f"the {family} family", "key_bytes": [16, 24, 32], **FAMILIES[family]["doc"]}
    path = folder / f"{family}.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return build_from_description(load_variant(path))


@pytest.fixture(scope="module")
def infos(tmp_path_factory):
    return {f: _info(tmp_path_factory, f) for f in FAMILIES}


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_encrypts_and_decrypts_as_the_naive_reference(infos, family):
    info, spec = infos[family], FAMILIES[family]
    rng = np.random.default_rng(sum(family.encode()))
    for size in (16, 24, 32):
        for _ in range(2):
            key = rng.bytes(size)
            block = rng.bytes(16)
            options = {"additional_key": int(rng.integers(256))} if "additional_key" in info.options else {}
            additional = options.get("additional_key")
            sboxes, perms, middle = _rounds(key, spec, additional)
            want = naive.encrypt_block_rounds(key, block, sboxes, perms, middle)
            assert naive.decrypt_block_rounds(key, want, sboxes, perms, middle) == block
            for impl in info.styles:
                c = cipherlab.new(key, info, "ecb", impl=impl, padding=False, **options)
                assert c.encrypt_block(block) == want, (family, size, impl)
                assert c.decrypt_block(want) == block, (family, size, impl)
            got_s, got_p = info.round_tables(key, **options)
            assert [list(s) for s in got_s] == [list(s) for s in sboxes] and [list(p) for p in got_p] == perms


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_keeps_its_frozen_known_answer(infos, family):
    key, block = bytes(range(16)), bytes(range(16, 32))
    sboxes, perms, middle = _rounds(key, FAMILIES[family])
    want = naive.encrypt_block_rounds(key, block, sboxes, perms, middle)
    assert want.hex() == FROZEN[family]
    for impl in infos[family].styles:
        assert cipherlab.new(key, infos[family], "ecb", impl=impl, padding=False).encrypt_block(block) == want


def test_the_styles_follow_the_families(infos):
    """Round-dependent parts run in the reference style's general kernel; a key-dependent S-box in AES's round
    shapes also in the table style; AES-NI never (its S-box is Rijndael's, fixed)."""
    general = ("reference",)
    want = {"key-shuffle": ("reference", "table"), "key-affine": ("reference", "table"),
            "key-xor": ("reference", "table"), "additional-xor": ("reference", "table"), "round-maps": general,
            "round-key-sbox": general, "fixed-shift": general, "round-key-shift": general,
            "key-shuffle-shift": general}
    assert {f: infos[f].styles for f in FAMILIES} == want


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from((16, 24, 32)), mode=st.sampled_from(cipherlab.MODES),
       rounds=st.integers(1, 10), data=st.binary(max_size=150))
def test_each_family_decrypts_what_it_encrypts(infos, family, seed, size, mode, rounds, data):
    info = infos[family]
    rng = np.random.default_rng(seed)
    key, iv = rng.bytes(size), (None if mode == "ecb" else rng.bytes(16))
    options = {"rounds": rounds}
    if "additional_key" in info.options:
        options["additional_key"] = int(rng.integers(256))
    outs = set()
    for impl in info.styles:
        ct = cipherlab.new(key, info, mode, iv=iv, impl=impl, **options).encrypt(data)
        assert cipherlab.new(key, info, mode, iv=iv, impl=impl, **options).decrypt(ct) == data
        outs.add(ct)
    assert len(outs) == 1   # every style gives the same ciphertext
