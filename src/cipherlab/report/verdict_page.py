"""The verdict page: one section per paper, one row per claim, to scan, filter, link and cite.

Each row carries a stable anchor ``#claim-<claim_id>`` (the referee's reports and the
chapters link to it) and ``data-paper``/``data-tier``/``data-verdict`` attributes that the
book's own script (``book/_static/cipherlab.js``, no CDN) filters on.  The filter also reads
the page's query string, ``verdicts.html?paper=003&verdict=contradicted``, so that a filtered
view is a link.  Verdicts are shown by colour *and* a mark and a word
(:data:`cipherlab.present.verdict_table.MARKS`); the noise band shown is the one the rule applied.  The rows are
drawn by the one verdict renderer, :func:`cipherlab.present.verdict_table.verdict_html`; this module adds what only
the page has: the tiers, the filter, the counts and the download.
"""
from __future__ import annotations

import html
import re

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor
from cipherlab.present.page_text import page_html
from cipherlab.analysis import machines, verdicts
from cipherlab.analysis.verdicts import FINDING
from cipherlab.pipeline.results import save_table
from cipherlab.present import verdict_table
from cipherlab.report import glossary, tiers

#: The verdict table's download name, beside the page in the built book (``_downloads`` is Sphinx's).
CSV_NAME = "verdicts.csv"


def decide_and_save(profile, chapters) -> pd.DataFrame:
    """Every claim decided on every chapter's saved evidence, with the other shipped machines' verdicts beside it
    (:func:`cipherlab.analysis.machines.decide_across`: a size that differs between two real machines makes its claim
    machine-bound); saves the tables ``verdicts`` and ``machines`` (the atomic writer every table goes through) and
    returns the rows."""
    evidence = verdicts.load_evidence(profile, chapters)
    rows, comparison = machines.decide_across(profile, verdicts.decide_all(verdicts.load_claims(), evidence), evidence)
    save_table(rows, "verdicts", profile)
    machines.save_comparison(comparison, profile)
    return rows


def claim_link(claim_id: str, text: "str | None" = None, page: str = VERDICT_PAGE) -> str:
    """An HTML link to a claim's row on the verdict page."""
    return f'<a href="{page}#{claim_anchor(claim_id)}">{page_html(text or str(claim_id))}</a>'


def badge(row) -> str:
    """The verdict as a coloured badge with its mark and its words (never colour alone)."""
    return verdict_table.badge(str(row["verdict"]), tiers.verdict_label(row))


def rows_html(rows: pd.DataFrame) -> str:
    """Verdict rows as the page's table, drawn by the one renderer
    (:func:`cipherlab.present.verdict_table.verdict_html` in its page form): claim | published | ours (the noise
    band the rule applied, the condition) | verdict (the rule in words, linked to the glossary)."""
    return verdict_table.verdict_html(tiers.with_tier(rows), page=True, band=tiers.band_text, rule=glossary.rule_html)


def counts_html(rows: pd.DataFrame, paper: "str | None" = None) -> str:
    """The claims per tier and verdict, as a small table (the counts never mix the tiers)."""
    table = tiers.tier_counts(rows, paper)
    if table.empty:
        return "<p>No claim was decided in this run.</p>"
    cols = list(table.columns)
    head = "<th>tier</th>" + "".join(
        f"<th>{badge({'verdict': c, 'covered_by': ''}) if c != 'total' else 'total'}</th>" for c in cols)
    body = "".join(f"<tr><td>{html.escape(tiers.TIER_TITLES[t])}</td>"
                   + "".join(f'<td class="cl-num">{int(v)}</td>' for v in r) + "</tr>"
                   for t, r in table.iterrows())
    return f'<table class="cl-counts"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def filter_html(rows: pd.DataFrame) -> str:
    """The filter form (paper, tier, verdict) the book's script drives, and the visible-row count."""
    rows = tiers.with_tier(rows)

    def select(name: str, values) -> str:
        opts = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
        return (f'<label>{name} <select data-filter="{name}"><option value="">all</option>{opts}</select></label>')

    papers = sorted(rows["paper"].astype(str).unique())
    tier_values = [t for t in tiers.TIERS if t in set(rows["tier"])]
    verdict_values = [v for v in (*tiers.ALL_VERDICTS, FINDING) if v in set(rows["verdict"])]
    return (f'<form class="cl-filter" data-target="table.cl-verdicts" onsubmit="return false">'
            f'{select("paper", papers)} {select("tier", tier_values)} {select("verdict", verdict_values)} '
            f'<span class="cl-filter-count" aria-live="polite">{len(rows)} rows</span>'
            f'<noscript> (the filter needs JavaScript; every row is shown)</noscript></form>')


def download_html(name: str = CSV_NAME) -> str:
    """The link to the CSV copied beside the page, saying what it holds: the registry's papers' rows only; a paper
    refereed through a variant has its rows in its own chapter's table, which the filter below also shows."""
    return (f'<p>Download the rows of the registry\'s papers and our findings on them (the rows counted above, '
            f'none of the papers refereed through a variant) as <a href="{name}" download><code>{name}</code></a> '
            "(the engine's output, <code>data/tables/&lt;profile&gt;/verdicts.csv</code>); the rows of each paper "
            "refereed through a variant are in its chapter's table, "
            "<code>data/tables/&lt;profile&gt;/variant_&lt;name&gt;_verdicts.csv</code>. The filter below shows "
            "both.</p>")


_STYLE_READING = re.compile(r"^style=([^,:;]+)[^:]*:\s*(.*?)\s*\u2192\s*(.+)$")


def style_readings(row) -> "list[tuple[str, str, str]]":
    """The row's outcomes in the other implementation styles (its ``other`` column: ``style=table, table: <value>
    → <verdict>; ...``), as ``(style, value, verdict)``; readings of other conditions (a size) are left out."""
    text = str(row.get("other", "") or "") if hasattr(row, "get") else ""
    out = []
    for part in text.split("; "):
        m = _STYLE_READING.match(part.strip())
        if m:
            out.append((m.group(1).strip(), m.group(2).strip(), m.group(3).strip()))
    return out


def style_note(row) -> str:
    """Where the verdict depends on the implementation style, in words: "reproduced in the reference style;
    contradicted in the table style (-0.06 % [-0.89, 0.61])"; "" when every other style gives the same verdict."""
    others = [(s, v, w) for s, v, w in style_readings(row) if w != str(row.get("verdict", ""))]
    if not others:
        return ""
    own = str(row.get("style", "") or "").strip()
    head = f"{tiers.verdict_label(row)} in the {own} style" if own else tiers.verdict_label(row)
    by: dict[str, list[str]] = {}
    for s, v, w in others:
        by.setdefault(w, []).append(f"the {s} style ({v})")
    return head + "; " + "; ".join(f"{w} in " + " and in ".join(items) for w, items in by.items())
