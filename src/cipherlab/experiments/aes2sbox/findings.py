"""The findings page's paragraphs for papers 000 and 001 (AES-2SBox), written from this run's tables.

:func:`paragraphs` is the chapter's ``findings`` (:data:`.chapter.CHAPTER`): it
reads only the tables named in ``CHAPTER.findings_tables`` (the page has
checked their columns): ``aes2sbox_speedup`` of this chapter, and the security
chapter's ``security_sbox_properties`` and ``security_attack`` (absent when that
chapter was not built: the page says so). The two papers describe one cipher:
one section holds both (the page adds each paper's verdict counts above it and
the links to the chapters below it).
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from cipherlab.experiments._sentences import (attack_sentence, interval, join, md_table, not_built, num, pct, span,
                                              truthy, verdict_lines, within_noise)
from cipherlab.experiments.aes2sbox.common import OPERATIONS, PAPERS
from cipherlab.pipeline.chapters import FindingsFigure

#: The cipher name of the security chapter's tables, and how the page names it.
CIPHER, NAME = "aes-2sbox", "AES-2SBox"
#: The security chapter's figure of the image the codebook attack recovers without the key.
RECOVERED_IMAGE = "security_recovered_image"


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


def speed_sentence(speed: "pd.DataFrame | None", paper: str, verdicts: "pd.DataFrame | None" = None) -> str:
    """Published speedups of one paper against ours: the verdicts' sentences (the style that decides, the same
    figure as the referee's report), then every style in a small table (``aes2sbox_speedup``)."""
    if speed is None:
        return not_built("aes2sbox")
    rows = speed[speed["paper"].astype(str) == paper]
    if rows.empty:
        raise ValueError(f"findings: aes2sbox_speedup has no row for paper {paper}")
    ops = [op for op in OPERATIONS if op in set(rows["operation"])]
    published = join([f"{pct(rows[rows['operation'] == op]['published_pct'].iloc[0], 5)} ({op}ion)"
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
            noise = within_noise(r["low_pct"], r["high_pct"], r["aa_low_pct"], r["aa_high_pct"])
            table.append([str(style), f"{op}ion", str(r["size"]), pct(r["published_pct"], 5), pct(r["ours_pct"]),
                          interval(r["low_pct"], r["high_pct"]), "yes" if noise else "no"])
    ids = [f"{paper}-t5-{op[:3]}-speedup" for op in ops]
    decided = ""
    if verdicts is not None and set(ids) <= set(verdicts["claim_id"]):
        decided = "\n\n" + verdict_lines(verdicts, ids) + "\n\nIn every style we time:"
    text = (f"Paper {paper} reports AES-2SBox faster than AES by {published}. **The speedup depends on how the "
            f"ciphers are written.**{decided}\n\n"
            + md_table(("style", "operation", "size", "published", "ours", "ours: 95 % interval (%)",
                         "within A/A noise"), table))
    if untimed:
        text += f"\n\nNot timed in the {join(untimed)} style{'s' if len(untimed) > 1 else ''}."
    return text


def figure_caption(attack: "pd.DataFrame | None") -> str:
    """Caption of the recovered-image figure, its numbers from the attack table."""
    if attack is None:
        return ""
    rows = attack[attack["target"].astype(str) == "image"]
    broken = rows[truthy(rows["byte_local"])]
    queries = span(broken["queries"], num) if not broken.empty else "—"
    return (f"*The key-free chosen-plaintext codebook attack ({queries} chosen blocks per key) on an image: "
            "the plaintext, its ciphertext, and what the attack recovers without the key, for each cipher "
            "named above the panels.*")


def paragraphs(tables: Mapping[str, pd.DataFrame]) -> list:
    """The section of papers 000 and 001, in page order: the second S-box, the codebook attack, each
    paper's speed (markdown), then the image the attack recovered (a :class:`FindingsFigure`, when the
    security chapter was built)."""
    attack = tables.get("security_attack")
    out: list = [sbox_sentence(tables.get("security_sbox_properties")), attack_sentence(attack, (CIPHER,), NAME)]
    out += [speed_sentence(tables.get("aes2sbox_speedup"), paper, tables.get("verdicts")) for paper in PAPERS]
    if attack is not None:
        out.append(FindingsFigure(RECOVERED_IMAGE, figure_caption(attack)))
    return out
