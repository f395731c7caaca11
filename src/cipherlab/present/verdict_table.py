"""Verdict rows as a page shows them: the one colour table of the verdicts and the one badge every page draws.

A verdict is never told by colour alone: each has a colour, a one-character mark, its words, and a marker shape for
the figures (:data:`MARKS`).  The chapters' verdict tables and the verdict page's rows are drawn by the one renderer
(:func:`verdict_html`, the page in its ``page=True`` form); they, the findings page and the referee's reports
(``cipherlab.report``) all draw a verdict through :func:`badge`.  Nothing is decided here:
the rows come decided from :mod:`cipherlab.analysis.verdicts`.
"""
from __future__ import annotations

import html
from typing import Callable

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor, verdict_counts
from cipherlab.analysis.verdicts import FINDING, shown_label
from cipherlab.present.display import show_table
from cipherlab.present.page_text import page_html

__all__ = ["MARKS", "badge", "verdict_html", "chapter_verdicts_html", "label", "evidence_href"]

#: Per verdict: colour (background of its badge), text colour, a mark a reader sees without colour,
#: and the matplotlib marker of the figures.
MARKS: dict[str, tuple[str, str, str, str]] = {
    "reproduced": ("#1e7b34", "#ffffff", "✓", "o"),
    "not reproduced": ("#b35c00", "#ffffff", "≠", "s"),
    "contradicted": ("#b0182a", "#ffffff", "✗", "X"),
    "inconclusive": ("#2857a4", "#ffffff", "?", "D"),
    "not testable": ("#5f6368", "#ffffff", "–", "^"),
    "covered": ("#6a3d9a", "#ffffff", "→", "P"),
    "not at condition": ("#7a5c3a", "#ffffff", "≈", "v"),
    "machine-bound": ("#5b4a8a", "#ffffff", "⌂", "h"),
    FINDING: ("#444444", "#ffffff", "•", "*"),
}
#: What an unknown verdict is drawn with.
UNKNOWN_MARK = ("#444", "#fff", "•", "o")


def badge(verdict: str, label: str) -> str:
    """The verdict as a coloured badge with its mark and its words ``label`` (never colour alone)."""
    bg, fg, mark, _ = MARKS.get(str(verdict), UNKNOWN_MARK)
    return (f'<span class="cl-verdict" style="background:{bg};color:{fg}">'
            f'<span aria-hidden="true">{mark}</span> {html.escape(label)}</span>')


#: The table's four columns, in order.
COLUMNS = ("claim", "published", "ours", "verdict")
#: The notes under a verdict, in order: the row's column and the words before it (a column a row lacks is skipped).
NOTES: tuple[tuple[str, str], ...] = (
    ("reading", "reading that decided"), ("misprint", "misprint read as corrected"),
    ("condition", "the paper's condition"), ("other", "other conditions"), ("detail", "what was measured"),
    ("basis", "how the rule decided"), ("reference", "reference"),
    # the shipped runs' verdicts (cipherlab.analysis.machines), on the verdict page
    ("machines", "other machines"), ("portability", "portability"))


def _s(v) -> str:
    """A cell's value as text: ``""`` for a missing value (None, NaN, "nan")."""
    return "" if v is None or (isinstance(v, float) and pd.isna(v)) or str(v) == "nan" else str(v)


def label(row) -> str:
    """The verdict's words on a row: the engine's ``shown`` label, or the word as the table of meanings shows it."""
    return _s(row.get("shown")) or shown_label(str(row["verdict"]), _s(row.get("outcome")),
                                               _s(row.get("covered_by")))


def evidence_href(row) -> str:
    """The page and section that hold a claim's evidence (``""`` without a chapter)."""
    chapter, section = _s(row.get("chapter")), _s(row.get("section"))
    if not chapter:
        return ""
    return f"{chapter}.html#{section}" if section else f"{chapter}.html"


def condition(row) -> str:
    """Where ours was measured: the size/style/mode (or the row's ``measured``), the profile, the trials."""
    processes = _s(row.get("processes"))
    trials = f"{_s(row.get('n'))} trials in {processes} process{'es' if processes != '1' else ''}" if processes else ""
    measured = _s(row.get("measured")) or ", ".join(x for x in (_s(row.get(k)) for k in ("size", "style", "mode")) if x)
    return ", ".join(x for x in (measured, _s(row.get("profile")), trials) if x) or "—"


def verdict_html(rows: pd.DataFrame, *, page: bool = False, band: "Callable[[dict], str] | None" = None,
                 rule: "Callable[[str], str] | None" = None) -> str:
    """Verdict rows as the one four-column table every page draws.

    Claim (id, linked to its row on the verdict page; quote, place in the paper) | published | ours, with the
    noise band applied (or the A/A control) and the condition measured | verdict (:func:`badge`), the reason,
    the rule, a link to the section that holds the evidence, and the row's notes (:data:`NOTES`).

    ``page=True`` draws the verdict page's form: each row is its own link target ``#claim-<id>`` with its tier and
    the ``data-paper``/``data-tier``/``data-verdict`` attributes the page's filter reads (``rows`` then carry a
    normalised ``tier``).  The verdict page passes the presentation it owns: ``band(row)`` the noise band applied, in
    words, shown instead of the A/A control, and ``rule(rule)`` the rule in words, linked to the glossary.
    """
    esc = page_html   # claim text, where and notes come from a file: text on the page
    cell_style = "" if page else ' style="padding:0.3em 0.5em;vertical-align:top;word-break:break-word;width:{w}"'
    head = "".join(f"<th>{h}</th>" if page else f'<th style="text-align:left;padding:0.3em 0.5em">{h}</th>'
                   for h in COLUMNS)
    body = []
    for _, series in rows.iterrows():
        r = series.to_dict()
        cid, anchor = str(r["claim_id"]), claim_anchor(str(r["claim_id"]))
        tier = _s(r.get("tier")) if page else ""
        claim = (f'<a class="cl-anchor" href="#{anchor}"><b>{esc(cid)}</b></a>'
                 f' <span class="cl-tier cl-tier-{tier}">{esc(tier)}</span>' if page
                 else f'<a href="{VERDICT_PAGE}#{anchor}"><b>{esc(cid)}</b></a>')
        applied = band(r) if band else ""
        control = _s(r.get("control"))
        noise = (f"<br><small>noise band applied {esc(applied)}</small>" if applied else
                 f"<br><small>A/A control {esc(control)}</small>" if control and control != "—" else "")
        href = evidence_href(r)
        evidence = f'<a href="{esc(href)}">evidence</a>' if href else "no evidence section"
        rule_words = f" (rule: {rule(_s(r.get('rule')))})" if rule and _s(r.get("rule")) else ""
        reason = _s(r.get("reason"))
        notes = "".join(f"<br><small>{words}: {esc(_s(r.get(k)))}</small>" for k, words in NOTES
                        if _s(r.get(k)) and not (k == "basis" and _s(r.get(k)) == reason))
        cells = [
            f"{claim}<br>{esc(_s(r.get('claim')))}<br><small>{esc(_s(r.get('where')))}</small>",
            esc(_s(r.get("published")) or "—"),
            f"{esc(_s(r.get('ours')) or '—')}{noise}<br><small>measured at: {esc(condition(r))}</small>",
            f"{badge(str(r['verdict']), label(r))}<br><small>{esc(reason)}{rule_words}</small>"
            f"<br><small>{evidence}</small>{notes}",
        ]
        if page:
            tds = "".join(f'<td data-label="{h}">{c}</td>' for h, c in zip(COLUMNS, cells))
            body.append(f'<tr id="{anchor}" data-paper="{esc(str(r["paper"]))}" '
                        f'data-tier="{esc(tier)}" data-verdict="{esc(str(r["verdict"]))}">{tds}</tr>')
        else:
            tds = "".join(f"<td{cell_style.format(w=w)}>{c}</td>" for c, w in zip(cells, ("34%", "12%", "24%", "30%")))
            body.append(f"<tr>{tds}</tr>")
    table = ('<table class="cl-verdicts">' if page else
             '<table class="table cipherlab-verdicts" style="font-size:0.85em;table-layout:fixed;width:100%">')
    return f'{table}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def chapter_verdicts_html(decided: pd.DataFrame, caption: str = "Verdicts of this chapter") -> str:
    """A chapter's decided verdicts as every chapter page shows them: the count of each verdict per paper
    (:func:`cipherlab.analysis.claims.verdict_counts`), then every row (:func:`verdict_html`)."""
    counts = show_table(verdict_counts(decided).rename_axis("paper").reset_index(), caption=caption)
    return str(counts) + verdict_html(decided)
