"""The findings page's paragraphs for paper 002 (MAES), written from this run's tables.

The page (:mod:`cipherlab.report.findings`) adds the verdict counts and the links; this
module writes what only the MAES chapter knows: that MAES falls to the security chapter's
key-free codebook attack (``security_attack``), and its speed claims in the words of their
verdict rows (``verdicts``: one figure per claim, the same on every page).  Every number comes
from those tables; a table whose chapter was not built in this run is said to be missing, never
invented.
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from cipherlab.experiments._sentences import attack_sentence, not_built, verdict_lines
from cipherlab.experiments.maes.chapter import CHAPTER, PAPER

#: The MAES ciphers as the security chapter's tables name them, and how the page calls them.
ATTACK_CIPHERS = ("maes-1", "maes-2")
ATTACK_NAME = "MAES (approaches 1 and 2)"


#: Paper 002's speed claims the findings page names: the abstract's headlines and Table III's prose.
SPEED_CLAIMS = ("002-abstract-enc-speedup", "002-abstract-dec-speedup", "002-t3-enc-half", "002-t3-dec-fifth",
                "002-t3-opt-enc-slight", "002-t3-opt-dec-half", "002-t3-fastest")


def speed_sentence(verdicts: "pd.DataFrame | None") -> str:
    """Paper 002's speed claims, each with the figure, condition and sentence of its verdict row (the same as the
    referee's report and the verdict page: one figure per claim)."""
    have = [] if verdicts is None else [c for c in SPEED_CLAIMS if c in set(verdicts["claim_id"])]
    if not have:
        return not_built(CHAPTER.name)
    return (f"**Speed.** Paper {PAPER} claims MAES faster than AES for one block; each claim is decided on the "
            "cipher's cost of a block (a proxy its row names, with the reason), in the style of AES the paper's row "
            "names, or, for MAES against AES in one style, under every style of ours (the most favourable "
            "decides):\n\n" + verdict_lines(verdicts, have))


def paragraphs(tables: Mapping[str, pd.DataFrame], paper: str = PAPER) -> list[str]:
    """The section's paragraphs (markdown): the codebook attack, then the speed-ups.  ``tables`` holds the
    tables of the chapters built in this run (``security_attack`` is absent when the security chapter was not)."""
    if paper != PAPER:
        raise ValueError(f"paper must be {PAPER!r} (the maes chapter's), got {paper!r}")
    return [attack_sentence(tables.get("security_attack"), ATTACK_CIPHERS, ATTACK_NAME),
            speed_sentence(tables.get("verdicts"))]
