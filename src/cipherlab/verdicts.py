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
