"""The verdict page: one section per paper, one row per claim, to scan, filter, link and cite.

Each row carries a stable anchor ``#claim-<claim_id>`` (the referee's reports and the
chapters link to it) and ``data-paper``/``data-tier``/``data-verdict`` attributes that the
book's own script (``book/_static/cipherlab.js``, no CDN) filters on.  The filter also reads
the page's query string, ``verdicts.html?paper=003&verdict=contradicted``, so that a filtered
view is a link.  Verdicts are shown by colour *and* a mark and a word
(:data:`cipherlab.present.verdict_table.MARKS`); the noise band shown is the one the rule applied.
"""
from __future__ import annotations

import html

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor
from cipherlab.present.page_text import page_html
from cipherlab.analysis.verdicts import FINDING
from cipherlab.present import verdict_table
from cipherlab.report import glossary, tiers

#: The verdict table's download name, beside the page in the built book (``_downloads`` is Sphinx's).
CSV_NAME = "verdicts.csv"


def claim_link(claim_id: str, text: "str | None" = None, page: str = VERDICT_PAGE) -> str:
    """An HTML link to a claim's row on the verdict page."""
    return f'<a href="{page}#{claim_anchor(claim_id)}">{page_html(text or str(claim_id))}</a>'


def badge(row) -> str:
    """The verdict as a coloured badge with its mark and its words (never colour alone)."""
    return verdict_table.badge(str(row["verdict"]), tiers.verdict_label(row))


def evidence_href(row) -> str:
    """The page and section that hold a claim's evidence."""
    chapter, section = str(row.get("chapter", "") or ""), str(row.get("section", "") or "")
    if not chapter or chapter == "nan":
        return ""
    return f"{chapter}.html#{section}" if section and section != "nan" else f"{chapter}.html"


def _s(v) -> str:
    return "" if v is None or (isinstance(v, float) and pd.isna(v)) or str(v) == "nan" else str(v)


def rows_html(rows: pd.DataFrame) -> str:
    """Verdict rows as the page's table: claim | published | ours (band applied, condition) | verdict."""
    esc = page_html   # claim text, where and notes come from a file: text on the page
    rows = tiers.with_tier(rows)
    head = "".join(f"<th>{h}</th>" for h in ("claim", "published", "ours", "verdict"))
    body = []
    for _, r in rows.iterrows():
        trials = (f"{_s(r.get('n'))} trials in {_s(r.get('processes'))} process"
                  f"{'es' if _s(r.get('processes')) != '1' else ''}") if _s(r.get("processes")) else ""
        measured = _s(r.get("measured")) or ", ".join(x for x in (_s(r.get(k)) for k in ("size", "style", "mode")) if x)
        cond = ", ".join(x for x in (measured, _s(r.get("profile"))) if x)
        cond = ", ".join(x for x in (cond, trials) if x) or "—"
        band = tiers.band_text(r)
        href = evidence_href(r)
        evidence = f'<a href="{esc(href)}">evidence</a>' if href else "no evidence section"
        extras = "".join(f"<br><small>{label}: {esc(_s(r.get(k)))}</small>"
                         for k, label in (("reading", "reading"), ("condition", "the paper's condition"),
                                          ("other", "other conditions"), ("detail", "what was measured"),
                                          ("basis", "how the rule decided"), ("reference", "reference"),
                                          # the shipped runs' verdicts (cipherlab.analysis.machines)
                                          ("machines", "other machines"), ("portability", "portability"))
                         if _s(r.get(k)) and not (k == "basis" and _s(r.get(k)) == _s(r.get("reason"))))
        tier = r["tier"]
        cells = [
            f'<a class="cl-anchor" href="#{claim_anchor(r["claim_id"])}"><b>{esc(str(r["claim_id"]))}</b></a>'
            f' <span class="cl-tier cl-tier-{tier}">{esc(tier)}</span><br>{esc(_s(r.get("claim")))}'
            f"<br><small>{esc(_s(r.get('where')))}</small>",
            esc(_s(r.get("published")) or "—"),
            f"{esc(_s(r.get('ours')) or '—')}"
            + (f"<br><small>noise band applied {esc(band)}</small>" if band else "")
            + f"<br><small>measured at: {esc(cond)}</small>",
            f"{badge(r)}<br><small>{esc(_s(r.get('reason')))}"
            + (f" (rule: {glossary.rule_html(_s(r.get('rule')))})" if _s(r.get("rule")) else "") + "</small>"
            f"<br><small>{evidence}</small>{extras}",
        ]
        tds = "".join(f'<td data-label="{h}">{c}</td>' for h, c in zip(("claim", "published", "ours", "verdict"),
                                                                        cells))
        body.append(f'<tr id="{claim_anchor(r["claim_id"])}" data-paper="{esc(str(r["paper"]))}" '
                    f'data-tier="{esc(tier)}" data-verdict="{esc(str(r["verdict"]))}">{tds}</tr>')
    return (f'<table class="cl-verdicts"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


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
    """The link to the CSV copied beside the page."""
    return (f'<p>Download every row as <a href="{name}" download><code>{name}</code></a> '
            "(the engine's output, <code>data/tables/&lt;profile&gt;/verdicts.csv</code>).</p>")
