"""A referee's report per paper, written from the run's verdicts and tables.

The structure follows the reproducibility reports of ReScience C and the ML
Reproducibility Challenge: a summary in three sentences; the scope (headline claims
and supporting checks); the methodology; the results per headline claim (published,
ours, verdict, one line); what was easy, what was hard, what the authors should fix;
a recommendation worded as the verdicts support.  Every number comes from
``verdicts.csv`` and the claims registry; every sentence is a template filled from them.

``notebooks/report.ipynb`` runs this once per paper (``paper`` parameter); the book
shows each report as the first page of its paper's part.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor, load_claims
from cipherlab.analysis.machines import machine_dependent
from cipherlab.analysis.verdicts import FINDING
from cipherlab.pipeline import chapters as _chapters
from cipherlab.pipeline.paths import PAPER_DATA_DIR, Profile, as_profile
from cipherlab.report import tiers
from cipherlab.report.verdict_page import badge, claim_link, evidence_href


@dataclass(frozen=True)
class Paper:
    """A paper under test: its id, the cipher or subject, its chapter, its citation (book/references.md)."""

    id: str
    subject: str
    chapter: str
    citation: str


#: Bibliographic facts of the papers (id, subject, citation), as data: ``data/paper/papers.csv``.
PAPERS_FILE = PAPER_DATA_DIR / "papers.csv"


def papers() -> dict[str, Paper]:
    """Every paper a chapter declares, in reading order, with its facts from :data:`PAPERS_FILE`."""
    facts = pd.read_csv(PAPERS_FILE, dtype=str, keep_default_na=False).set_index("paper")
    out: dict[str, Paper] = {}
    for c in _chapters.load().chapters:
        for p in c.papers:
            if p not in facts.index:
                raise ValueError(f"{PAPERS_FILE.name}: no row for paper {p} (declared by chapter {c.name!r})")
            out[p] = Paper(p, facts.at[p, "subject"], c.name, facts.at[p, "citation"])
    return out


def parts() -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """The book's parts, one per chapter that writes papers' findings: (caption, papers, chapter), in
    reading order; the caption is the chapter's findings heading (``AES-2SBox: papers 000 and 001``)."""
    from cipherlab.report.findings import heading
    return tuple((heading(c), tuple(c.papers), c.name) for c in _chapters.load().chapters if c.papers)


def report_papers() -> tuple[str, ...]:
    """Every paper with a referee's report: those the chapters declare, in reading order."""
    return tuple(p for c in _chapters.load().chapters for p in c.papers)


#: The figure name of each report (data/figures/<profile>/report_<paper>_claims.png).
FIGURE_STEM = "report_{paper}_claims"


def page_name(paper: str) -> str:
    """The report's page (executed notebook) name."""
    return f"report_{paper}"


def check_paper(paper: str) -> Paper:
    known = papers()
    if str(paper) not in known:
        raise ValueError(f"paper must be one of {sorted(known)}, got {paper!r}")
    return known[str(paper)]


def load_rows(profile: "str | Profile") -> pd.DataFrame:
    """The run's ``verdicts.csv`` (a missing file: a ``FileNotFoundError`` naming the rule)."""
    path = as_profile(profile).table("verdicts")
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run the verdicts rule first")
    rows = pd.read_csv(path, dtype=str, keep_default_na=False)
    tiers.check_verdicts(rows)
    return tiers.with_tier(rows)


def paper_rows(rows: pd.DataFrame, paper: str) -> pd.DataFrame:
    return tiers.with_tier(rows[(rows["paper"].astype(str) == paper) & (rows["verdict"] != FINDING)])


def headline_rows(rows: pd.DataFrame, paper: str) -> tuple[pd.DataFrame, bool]:
    """The paper's headline claims, and whether the registry marks tiers for it at all.

    Until the claims registry marks tiers (an empty ``tier`` column), every claim is
    untiered and the report lists them all, saying so.
    """
    mine = paper_rows(rows, paper)
    tiered = bool((mine["tier"] != "untiered").any())
    return (mine[mine["tier"] == "headline"] if tiered else mine), tiered


def _count(rows: pd.DataFrame, verdict: str) -> int:
    return int((rows["verdict"] == verdict).sum())


def _plural(n: int, one: str, many: "str | None" = None) -> str:
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


# ----------------------------------------------------------------------------- sections


def summary_markdown(rows: pd.DataFrame, paper: str) -> str:
    """Three sentences: what the paper claims and what we did; what the headline verdicts are; what follows."""
    p = check_paper(paper)
    mine = paper_rows(rows, paper)
    head, tiered = headline_rows(rows, paper)
    first = (f"Paper {paper} ({p.subject}) makes {_plural(len(mine), 'claim')} that this run tests against its own "
             f"measurements, in the [{p.chapter} chapter]({p.chapter}.html) and on the [verdict page]({VERDICT_PAGE}).")
    if tiered:
        second = f"Of its {len(head)} headline claims, {tiers.verdict_phrase(head['verdict'])}."
    else:
        second = (f"The claims registry does not yet mark headline claims, so all {len(head)} are counted together: "
                  f"{tiers.verdict_phrase(head['verdict'])}.")
    third = "Our recommendation: " + recommendation(head, "headline claims" if tiered else "claims")[0]
    return " ".join((first, second, third))


def scope_markdown(rows: pd.DataFrame, paper: str) -> str:
    """The claims under test, by tier, each linked to its verdict row."""
    mine = paper_rows(rows, paper)
    out = [tiers.tier_sentence(rows, paper)]
    for tier in tiers.TIERS:
        part = mine[mine["tier"] == tier]
        if part.empty:
            continue
        links = ", ".join(f"[{r.claim_id}]({VERDICT_PAGE}#{claim_anchor(r.claim_id)})" for r in part.itertuples())
        out.append(f"**{tiers.TIER_TITLES[tier].capitalize()}** ({len(part)}): {links}.")
    return "\n\n".join(out)


def methodology_markdown(paper: str, rows: pd.DataFrame) -> str:
    """One paragraph: how the claims were tested (the same engine and rules for every paper)."""
    p = check_paper(paper)
    mine = paper_rows(rows, paper)
    kinds = mine["kind"].value_counts()
    kind_text = ", ".join(f"{int(n)} {k}" for k, n in kinds.items())
    return (f"Each claim of paper {paper} is a row of `data/paper/claims.csv` with the published value, its place "
            f"in the paper and a declared rule ({kind_text} by kind). The [{p.chapter} chapter]({p.chapter}.html) "
            "rebuilds the paper's tables and figures from measurements taken by this run (fresh cipher objects, "
            "interleaved trials with an A/A control for speed, seeded inputs) and writes the evidence; one engine "
            "decides every verdict by the rules stated in [Methods](methods.html), the same for every paper. "
            "Speed effects count only beyond the noise band applied (the A/A control, widened to the declared "
            "floor); the [Environment](environment.html) page records the machine.")


def results_html(rows: pd.DataFrame, paper: str) -> str:
    """The headline claims as a table: claim, published, ours, verdict, one line (the rule's reason)."""
    head, _ = headline_rows(rows, paper)
    esc = html.escape
    body = []
    for _, r in head.iterrows():
        href = evidence_href(r)
        ev = f' <a href="{esc(href)}">evidence</a>' if href else ""
        body.append(
            f'<tr data-verdict="{esc(str(r["verdict"]))}"><td>{claim_link(r["claim_id"])}<br>'
            f'<small>{esc(str(r.get("where", "")))}</small></td>'
            f"<td>{esc(str(r.get('published', '')) or '—')}</td><td>{esc(str(r.get('ours', '')) or '—')}</td>"
            f"<td>{badge(r)}</td><td><small>{esc(str(r.get('reason', '')))}{ev}</small></td></tr>")
    if not body:
        return "<p>No headline claim of this paper was decided in this run.</p>"
    cols = "".join(f"<th>{h}</th>" for h in ("claim", "published", "ours", "verdict", "in one line"))
    return f'<table class="cl-report-results"><thead><tr>{cols}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _claim_list(part: pd.DataFrame, limit: int = 6) -> str:
    items = [f"[{r.claim_id}]({VERDICT_PAGE}#{claim_anchor(r.claim_id)}) ({str(r.reason).rstrip('.')})"
             for r in part.head(limit).itertuples()]
    more = f"; and {len(part) - limit} more on the verdict page" if len(part) > limit else ""
    return "; ".join(items) + more


def misprints(paper: str) -> pd.DataFrame:
    """The documented misprints of a paper's printed tables (``data/paper/<paper>_misprints.csv``), if any."""
    path = PAPER_DATA_DIR / f"{paper}_misprints.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False) if path.is_file() else pd.DataFrame()


def easy_hard_fix_markdown(rows: pd.DataFrame, paper: str) -> str:
    """What was easy (what reproduced), what was hard (not testable, inconclusive), what the authors should fix."""
    mine = paper_rows(rows, paper)
    easy = mine[mine["verdict"] == "reproduced"]
    hard = mine[mine["verdict"].isin(["not testable", "inconclusive", "not at condition"])]
    # a verdict that differs between machines is the machine's, never the paper's error (analysis.machines)
    dependent = mine[mine["claim_id"].isin(machine_dependent(mine))]
    fix = mine[mine["verdict"].isin(["contradicted", "not reproduced"])
               & ~mine["claim_id"].isin(dependent["claim_id"])]
    out = ["### What was easy",
           (f"{_plural(len(easy), 'claim')} reproduced as printed "
            f"({tiers.counts_phrase(easy['tier'].map(tiers.TIER_TITLES).value_counts().to_dict())}): "
            + _claim_list(easy) + ".") if len(easy) else "No claim reproduced as printed.",
           "### What was hard",
           (f"{_plural(len(hard), 'claim')} could not be decided here: " + _claim_list(hard) + ".")
           if len(hard) else "Every claim could be tested and decided in this run."]
    if len(dependent):
        out.append(f"Verdicts that differ between machines belong to the machine and are not counted against the "
                   f"paper ({len(dependent)}): "
                   + "; ".join(f"[{r.claim_id}]({VERDICT_PAGE}#{claim_anchor(r.claim_id)}) ({r.portability})"
                               for r in dependent.itertuples()) + ".")
    out.append("### What the authors should fix")
    if len(fix):
        out.append(f"{_plural(len(fix), 'claim')} did not hold as printed: " + _claim_list(fix) + ".")
    mis = misprints(paper)
    if len(mis):
        cells = "; ".join(f"{r.table.replace(' (misprints)', '')}, {r.row}, {r.column}: {r.note}"
                          for r in mis.itertuples())
        out.append(f"Documented misprints ({len(mis)}, `data/paper/{paper}_misprints.csv`): {cells}.")
    if not len(fix) and not len(mis):
        out.append("Nothing the run found.")
    return "\n\n".join(out)


def recommendation(head: pd.DataFrame, noun: str = "headline claims") -> tuple[str, str]:
    """The recommendation, worded as the headline verdicts support: (one sentence, its grade).

    ``noun``: what ``head`` holds ("headline claims", or "claims" while the registry marks no tiers).
    """
    n = len(head)
    if n == 0:
        return f"no {noun.removesuffix('s')} was decided, so this run supports no recommendation.", "none"
    # a claim whose verdict differs between machines is never counted as the paper's error (analysis.machines)
    portable = head[~head["claim_id"].isin(machine_dependent(head))]
    rep, contra = _count(head, "reproduced"), _count(portable, "contradicted")
    notrep = _count(portable, "not reproduced")
    if rep == n:
        return (f"all {n} {noun} reproduced; the paper's conclusions stand on this run's evidence.",
                "supported")
    if contra + notrep == 0:
        return (f"{rep} of {n} {noun} reproduced and none was refuted; the rest could not be decided "
                "here, so the conclusions are supported only as far as those claims reach.", "partly supported")
    refuted = tiers.verdict_phrase(portable.loc[portable["verdict"].isin(["contradicted", "not reproduced"]),
                                                "verdict"])
    if rep == 0:
        return (f"none of the {n} {noun} reproduced and {contra + notrep} did not hold ({refuted}); "
                "the paper's conclusions are not supported by this run's evidence and need revision before "
                "they can be relied on.", "not supported")
    return (f"{rep} of {n} {noun} reproduced and {contra + notrep} did not hold ({refuted}); "
            "the conclusions hold only in part and the refuted claims need correction.", "partly supported")


def recommendation_markdown(rows: pd.DataFrame, paper: str) -> str:
    head, tiered = headline_rows(rows, paper)
    text, grade = recommendation(head, "headline claims" if tiered else "claims")
    scope = "" if tiered else (" (Until the claims registry marks headline claims, this is worded on all of the "
                               "paper's claims.)")
    return f"**{grade.capitalize()}.** {text[0].upper()}{text[1:]}{scope}"


def figure_caption(paper: str) -> str:
    return (f"Published against ours for every quantitative headline claim of paper {paper}: each row one claim, "
            "the published value (black bar) and ours with its interval, marked by verdict (colour and shape, "
            "legend below). Speed ratios are on a log scale (1 = no effect) with the noise band applied shaded.")


def profile_note(profile: str) -> str:
    """A warning on a report of the quick profile (it travels into the PDF, where the site banner does not)."""
    if profile == "full":
        return ""
    return ('<div class="admonition warning"><p class="admonition-title">Quick profile</p>'
            f"<p>This report was written from the <b>{html.escape(profile)}</b> profile: tiny samples for testing, "
            "not the papers' protocols. Its verdicts show that the pipeline runs; <code>make reproduce</code> "
            "writes the report a referee can rely on.</p></div>")
