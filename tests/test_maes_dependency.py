"""Tests of cipherlab.experiments.maes.dependency."""
from __future__ import annotations

import numpy as np
import pytest

import cipherlab
from cipherlab.experiments.maes import dependency

from maes_synthetic import KEY

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def test_byte_dependency_aes_diffuses_maes_does_not():
    aes = dependency.byte_dependency("aes", KEY, n_blocks=32)
    assert len(aes) == 32 * 16
    assert aes["bytes_changed"].mean() > 15.0  # each byte unchanged with probability 1/256
    for cipher in ("maes-1", "maes-2"):
        dep = dependency.byte_dependency(cipher, KEY, n_blocks=32)
        assert (dep["bytes_changed"] == 1).all()


# --- repeated-byte leak ---------------------------------------------------------


def test_byte_routes_maes_is_a_permutation_aes_diffuses():
    assert dependency.byte_routes("aes", KEY) is None
    for cipher in ("maes-1", "maes-2"):
        r = dependency.byte_routes(cipher, KEY)
        assert r is not None and sorted(r.tolist()) == list(range(16))
        # changing plaintext byte p changes ciphertext byte r[p] and nothing else
        c = cipherlab.new(KEY, cipher=cipher, padding=False)
        block = bytearray(16)
        base = np.frombuffer(bytes(c.encrypt_block(bytes(block))), dtype=np.uint8)
        block[5] = 0xA5
        other = np.frombuffer(bytes(c.encrypt_block(bytes(block))), dtype=np.uint8)
        assert np.flatnonzero(base != other).tolist() == [r[5]]
