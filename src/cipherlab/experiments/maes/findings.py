"""The findings page's paragraphs for paper 002 (MAES), written from this run's tables.

The page (:mod:`cipherlab.report.findings`) adds the verdict counts and the links; this
module writes what only the MAES chapter knows: that MAES falls to the security chapter's
key-free codebook attack (``security_attack``), and its speed-ups against the published
ones (``maes_speedups_block``, ``maes_speedups_bulk``).  Every number comes from those
tables; a table whose chapter was not built in this run is said to be missing, never invented.
"""
from __future__ import annotations

from typing import Mapping

import pandas as pd

from cipherlab.experiments._sentences import attack_sentence, interval, join, md_table, not_built, num, pct
from cipherlab.experiments.maes.common import CHAPTER, PAPER

#: The MAES ciphers as the security chapter's tables name them, and how the page calls them.
ATTACK_CIPHERS = ("maes-1", "maes-2")
ATTACK_NAME = "MAES (approaches 1 and 2)"


def speed_sentence(block: "pd.DataFrame | None", bulk: "pd.DataFrame | None") -> str:
    """The MAES speed claims (Table III, one block) against ours, one table row per style, approach and operation,
    with our bulk test beside them."""
    if block is None:
        return not_built(CHAPTER)
    size = join(sorted({f"{num(b)} B" for b in block["bytes"]}))
    bulk_size = join(sorted({f"{num(b)} B" for b in bulk["bytes"]})) if bulk is not None else ""
    header = ["style", "cipher", "operation", "published", f"ours, {size}", "95 % interval (%)"]
    if bulk is not None:
        header.append(f"ours, {bulk_size} (bulk)")
    table = []
    for (impl, cipher, op), g in block.groupby(["impl", "cipher", "operation"], sort=False):
        r = g.iloc[0]
        pub = pct(r["published_speedup_pct"])
        row = [str(impl), str(cipher), f"{op}ion", "not claimed" if pub == "—" else pub, pct(r["speedup_pct"]),
               interval(r["low_pct"], r["high_pct"])]
        if bulk is not None:
            b = bulk[(bulk["impl"] == impl) & (bulk["cipher"] == cipher) & (bulk["operation"] == op)]
            row.append(pct(b["speedup_pct"].iloc[0]) if len(b) else "not measured")
        table.append(row)
    return (f"**Speed.** Paper {PAPER} claims MAES (approaches 1 and 2) faster than AES on one block ({size}); "
            "our speedups per style, cipher and operation:\n\n" + md_table(header, table))


def paragraphs(tables: Mapping[str, pd.DataFrame], paper: str = PAPER) -> list[str]:
    """The section's paragraphs (markdown): the codebook attack, then the speed-ups.  ``tables`` holds the
    tables of the chapters built in this run (``security_attack`` is absent when the security chapter was not)."""
    if paper != PAPER:
        raise ValueError(f"paper must be {PAPER!r} (the maes chapter's), got {paper!r}")
    return [attack_sentence(tables.get("security_attack"), ATTACK_CIPHERS, ATTACK_NAME),
            speed_sentence(tables.get("maes_speedups_block"), tables.get("maes_speedups_bulk"))]
