"""Tests of cipherlab.experiments.aes2sbox.avalanche."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.aes2sbox import avalanche

from aes2sbox_synthetic import FIPS_KEY, naive_bits

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


# --- avalanche ----------------------------------------------------------------

def test_changed_bits_equals_naive_count():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 256, (50, 16), dtype=np.uint8), rng.integers(0, 256, (50, 16), dtype=np.uint8)
    got = avalanche.changed_bits(a, b)
    assert list(got) == [naive_bits(x.tobytes(), y.tobytes()) for x, y in zip(a, b)]
    assert avalanche.changed_bits(b"\x0f", b"\xf0") == 8
    with pytest.raises(ValueError, match="same shape"):
        avalanche.changed_bits(a, b[:3])


def test_avalanche_pair_counts_equal_naive_count_of_our_ciphertexts():
    from cipherlab.ciphers.modes import new

    pairs = avalanche.avalanche_pairs(["001"], key=FIPS_KEY, impl="reference")
    for r in pairs.itertuples():
        opts = {"xor_byte": 0x7F} if r.cipher == "aes-2sbox" else {}
        enc = new(bytes.fromhex(FIPS_KEY), cipher=r.cipher, mode="ecb", impl="table", padding=False, **opts)
        ca = enc.encrypt(bytes.fromhex(r.plaintext_a))
        cb = enc.encrypt(bytes.fromhex(r.plaintext_b))
        assert r.ciphertext_a == ca.hex().upper() and r.ciphertext_b == cb.hex().upper()
        assert r.changed_bits == naive_bits(ca, cb)
        assert r.percent == pytest.approx(100 * naive_bits(ca, cb) / 128)


def test_avalanche_distribution_matches_per_block_loop():
    from cipherlab.ciphers.modes import new

    dist = avalanche.avalanche_distribution(n_plaintexts=3, n_keys=2, key=FIPS_KEY, seed=5, ciphers=("aes-2sbox",))
    assert len(dist) == 2 * 3 * 128
    rng = np.random.default_rng(5)
    keys = [bytes.fromhex(FIPS_KEY), rng.integers(0, 256, 16, dtype=np.uint8).tobytes()]
    plain = rng.integers(0, 256, (3, 16), dtype=np.uint8)
    for k, key in enumerate(keys):
        enc = new(key, cipher="aes-2sbox", mode="ecb", impl="reference", padding=False, xor_byte=0x7F)
        for i in range(3):
            base = enc.encrypt(plain[i].tobytes())
            for p in (0, 7, 8, 77, 127):
                flipped = bytearray(plain[i].tobytes())
                flipped[p // 8] ^= 0x80 >> (p % 8)
                want = naive_bits(base, enc.encrypt(bytes(flipped)))
                row = dist[(dist["key_index"] == k) & (dist["plaintext"] == i) & (dist["bit_position"] == p)]
                assert row["changed_bits"].item() == want
    # AES-2SBox has no diffusion between bytes: one flipped bit changes exactly one output byte.
    assert (dist["changed_bytes"] == 1).all()


def test_avalanche_summary_and_histogram_are_consistent():
    dist = pd.DataFrame({"cipher": ["aes"] * 4, "changed_bits": [60, 64, 68, 64], "changed_bytes": [16] * 4,
                         "bit_position": [0, 1, 2, 3]})
    s = avalanche.avalanche_summary(dist).iloc[0]
    assert s["mean_bits"] == 64 and s["min_bits"] == 60 and s["max_bits"] == 68 and s["share_at_least_half"] == 0.75
    h = avalanche.avalanche_histogram(dist)
    assert h["count"].sum() == 4 and h.loc[h["changed_bits"] == 64, "count"].item() == 2
    assert h["ideal_share"].sum() == pytest.approx(1.0)


def test_avalanche_distribution_rejects_bad_counts():
    with pytest.raises(ValueError, match="n_plaintexts"):
        avalanche.avalanche_distribution(n_plaintexts=0)
    with pytest.raises(ValueError, match="n_keys"):
        avalanche.avalanche_distribution(n_plaintexts=1, n_keys=0)
