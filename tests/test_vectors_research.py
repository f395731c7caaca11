"""Known answers of the research ciphers (AES-2SBox, MAES-1, MAES-2).

The frozen files ``src/cipherlab/ciphers/vectors/{aes_2sbox,maes_1,maes_2}.json`` were
generated once by ``tests/make_vectors.py`` from the naive implementation in
``tests/naive.py``.  Here: every style agrees with them, regenerating them
gives the same bytes, they cover every key size, mode and option, and a single
swap in a research cipher's table makes the selfcheck fail naming the cipher.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import make_vectors
import naive
from cipherlab import selfcheck
from cipherlab.ciphers import aes_2sbox, maes, vectors
from cipherlab.ciphers.modes import IMPLS, new
from cipherlab.ciphers.registry import cipher_names, cipher_options

#: every registered research cipher -> its vector file
RESEARCH = {c: selfcheck.vector_file(c) for c in cipher_names(research=True)}


def _styles(cipher):
    return [i for i in IMPLS if selfcheck._supports(cipher, i)]


def _run_case(cipher, impl, case):
    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
    iv = bytes.fromhex(case["iv"]) if case["iv"] else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = new(key, cipher, case["mode"], iv=iv, impl=impl, padding=case["padding"], **case["options"])
    return c.encrypt(pt) == ct, c.decrypt(ct) == pt


@pytest.mark.parametrize("cipher", sorted(RESEARCH))
def test_every_style_matches_the_frozen_vectors(cipher):
    doc = vectors.load(RESEARCH[cipher])
    assert doc["cipher"] == cipher
    styles = _styles(cipher)
    assert {"reference", "table"} <= set(styles)
    for impl in styles:
        for case in doc["cases"]:
            enc_ok, dec_ok = _run_case(cipher, impl, case)
            assert enc_ok and dec_ok, f"{cipher} {impl} {case['name']}: encrypt {enc_ok}, decrypt {dec_ok}"


@pytest.mark.parametrize("stem", sorted(make_vectors.FILES))
def test_naive_regenerates_the_frozen_files_exactly(stem):
    frozen = (make_vectors.VECTORS_DIR / f"{stem}.json").read_text()
    assert make_vectors.render(stem) == frozen, f"tests/make_vectors.py no longer gives {stem}.json"
    assert "tests/make_vectors.py" in vectors.load(stem)["source"]
    assert "tests/naive.py" in vectors.load(stem)["source"]


@pytest.mark.parametrize("cipher", sorted(RESEARCH))
def test_vectors_cover_key_sizes_modes_options_and_multi_block(cipher):
    cases = vectors.load(RESEARCH[cipher])["cases"]
    combos = {(len(c["key"]) // 2, c["mode"]) for c in cases}
    assert combos >= {(k, m) for k in (16, 24, 32) for m in ("ecb", "cbc", "ctr")}
    used = {name for c in cases for name in c["options"]}
    # every option the cipher class accepts except pure aliases of the defaults
    assert set(cipher_options(cipher)) <= used, set(cipher_options(cipher)) - used
    assert any(len(c["plaintext"]) // 2 > 32 for c in cases), "no multi-block message"
    assert any(not c["padding"] for c in cases) and any(c["padding"] for c in cases)
    assert any(c["iv"] == "ff" * 15 + "fe" for c in cases), "no counter-wrap case"
    values = {(k, v) for c in cases for k, v in c["options"].items()}
    if cipher == "aes-2sbox":
        assert {("construction", "xor-index"), ("construction", "xor-sbox")} <= values
        assert {("xor_byte", 0), ("xor_byte", 0x7F), ("xor_byte", 0xFF)} <= values
    else:
        assert {("iv_source", "sha3"), ("iv_source", "keyexp"), ("sha3_chain", "iv"), ("sha3_chain", "digest")} <= values
        assert {("sha3", v) for v in maes.SHA3_VARIANTS} <= values
    assert {v for k, v in values if k == "rounds"} >= {1, 5, 9}


def test_naive_is_checked_against_published_aes():
    """The naive module itself is anchored to FIPS-197 and SP 800-38A (so its research
    variants differ from AES only by the step the papers replace)."""
    for case in vectors.load("fips197")["cases"]:
        key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
        assert naive.encrypt_block(key, pt) == ct and naive.decrypt_block(key, ct) == pt
    for case in vectors.load("sp800_38a")["cases"]:
        key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
        iv = bytes.fromhex(case["iv"]) if case["iv"] else None
        assert naive.encrypt(key, pt, "aes", case["mode"], iv, padding=False) == ct, case["name"]


def _swapped(table_pair, i, j):
    fwd, inv = (np.array(t, copy=True) for t in table_pair)
    fwd[i], fwd[j] = fwd[j], fwd[i]
    inv[fwd[i]], inv[fwd[j]] = i, j
    assert all(inv[fwd[x]] == x for x in range(256))
    return fwd, inv


def _selfcheck_fails_naming(cipher, capsys):
    status = selfcheck.main(["--cipher", cipher])
    out = capsys.readouterr().out
    assert status == 1, f"selfcheck passed with a mutated {cipher} table:\n{out[-2000:]}"
    assert f"selfcheck FAILED for cipher {cipher}" in out
    frame = selfcheck.run_selfcheck([cipher])
    failed = frame[~frame["passed"]]
    assert set(failed["cipher"]) == {cipher}
    # round trips cannot see a swap; only AES-NI, which cannot build a second S-box that is
    # not affine, fails them, and says so; a mutated registered cipher may also differ from its
    # description in config/ciphers/ (which does not share the mutated function)
    other = failed[~failed["check"].str.startswith(("known answer", "description == registered"))]
    assert (other["impl"] == "aesni").all() and other["detail"].str.contains("no AES-NI form").all(), other


@pytest.mark.parametrize("pair", [(0x00, 0x01), (0x53, 0xCA), (0x7E, 0xFF)])
def test_one_swap_in_the_second_sbox_fails_the_selfcheck(monkeypatch, capsys, pair):
    original = aes_2sbox._second_sbox
    monkeypatch.setattr(aes_2sbox, "_second_sbox", lambda *a, **k: _swapped(original(*a, **k), *pair))
    _selfcheck_fails_naming("aes-2sbox", capsys)


@pytest.mark.parametrize("cipher", ["maes-1", "maes-2"])
@pytest.mark.parametrize("pos", [(0, 1), (5, 11), (14, 15)])
def test_one_swap_in_the_maes_iv_table_fails_the_selfcheck(monkeypatch, capsys, cipher, pos):
    original = maes._maes_ivs

    def mutated(*a, **k):
        ivs = original(*a, **k).copy()
        i, j = pos
        ivs[0, i], ivs[0, j] = ivs[0, j], ivs[0, i]
        if ivs[0, i] == ivs[0, j]:  # equal bytes: a swap would change nothing; flip one instead
            ivs[0, i] ^= 1
        return ivs
    monkeypatch.setattr(maes, "_maes_ivs", mutated)
    _selfcheck_fails_naming(cipher, capsys)


def test_unmutated_selfcheck_passes_with_known_answers():
    frame = selfcheck.run_selfcheck(list(RESEARCH))
    assert frame["passed"].all(), frame[~frame["passed"]].to_string()
    kats = frame[frame["check"].str.startswith("known answer")]
    for cipher in RESEARCH:
        n = len(vectors.load(RESEARCH[cipher])["cases"])
        assert len(kats[kats["cipher"] == cipher]) == n * len(_styles(cipher))
