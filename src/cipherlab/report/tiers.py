"""What the book's pages share about verdict rows: tiers, verdict labels and marks, the applied band.

The verdict engine (:mod:`cipherlab.analysis.verdicts`) writes ``verdicts.csv``; the findings
page, the verdict page and the referee's reports all read it, and all count claims the same
way, here:

* **tiers**: a claim of ``data/paper/claims.csv`` is a *headline* claim (what the paper is
  about: its speedups, security, entropy, rankings) or a *supporting* check (its arithmetic,
  its printed tables).  A row whose ``tier`` is empty is counted as *untiered*, apart, so that
  no count mixes the two.
* **verdict labels**: the engine's words, with ``covered`` shown as "covered by <id>" and
  ``not at condition`` as "not at the paper's condition".
* **marks**: each verdict has a colour, a one-character mark and a marker shape (figures), so
  that no verdict is told by colour alone (the one table, :data:`cipherlab.present.verdict_table.MARKS`).
* **the applied band**: for a speed claim, the band the rule applied (the A/A control widened
  to the floor), not only the raw A/A interval.
"""
from __future__ import annotations

import math
import re
from typing import Mapping

import pandas as pd

from cipherlab.analysis.verdicts import FINDING, STATUSES, VERDICTS

#: The tiers, in the order every count shows them.
TIERS = ("headline", "supporting", "untiered")
TIER_TITLES = {"headline": "headline claims", "supporting": "supporting checks", "untiered": "untiered claims"}
#: The engine's statuses counted apart (covered, not at condition, machine-bound); shown when present.
EXTRA_VERDICTS = STATUSES
ALL_VERDICTS = tuple(dict.fromkeys((*VERDICTS, *EXTRA_VERDICTS)))


def tier_of(value) -> str:
    """The tier of a row's ``tier`` value: ``headline``, ``supporting`` or ``untiered`` (empty)."""
    t = "" if value is None or (isinstance(value, float) and math.isnan(value)) else str(value).strip().lower()
    if t in ("", "nan", "untiered"):
        return "untiered"
    if t not in TIERS[:2]:
        raise ValueError(f"tier must be headline, supporting or empty, got {value!r}")
    return t


def with_tier(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with a ``tier`` column normalised to :data:`TIERS` (a missing column: all untiered)."""
    tiers = rows["tier"].map(tier_of) if "tier" in rows.columns else pd.Series("untiered", index=rows.index)
    return rows.assign(tier=tiers)


def claims_only(rows: pd.DataFrame) -> pd.DataFrame:
    """The papers' claims (our own findings dropped), with normalised tiers."""
    return with_tier(rows[rows["verdict"] != FINDING])


def verdict_label(row) -> str:
    """The verdict as a reader sees it: the engine's ``shown`` label where the row has one ("covered by <id>",
    "not at the paper's condition", "machine-bound: differs on this machine"), or the word."""
    shown = str(row.get("shown", "") or "").strip() if hasattr(row, "get") else ""
    if shown and shown != "nan":
        return shown
    v = str(row["verdict"])
    if v == "covered":
        by = str(row.get("covered_by", "") or "").strip()
        return f"covered by {by}" if by and by != "nan" else "covered"
    if v == "not at condition":
        return "not at the paper's condition"
    return v


def check_verdicts(rows: pd.DataFrame) -> None:
    """Every verdict is a known one (else a ``ValueError`` naming the unknown ones)."""
    unknown = sorted(set(rows["verdict"]) - set(ALL_VERDICTS) - {FINDING})
    if unknown:
        raise ValueError(f"verdicts.csv has unknown verdict(s) {unknown}; known: {list(ALL_VERDICTS) + [FINDING]}")


def tier_counts(rows: pd.DataFrame, paper: "str | None" = None) -> pd.DataFrame:
    """Claims per tier (rows) and verdict (columns, only those that occur, plus ``total``).

    Our own findings are never counted.  A tier without claims is left out.
    """
    check_verdicts(rows)
    claims = claims_only(rows)
    if paper is not None:
        claims = claims[claims["paper"].astype(str) == str(paper)]
    table = (claims.groupby(["tier", "verdict"]).size().unstack(fill_value=0)
             .reindex(index=[t for t in TIERS if t in set(claims["tier"])],
                      columns=[v for v in ALL_VERDICTS if v in set(claims["verdict"])], fill_value=0))
    table["total"] = table.sum(axis=1)
    return table.rename_axis(index="tier", columns=None)


def counts_phrase(counts: Mapping[str, int]) -> str:
    """"3 reproduced, 1 contradicted" (zero counts left out; "none" when all are zero)."""
    parts = [f"{int(n)} {v}" for v, n in counts.items() if v != "total" and int(n)]
    return ", ".join(parts) if parts else "none"


def verdict_phrase(verdicts) -> str:
    """"1 reproduced, 2 contradicted" for a sequence of verdicts, in the book's verdict order."""
    counts = pd.Series(list(verdicts), dtype=object).value_counts()
    order = [v for v in (*ALL_VERDICTS, FINDING) if v in counts.index]
    return counts_phrase({v: int(counts[v]) for v in order})


def tier_sentence(rows: pd.DataFrame, paper: "str | None" = None) -> str:
    """The counts split by tier: "Headline claims (5): 3 contradicted, 2 inconclusive. Supporting checks (12): ..."."""
    table = tier_counts(rows, paper)
    if table.empty:
        return "No claim was decided in this run."
    parts = []
    for tier, row in table.iterrows():
        parts.append(f"{TIER_TITLES[tier].capitalize()} ({int(row['total'])}): "
                     f"{counts_phrase(row.drop('total').to_dict())}.")
    return " ".join(parts)


# ----------------------------------------------------------------------------- the band applied



_BAND = re.compile(r"([-+−]?[\d.eE+-]+)\s*\.\.\s*([-+−]?[\d.eE+-]+)")


def _float(text: str) -> float:
    return float(text.replace("−", "-"))


def applied_band(row) -> "tuple[float, float] | None":
    """The noise band the rule applied to a verdict row, ``(low, high)`` in the claim's unit, or None.

    The engine writes it (``applied_band``, ``"a .. b"``): the A/A control widened to the floor, and
    around a non-zero null scaled, exactly as the verdict used it.
    """
    text = str(row.get("applied_band", "") if hasattr(row, "get") else "").strip()
    m = _BAND.fullmatch(text)
    return None if not m else (_float(m.group(1)), _float(m.group(2)))


def band_text(row) -> str:
    """"-3 .. +3 % (A/A [-2.1, 1.78])": the band applied, and the raw control it came from; "" without one."""
    band = applied_band(row)
    if band is None:
        return ""
    unit = " %" if str(row.get("ours", "")).split("[")[0].strip().endswith("%") else ""
    raw = str(row.get("control", "")).strip()
    return f"{band[0]:+.3g} .. {band[1]:+.3g}{unit}" + (f" (A/A {raw})" if raw and raw != "—" else "")
