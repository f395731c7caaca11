"""The findings page's paragraphs for papers 000 and 001 (AES-2SBox), written from this run's tables.

:func:`paragraphs` is the chapter's ``findings`` (:data:`.chapter.CHAPTER`): it
reads only the tables named in ``CHAPTER.findings_tables`` (the framework has
checked their columns): ``aes2sbox_speedup`` of this chapter, and the security
chapter's ``security_sbox_properties`` and ``security_attack`` (None when that
chapter was not built: the page says so). The two papers describe one cipher,
so the page gives them one section: the S-box and attack paragraphs, which hold
for both, are given with paper 000 (the first of ``CHAPTER.papers``); each
paper's speed paragraph with its own paper.
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from cipherlab.experiments._sentences import _join, _interval, _md_table, attack_sentence, not_built, num, pct
from cipherlab.experiments.aes2sbox.common import OPERATIONS, PAPERS, check_paper

#: The cipher name of the security chapter's tables, and how the page names it.
CIPHER, NAME = "aes-2sbox", "AES-2SBox"


def _sbox_row(props: pd.DataFrame, prefix: str) -> "pd.Series | None":
    rows = props[props["sbox"].astype(str).str.lower().str.startswith(prefix)]
    return None if rows.empty else rows.iloc[0]


def sbox_sentence(props: "pd.DataFrame | None") -> str:
    """The second S-box is affine: its degree, nonlinearity and uniformity against Rijndael's
    (the security chapter's ``security_sbox_properties``)."""
    if props is None:
        return not_built("security")
    rijndael, second = _sbox_row(props, "rijndael"), _sbox_row(props, "second")
    if rijndael is None or second is None:
        raise ValueError("findings: security_sbox_properties needs a 'rijndael' row and a 'second ...' row; "
                         f"it has {props['sbox'].tolist()}")
    rnd = _sbox_row(props, "aes-2sbox round")
    degree = int(second["algebraic_degree"])
    kind = "affine" if degree <= 1 else f"of algebraic degree {degree}"
    text = (f"**The second S-box is {kind}.** The S-box the papers print as Table 1 ({second['sbox']}) "
            f"has algebraic degree {degree}, nonlinearity {num(second['nonlinearity'])} and differential "
            f"uniformity {num(second['differential_uniformity'])}; Rijndael's has "
            f"{num(rijndael['algebraic_degree'])}, {num(rijndael['nonlinearity'])} and "
            f"{num(rijndael['differential_uniformity'])}.")
    if rnd is not None:
        text += (f" Composed with the Rijndael S-box, the byte map each round applies has nonlinearity "
                 f"{num(rnd['nonlinearity'])}: the substitution is not what makes the cipher weak; "
                 "the missing diffusion is.")
    return text


def _within_noise(low, high, aa_low, aa_high) -> bool:
    """Whether the measured interval overlaps this machine's A/A noise band."""
    return bool(pd.notna(aa_low) and pd.notna(aa_high) and float(low) <= float(aa_high)
                and float(high) >= float(aa_low))


def speed_sentence(speed: "pd.DataFrame | None", paper: str) -> str:
    """Published speedups of one paper against ours (``aes2sbox_speedup``), as a lead sentence and a small
    table (style x operation)."""
    if speed is None:
        return not_built("aes2sbox")
    rows = speed[speed["paper"].astype(str) == paper]
    if rows.empty:
        raise ValueError(f"findings: aes2sbox_speedup has no row for paper {paper}")
    ops = [op for op in OPERATIONS if op in set(rows["operation"])]
    published = _join([f"{pct(rows[rows['operation'] == op]['published_pct'].iloc[0], 5)} ({op}ion)"
                       for op in ops])
    table, untimed = [], []
    for style, g in rows.groupby("style", sort=False):
        timed = g[g["ours_pct"].notna()]
        if timed.empty:
            untimed.append(str(style))
            continue
        for op in ops:
            r = timed[timed["operation"] == op]
            if r.empty:
                continue
            r = r.iloc[0]
            noise = _within_noise(r["low_pct"], r["high_pct"], r["aa_low_pct"], r["aa_high_pct"])
            table.append([str(style), f"{op}ion", str(r["size"]), pct(r["published_pct"], 5), pct(r["ours_pct"]),
                          _interval(r["low_pct"], r["high_pct"]), "yes" if noise else "no"])
    text = (f"Paper {paper} reports AES-2SBox faster than AES by {published}. **The speedup depends on how the "
            "ciphers are written:**\n\n"
            + _md_table(("style", "operation", "size", "published", "ours", "ours: 95 % interval (%)",
                         "within A/A noise"), table))
    if untimed:
        text += f"\n\nNot timed in the {_join(untimed)} style{'s' if len(untimed) > 1 else ''}."
    return text


def paragraphs(tables: Mapping[str, pd.DataFrame], paper: str) -> list[str]:
    """The findings page's paragraphs of ``paper`` (000 or 001), in page order.

    Paper 000 (the first): the second S-box, the codebook attack, then its speed;
    paper 001: its speed. Read one after the other, the two papers give the one
    AES-2SBox section of the page.
    """
    check_paper(paper)
    out = []
    if paper == PAPERS[0]:
        out.append(sbox_sentence(tables.get("security_sbox_properties")))
        out.append(attack_sentence(tables.get("security_attack"), (CIPHER,), NAME))
    out.append(speed_sentence(tables.get("aes2sbox_speedup"), paper))
    return out
