"""Tables 1 and 2 of papers 000/001: the second S-box and its inverse, ours against print."""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from cipherlab.analysis import paper as _paper
from cipherlab.ciphers.sboxes import SECOND_SBOX_CONSTRUCTIONS, second_sbox

from cipherlab.experiments.aes2sbox.common import HEX, KEY_BYTE_ROW, PAPERS, TABLES, check_paper

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
    return pd.DataFrame(cells, index=pd.Index(list(HEX), name="row"), columns=list(HEX))


def published_key_byte(paper: str) -> int:
    """The XOR byte the paper used for its Tables 1-2 (read from its prose)."""
    df = _paper.published(check_paper(paper), TABLES[paper]["prose"])
    hit = df.loc[df["row"] == KEY_BYTE_ROW, "value"]
    if len(hit) != 1:
        raise ValueError(f"paper {paper}: the key byte of Tables 1-2 is not transcribed")
    return int(hit.iloc[0], 16)


def published_sboxes(paper: str) -> tuple[np.ndarray, np.ndarray]:
    """The paper's printed Table 1 (second S-box) and Table 2 (its inverse) as ``uint8[256]``."""
    check_paper(paper)
    return (_paper.published_sbox(paper, TABLES[paper]["sbox"]),
            _paper.published_sbox(paper, TABLES[paper]["inverse"]))


def printed_comparison_grids(construction: str = "xor-index", paper: str = "001") -> tuple[int, dict]:
    """Our Tables 1-2 for the key byte the paper used, cell by cell against print (:func:`sbox_grid`).

    Returns ``(key byte, {"sbox": grid, "inverse": grid})``; ``second_sbox`` checks ``construction``.
    """
    key_byte = published_key_byte(paper)
    ours, printed = second_sbox(key_byte, construction), published_sboxes(paper)
    return key_byte, {which: sbox_grid(ours[k], printed[k]) for k, which in enumerate(("sbox", "inverse"))}


def _cell(x: int) -> str:
    return f"row {HEX[x >> 4]} column {HEX[x & 15]}"


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
            rows.append({"table": name, "row": HEX[x >> 4], "column": HEX[x & 15], "index": f"{x:02X}",
                         "published": f"{p:02X}", "ours": f"{o:02X}", "differing_bits": flips, "cause": cause})
    cols = ["table", "row", "column", "index", "published", "ours", "differing_bits", "cause"]
    return pd.DataFrame(rows, columns=cols).sort_values(["table", "index"], kind="stable").reset_index(drop=True)


def sbox_diff_table(paper: str, construction: str = "xor-index") -> pd.DataFrame:
    """:func:`sbox_diff` of a paper's Tables 1-2 against ``second_sbox`` (which checks ``construction``) at the
    paper's key byte."""
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
