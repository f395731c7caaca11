"""Sentence helpers shared by the chapters' findings paragraphs (``experiments/<name>/findings.py``).

The findings page prints numbers the way the book does (:func:`num`, :func:`pct`,
through :func:`cipherlab.present.display.format_number`) and states the same fact
about two ciphers the same way (:func:`attack_sentence`: the security chapter's
key-free codebook attack, which paper 000/001's AES-2SBox and paper 002's MAES both
fall to).  Every number comes from the table passed in, never typed here.
"""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor
from cipherlab.experiments.security.attack import attacker_model
from cipherlab.present.display import format_number, table_html
from cipherlab.present.page_text import page_text


def num(x, digits: int = 3) -> str:
    """A number as the page prints it (significant digits, the book's one number format)."""
    return format_number(float(x), digits) if pd.notna(x) else "—"


def pct(x, digits: int = 3) -> str:
    """A percentage with its sign (``+12.3 %``, ``−4 %``), or ``—``."""
    s = num(x, digits)
    return s if s == "—" else (f"+{s} %" if float(x) > 0 else f"{s} %".replace("-", "−"))


def join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def span(values: Sequence[float], fmt=pct) -> str:
    """One value, or "lo to hi" for several."""
    vals = sorted(float(v) for v in values if pd.notna(v))
    if not vals:
        return "—"
    lo, hi = fmt(vals[0]), fmt(vals[-1])
    return lo if lo == hi else f"{lo} to {hi}"


def truthy(series: pd.Series) -> pd.Series:
    """A column of booleans read back from CSV (``True``/``true``/``1``/``yes``)."""
    return series.map(lambda v: str(v).strip().lower() in ("true", "1", "yes"))


def within_noise(low, high, aa_low, aa_high) -> bool:
    """Whether the measured interval overlaps this machine's A/A noise band."""
    return bool(pd.notna(aa_low) and pd.notna(aa_high) and float(low) <= float(aa_high)
                and float(high) >= float(aa_low))


def interval(low, high) -> str:
    """``[low, high]`` in the page's number format, or ``—``."""
    return "—" if pd.isna(low) or pd.isna(high) else f"[{num(low)}, {num(high)}]"


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A small table inside the page's markdown, drawn by the book's one table renderer (an HTML block:
    the notebook's markdown outputs are CommonMark, which has no tables)."""
    return table_html(pd.DataFrame([list(map(str, r)) for r in rows], columns=list(header)))


def not_built(chapter: str) -> str:
    """What a paragraph says in place of numbers whose chapter was not built in this run."""
    return f"*(The {chapter} chapter was not built in this run.)*"


def attack_sentence(attack: "pd.DataFrame | None", ciphers: Sequence[str], name: str) -> str:
    """Byte-local ciphers and the key-free chosen-plaintext codebook (queries, bytes recovered), from the
    security chapter's ``security_attack`` table (None: that chapter was not built in this run)."""
    if attack is None:
        return not_built("security")
    rows = attack[attack["cipher"].isin(ciphers)]
    if rows.empty:
        raise ValueError(f"findings: security_attack has no row for {list(ciphers)}; "
                         f"ciphers: {sorted(attack['cipher'].unique())}")
    local = bool(truthy(rows["byte_local"]).all())
    queries = span(rows["queries"], num)
    got, total = int(rows["bytes_recovered"].sum()), int(rows["bytes"].sum())
    share = 100.0 * got / total if total else float("nan")
    modes = join(sorted(m.upper() for m in rows["mode"].astype(str).unique()))
    targets = join(sorted(rows["target"].astype(str).unique()))
    head = (f"**{name} {'is' if len(ciphers) == 1 else 'are'} byte-local.**" if local else
            f"**{name} {'is' if len(ciphers) == 1 else 'are'} not byte-local in every case tested.**")
    model = attacker_model(int(rows["queries"].max()), rows["mode"])
    text = (f"{head} Without MixColumns each output byte depends on one input byte, so an attacker who has "
            f"{model} (the attacker model; {queries} queries) builds a codebook that decrypts any ciphertext under "
            f"that key: it recovered {num(got)} of {num(total)} bytes ({num(share)} %) of the {targets} in {modes}.")
    aes = attack[attack["cipher"].astype(str).str.lower() == "aes"]
    if not aes.empty:   # the statistic the verdict rows give: matches among the bytes the codebook decoded
        worst = 100.0 * aes["match_fraction_decoded"].max()
        text += (f" Against AES the same attack did no better than chance: at most {num(worst)} % of the bytes it "
                 f"decoded were right (chance {num(100.0 * float(aes['chance'].iloc[0]))} %).")
    return text


#: The verdict table's columns the findings paragraphs read (the same verdicts as the referee's reports).
VERDICT_LINE_COLUMNS = ("claim_id", "paper", "kind", "verdict", "shown", "reason", "tier", "concern")


def verdict_lines(verdicts: pd.DataFrame, ids: Sequence[str]) -> str:
    """The verdicts of ``ids`` as a list, each with its word as the verdict page shows it and its one-sentence
    reason, linked to its row: the findings page says what the reports say, from the same rows."""
    rows = verdicts.set_index("claim_id")
    out = []
    for cid in ids:
        if cid not in rows.index:
            raise ValueError(f"findings: the verdicts have no row {cid!r}")
        r = rows.loc[cid]
        shown = str(r.get("shown", "") or r["verdict"])
        reason = page_text(str(r["reason"]).rstrip("."))   # a reason may quote a claim's note: text, not markup
        out.append(f"- *{page_text(shown)}*: {reason}. ([{page_text(cid)}]({VERDICT_PAGE}#{claim_anchor(cid)}))")
    return "\n".join(out)
