"""The AES-2SBox chapter: papers 000 and 001 (Wenceslao), every table rebuilt.

Papers 000 and 001 replace AES's MixColumns by a second, byte-wise S-box
("SubBytesXOR") and claim 23-28 % faster encryption and 108-110 % faster
decryption, plus avalanche figures. This module holds the chapter's runners
and tables; the notebooks only call it.

* S-boxes (Tables 1-2): :func:`sbox_grid`, :func:`sbox_diff`,
  :func:`sbox_diff_table`, :func:`construction_match_table`.
* Speed (Tables 3-5): :mod:`cipherlab.experiments.aes2sbox_speed`.
* The papers' own statistics, recomputed: :func:`audit_published_stats`.
* Avalanche (Table 6 of 000, the avalanche table of 001):
  :func:`published_avalanche_pairs`, :func:`avalanche_pairs`,
  :func:`avalanche_distribution`, :func:`avalanche_summary`,
  :func:`avalanche_histogram`, :func:`plot_avalanche`.
* Evidence for the claims registry (``data/paper/claims.csv``):
  :mod:`cipherlab.experiments.aes2sbox_evidence`; the decision engine
  (:mod:`cipherlab.verdicts`) alone turns it into verdicts.

Published numbers are read from ``data/paper/`` through :mod:`cipherlab.paper`;
none is written here.

.. warning::
   AES-2SBox is a research cipher and **not secure**: every step of its round
   acts on single bytes or moves bytes, so one input byte reaches exactly one
   output byte. :func:`cipherlab.new` warns (``InsecureCipherWarning``) each
   time one is made; this module lets the warning through.
"""
from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

from cipherlab import paper as _paper
from cipherlab import stats as _stats
from cipherlab.sboxes import SECOND_SBOX_CONSTRUCTIONS, second_sbox

__all__ = [
    "PAPERS", "CIPHERS", "PAPER_LABELS", "OPERATIONS", "TABLES",
    "sbox_grid", "published_key_byte", "published_sboxes", "sbox_diff", "sbox_diff_table", "construction_match_table",
    "agrees_as_printed", "audit_published_stats",
    "changed_bits", "published_avalanche_pairs", "avalanche_pairs", "avalanche_distribution",
    "avalanche_summary", "avalanche_by_position", "avalanche_histogram", "plot_avalanche",
]

PAPERS = ("000", "001")
#: The two ciphers compared, old first (the papers' ``T_old`` and ``T_new``).
CIPHERS = ("aes", "aes-2sbox")
#: Column labels the papers print for the two ciphers.
PAPER_LABELS = {"aes": "AES-Rijndael", "aes-2sbox": "AES-2SBox"}
OPERATIONS = ("encrypt", "decrypt")
#: Where each published quantity sits in ``data/paper/`` (table names as the papers print them).
TABLES = {
    "000": {"sbox": "Table 1", "inverse": "Table 2", "encrypt": "Table 3", "decrypt": "Table 4",
            "speedup": "Table 5", "speedup_column": "ETPE%", "avalanche": "Table 6",
            "avalanche_column": "Avalanche", "prose": "Section 5.1 (prose)"},
    "001": {"sbox": "Table 1", "inverse": "Table 2", "encrypt": "Table 3", "decrypt": "Table 4",
            "speedup": "Table 5", "speedup_column": "SpeedUP (%)", "avalanche": "Table 5 (avalanche)",
            "avalanche_column": "Avalanche Effect", "prose": "Section 4.1.1 (prose)"},
}
_KEY_BYTE_ROW = "XOR key byte Key[i] used for Tables 1-2"
_OPERATION_ROW = {"encrypt": "Encryption", "decrypt": "Decryption"}
_HEX = "0123456789ABCDEF"
BLOCK_BITS = 128
#: Bits set in each byte value (a lookup table: works on every NumPy version).
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _check_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS}, got {paper!r}")
    return paper


def _check_choice(name: str, value, allowed: Sequence) -> Any:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {tuple(allowed)}, got {value!r}")
    return value


def _cipher(key: bytes, cipher: str, impl: str, *, mode: str = "ecb", padding: bool = False,
            threads: "int | None" = 1, xor_byte: int = 0x7F, construction: str = "xor-index"):
    from cipherlab.modes import new  # imported late: the cipher core compiles kernels on import

    options = {"xor_byte": xor_byte, "construction": construction} if cipher == "aes-2sbox" else {}
    return new(key, cipher=cipher, mode=mode, impl=impl, padding=padding, threads=threads, **options)


def insecure_warning_text() -> str:
    """The ``InsecureCipherWarning`` an AES-2SBox object raises, as one markdown line (no file path)."""
    import warnings

    from cipherlab.modes import InsecureCipherWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InsecureCipherWarning)
        _cipher(bytes(16), "aes-2sbox", "table")
    found = [w for w in caught if issubclass(w.category, InsecureCipherWarning)]
    if not found:
        raise RuntimeError("an AES-2SBox object no longer warns with InsecureCipherWarning")
    return f"**InsecureCipherWarning**: {found[0].message}"


def _key_bytes(key) -> bytes:
    if isinstance(key, str):
        try:
            return bytes.fromhex(key)
        except ValueError as exc:
            raise ValueError(f"key must be bytes or a hex string, got {key!r}") from exc
    return bytes(key)


# ---------------------------------------------------------------------------
# Tables 1 and 2: the second S-box
# ---------------------------------------------------------------------------

def sbox_grid(sbox: np.ndarray, printed: "np.ndarray | None" = None) -> pd.DataFrame:
    """A 256-entry table in the papers' 16x16 layout: row = high nibble, column = low nibble, hex cells.

    With ``printed`` (a published table), a cell where the two differ reads
    ``"BF (printed BE)"``, so the grid shows the comparison cell by cell.
    """
    arr = np.asarray(sbox)
    if arr.shape != (256,):
        raise ValueError(f"sbox must have 256 entries, got shape {arr.shape}")
    if printed is not None and np.asarray(printed).shape != (256,):
        raise ValueError(f"printed must have 256 entries, got shape {np.asarray(printed).shape}")

    def cell(x: int) -> str:
        text = f"{int(arr[x]):02X}"
        if printed is not None and int(printed[x]) != int(arr[x]):
            text += f" (printed {int(printed[x]):02X})"
        return text

    cells = [[cell(16 * r + c) for c in range(16)] for r in range(16)]
    return pd.DataFrame(cells, index=pd.Index(list(_HEX), name="row"), columns=list(_HEX))


def published_key_byte(paper: str) -> int:
    """The XOR byte the paper used for its Tables 1-2 (read from its prose)."""
    df = _paper.published(_check_paper(paper), TABLES[paper]["prose"])
    hit = df.loc[df["row"] == _KEY_BYTE_ROW, "value"]
    if len(hit) != 1:
        raise ValueError(f"paper {paper}: the key byte of Tables 1-2 is not transcribed")
    return int(hit.iloc[0], 16)


def published_sboxes(paper: str) -> tuple[np.ndarray, np.ndarray]:
    """The paper's printed Table 1 (second S-box) and Table 2 (its inverse) as ``uint8[256]``."""
    _check_paper(paper)
    return (_paper.published_sbox(paper, TABLES[paper]["sbox"]),
            _paper.published_sbox(paper, TABLES[paper]["inverse"]))


def _cell(x: int) -> str:
    return f"row {_HEX[x >> 4]} column {_HEX[x & 15]}"


def sbox_diff(ours: np.ndarray, ours_inverse: np.ndarray, published: np.ndarray,
              published_inverse: np.ndarray, *, names: Sequence[str] = ("Table 1", "Table 2")) -> pd.DataFrame:
    """Every cell where a published S-box table differs from ours, with the likely cause.

    Parameters
    ----------
    ours, ours_inverse : uint8[256]
        Our S-box and its inverse.
    published, published_inverse : uint8[256]
        The printed tables.
    names : pair of str
        Names of the forward and the inverse table.

    Returns
    -------
    DataFrame
        One row per differing cell, sorted by table then cell: ``table, row,
        column, index, published, ours, differing_bits, cause``. The cause is
        derived from the tables themselves: whether the printed value is
        printed twice, whether our value is missing from the printed table,
        and whether the other printed table agrees with us at this cell.
    """
    tabs = [(names[0], np.asarray(ours), np.asarray(published), np.asarray(published_inverse), "inverse"),
            (names[1], np.asarray(ours_inverse), np.asarray(published_inverse), np.asarray(published), "forward")]
    rows = []
    for name, mine, printed, other_printed, other_kind in tabs:
        if mine.shape != (256,) or printed.shape != (256,) or other_printed.shape != (256,):
            raise ValueError("every S-box must have 256 entries")
        counts = np.bincount(printed.astype(np.int64), minlength=256)
        other_name = names[1] if other_kind == "inverse" else names[0]
        for x in np.flatnonzero(mine != printed):
            p, o = int(printed[x]), int(mine[x])
            reasons = []
            if counts[p] > 1:
                twins = [_cell(int(y)) for y in np.flatnonzero(printed == p) if y != x]
                reasons.append(f"{p:02X} is also printed at {', '.join(twins)}")
            if counts[o] == 0:
                reasons.append(f"{o:02X} is printed nowhere in {name}")
            if int(other_printed[o]) == x:
                reasons.append(f"the printed {other_name} maps {o:02X} back to {x:02X}, as ours does")
            flips = bin(p ^ o).count("1")
            kind = "a misprint" if (counts[p] > 1 and counts[o] == 0) else "a different construction or a misprint"
            cause = f"{kind}: " + "; ".join(reasons) if reasons else kind
            if flips == 1:
                cause += f"; {p:02X} and {o:02X} differ in one bit (one hex digit)"
            rows.append({"table": name, "row": _HEX[x >> 4], "column": _HEX[x & 15], "index": f"{x:02X}",
                         "published": f"{p:02X}", "ours": f"{o:02X}", "differing_bits": flips, "cause": cause})
    cols = ["table", "row", "column", "index", "published", "ours", "differing_bits", "cause"]
    return pd.DataFrame(rows, columns=cols).sort_values(["table", "index"], kind="stable").reset_index(drop=True)


def sbox_diff_table(paper: str, construction: str = "xor-index") -> pd.DataFrame:
    """:func:`sbox_diff` of a paper's Tables 1-2 against ``second_sbox`` at the paper's key byte."""
    _check_choice("construction", construction, SECOND_SBOX_CONSTRUCTIONS)
    ours, ours_inv = second_sbox(published_key_byte(paper), construction)
    pub, pub_inv = published_sboxes(paper)
    out = sbox_diff(ours, ours_inv, pub, pub_inv, names=(TABLES[paper]["sbox"], TABLES[paper]["inverse"]))
    out.insert(0, "paper", paper)
    return out


def construction_match_table(papers: Iterable[str] = PAPERS) -> pd.DataFrame:
    """How many printed cells of Tables 1-2 each reading of the construction reproduces.

    Returns
    -------
    DataFrame
        ``paper, table, construction, cells, matching, differing, printed_is_permutation``.
    """
    rows = []
    for paper in papers:
        key_byte = published_key_byte(paper)
        pub = published_sboxes(paper)
        for construction in SECOND_SBOX_CONSTRUCTIONS:
            ours = second_sbox(key_byte, construction)
            for which in (0, 1):
                match = int(np.sum(ours[which] == pub[which]))
                rows.append({"paper": paper, "table": TABLES[paper]["sbox" if which == 0 else "inverse"],
                             "construction": construction, "xor_byte": f"{key_byte:02X}", "cells": 256,
                             "matching": match, "differing": 256 - match,
                             "printed_is_permutation": bool(len(np.unique(pub[which])) == 256)})
    return pd.DataFrame(rows)


def _published_welch(paper: str, operation: str) -> pd.DataFrame:
    df = _paper.published(paper, TABLES[paper][operation])
    return df.set_index(["row", "column"])



# ---------------------------------------------------------------------------
# The papers' own statistics, recomputed
# ---------------------------------------------------------------------------

def _last_digit_unit(printed: str) -> float:
    d = Decimal(printed.strip().replace("%", ""))
    return float(Decimal(1).scaleb(d.as_tuple().exponent))


def agrees_as_printed(printed: str, value: float, ulps: float = 1.0) -> bool:
    """Whether ``value`` equals the printed number to within ``ulps`` units of its last printed digit.

    One unit (not half) tolerates Excel's habit of cutting numbers to a fixed
    width as well as rounding them.
    """
    try:
        target = float(Decimal(printed.strip().replace("%", "")))
        unit = _last_digit_unit(printed)
    except (InvalidOperation, ValueError):
        return False
    return abs(value - target) <= ulps * unit * (1 + 1e-9)


def audit_published_stats(papers: Iterable[str] = PAPERS, alpha: float = 0.05) -> pd.DataFrame:
    """Recompute each paper's t, df, p and speedups from its own published numbers.

    From Tables 3-4's means, variances and counts: Welch's ``t``, the
    Welch-Satterthwaite ``df``, and the p-values and critical values both as
    Excel's ToolPak computes them (``df`` rounded to an integer) and with the
    unrounded ``df`` (:func:`scipy.stats.ttest_ind_from_stats`). From the
    means: the Table 5 speedups. From the avalanche tables: the percentage
    implied by the printed bit count and the bits by which the printed
    ciphertexts actually differ.

    Returns
    -------
    DataFrame
        ``paper, table, quantity, published, recomputed, method, consistent``
        (``consistent``: equal at the printed precision, see :func:`agrees_as_printed`).
    """
    rows = []

    def add(paper, table, quantity, printed, value, method, consistent=None):
        rows.append({"paper": paper, "table": table, "quantity": quantity, "published": printed,
                     "recomputed": float(value), "method": method,
                     "consistent": bool(agrees_as_printed(printed, value) if consistent is None else consistent)})

    e, s = PAPER_LABELS["aes"], PAPER_LABELS["aes-2sbox"]
    for paper in papers:
        _check_paper(paper)
        for operation in OPERATIONS:
            tname = TABLES[paper][operation]
            pub = _published_welch(paper, operation)
            m1, m2 = (float(pub.loc[("Mean", c), "number"]) for c in (e, s))
            v1, v2 = (float(pub.loc[("Variance", c), "number"]) for c in (e, s))
            n1, n2 = (int(pub.loc[("Observations", c), "number"]) for c in (e, s))
            welch = _stats.welch_from_stats(m1, v1, n1, m2, v2, n2, alpha=alpha)
            df_w = welch["df"]
            df_x = float(round(df_w))
            t = welch["t Stat"]
            get = lambda row: pub.loc[(row, e), "value"]  # noqa: E731
            add(paper, tname, "df", get("df"), df_x, "Welch-Satterthwaite, rounded to an integer (Excel)")
            add(paper, tname, "df", get("df"), df_w, "Welch-Satterthwaite, unrounded (scipy)")
            add(paper, tname, "t Stat", get("t Stat"), t, "(mean1 - mean2) / sqrt(var1/n1 + var2/n2)")
            for label, dfv, how in ((f"df = {df_x:.0f} (Excel)", df_x, "excel"), ("unrounded df (scipy)", df_w, "scipy")):
                p_one = float(_st.t.sf(abs(t), dfv))
                add(paper, tname, "P(T<=t) one-tail", get("P(T<=t) one-tail"), p_one, f"scipy.stats.t.sf, {label}")
                add(paper, tname, "P(T<=t) two-tail", get("P(T<=t) two-tail"), 2 * p_one, f"2 x one-tail, {label}")
                add(paper, tname, "t Critical one-tail", get("t Critical one-tail"), float(_st.t.ppf(1 - alpha, dfv)),
                    f"scipy.stats.t.ppf(1 - alpha), {label}")
                add(paper, tname, "t Critical two-tail", get("t Critical two-tail"),
                    float(_st.t.ppf(1 - alpha / 2, dfv)), f"scipy.stats.t.ppf(1 - alpha/2), {label}")
            p_scipy = float(_st.ttest_ind_from_stats(m1, math.sqrt(v1), n1, m2, math.sqrt(v2), n2,
                                                     equal_var=False).pvalue)
            add(paper, tname, "P(T<=t) two-tail", get("P(T<=t) two-tail"), p_scipy,
                "scipy.stats.ttest_ind_from_stats(equal_var=False)")
        sp = _paper.published(paper, TABLES[paper]["speedup"]).set_index(["row", "column"])
        col = TABLES[paper]["speedup_column"]
        for operation in OPERATIONS:
            prow = _OPERATION_ROW[operation]
            old = float(next(sp.loc[(r, c), "number"] for (r, c) in sp.index if r == prow and "T_old" in c))
            new = float(next(sp.loc[(r, c), "number"] for (r, c) in sp.index if r == prow and "T_new" in c))
            add(paper, TABLES[paper]["speedup"], f"{prow} speedup (%)", sp.loc[(prow, col), "value"],
                float(_stats.speedup(old, new)), "(T_old / T_new - 1) x 100 from the printed means")
        for pair in published_avalanche_pairs(paper).itertuples():
            add(paper, TABLES[paper]["avalanche"], f"pair {pair.pair} avalanche (%)", pair.published_percent,
                100.0 * int(pair.published_bits) / BLOCK_BITS, "printed changed bits / 128 x 100")
            bits = changed_bits(bytes.fromhex(pair.ciphertext_a), bytes.fromhex(pair.ciphertext_b))
            add(paper, TABLES[paper]["avalanche"], f"pair {pair.pair} changed bits", pair.published_bits,
                float(bits), "Hamming distance of the two printed ciphertexts",
                consistent=int(bits) == int(pair.published_bits))
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# Avalanche
# ---------------------------------------------------------------------------

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
    out = _POPCOUNT[x ^ y].sum(axis=-1, dtype=np.int64)
    return int(out) if scalar else out


def published_avalanche_pairs(paper: str) -> pd.DataFrame:
    """The paper's avalanche table as pairs: ``pair, plaintext_a/b, ciphertext_a/b, published_percent, published_bits``."""
    _check_paper(paper)
    df = _paper.published(paper, TABLES[paper]["avalanche"])
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
    key = _key_bytes(key)
    rows = []
    for paper in papers:
        pairs = published_avalanche_pairs(paper)
        for cipher_name in ciphers:
            enc = _cipher(key, cipher_name, impl, xor_byte=xor_byte, construction=construction)
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
    keys = [_key_bytes(key)] if key is not None else []
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
            enc = _cipher(kb, cipher_name, impl, xor_byte=xor_byte, construction=construction, threads=threads)
            out = enc.encrypt(batch).reshape(n_plaintexts, BLOCK_BITS + 1, 16)
            diff = out[:, :1, :] ^ out[:, 1:, :]                       # (n, 128, 16)
            frames.append(pd.DataFrame({
                "cipher": cipher_name, "key_index": np.int16(k), "plaintext": pidx, "bit_position": pos,
                "changed_bits": _POPCOUNT[diff].sum(axis=-1, dtype=np.int16).reshape(-1),
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


def plot_avalanche(hist: pd.DataFrame, by_position: pd.DataFrame, pairs: "pd.DataFrame | None" = None):
    """Left: histogram of changed bits per cipher against Binomial(128, 1/2). Right: mean per input bit."""
    import matplotlib.pyplot as plt

    from cipherlab.plotting import PALETTE, style

    style()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for cipher_name, sub in hist.groupby("cipher", sort=True):
        ax1.bar(sub["changed_bits"], sub["share"], width=1.0, alpha=0.6, color=PALETTE.get(cipher_name),
                label=PAPER_LABELS.get(cipher_name, cipher_name))
    ideal = hist.drop_duplicates("changed_bits")
    ax1.plot(ideal["changed_bits"], ideal["ideal_share"], color="black", lw=1, label="ideal: Binomial(128, 1/2)")
    if pairs is not None and len(pairs):
        pub = pairs[pairs["published_bits"].astype(str) != ""]
        for bits in sorted({int(b) for b in pub["published_bits"]}):
            ax1.axvline(bits, color=PALETTE["aes-2sbox"], ls=":", lw=1)
        ax1.plot([], [], color=PALETTE["aes-2sbox"], ls=":", label="published AES-2SBox pairs")
    ax1.axvline(BLOCK_BITS / 2, color="grey", ls="--", lw=1)
    ax1.set_xlabel("changed ciphertext bits after flipping one plaintext bit")
    ax1.set_ylabel("share of flips")
    ax1.set_xlim(-1, BLOCK_BITS + 1)
    ax1.legend(fontsize=8)
    for cipher_name, sub in by_position.groupby("cipher", sort=True):
        colour = PALETTE.get(cipher_name)
        ax2.plot(sub["bit_position"], sub["mean_bits"], color=colour, label=f"{PAPER_LABELS.get(cipher_name)} mean")
        ax2.fill_between(sub["bit_position"], sub["min_bits"], sub["max_bits"], color=colour, alpha=0.2)
    ax2.axhline(BLOCK_BITS / 2, color="grey", ls="--", lw=1, label="50 %")
    ax2.set_xlabel("flipped plaintext bit (0 = most significant bit of byte 0)")
    ax2.set_ylabel("changed ciphertext bits (band: min-max)")
    ax2.set_ylim(0, BLOCK_BITS)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig
