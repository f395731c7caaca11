"""FIPS-197 Appendix C and SP 800-38A vectors (package data), both software styles."""
from __future__ import annotations

import pytest
from Crypto.Cipher import AES as PyAES

import cipherlab
from cipherlab.ciphers import vectors
from conftest import AES_STYLES

STYLES = AES_STYLES


def test_loader_lists_and_rejects():
    assert {"fips197", "sp800_38a"} <= set(vectors.available())
    with pytest.raises(ValueError, match="name must be one of"):
        vectors.load("nope")


@pytest.mark.parametrize("impl", STYLES)
@pytest.mark.parametrize("case", vectors.load("fips197")["cases"], ids=lambda c: c["name"])
def test_fips197_appendix_c(case, impl):
    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
    c = cipherlab.new(key, impl=impl, padding=False)
    assert c.encrypt_block(pt) == ct
    assert c.decrypt_block(ct) == pt
    assert c.encrypt(pt) == ct and c.decrypt(ct) == pt


@pytest.mark.parametrize("impl", STYLES)
@pytest.mark.parametrize("case", vectors.load("sp800_38a")["cases"], ids=lambda c: c["name"])
def test_sp800_38a(case, impl):
    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
    iv = bytes.fromhex(case["iv"]) if case["iv"] else None
    c = cipherlab.new(key, mode=case["mode"], iv=iv, impl=impl, padding=False)
    assert c.encrypt(pt) == ct
    assert c.decrypt(ct) == pt


@pytest.mark.parametrize("case", vectors.load("sp800_38a")["cases"], ids=lambda c: c["name"])
def test_sp800_38a_transcription_matches_pycryptodome(case):
    """Guards the transcription itself against an independent implementation."""
    key, pt, ct = (bytes.fromhex(case[k]) for k in ("key", "plaintext", "ciphertext"))
    mode = case["mode"]
    if mode == "ecb":
        ref = PyAES.new(key, PyAES.MODE_ECB)
    elif mode == "cbc":
        ref = PyAES.new(key, PyAES.MODE_CBC, iv=bytes.fromhex(case["iv"]))
    else:
        ref = PyAES.new(key, PyAES.MODE_CTR, nonce=b"", initial_value=bytes.fromhex(case["iv"]))
    assert ref.encrypt(pt) == ct
