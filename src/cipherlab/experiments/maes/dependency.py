"""Byte dependency of the MAES chapter: how many ciphertext bytes one plaintext byte reaches, and which.

AES spreads a changed byte over the whole block (MixColumns); MAES, without
it, changes exactly one ciphertext byte, the same position every time
(:func:`byte_routes`).  Deterministic (seeded).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab import new
from cipherlab.experiments.maes.common import CIPHERS


def byte_dependency(cipher: str, key: bytes, n_blocks: int = 256, seed: int = 0,
                    impl: str = "table", **options) -> pd.DataFrame:
    """How many ciphertext bytes change when one plaintext byte changes.

    For ``n_blocks`` random blocks and each of the 16 byte positions, the
    byte is replaced by another random value and both blocks are encrypted
    (ECB, one block). AES changes all 16 bytes (full diffusion after two
    rounds); a cipher without MixColumns changes exactly one. Returns one row
    per block and position with ``bytes_changed``.
    """
    if n_blocks < 1:
        raise ValueError(f"n_blocks must be >= 1, got {n_blocks}")
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, size=(n_blocks, 16), dtype=np.uint8)
    deltas = rng.integers(1, 256, size=(n_blocks, 16), dtype=np.uint8)
    c = new(key, cipher=cipher, mode="ecb", impl=impl, padding=False, threads=1, **options)
    base = np.asarray(c.encrypt(blocks.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
    rows = []
    for pos in range(16):
        flipped = blocks.copy()
        flipped[:, pos] ^= deltas[:, pos]
        enc = np.asarray(c.encrypt(flipped.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
        changed = (enc != base).sum(axis=1)
        rows.append(pd.DataFrame({"cipher": cipher, "position": pos, "block": np.arange(n_blocks),
                                  "bytes_changed": changed}))
    return pd.concat(rows, ignore_index=True)


def byte_routes(cipher: str, key: bytes, n_blocks: int = 4, seed: int = 0, impl: str = "table",
                **options) -> "np.ndarray | None":
    """Which ciphertext byte each plaintext byte alone reaches, measured through the cipher.

    For each of the 16 input positions, change that byte in ``n_blocks``
    random blocks and see which output bytes change. Returns ``int64[16]``
    (``routes[p]`` = the one output position input ``p`` reaches) when every
    change touches exactly one output byte, the same one each time; ``None``
    when the cipher diffuses (AES).
    """
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, size=(n_blocks, 16), dtype=np.uint8)
    c = new(key, cipher=cipher, mode="ecb", impl=impl, padding=False, threads=1, **options)
    base = np.asarray(c.encrypt(blocks.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
    routes = np.empty(16, dtype=np.int64)
    for pos in range(16):
        flipped = blocks.copy()
        flipped[:, pos] ^= 0x01
        enc = np.asarray(c.encrypt(flipped.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
        changed = enc != base
        if not (changed.sum(axis=1) == 1).all():
            return None
        outs = np.unique(np.argmax(changed, axis=1))
        if outs.size != 1:
            return None
        routes[pos] = outs[0]
    return routes


def cipher_routes(key: bytes, maes_options: "dict | None" = None, seed: int = 0,
                  ciphers=CIPHERS) -> "dict[str, np.ndarray | None]":
    """:func:`byte_routes` of each cipher (the MAES options for the MAES ciphers only)."""
    return {c: byte_routes(c, key, seed=seed, **(dict(maes_options or {}) if c != "aes" else {})) for c in ciphers}
