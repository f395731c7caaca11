"""Tests of cipherlab.experiments.security.attack."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import cipherlab
from cipherlab.experiments.security import attack


# ------------------------------------------------------------------ attack

def _small_target() -> np.ndarray:
    img = np.arange(40 * 30 * 3, dtype=np.uint32).reshape(40, 30, 3)
    return ((img * 2654435761) >> 13).astype(np.uint8)  # any non-trivial bytes


@pytest.mark.parametrize("cipher", ["aes-2sbox", "maes-1", "maes-2"])
@pytest.mark.parametrize("mode", ["ecb", "cbc"])
def test_attack_recovers_variants_exactly(cipher, mode):
    key = bytes(range(16))
    iv = bytes(range(100, 116)) if mode == "cbc" else None
    target = _small_target()
    text = b"The attacker never sees the key. " * 7
    for plain in (target, text):
        res = attack.run_attack(cipher, key, plain, mode=mode, iv=iv)
        expected = attack.as_bytes_array(plain)
        assert res["exact"] and np.array_equal(res["recovered"], expected)
        assert res["queries"] == 257 and res["byte_local"]


def test_attacker_model_is_said_from_the_attacks_own_parameters():
    """The attacker model comes from the attack's parameters (its chosen blocks, its modes): the CBC clause (the
    oracle's IV known in advance) only where CBC is used; the registry's sentences that state the attack name the
    same number of chosen blocks and, where they name the oracle, the IV."""
    import re

    from cipherlab.analysis.claims import load_claims
    res = attack.run_attack("aes-2sbox", bytes(range(16)), bytes(64), mode="cbc", iv=bytes(16))
    assert res["queries"] == attack.CODEBOOK_BLOCKS == 257
    ecb, cbc = attack.attacker_model(257, ["ecb"]), attack.attacker_model(257, ["ecb", "CBC"])
    assert ecb == "an encryption oracle for 257 chosen blocks under the key, and no key"
    assert cbc.startswith(ecb) and "IV the oracle uses known in advance" in cbc and "IV" not in ecb
    claims = load_claims()
    for _, row in claims[claims["paper"].isin(["000", "001", "002"])].iterrows():
        for field in ("quote", "quantity", "note"):
            for n in re.findall(r"oracle for (\d+) chosen blocks", row[field]):
                assert int(n) == attack.CODEBOOK_BLOCKS, (row["claim_id"], field)
        if "encryption oracle" in row["quantity"]:
            assert "IV known in advance" in row["quantity"], row["claim_id"]


@pytest.mark.parametrize("mode", ["ecb", "cbc"])
def test_attack_on_aes_recovers_nothing(mode):
    iv = bytes(16) if mode == "cbc" else None
    plain = np.random.default_rng(0).integers(0, 256, 8192, dtype=np.uint8)
    res = attack.run_attack("aes", bytes(range(16)), plain, mode=mode, iv=iv)
    assert not res["byte_local"]
    # chance is 1/256 ~ 0.004 per decoded byte; allow a wide margin, never near 1
    assert res["match_fraction"] < 0.02
    assert res["match_fraction_decoded"] < 0.02


def test_oracle_hides_key_and_counts():
    oracle = attack.EncryptionOracle("aes-2sbox", bytes(16))
    assert not any("key" in name for name in vars(oracle))
    oracle(np.zeros(48, np.uint8))
    assert oracle.queries == 3 and oracle.calls == 1
    with pytest.raises(ValueError, match="message"):
        oracle(np.zeros(5, np.uint8))
    with pytest.raises(ValueError, match="iv"):
        attack.EncryptionOracle("maes-1", bytes(16), mode="cbc")
    with pytest.raises(ValueError, match="mode"):
        attack.EncryptionOracle("maes-1", bytes(16), mode="ctr")


def test_a_bad_mode_is_one_line_at_each_public_door(monkeypatch):
    """The attack's mode is checked once on each path: by the oracle run_attack builds first (before the victim
    encrypts anything), and by decrypt_with_codebook for a direct caller."""
    line = r"^mode must be one of \('ecb', 'cbc'\), got 'ctr'$"
    monkeypatch.setattr(attack, "new_quiet", lambda *a, **k: pytest.fail("encrypted before the mode was checked"))
    with pytest.raises(ValueError, match=line):
        attack.run_attack("maes-1", bytes(16), bytes(32), mode="ctr")
    with pytest.raises(ValueError, match=line):
        attack.decrypt_with_codebook(None, b"", mode="ctr")


def test_codebook_matches_cipher_tables():
    key = bytes(range(16))
    oracle = attack.EncryptionOracle("maes-2", key)
    book = attack.learn_codebook(oracle)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        enc = cipherlab.new(key, cipher="maes-2", mode="ecb", padding=False)
    block = np.random.default_rng(4).integers(0, 256, 16, dtype=np.uint8)
    ct = np.asarray(enc.encrypt(block))
    assert np.array_equal(book.decrypt_blocks(ct[None])[0], block)


def test_attack_table_columns():
    table, rec, cts = attack.attack_table({"t": b"x" * 40}, ciphers=("aes", "maes-1"), seed=1)
    assert all(cts[k].size == 48 for k in cts)  # 40 bytes + PKCS#7
    assert len(table) == 4 and set(rec) == {(c, m, "t") for c in ("aes", "maes-1")
                                            for m in ("ecb", "cbc")}
    assert table.loc[table.cipher == "maes-1", "exact"].all()


@pytest.mark.parametrize("options", [{"iv_source": "keyexp"}, {"iv_source": "sha3"}])
def test_attack_does_not_depend_on_the_maes_iv_source(options):
    res = attack.run_attack("maes-2", bytes(range(16, 32)), b"same attack, any IV source" * 3,
                            mode="cbc", iv=bytes(range(16)), **options)
    assert res["exact"] and res["queries"] == 257


def test_attack_on_second_sbox_readings():
    for construction in ("xor-index", "xor-sbox"):
        res = attack.run_attack("aes-2sbox", bytes(16), b"either reading" * 5,
                                construction=construction)
        assert res["exact"]
