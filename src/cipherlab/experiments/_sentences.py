"""Sentence helpers the chapters' findings paragraphs share (``<chapter>/findings.py``).

The findings page (:mod:`cipherlab.report.findings`) asks each chapter for the
paragraphs of its papers; the chapters word their numbers alike through these
helpers: the book's one number format (:func:`num`, :func:`pct`), lists
(:func:`_join`), ranges (:func:`_span`), small tables (:func:`_md_table`,
:func:`_interval`) and the sentence on the key-free codebook attack that the
AES-2SBox and MAES sections both state (:func:`attack_sentence`, from the
security chapter's ``security_attack`` table).  Every number comes from a table
of the run; none is typed here.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from cipherlab.analysis.display import format_number, table_html


def num(x, digits: int = 3) -> str:
    """A number as the page prints it (significant digits, the book's one number format)."""
    return format_number(float(x), digits) if pd.notna(x) else "—"


def pct(x, digits: int = 3) -> str:
    s = num(x, digits)
    return s if s == "—" else (f"+{s} %" if float(x) > 0 else f"{s} %".replace("-", "−"))


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _span(values: Sequence[float], fmt=pct) -> str:
    """One value, or "lo to hi" for several."""
    vals = sorted(float(v) for v in values if pd.notna(v))
    if not vals:
        return "—"
    lo, hi = fmt(vals[0]), fmt(vals[-1])
    return lo if lo == hi else f"{lo} to {hi}"


def _truthy(series: pd.Series) -> pd.Series:
    return series.map(lambda v: str(v).strip().lower() in ("true", "1", "yes"))


def _interval(low, high) -> str:
    return "—" if pd.isna(low) or pd.isna(high) else f"[{num(low)}, {num(high)}]"


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A small table inside the page's markdown, drawn by the book's one table renderer (an HTML block:
    the notebook's markdown outputs are CommonMark, which has no tables)."""
    return table_html(pd.DataFrame([list(map(str, r)) for r in rows], columns=list(header)))


def not_built(chapter: str) -> str:
    """What the page says in place of a paragraph whose table's chapter was not built in this run."""
    return f"*(The {chapter} chapter was not built in this run.)*"


def attack_sentence(attack: "pd.DataFrame | None", ciphers: Sequence[str], name: str) -> str:
    """Byte-local ciphers and the key-free chosen-plaintext codebook (queries, bytes recovered).

    ``attack``: the security chapter's ``security_attack`` table (columns ``cipher, mode, target,
    queries, bytes, bytes_recovered, byte_local``), or None when that chapter was not built.
    """
    if attack is None:
        return not_built("security")
    rows = attack[attack["cipher"].isin(ciphers)]
    if rows.empty:
        raise ValueError(f"findings: security_attack has no row for {list(ciphers)}; "
                         f"ciphers: {sorted(attack['cipher'].unique())}")
    local = bool(_truthy(rows["byte_local"]).all())
    queries = _span(rows["queries"], num)
    got, total = int(rows["bytes_recovered"].sum()), int(rows["bytes"].sum())
    share = 100.0 * got / total if total else float("nan")
    modes = _join(sorted(m.upper() for m in rows["mode"].astype(str).unique()))
    targets = _join(sorted(rows["target"].astype(str).unique()))
    head = (f"**{name} {'is' if len(ciphers) == 1 else 'are'} byte-local.**" if local else
            f"**{name} {'is' if len(ciphers) == 1 else 'are'} not byte-local in every case tested.**")
    text = (f"{head} Without MixColumns each output byte depends on one input byte, so a chosen-plaintext "
            f"codebook of {queries} blocks per key decrypts any ciphertext without the key: it recovered "
            f"{num(got)} of {num(total)} bytes ({num(share)} %) of the {targets} in {modes}.")
    aes = attack[attack["cipher"].astype(str).str.lower() == "aes"]
    if not aes.empty:
        worst = 100.0 * (aes["bytes_recovered"] / aes["bytes"]).max()
        text += f" Against AES the same attack recovered at most {num(worst)} % of the bytes."
    return text
