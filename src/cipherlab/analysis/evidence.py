"""Evidence: what a chapter measured for a claim, under one condition (never a verdict).

A chapter writes rows of :class:`Evidence` with :func:`save_evidence`;
:func:`speed_evidence` applies the declared statistic, bootstrap and A/A
control to a speed comparison.  The decision engine
(:mod:`cipherlab.analysis.verdicts`, which re-exports these names) reads them
back with :func:`load_evidence`.
"""
from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd

from cipherlab.analysis import stats as _stats
from cipherlab.analysis.claims import load_claims, load_rules
from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.pipeline.results import save_table

__all__ = ["Evidence", "EVIDENCE_COLUMNS", "evidence_frame", "evidence_table", "save_evidence", "load_evidence",
           "read_evidence_file", "speed_evidence"]


# ----------------------------------------------------------------------------- evidence
@dataclass(frozen=True)
class Evidence:
    """What one chapter measured for one claim, under one condition.

    Parameters
    ----------
    claim_id : str
        A ``claim_id`` of ``data/paper/claims.csv``.
    estimate, low, high : float, optional
        Our estimate and its interval (same unit as the claim's published value).
    n : int, optional
        Sample size behind the interval (trials per case in all, cells, queries ...).
    processes : int, optional
        For speed: the fresh processes the trials were spread over (the
        interval resamples them too, :func:`cipherlab.analysis.stats.speedup_ci`).
    holds : bool, optional
        For structural and qualitative claims: does the statement hold here.
    p_value : float, optional
        For rules ``significance`` and ``pvalue``.
    control_low, control_high : float, optional
        The A/A control: the same statistic for AES against an identical
        second AES instance, under the same protocol (speed claims only).
    size, style, mode, profile : str
        The condition actually measured (e.g. ``"60416 B"``, ``"table"``, ``"ecb"``, ``"full"``).
    unit : str
        Unit of estimate/low/high.
    detail : str
        One line on how the number was obtained, shown beside the verdict.
    section : str
        MyST label of the book section that holds the evidence.
    reading : str
        Which reading of a condition the paper leaves open this row measures
        (e.g. ``"mode=cbc"``); empty when the paper leaves none open.
    stated : float, optional
        The effect the paper itself printed for this row's comparison, in the
        row's unit, where the claim row's published value does not give it
        (a gap read from the paper's table for one pair of a ranking): it sizes
        the claim against the noise band (a gap below the floor is a small
        claimed effect).
    stand_in : str
        Non-empty when the row measures our own stand-in for a construction the
        paper does not give: names it. Such a row illustrates and never decides.
    proxy_for, proxy_why : str
        A row measured at another condition that stands for the claim's
        (``proxy_for``, in the claim's condition syntax, e.g. ``"size=16 B"``),
        and why it stands for it. Its label says both.
    bound : str
        ``"lower"`` or ``"upper"`` when the estimate is only a bound on the
        claim's quantity (it then decides only in its own direction); empty otherwise.
    statistic : str
        The kind of statistic the row measures, a key of ``noise_by_statistic``
        in ``config/verdicts.yaml`` (empty: ``speed_ratio``, two code paths timed
        side by side): it says which noise band, if any, the engine applies.
    """

    claim_id: str
    estimate: "float | None" = None
    low: "float | None" = None
    high: "float | None" = None
    n: "int | None" = None
    processes: "int | None" = None
    holds: "bool | None" = None
    p_value: "float | None" = None
    control_low: "float | None" = None
    control_high: "float | None" = None
    size: str = ""
    style: str = ""
    mode: str = ""
    profile: str = ""
    unit: str = ""
    detail: str = ""
    section: str = ""
    reading: str = ""
    stated: "float | None" = None
    stand_in: str = ""
    proxy_for: str = ""
    proxy_why: str = ""
    bound: str = ""
    statistic: str = ""

    def __post_init__(self) -> None:
        if not self.claim_id:
            raise ValueError("claim_id must be a non-empty string")
        if self.bound not in ("", "lower", "upper"):
            raise ValueError(f"bound must be '', 'lower' or 'upper', got {self.bound!r}")
        kinds = load_rules()["noise_by_statistic"]
        if self.statistic and self.statistic not in kinds:
            raise ValueError(f"statistic must be empty or one of {', '.join(kinds)}, got {self.statistic!r}")
        if bool(self.proxy_for) != bool(self.proxy_why):
            raise ValueError("proxy_for and proxy_why must be given together (what the row stands for, and why)")
        for name in ("estimate", "low", "high", "p_value", "control_low", "control_high", "stated"):
            v = getattr(self, name)
            if v is not None and not (isinstance(v, (int, float, np.floating, np.integer)) and math.isfinite(float(v))):
                raise ValueError(f"{name} must be a finite number or None, got {v!r}")
        if (self.low is None) != (self.high is None):
            raise ValueError("low and high must be given together")
        if self.low is not None and float(self.low) > float(self.high):
            raise ValueError(f"low must be <= high, got [{self.low}, {self.high}]")
        if (self.control_low is None) != (self.control_high is None):
            raise ValueError("control_low and control_high must be given together")
        if self.holds is not None and not isinstance(self.holds, (bool, np.bool_)):
            raise ValueError(f"holds must be True, False or None, got {self.holds!r}")
        if self.p_value is not None and not 0 <= float(self.p_value) <= 1:
            raise ValueError(f"p_value must be in [0, 1], got {self.p_value!r}")


EVIDENCE_COLUMNS = tuple(f.name for f in fields(Evidence))
#: The evidence's text columns (read back as strings, empty where not given).
_TEXT_COLUMNS = ("size", "style", "mode", "profile", "unit", "detail", "section", "reading", "stand_in",
                 "proxy_for", "proxy_why", "bound", "statistic")


def evidence_frame(rows) -> pd.DataFrame:
    rows = list(rows)
    for r in rows:
        if not isinstance(r, Evidence):
            raise ValueError(f"rows must be Evidence objects, got {type(r).__name__}")
    return pd.DataFrame([asdict(r) for r in rows], columns=list(EVIDENCE_COLUMNS))


def evidence_table(rows) -> pd.DataFrame:
    """A chapter's evidence rows as the table ``evidence_<chapter>`` (what a chapter's ``build`` returns).

    Every claim id must exist in ``claims.csv``: a typo fails here, not silently later.
    """
    frame = evidence_frame(rows)
    known = set(load_claims()["claim_id"])
    unknown = sorted(set(frame["claim_id"]) - known)
    if unknown:
        raise ValueError(f"evidence for unknown claim ids {unknown}; add them to data/paper/claims.csv")
    return frame


def save_evidence(rows, chapter: str, profile: "str | Profile"):
    """Write a chapter's evidence (:func:`evidence_table`) to ``data/tables/<profile>/evidence_<chapter>.csv``."""
    return save_table(evidence_table(rows), f"evidence_{chapter}", profile)


def read_evidence_file(path: "str | os.PathLike[str]", chapter: str) -> pd.DataFrame:
    """One chapter's evidence table (``evidence_<chapter>.csv``) with a ``chapter`` column first; a column an
    older cipherlab did not write is added empty (a shipped run's evidence, :mod:`cipherlab.analysis.machines`)."""
    df = pd.read_csv(path, keep_default_na=False, na_values=[""],
                     dtype={"claim_id": str, **{c: str for c in _TEXT_COLUMNS}})
    for col in EVIDENCE_COLUMNS:
        if col not in df.columns:       # a table written before the column existed
            df[col] = "" if col in _TEXT_COLUMNS else np.nan
    df = df[list(EVIDENCE_COLUMNS)]
    df.insert(0, "chapter", chapter)
    for col in _TEXT_COLUMNS:
        df[col] = df[col].fillna("")
    return df


def load_evidence(profile: "str | Profile", chapters) -> pd.DataFrame:
    """Every chapter's evidence for a profile (a missing file is an error: the book would be incomplete)."""
    prof = as_profile(profile)
    frames = []
    for ch in chapters:
        path = prof.table(f"evidence_{ch}")
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: run the {ch} chapter first")
        frames.append(read_evidence_file(path, ch))
    if not frames:
        return pd.DataFrame(columns=["chapter", *EVIDENCE_COLUMNS])
    return pd.concat(frames, ignore_index=True)


def speed_evidence(claim_id: str, old, new, control_old, control_new, *, rules: "dict | None" = None,
                   seed: int = 0, **condition) -> Evidence:
    """Evidence for a speed claim, by the declared statistic, interval and A/A control.

    ``old``/``new`` are per-call times of the baseline and the candidate,
    1-D or processes x trials (:func:`cipherlab.analysis.timing.trials_by_process`);
    with ``speed_pairing: rounds`` they must come from one interleaved
    measurement (trial ``t`` of both timed in the same round)
    (the estimate is ``(stat(old) / stat(new) - 1) * 100`` percent: positive
    when ``new`` is faster); ``control_old``/``control_new`` are the per-call
    times of two identical AES instances timed in the same interleaved run,
    whose "speedup" interval is the machine's own noise.  ``condition`` holds
    ``size``, ``style``, ``mode``, ``profile``, ``detail``, ``section``.
    """
    rules = rules or load_rules()
    kw = dict(statistic=rules["speed_statistic"], confidence=float(rules["confidence"]),
              n_resamples=int(rules["bootstrap_resamples"]), seed=seed,
              paired=rules["speed_pairing"] == "rounds")
    effect = _stats.speedup_ci(old, new, **kw)
    control = _stats.speedup_ci(control_old, control_new, **kw)
    n = min(np.asarray(old).size, np.asarray(new).size)
    processes = np.asarray(old).shape[0] if np.asarray(old).ndim == 2 else 1
    return Evidence(claim_id, estimate=effect.estimate, low=effect.low, high=effect.high, n=int(n),
                    processes=int(processes),
                    control_low=control.low, control_high=control.high, unit="%", **condition)
