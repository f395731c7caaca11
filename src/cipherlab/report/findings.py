"""The book's front page: what this run found, per paper, written from this run's tables.

The page has no knowledge of any paper or chapter of its own.  It asks the chapters
(:func:`cipherlab.pipeline.chapters.load`): each chapter that declares ``papers`` writes the
section of those papers with its ``findings(tables)`` function, from the tables it declares
under ``findings_tables`` (its own and other chapters', with the columns it reads).  This
module adds what is the same for every paper: the overview, each paper's verdict counts by
tier, the links to the pages the numbers come from, and the coverage table.  Every number
comes from a table the pipeline wrote (``data/tables/<profile>/*.csv``); a table or column
that is missing stops the page with a :class:`FindingsError` naming it.
"""
from __future__ import annotations

import html as _html
from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from cipherlab.present.page_text import page_html
from cipherlab.analysis.verdicts import FINDING
from cipherlab.pipeline import chapters as _chapters
from cipherlab.pipeline.paths import PAPER_DATA_DIR, Profile, as_profile
from cipherlab.report import tiers
from cipherlab.report.tiers import ALL_VERDICTS as VERDICTS

#: The verdict page's own table, which every section reads: the columns read (``tier`` and ``concern``: the method
#: concerns behind a paper's grade, :func:`method_concerns`).
VERDICT_COLUMNS = ("claim_id", "paper", "kind", "verdict", "section", "tier", "concern")

#: The per-paper coverage table (each published table and figure, where it is rebuilt or why not).
COVERAGE_FILE = PAPER_DATA_DIR / "coverage.csv"
COVERAGE_COLUMNS = ("paper", "item", "rebuilt", "where", "note")


class FindingsError(ValueError):
    """A table or column the findings page reads is missing (renamed?): the page is not written."""


# --------------------------------------------------------------------------- reading


def writers(built: Sequence[str]) -> list[_chapters.Chapter]:
    """The chapters among ``built`` that write a section of the page, in reading order."""
    return [c for c in _chapters.load().chapters if c.papers and c.name in built]


def _owner(name: str) -> str:
    return _chapters.table_owner(name)


def columns(built: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Every table the page reads when ``built`` were built: name -> columns read."""
    return _chapters.findings_tables(built, VERDICT_COLUMNS)


def tables_for(built: Sequence[str]) -> list[str]:
    """Names of the tables the page reads when ``built`` were built."""
    return list(columns(built))


def check_table(name: str, df: pd.DataFrame, built: "Sequence[str] | None" = None) -> pd.DataFrame:
    """``df`` if it has every column the page reads from ``name``; else a :class:`FindingsError`."""
    declared = columns(built if built is not None else _chapters.load().names)
    if name not in declared:
        raise FindingsError(f"findings: no chapter reads table {name!r}; read: {sorted(declared)}")
    missing = [c for c in declared[name] if c not in df.columns]
    if missing:
        raise FindingsError(f"findings: table {name!r} lacks column(s) {missing} "
                            f"(it has {list(map(str, df.columns))}); update the findings_tables of the "
                            "chapter that reads it")
    return df


def load_tables(profile: "str | Profile", built: Sequence[str]) -> dict[str, pd.DataFrame]:
    """Read every table the page reads when ``built`` were built, each checked."""
    prof = as_profile(profile)
    out = {}
    for name in tables_for(built):
        path = prof.table(name)
        if not path.is_file():
            raise FindingsError(f"findings: table {name!r} ({_owner(name)} chapter) is missing: "
                                f"{path.name} not found in data/tables/{prof.name}/; was it renamed?")
        out[name] = check_table(name, pd.read_csv(path, keep_default_na=False, na_values=[""],
                                                  dtype={"paper": str}), built)
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def verdict_counts(verdicts: pd.DataFrame, paper: str) -> dict[str, int]:
    """The paper's claims per verdict (extensions, i.e. findings, apart under ``"finding"``)."""
    _check_verdicts(verdicts)
    rows = verdicts[verdicts["paper"].astype(str) == paper]
    unknown = sorted(set(rows["verdict"]) - set(VERDICTS) - {FINDING})
    if unknown:
        raise FindingsError(f"findings: verdicts of paper {paper} has unknown verdict(s) {unknown}; "
                            f"known: {list(VERDICTS) + [FINDING]}")
    counts = rows["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in (*VERDICTS, FINDING)}


def tier_counts_sentence(verdicts: pd.DataFrame, paper: str) -> str:
    """"Paper 000. Headline claims (5): 3 contradicted, 2 inconclusive. Supporting checks (12): ..." (and findings)."""
    _check_verdicts(verdicts)
    counts = verdict_counts(verdicts, paper)
    if not sum(n for v, n in counts.items() if v != FINDING):
        text = f"**Paper {paper}.** No claim was decided in this run."
    else:
        text = f"**Paper {paper}.** " + tiers.tier_sentence(verdicts, paper)
    extra = counts.get(FINDING, 0)
    if extra:
        text += f" Our own experiments add {_plural(extra, 'finding')}, not counted among them."
    return text


def verdict_sentence(counts: Mapping[str, int], paper: str) -> str:
    """"Of the 17 claims of paper 000, 8 were reproduced, ..." in every count case (none, one, all alike)."""
    claims = {v: counts.get(v, 0) for v in VERDICTS}
    total = sum(claims.values())
    given = [(v, n) for v, n in claims.items() if n]
    if total == 0:
        text = f"No claim of paper {paper} was decided in this run."
    elif len(given) == 1 and total == 1:
        text = f"The one claim of paper {paper} we test was {given[0][0]}."
    elif len(given) == 1:
        text = f"All {total} claims of paper {paper} we test were {given[0][0]}."
    else:
        parts = [f"{n} {'was' if n == 1 else 'were'} {v}" if i == 0 else f"{n} {v}" for i, (v, n) in enumerate(given)]
        text = f"Of the {total} claims of paper {paper} we test, {_join(parts)}."
    extra = counts.get(FINDING, 0)
    if extra:
        text += f" Our own experiments add {_plural(extra, 'finding')}, not counted among them."
    return text


# --------------------------------------------------------------------------- papers 000 and 001




def _check_verdicts(verdicts: pd.DataFrame) -> None:
    missing = [c for c in VERDICT_COLUMNS if c not in verdicts.columns]
    if missing:
        raise FindingsError(f"findings: table 'verdicts' lacks column(s) {missing}")


# --------------------------------------------------------------------------- the page


def overview_markdown(tables: Mapping[str, pd.DataFrame]) -> str:
    """One sentence over all papers: how many claims, and their verdicts."""
    verdicts = tables.get("verdicts")
    if verdicts is None:
        raise FindingsError("findings: the verdicts table is required")
    _check_verdicts(verdicts)
    claims = verdicts[verdicts["verdict"] != FINDING]
    counts = claims["verdict"].value_counts()
    parts = [f"{int(counts[v])} {v}" for v in VERDICTS if counts.get(v, 0)]
    papers = claims["paper"].astype(str).nunique()
    return (f"This run tested {_plural(len(claims), 'claim')} of {_plural(papers, 'paper')}: {_join(parts)}. "
            f"By tier: {tiers.tier_sentence(verdicts)} "
            "Each verdict, its rule and its evidence are on the [verdicts](verdicts.html) page; each paper has a "
            "referee's report at the head of its part of the book.")


def heading(chapter: _chapters.Chapter) -> str:
    """The section's heading: the chapter's title and its papers."""
    papers = list(chapter.papers)
    which = f"paper {papers[0]}" if len(papers) == 1 else f"papers {_join(papers)}"
    return f"{chapter.title or chapter.name}: {which}"


def sources(chapter: _chapters.Chapter, built: Sequence[str]) -> str:
    """"Details: the [aes2sbox chapter](aes2sbox.html) and ...": the chapter and those whose tables it reads."""
    names = [chapter.name] + [o for o in dict.fromkeys(_owner(t) for t in chapter.findings_tables
                                                      if t != "verdicts") if o != chapter.name]
    links = [f"the [{n} chapter]({n}.html)" if n in built else f"the {n} chapter (not built in this run)"
             for n in names]
    return "Details: " + _join(links) + "."


def section_parts(chapter: _chapters.Chapter, tables: Mapping[str, pd.DataFrame],
                  built: Sequence[str]) -> list:
    """The section of ``chapter``'s papers: the verdict counts by tier, the chapter's paragraphs (and
    figures, :class:`cipherlab.pipeline.chapters.FindingsFigure`), the links.  Markdown strings and figures."""
    verdicts = tables.get("verdicts")
    if verdicts is None:
        raise FindingsError("findings: the verdicts table is required")
    parts: list = [" ".join(tier_counts_sentence(verdicts, p) for p in chapter.papers)]
    parts += [m for m in (method_concerns(verdicts, p) for p in chapter.papers) if m]
    parts += list(chapter.findings({k: v for k, v in tables.items()}))
    parts.append(sources(chapter, built))
    return parts


def method_concerns(verdicts: pd.DataFrame, paper: str) -> str:
    """The method concerns behind the paper's grade, as its report lists them among its main concerns (the same
    condition, :func:`cipherlab.report.template.conditions`, and the same one line each); "" when there is none."""
    from cipherlab.report import concern_lines, referee, template
    _check_verdicts(verdicts)
    rows = tiers.with_tier(verdicts[verdicts["paper"].astype(str) == str(paper)])
    if rows.empty:
        return ""
    claims, ours = rows[rows["verdict"] != FINDING], rows[rows["verdict"] == FINDING]
    method = template.conditions(claims.assign(concern=claims["concern"].fillna("")), ours)["method"]
    if method.empty:
        return ""
    lines = [f"- {concern_lines.concern_line('method', r, {})}" for _, r in concern_lines.by_weight(method).iterrows()]
    return (f"**Paper {paper}: the method concerns behind its grade** (the paper's protocol or method cannot decide "
            "what it is used for; "
            f"each is a main concern of its [report]({referee.page_name(str(paper))}.html)):\n\n"
            + "\n".join(lines))


def section_markdown(chapter: _chapters.Chapter, tables: Mapping[str, pd.DataFrame],
                     built: Sequence[str]) -> str:
    """The section's text alone (figures left out), as markdown."""
    return "\n\n".join(p for p in section_parts(chapter, tables, built) if isinstance(p, str))


def show_sections(profile: "str | Profile", tables: Mapping[str, pd.DataFrame], built: Sequence[str]) -> None:
    """Display every chapter's section (heading, text, figures) in a notebook, in reading order."""
    from IPython.display import HTML, Image, Markdown, display
    prof = as_profile(profile)
    for chapter in writers(built):
        display(HTML(f'<h2 id="findings-{_html.escape(chapter.name)}">{_html.escape(heading(chapter))}</h2>'))
        for part in section_parts(chapter, tables, built):
            if isinstance(part, str):
                display(Markdown(part))
                continue
            path = prof.figure(part.name, "png")
            if not path.is_file():
                raise FindingsError(f"findings: figure {part.name!r} is missing ({path.name}); was it renamed?")
            display(Image(filename=str(path)))
            if part.caption:
                display(Markdown(part.caption))


# --------------------------------------------------------------------------- coverage


def load_coverage(path=None) -> pd.DataFrame:
    """``data/paper/coverage.csv``: each published table and figure, where it is rebuilt or why not."""
    path = Path(path or COVERAGE_FILE)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in COVERAGE_COLUMNS if c not in df.columns]
    if missing:
        raise FindingsError(f"findings: {path.name} lacks column(s) {missing}")
    bad = sorted(set(df["rebuilt"]) - {"yes", "partly", "no"})
    if bad:
        raise ValueError(f"{path.name}: rebuilt must be yes, partly or no, got {bad}")
    return df[list(COVERAGE_COLUMNS)]


def coverage_html(coverage: pd.DataFrame, paper: str) -> str:
    """One paper's coverage rows as an HTML table whose "where" cells are links to the chapter's section."""
    rows = coverage_view(coverage, paper)
    esc = page_html   # the coverage rows come from a file: text on the page

    def where(value: str) -> str:
        value = str(value).strip()
        if not value or value in ("—", "-") or ".html" not in value:
            return esc(value or "—")
        page, _, section = value.partition("#")
        text = page.removesuffix(".html") + (f" › {section}" if section else "")
        return f'<a href="{esc(value)}">{esc(text)}</a>'

    body = "".join(f"<tr><td>{esc(r.item)}</td><td>{esc(r.rebuilt)}</td><td>{where(r.where)}</td>"
                   f"<td>{esc(r.note)}</td></tr>" for r in rows.itertuples())
    head = "".join(f"<th>{h}</th>" for h in ("item", "rebuilt", "where", "note"))
    return (f'<table class="cipherlab-table cl-coverage"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def coverage_view(coverage: pd.DataFrame, paper: str) -> pd.DataFrame:
    """One paper's coverage rows for the page (item names kept on one line)."""
    rows = coverage[coverage["paper"] == paper][["item", "rebuilt", "where", "note"]]
    return rows.assign(item=rows["item"].str.replace(" ", "\u00a0", regex=False)).reset_index(drop=True)


def coverage_papers(coverage: pd.DataFrame) -> list[str]:
    """The papers the coverage table lists, in order."""
    return sorted(coverage["paper"].astype(str).unique())
