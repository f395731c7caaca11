"""Verdict rows as a page shows them: the one colour table of the verdicts and the one badge every page draws.

A verdict is never told by colour alone: each has a colour, a one-character mark, its words, and a marker shape for
the figures (:data:`MARKS`).  The chapters' verdict tables (:func:`verdict_html`), the verdict page, the findings page
and the referee's reports (``cipherlab.report``) all draw a verdict through :func:`badge`.  Nothing is decided here:
the rows come decided from :mod:`cipherlab.analysis.verdicts`.
"""
from __future__ import annotations

import html

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor
from cipherlab.analysis.verdicts import FINDING, shown_label
from cipherlab.present.page_text import page_html

__all__ = ["MARKS", "badge", "verdict_html"]

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


def verdict_html(rows: pd.DataFrame) -> str:
    """Verdict rows as a four-column HTML table that fits the page.

    Claim (id, linked to its row on the verdict page; quote, place in the
    paper) | published | ours, with the A/A control and the condition
    measured | verdict, linked to the section that holds the evidence, with
    the reason (the verdict page, where the claim id links, names the rule in words).
    """
    esc = page_html   # claim text, where and notes come from a file: text on the page
    head = "".join(f'<th style="text-align:left;padding:0.3em 0.5em">{h}</th>'
                   for h in ("claim", "published", "ours", "verdict"))
    body = []
    for r in rows.itertuples():
        trials = (f"{r.n} trials in {r.processes} process{'es' if r.processes != '1' else ''}"
                  if r.processes else "")
        measured = getattr(r, "measured", "") or ", ".join(x for x in (r.size, r.style, r.mode) if x)
        cond = ", ".join(x for x in (measured, r.profile, trials) if x) or "—"
        link = "" if not r.chapter else f"{r.chapter}.html#{r.section}" if r.section else f"{r.chapter}.html"
        control = f"<br><small>A/A control {esc(str(r.control))}</small>" if r.control != "—" else ""
        other = f"<br><small>other conditions: {esc(r.other)}</small>" if r.other else ""
        reading = getattr(r, "reading", "")
        other += f"<br><small>reading that decided: {esc(reading)}</small>" if reading else ""
        misprint = getattr(r, "misprint", "")
        other += f"<br><small>misprint read as corrected: {esc(misprint)}</small>" if misprint else ""
        basis, detail = getattr(r, "basis", ""), getattr(r, "detail", "")
        other += f"<br><small>what was measured: {esc(str(detail))}</small>" if detail else ""
        other += f"<br><small>how the rule decided: {esc(str(basis))}</small>" if basis and basis != r.reason else ""
        shown = getattr(r, "shown", "") or shown_label(r.verdict, getattr(r, "outcome", ""),
                                                       getattr(r, "covered_by", ""))
        cells = [
            f'<a href="{VERDICT_PAGE}#{claim_anchor(r.claim_id)}"><b>{esc(r.claim_id)}</b></a>'
            f"<br>{esc(str(r.claim))}<br><small>{esc(str(r.where))}</small>",
            esc(str(r.published)),
            f"{esc(str(r.ours))}{control}<br><small>measured at: {esc(cond)}</small>",
            (f'<a href="{esc(link)}">{badge(r.verdict, shown)}</a>' if link else badge(r.verdict, shown))
            + f"<br><small>{esc(str(r.reason))}</small>"
            f"{other}",
        ]
        tds = "".join(f'<td style="padding:0.3em 0.5em;vertical-align:top;word-break:break-word;width:{w}">{c}</td>'
                      for c, w in zip(cells, ("34%", "12%", "24%", "30%")))
        body.append(f"<tr>{tds}</tr>")
    return (f'<table class="table cipherlab-verdicts" style="font-size:0.85em;table-layout:fixed;width:100%">'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')
