"""A referee's report per paper, written from the run's verdicts and tables.

The report's sections are the one template of :mod:`cipherlab.report.template`
(:func:`sections`): summary, main concerns, the headline claims in plain words,
methodology with the protocol differences (``data/paper/protocols.csv``, our side
filled from the run's provenance and configuration), the paper's own defects,
overclaims with their references, supporting checks, our own findings, and the
recommendation by the rule of ``config/verdicts.yaml``.  This module gathers, for one
of the chapters' papers, what the template takes.  Every number comes from
``verdicts.csv`` and the claims registry; every sentence is a template filled from them.

``notebooks/report.ipynb`` runs this once per paper (``paper`` parameter); the book
shows each report as the first page of its paper's part (``report_<paper>``), with a forest plot after
the headline claims (``report_<paper>_claims``).  Counts are always split by tier
(:mod:`cipherlab.report.tiers`: headline, supporting, untiered while ``tier`` is empty).
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

import pandas as pd

from cipherlab.analysis.machines import RunNoise, run_to_run_noise
from cipherlab.analysis.verdicts import FINDING
from cipherlab.pipeline import chapters as _chapters
from cipherlab.pipeline.paths import PAPER_DATA_DIR, Profile, as_profile
from cipherlab.report import template, tiers


@dataclass(frozen=True)
class Paper:
    """A paper under test: its id, the cipher or subject, its chapter, its citation (book/references.md)."""

    id: str
    subject: str
    chapter: str
    citation: str


#: Bibliographic facts of the papers (id, subject, citation), as data: ``data/paper/papers.csv``.
PAPERS_FILE = PAPER_DATA_DIR / "papers.csv"
#: Where each paper's protocol differs from ours: ``paper, aspect, paper_protocol, ours``; ``ours`` may name
#: ``{meta.<key>}`` (the run's provenance of the chapter's first raw file), ``{pkg.<name>}`` (a package version
#: recorded there) and ``{cfg.<path>}`` (the chapter's parameters recorded there), filled by :func:`protocol_table`.
PROTOCOLS_FILE = PAPER_DATA_DIR / "protocols.csv"


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


# ----------------------------------------------------------------------------- the template's inputs
_FIELD = re.compile(r"\{(meta|pkg|cfg)\.([^}]+)\}")


def _run_meta(chapter: str, profile: "str | Profile") -> dict:
    """The provenance record of the chapter's first raw file in this profile ({} where there is none)."""
    c = next((c for c in _chapters.load().chapters if c.name == chapter), None)
    raws = tuple(getattr(getattr(c, "measure", None), "raw", ()) or ()) if c is not None else ()
    for name in raws:
        path = as_profile(profile).raw_meta(name)
        if path.is_file():
            return json.loads(path.read_text())
    return {}


def _lookup(meta: dict, kind: str, path: str) -> str:
    node = {"meta": meta, "pkg": meta.get("packages", {}), "cfg": meta.get("config", {})}[kind]
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return "(not recorded in this run)"
        node = node[part]
    return str(node)


def protocol_table(paper: str, profile: "str | Profile") -> pd.DataFrame:
    """Where the paper's protocol differs from ours (:data:`PROTOCOLS_FILE`), our side filled from this run's
    provenance and configuration: columns :data:`cipherlab.report.template.PROTOCOL_COLUMNS`."""
    p = check_paper(paper)
    df = pd.read_csv(PROTOCOLS_FILE, dtype=str, keep_default_na=False)
    df = df[df["paper"] == p.id]
    meta = _run_meta(p.chapter, profile)
    ours = [_FIELD.sub(lambda m: _lookup(meta, m.group(1), m.group(2)), text) for text in df["ours"]]
    return pd.DataFrame({"aspect": df["aspect"].tolist(), "paper": df["paper_protocol"].tolist(), "ours": ours},
                        columns=list(template.PROTOCOL_COLUMNS))


def paper_findings(rows: pd.DataFrame, paper: str) -> pd.DataFrame:
    """Our own findings (extensions) bearing on the paper: those of any paper of its chapter (papers 000 and
    001 describe one cipher); the template lists the paper's own and says once, in words, whose the others are
    (:func:`cipherlab.report.template.split_findings`)."""
    p = check_paper(paper)
    same = {q for q, info in papers().items() if info.chapter == p.chapter}
    return rows[(rows["verdict"] == FINDING) & rows["paper"].astype(str).isin(same)]


def sections(paper: str, rows: pd.DataFrame, profile: "str | Profile") -> "tuple[template.Section, ...]":
    """The sections of the referee's report on ``paper`` (one of the chapters' papers), by the one template."""
    p = check_paper(paper)
    mine = with_source(rows[rows["paper"].astype(str) == p.id])
    return template.report_sections(p, mine, paper_findings(rows, p.id), protocol_table(p.id, profile),
                                    misprints(p.id), noise=paper_noise(profile, set(mine["claim_id"].astype(str))),
                                    reference=reference_run(profile), machines=compared_machines(profile))


def compared_machines(profile: "str | Profile") -> tuple[str, ...]:
    """The CPUs of the runs a report's section across machines compares (this run's, then each shipped run's), from
    the runs' cards; empty when no machines table was written (no run was compared)."""
    prof = as_profile(profile)
    if not prof.table("machines").is_file():
        return ()
    from cipherlab.report.machines import machines_table
    return tuple(str(c) for c in machines_table(prof)["CPU"] if not str(c).startswith("not recorded"))


def with_source(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows with their claims' ``source`` from the registry (where a verdicts table lacks it): the report
    labels a published value that is a reference the paper quotes as one (:func:`template.published_label`)."""
    if "source" in rows.columns or rows.empty:
        return rows
    from cipherlab.analysis.claims import load_claims
    source = load_claims().set_index("claim_id")["source"]
    return rows.assign(source=rows["claim_id"].map(source).fillna("").astype(str))


def reference_run(profile: "str | Profile") -> str:
    """The name of the shipped run that IS this run, when no other run was compared with it: the run a book is
    built from (``make from-run``), or a shipped run whose measurement ids are this tree's own (the run that
    ``make contribute`` shipped). Its report compares the run with nothing, not with itself under its own name.
    Empty otherwise."""
    from cipherlab.analysis.machines import THIS_RUN, this_card
    from cipherlab.pipeline import runs as _runs
    prof = as_profile(profile)
    name = prof.shipped_run or ""
    if not name:
        ids = (this_card(prof) or {}).get("run_ids")
        name = next((r.name for r in _runs.shipped_runs(prof.name) if ids and r.card.get("run_ids") == ids), "")
    if not name:
        return ""
    if prof.table("machines").is_file():
        from cipherlab.report.machines import load_comparison
        others = set(load_comparison(prof)["run"]) - {THIS_RUN, name}
    else:
        others = {r.name for r in _runs.shipped_runs(prof.name, exclude=[name])}
    return "" if others else name


def paper_noise(profile: "str | Profile", claim_ids: "set[str]") -> "RunNoise | None":
    """The run-to-run noise of a paper's speed rows against a shipped run of the same CPU kind, from the run's
    ``machines`` table (``None`` when the table is absent or no run of this CPU kind was compared)."""
    prof = as_profile(profile)
    if not prof.table("machines").is_file():
        return None
    from cipherlab.report.machines import load_comparison   # the report layer's reader of that table
    return run_to_run_noise(load_comparison(prof), claim_ids)


# ----------------------------------------------------------------------------- sections


def misprints(paper: str) -> pd.DataFrame:
    """The documented misprints of a paper's printed tables (``data/paper/<paper>_misprints.csv``), if any."""
    path = PAPER_DATA_DIR / f"{paper}_misprints.csv"
    return pd.read_csv(path, dtype=str, keep_default_na=False) if path.is_file() else pd.DataFrame()


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
