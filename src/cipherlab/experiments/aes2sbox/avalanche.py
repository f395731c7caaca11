"""Avalanche (Table 6 of 000, the avalanche table of 001): the printed pairs and every single-bit flip."""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

from cipherlab.analysis import paper as _paper
from cipherlab.experiments.aes2sbox.common import BLOCK_BITS, CIPHERS, PAPERS, POPCOUNT, TABLES, check_paper, key_bytes, make_cipher


def changed_bits(a, b) -> "int | np.ndarray":
    """Number of differing bits between ``a`` and ``b`` along the last axis.

    ``a``, ``b``: bytes (returns an int) or uint8 arrays of the same shape
    (returns an array with the last axis summed away).
    """
    scalar = isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray))
    x = np.frombuffer(bytes(a), dtype=np.uint8) if isinstance(a, (bytes, bytearray)) else np.asarray(a, dtype=np.uint8)
    y = np.frombuffer(bytes(b), dtype=np.uint8) if isinstance(b, (bytes, bytearray)) else np.asarray(b, dtype=np.uint8)
    if x.shape != y.shape:
        raise ValueError(f"a and b must have the same shape, got {x.shape} and {y.shape}")
    out = POPCOUNT[x ^ y].sum(axis=-1, dtype=np.int64)
    return int(out) if scalar else out


def published_avalanche_pairs(paper: str) -> pd.DataFrame:
    """The paper's avalanche table as pairs: ``pair, plaintext_a/b, ciphertext_a/b, published_percent, published_bits``."""
    check_paper(paper)
    df = _paper.corrected(paper, TABLES[paper]["avalanche"])   # documented misprints read as corrected
    col = TABLES[paper]["avalanche_column"]
    cell = {(r, c): v for r, c, v in zip(df["row"], df["column"], df["value"])}
    rows = []
    printed_rows = sorted({int(r) for r in df["row"]})
    for k in range(0, len(printed_rows), 2):
        ra, rb = str(printed_rows[k]), str(printed_rows[k + 1])
        rows.append({"paper": paper, "pair": k // 2 + 1,
                     "plaintext_a": cell[(ra, "Plaintext")], "plaintext_b": cell[(rb, "Plaintext")],
                     "ciphertext_a": cell[(ra, "Ciphertext")], "ciphertext_b": cell[(rb, "Ciphertext")],
                     "published_percent": cell[(ra, col)], "published_bits": cell[(ra, f"{col} (changed bits)")]})
    return pd.DataFrame(rows)


def avalanche_pairs(papers: Iterable[str] = PAPERS, *, key, ciphers: Sequence[str] = CIPHERS,
                    impl: str = "table", xor_byte: int = 0x7F, construction: str = "xor-index") -> pd.DataFrame:
    """The papers' plaintext pairs encrypted under ``key``: ciphertexts and changed bits beside the published.

    Returns
    -------
    DataFrame
        One row per paper x pair x cipher: the plaintexts, ``input_bits``
        (bits the plaintexts differ in), ours and the published ciphertexts,
        ``changed_bits``, ``changed_bytes``, ``percent`` and the published
        percent and bits (AES-2SBox rows only: the papers give no AES figures).
    """
    key = key_bytes(key)
    rows = []
    for paper in papers:
        pairs = published_avalanche_pairs(paper)
        for cipher_name in ciphers:
            enc = make_cipher(key, cipher_name, impl, xor_byte=xor_byte, construction=construction)
            for pair in pairs.itertuples():
                pa, pb = bytes.fromhex(pair.plaintext_a), bytes.fromhex(pair.plaintext_b)
                blocks = enc.encrypt(np.frombuffer(pa + pb, dtype=np.uint8).copy()).reshape(2, 16)
                ca, cb = blocks[0], blocks[1]
                bits = int(changed_bits(ca, cb))
                is_paper_cipher = cipher_name == "aes-2sbox"
                rows.append({
                    "paper": paper, "pair": pair.pair, "cipher": cipher_name,
                    "plaintext_a": pair.plaintext_a, "plaintext_b": pair.plaintext_b,
                    "input_bits": changed_bits(pa, pb),
                    "input_bytes": int(sum(x != y for x, y in zip(pa, pb))),
                    "ciphertext_a": ca.tobytes().hex().upper(), "ciphertext_b": cb.tobytes().hex().upper(),
                    "changed_bits": bits, "changed_bytes": int(np.sum(ca != cb)),
                    "percent": 100.0 * bits / BLOCK_BITS,
                    "published_ciphertext_a": pair.ciphertext_a if is_paper_cipher else "",
                    "published_ciphertext_b": pair.ciphertext_b if is_paper_cipher else "",
                    "published_bits": pair.published_bits if is_paper_cipher else "",
                    "published_percent": pair.published_percent if is_paper_cipher else "",
                    "published_changed_bytes": int(np.sum(np.frombuffer(bytes.fromhex(pair.ciphertext_a), np.uint8)
                                                          != np.frombuffer(bytes.fromhex(pair.ciphertext_b), np.uint8)))
                    if is_paper_cipher else np.nan,
                })
    return pd.DataFrame(rows)


def _bit_masks() -> np.ndarray:
    """``uint8[128, 16]``: row ``p`` flips bit ``p``, counted from the most significant bit of byte 0."""
    masks = np.zeros((BLOCK_BITS, 16), dtype=np.uint8)
    positions = np.arange(BLOCK_BITS)
    masks[positions, positions // 8] = (0x80 >> (positions % 8)).astype(np.uint8)
    return masks


def avalanche_distribution(*, n_plaintexts: int, n_keys: int = 1, key=None, seed: int = 0,
                           ciphers: Sequence[str] = CIPHERS, impl: str = "table", xor_byte: int = 0x7F,
                           construction: str = "xor-index", threads: "int | None" = None) -> pd.DataFrame:
    """Changed ciphertext bits for every one of the 128 single-bit plaintext flips.

    For each key and each of ``n_plaintexts`` random plaintexts P, every
    flipped plaintext ``P ^ e_p`` (p = 0..127) is encrypted in one ECB call
    together with P (blocks are independent in ECB), and the Hamming distance
    of the two ciphertexts is counted, all vectorised.

    Parameters
    ----------
    n_plaintexts : int
        Random plaintexts per key (>= 1).
    n_keys : int
        Keys: ``key`` first if given, then random ones from ``seed``.
    key : bytes or hex str, optional
    seed : int
        Seeds the keys and plaintexts.
    ciphers, impl, xor_byte, construction, threads
        Which ciphers and how to run them.

    Returns
    -------
    DataFrame
        One row per cipher x key x plaintext x bit position: ``cipher,
        key_index, plaintext, bit_position`` (0 = most significant bit of the
        first byte, the order of the hex string), ``changed_bits``,
        ``changed_bytes``.
    """
    if not isinstance(n_plaintexts, (int, np.integer)) or n_plaintexts < 1:
        raise ValueError(f"n_plaintexts must be an integer >= 1, got {n_plaintexts!r}")
    if not isinstance(n_keys, (int, np.integer)) or n_keys < 1:
        raise ValueError(f"n_keys must be an integer >= 1, got {n_keys!r}")
    rng = np.random.default_rng(seed)
    keys = [key_bytes(key)] if key is not None else []
    while len(keys) < n_keys:
        keys.append(rng.integers(0, 256, 16, dtype=np.uint8).tobytes())
    plain = rng.integers(0, 256, (n_plaintexts, 16), dtype=np.uint8)
    flipped = plain[:, None, :] ^ _bit_masks()[None, :, :]            # (n, 128, 16)
    batch = np.ascontiguousarray(np.concatenate([plain[:, None, :], flipped], axis=1)).reshape(-1)
    frames = []
    pos = np.tile(np.arange(BLOCK_BITS, dtype=np.int16), n_plaintexts)
    pidx = np.repeat(np.arange(n_plaintexts, dtype=np.int32), BLOCK_BITS)
    for cipher_name in ciphers:
        for k, kb in enumerate(keys):
            enc = make_cipher(kb, cipher_name, impl, xor_byte=xor_byte, construction=construction, threads=threads)
            out = enc.encrypt(batch).reshape(n_plaintexts, BLOCK_BITS + 1, 16)
            diff = out[:, :1, :] ^ out[:, 1:, :]                       # (n, 128, 16)
            frames.append(pd.DataFrame({
                "cipher": cipher_name, "key_index": np.int16(k), "plaintext": pidx, "bit_position": pos,
                "changed_bits": POPCOUNT[diff].sum(axis=-1, dtype=np.int16).reshape(-1),
                "changed_bytes": (diff != 0).sum(axis=-1, dtype=np.int16).reshape(-1),
            }))
    return pd.concat(frames, ignore_index=True)


def avalanche_summary(dist: pd.DataFrame) -> pd.DataFrame:
    """Per cipher: flips, mean/std/min/max changed bits, mean percent, and the share of flips reaching 50 %."""
    g = dist.groupby("cipher", sort=True)
    out = pd.DataFrame({
        "flips": g.size(),
        "mean_bits": g["changed_bits"].mean(),
        "std_bits": g["changed_bits"].std(ddof=1),
        "min_bits": g["changed_bits"].min(),
        "max_bits": g["changed_bits"].max(),
        "max_changed_bytes": g["changed_bytes"].max(),
        "share_at_least_half": g["changed_bits"].apply(lambda s: float(np.mean(s >= BLOCK_BITS // 2))),
    })
    out["mean_percent"] = 100.0 * out["mean_bits"] / BLOCK_BITS
    out["ideal_mean_bits"] = BLOCK_BITS / 2
    return out.reset_index()


def avalanche_by_position(dist: pd.DataFrame) -> pd.DataFrame:
    """Per cipher and input bit position: mean, min and max changed bits."""
    g = dist.groupby(["cipher", "bit_position"], sort=True)["changed_bits"]
    return pd.DataFrame({"mean_bits": g.mean(), "min_bits": g.min(), "max_bits": g.max()}).reset_index()


def avalanche_histogram(dist: pd.DataFrame) -> pd.DataFrame:
    """Share of flips changing ``k`` bits (k = 0..128) per cipher, beside Binomial(128, 1/2), the ideal."""
    k = np.arange(BLOCK_BITS + 1)
    frames = []
    for cipher_name, sub in dist.groupby("cipher", sort=True):
        counts = np.bincount(sub["changed_bits"].to_numpy(dtype=np.int64), minlength=BLOCK_BITS + 1)
        frames.append(pd.DataFrame({"cipher": cipher_name, "changed_bits": k, "count": counts,
                                    "share": counts / counts.sum(),
                                    "ideal_share": _st.binom.pmf(k, BLOCK_BITS, 0.5)}))
    return pd.concat(frames, ignore_index=True)
