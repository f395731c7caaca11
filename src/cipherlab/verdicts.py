"""Verdict rows: one per published claim, written by the chapters, gathered by the book."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import pandas as pd

from .paths import Profile, as_profile
from .results import save_table

VERDICTS = ("reproduced", "not reproduced", "contradicted", "not testable")
CHAPTERS = ("aes2sbox", "maes", "aead", "security")


@dataclass(frozen=True)
class Verdict:
    """One claim of a paper and what this run found.

    Parameters
    ----------
    paper : str
        ``000`` .. ``003``.
    claim : str
        The claim in a few words.
    published : str
        The published value as the paper states it (read from ``data/paper/``).
    ours : str
        Our value, formatted, from this run.
    verdict : {"reproduced", "not reproduced", "contradicted", "not testable"}
    reason : str
        One line: why this verdict.
    where : str
        Chapter / section of the book holding the evidence.
    """

    paper: str
    claim: str
    published: str
    ours: str
    verdict: str
    reason: str
    where: str

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.paper not in ("000", "001", "002", "003"):
            raise ValueError(f"paper must be one of 000, 001, 002, 003, got {self.paper!r}")


COLUMNS = tuple(f.name for f in fields(Verdict))


def verdict_frame(rows) -> pd.DataFrame:
    return pd.DataFrame([asdict(r) for r in rows], columns=list(COLUMNS))


def save_verdicts(rows, chapter: str, profile: "str | Profile"):
    """Write a chapter's verdicts to ``data/tables/<profile>/verdicts_<chapter>.csv``."""
    if chapter not in CHAPTERS:
        raise ValueError(f"chapter must be one of {CHAPTERS}, got {chapter!r}")
    rows = list(rows)
    for r in rows:
        if not isinstance(r, Verdict):
            raise ValueError(f"rows must be Verdict objects, got {type(r).__name__}")
    return save_table(verdict_frame(rows), f"verdicts_{chapter}", profile)


def load_verdicts(profile: "str | Profile", chapters=CHAPTERS) -> pd.DataFrame:
    """All chapters' verdicts present for a profile, in paper order."""
    prof = as_profile(profile)
    frames = []
    for ch in chapters:
        path = prof.table(f"verdicts_{ch}")
        if path.exists():
            df = pd.read_csv(path, dtype=str, keep_default_na=False)
            df.insert(0, "chapter", ch)
            frames.append(df)
    if not frames:
        return pd.DataFrame(columns=["chapter", *COLUMNS])
    return pd.concat(frames, ignore_index=True).sort_values(["paper", "chapter"], kind="stable").reset_index(drop=True)


#: Background colour of each verdict in the book.
VERDICT_COLOURS = {"reproduced": "#d4edda", "not reproduced": "#fff3cd", "contradicted": "#f8d7da",
                   "not testable": "#e2e3e5"}


def verdict_counts(rows: pd.DataFrame) -> pd.DataFrame:
    """Claims per paper and verdict, with totals (the verdict page's summary)."""
    counts = (rows.groupby(["paper", "verdict"]).size().unstack(fill_value=0)
              .reindex(columns=list(VERDICTS), fill_value=0))
    counts["total"] = counts.sum(axis=1)
    counts.loc["all"] = counts.sum()
    counts.columns.name = None
    return counts


def verdict_html(rows: pd.DataFrame) -> str:
    """Verdict rows (with a ``chapter`` column) as an HTML table: the verdict coloured, the chapter linked."""
    import html

    head = "".join(f"<th>{h}</th>" for h in ("claim", "published", "ours", "verdict", "reason", "where"))
    body = []
    for r in rows.itertuples():
        cells = [html.escape(str(v)) for v in (r.claim, r.published, r.ours)]
        cells.append(f"<b>{html.escape(r.verdict)}</b>")
        cells.append(html.escape(str(r.reason)))
        cells.append(f'<a href="{html.escape(r.chapter)}.html">{html.escape(str(r.where))}</a>')
        style = f' style="background:{VERDICT_COLOURS.get(r.verdict, "#fff")}"'
        body.append("<tr>" + "".join(f"<td{style if i == 3 else ''}>{c}</td>" for i, c in enumerate(cells)) + "</tr>")
    return (f'<table class="table" style="font-size:0.85em"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')
