"""Verdicts across machines: this run's beside every shipped run's, decided by one engine.

Each shipped run of the profile (:mod:`cipherlab.pipeline.runs`, ``data/runs/<run>/``) keeps the evidence its
chapters derived from its raw files. Here that evidence is decided again, claim by claim, by this engine and
these rules (:func:`cipherlab.analysis.verdicts.decide_all`), so two verdicts that differ differ because of what
was measured, never because of the engine. A claim a run has no evidence for (a chapter it lacks, a claim
added to the registry after it) is :data:`NOT_MEASURED` there; evidence for a claim the registry no longer
holds is left out and counted (``retired``).

:func:`compare` gives one row per claim and run (this run first): the verdict, and for a speed claim (evidence
with an A/A control) the estimate and interval as a speed ratio, the ratio between this machine and that one,
and whether the two intervals are disjoint (``size_differs``).
:func:`bound_by_evidence` reads that comparison into the rules of machine-bound quantities (``across_machines``
in ``config/verdicts.yaml``): a claim whose size is declared to carry over (``carries: size``) is machine-bound
*by evidence* when two real machines (this run and a shipped run, never an emulated one) both hold its direction
beyond the noise and its size differs between them beyond both runs' noise; :func:`decide_across` gives such a
claim, on this run's row and on that run's, the machine-bound status (agrees or differs on each machine) with a
reason naming both machines' figures. With no second real machine the declaration alone decides.
:func:`portability` says per claim whether the verdict is the same on every machine that measured it or which
differ; :func:`with_portability` puts that on the verdict rows (columns ``machines`` and ``portability``), and
:func:`machine_dependent` names the claims whose verdict differs, which a report never counts as the paper's
error. The table is the pipeline's ``machines`` (a timing table), written by the verdict rule.

Two runs of the same CPU kind (:func:`cpu_kind`: the card's CPU id and flags, both recorded and equal;
column ``same_cpu``) are never two machines: a verdict that differs between them reads
``same CPU kind, other run: ...`` (run-to-run variation).  A claim whose evidence is exact on both runs
(:func:`exact_evidence`, column ``exact``: no row with an A/A control, processes, a statistic of a timing
kind or a unit of ``across_machines: timing_units``) is never the machine's: a verdict that differs on it
reads ``changed with the code or data, ...``, naming both runs' commits.  Neither counts as the paper's
error nor as the machine's.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cipherlab.analysis.claims import load_claims, load_rules
from cipherlab.analysis.evidence import EVIDENCE_COLUMNS, read_evidence_file
from cipherlab.analysis.compare import fmt
from cipherlab.analysis.verdicts import FINDING, decide_all, noise_half_width
from cipherlab.pipeline import runs as _runs
from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.pipeline.results import save_table

__all__ = ["NOT_MEASURED", "THIS_RUN", "DECISIVE", "Measured", "shipped_measured", "compare", "portability",
           "with_portability", "machine_dependent", "differing", "speed_table", "measured_here",
           "compare_with_shipped", "save_comparison", "RunNoise", "run_to_run_noise",
           "COMPARISON_COLUMNS", "MACHINE_OUTCOMES", "BoundByEvidence",
           "bound_by_evidence", "decide_across", "size_apart", "this_card", "cpu_kind", "exact_evidence",
           "SAME_CPU", "CODE_CHANGED"]

#: The verdict shown for a claim a run has no evidence for.
NOT_MEASURED = "not measured"
#: The name of the run the book is built from, in the comparison.
THIS_RUN = "this run"
COMPARISON_COLUMNS = ("claim_id", "paper", "tier", "run", "machine", "emulated", "commit", "verdict", "reason",
                      "speed", "estimate", "low", "high", "ratio_to_this", "size_differs", "verdict_differs",
                      "bound_by_evidence", "same_cpu", "exact")
#: How :func:`portability` names a verdict that differs only from runs of the same CPU kind (the same CPU model
#: and flags): run-to-run variation, never the machine's.
SAME_CPU = "same CPU kind, other run"
#: How :func:`portability` names a verdict that differs on exact evidence (no timing: no noise): the code or the
#: data changed between the two runs' commits, never the machine.
CODE_CHANGED = "changed with the code or data"
#: The outcomes of a machine-bound size: the direction held beyond the noise, the size said to agree, differ or
#: neither on that machine (:func:`cipherlab.analysis.compare.machine_size`).
MACHINE_OUTCOMES = ("agrees_here", "differs_here", "unclear_here")


@dataclass
class Measured:
    """One run's verdict rows and evidence (this run's, or a shipped run's decided again here)."""

    run: str
    machine: str
    emulated: str
    commit: str
    rows: pd.DataFrame
    evidence: pd.DataFrame
    retired: list[str] = field(default_factory=list)
    #: The CPU kind (:func:`cpu_kind`: vendor, family, model, stepping and flags); empty where not recorded,
    #: which is never the same kind as another run's.
    cpu: str = ""


def cpu_kind(card: "dict | None") -> str:
    """A run card's CPU kind: its CPU id (vendor, family, model, stepping) and its OS flags, or ``""`` when the
    card does not record both. Two runs of one kind are the same CPU, another run, never two machines."""
    cpu = (card or {}).get("cpu") or {}
    cid, flags = str(cpu.get("id") or ""), str(cpu.get("flags") or "")
    unknown = ("", "not readable", "not recorded", "None")
    if cid in unknown or flags in unknown:
        return ""
    return f"{cid} | {' '.join(sorted(flags.split()))}"


def _timing_units(rules: dict) -> set[str]:
    return {str(u) for u in ((rules.get("across_machines") or {}).get("timing_units") or ())}


def exact_evidence(evidence: pd.DataFrame, rules: "dict | None" = None) -> bool:
    """Whether evidence rows are exact (deterministic: a count, a structural fact, a seeded statistic, the paper's
    own figures), so that they have no run-to-run noise and no machine can change them: none is timed, i.e. none
    has an A/A control, fresh processes, a declared statistic of a timing kind (``noise_by_statistic``) or a unit
    of time or speed (``across_machines: timing_units`` in the rules file). No rows: not exact."""
    if evidence.empty:
        return False
    rules = rules or load_rules()

    def _has(col):
        if col not in evidence:
            return pd.Series(False, index=evidence.index)
        return evidence[col].notna() & (evidence[col].astype(str).str.strip() != "")
    units = evidence["unit"].fillna("").astype(str) if "unit" in evidence else pd.Series("", index=evidence.index)
    timed = (_has("control_low") | _has("processes") | _has("statistic") | units.isin(_timing_units(rules)))
    return not bool(timed.any())


def _decide_each(claims: pd.DataFrame, evidence: pd.DataFrame, rules: dict) -> pd.DataFrame:
    """The engine on every claim ``evidence`` bears on (and the not-testable ones), one claim at a time, so that
    evidence an older cipherlab wrote which the engine cannot read makes that claim, not the run, undecided."""
    rows = []
    for _, claim in claims.iterrows():
        evs = evidence[evidence["claim_id"] == claim["claim_id"]]
        if evs.empty and claim["rule"] != "not_testable":
            rows.append({"claim_id": claim["claim_id"], "verdict": NOT_MEASURED,
                         "reason": "the run has no evidence for this claim (a chapter it lacks, or a claim "
                                   "registered after it)"})
            continue
        try:
            rows.append(decide_all(claims[claims["claim_id"] == claim["claim_id"]], evs, rules).iloc[0].to_dict())
        except (ValueError, KeyError, TypeError) as exc:
            rows.append({"claim_id": claim["claim_id"], "verdict": NOT_MEASURED,
                         "reason": f"its evidence could not be decided by this engine ({exc})"})
    return pd.DataFrame(rows)


def shipped_measured(run: "_runs.ShippedRun", claims: "pd.DataFrame | None" = None,
                     rules: "dict | None" = None) -> Measured:
    """A shipped run's evidence (each file checked against its card) decided by this engine."""
    claims = load_claims() if claims is None else claims
    frames = [read_evidence_file(path, ch) for ch in run.evidence_chapters
              if (path := _runs.evidence_path(run, ch)) is not None]
    evidence = (pd.concat(frames, ignore_index=True) if frames
                else pd.DataFrame(columns=["chapter", *EVIDENCE_COLUMNS]))
    known = set(claims["claim_id"])
    retired = sorted(set(evidence["claim_id"]) - known)
    evidence = evidence[evidence["claim_id"].isin(known)]
    rows = _decide_each(claims, evidence, rules or load_rules())
    return Measured(run.name, run.label, run.emulated or "", str(run.card.get("commit", "")), rows, evidence, retired,
                    cpu_kind(run.card))


def _deciding(claim_id: str, row: pd.Series, evidence: pd.DataFrame) -> "pd.Series | None":
    """The evidence row that decided a verdict row: its claim at the condition and reading the row names."""
    evs = evidence[evidence["claim_id"] == claim_id]
    for key in ("size", "style", "mode", "reading"):
        value = "" if pd.isna(row.get(key, "")) else str(row.get(key, ""))
        if key in evs.columns and value:
            match = evs[evs[key].astype(str) == value]
            evs = match if len(match) else evs
    return None if evs.empty else evs.iloc[0]


def _speed_ratio(ev: "pd.Series | None") -> "tuple[float, float, float] | None":
    """A speed claim's estimate and interval as a speed ratio (1 + %/100); None for any other evidence."""
    if ev is None or str(ev.get("unit", "")) != "%" or pd.isna(ev.get("control_low")) or pd.isna(ev.get("estimate")):
        return None
    vals = [1 + float(ev[k]) / 100 if not pd.isna(ev.get(k)) else np.nan for k in ("estimate", "low", "high")]
    return vals[0], vals[1], vals[2]


def _long(measured: Measured, claims: pd.DataFrame) -> pd.DataFrame:
    rows = measured.rows.set_index("claim_id")
    out = []
    for _, claim in claims.iterrows():
        cid = claim["claim_id"]
        r = rows.loc[cid] if cid in rows.index else pd.Series({"verdict": NOT_MEASURED, "reason": ""})
        ev = None if r["verdict"] == NOT_MEASURED else _deciding(cid, r, measured.evidence)
        speed = _speed_ratio(ev)
        out.append({"claim_id": cid, "paper": claim["paper"], "tier": claim["tier"], "run": measured.run,
                    "machine": measured.machine, "emulated": measured.emulated, "commit": measured.commit,
                    "verdict": r["verdict"], "reason": r.get("reason", ""), "speed": speed is not None,
                    "estimate": speed[0] if speed else np.nan, "low": speed[1] if speed else np.nan,
                    "high": speed[2] if speed else np.nan})
    return pd.DataFrame(out)


def _exact_ids(measured: Measured, rules: dict) -> set[str]:
    ev = measured.evidence
    if ev.empty or "claim_id" not in ev:
        return set()
    return {cid for cid, g in ev.groupby("claim_id", sort=False) if exact_evidence(g, rules)}


def same_cpu(this: Measured, other: Measured) -> bool:
    """Whether two runs ran on the same CPU kind (:func:`cpu_kind`, both recorded and equal)."""
    return bool(this.cpu) and this.cpu == other.cpu


def compare(this: Measured, others: "list[Measured]", claims: "pd.DataFrame | None" = None,
            bound: "dict[str, dict[str, str]] | None" = None, rules: "dict | None" = None) -> pd.DataFrame:
    """One row per claim and run, this run's first (:data:`COMPARISON_COLUMNS`): the verdict; for a speed claim
    the estimate and interval as speed ratios, ``ratio_to_this`` (this run's estimate over that run's) and
    ``size_differs`` (the two intervals disjoint); ``verdict_differs`` from this run's (both measured);
    ``bound_by_evidence`` on this run's row and each run's whose size lies apart from it (``bound``, claim to
    runs, :attr:`BoundByEvidence.pairs`); ``same_cpu``: that run ran on this run's CPU kind (:func:`same_cpu`);
    ``exact``: the claim's evidence is exact on both runs (:func:`exact_evidence`)."""
    bound = bound or {}
    rules = rules or load_rules()
    exact_here = _exact_ids(this, rules)
    claims = load_claims() if claims is None else claims
    claims = claims[claims["scope"] != "extension"]
    here = _long(this, claims)
    frames = [here]
    for other in others:
        there = _long(other, claims)
        h = here.set_index("claim_id").loc[there["claim_id"]]
        there["ratio_to_this"] = np.where(there["speed"].to_numpy() & h["speed"].to_numpy(),
                                          h["estimate"].to_numpy() / there["estimate"].to_numpy(), np.nan)
        there["size_differs"] = (there["speed"].to_numpy() & h["speed"].to_numpy()
                                 & ((h["high"].to_numpy() < there["low"].to_numpy())
                                    | (h["low"].to_numpy() > there["high"].to_numpy())))
        both = (there["verdict"].to_numpy() != NOT_MEASURED) & (h["verdict"].to_numpy() != NOT_MEASURED)
        there["verdict_differs"] = both & (there["verdict"].to_numpy() != h["verdict"].to_numpy())
        there["bound_by_evidence"] = [other.run in bound.get(c, {}) for c in there["claim_id"]]
        there["same_cpu"] = same_cpu(this, other)
        exact_there = _exact_ids(other, rules) & exact_here
        there["exact"] = there["claim_id"].isin(list(exact_there))
        frames.append(there)
    here["ratio_to_this"], here["size_differs"], here["verdict_differs"] = np.nan, False, False
    here["bound_by_evidence"] = here["claim_id"].isin(list(bound))
    here["same_cpu"], here["exact"] = True, here["claim_id"].isin(list(exact_here))
    out = pd.concat(frames, ignore_index=True)
    return out[list(COMPARISON_COLUMNS)]


#: The verdicts that decide a claim. Only a difference among them makes a claim machine-dependent: a claim
#: inconclusive (or not testable, or not at the paper's condition) on one machine and decided on another is
#: undecided there, which says nothing against the decided verdict, and does not excuse it.
DECISIVE = ("reproduced", "not reproduced", "contradicted")


def portability(comparison: pd.DataFrame) -> pd.DataFrame:
    """Per claim: ``machines`` (each other run's verdict, ``<run>: <verdict>``), ``portability`` in words and
    ``machine_dependent``.

    ``machine-bound by evidence: ...`` when the size differed between this run and a real machine's beyond both
    runs' noise (:func:`bound_by_evidence`: a status, not a verdict that differs);
    ``portable: ...`` when every machine that measured the claim gave the same verdict; ``machine-dependent:
    ...`` when two machines decided it differently (reproduced on one, contradicted or not reproduced on
    another: the verdict belongs to the machine); ``changed with the code or data, ...`` when a run on exact
    evidence (:func:`exact_evidence`) gives another verdict, decided or not (no machine and no noise can change it);
    ``undecided on ...`` when the machines that decided it agree and another could not decide it on timed evidence;
    ``not measured here`` / ``not measured on another machine``."""
    rows = []
    for cid, group in comparison.groupby("claim_id", sort=False):
        here = group[group["run"] == THIS_RUN].iloc[0]
        others = group[group["run"] != THIS_RUN]
        if others.empty:
            rows.append((cid, "", "", False))
            continue
        measured = others[others["verdict"] != NOT_MEASURED]
        shown = "; ".join(f"{r.run}: {r.verdict}" for r in others.itertuples())
        apart = others[others["bound_by_evidence"].eq(True)] if "bound_by_evidence" in others else others[:0]
        if len(apart):
            rows.append((cid, shown, "machine-bound by evidence: the size differs between this run ("
                         + _ratio_text(here) + ") and " + ", ".join(f"{r.run} ({_ratio_text(r)})"
                                                                    for _, r in apart.iterrows()), False))
            continue
        decided = pd.concat([group[(group["run"] == THIS_RUN)], measured])
        decided = decided[decided["verdict"].isin(DECISIVE)]
        if here["verdict"] in DECISIVE:
            differ = decided[(decided["run"] != THIS_RUN) & (decided["verdict"] != here["verdict"])]
        else:
            differ = decided[decided["run"] != THIS_RUN]
        exact = differ["exact"].eq(True) if "exact" in differ else pd.Series(False, index=differ.index)
        same = differ["same_cpu"].eq(True) if "same_cpu" in differ else pd.Series(False, index=differ.index)
        code, kind, machine = differ[exact], differ[~exact & same], differ[~exact & ~same]
        # only runs of another CPU kind, on timed evidence, make a verdict the machine's
        dependent = here["verdict"] != NOT_MEASURED and (
            len(machine) > 0 if here["verdict"] in DECISIVE else machine["verdict"].nunique() > 1)
        others_differ = here["verdict"] != NOT_MEASURED and decided["verdict"].nunique() > 1
        if here["verdict"] == NOT_MEASURED or measured.empty:
            text = "not measured here" if here["verdict"] == NOT_MEASURED else "not measured on another machine"
        elif dependent:
            text = ("machine-dependent: the verdict differs on " if here["verdict"] in DECISIVE else
                    "machine-dependent: undecided here, decided differently on ") + \
                ", ".join(f"{r.run} ({r.verdict})" for r in machine.itertuples())
        elif others_differ and len(code):
            text = (f"{CODE_CHANGED}, not the machine: the evidence is exact (no timing, no noise), and "
                    f"{_commit(here)} gives {here['verdict']} where "
                    + ", ".join(f"{_commit(r._asdict())} gives {r.verdict}" for r in code.itertuples())
                    + ": compare the two commits, not the machines")
        elif others_differ and len(kind):
            text = (f"{SAME_CPU}: the verdict differs on " + ", ".join(f"{r.run} ({r.verdict})"
                                                                       for r in kind.itertuples())
                    + ", a run on the same CPU model and flags: run-to-run variation, never the machine's")
        elif len(changed := _exact_changed(measured, here)):
            # one run decided it, another did not, on exact evidence: no machine and no noise can do that
            text = (f"{CODE_CHANGED}, not the machine: the evidence is exact (no timing, no noise), and "
                    f"{_commit(here)} gives {here['verdict']} where "
                    + ", ".join(f"{_commit(r._asdict())} gives {r.verdict}" for r in changed.itertuples())
                    + ": compare the two commits, not the machines")
        elif (measured["verdict"] == here["verdict"]).all():
            one_kind = others["same_cpu"].eq(True).all() if "same_cpu" in others else False
            text = (f"portable: the same verdict on all {len(measured) + 1} "
                    + ("runs that measured it, all of one CPU kind (same CPU kind, other run)" if one_kind
                       else "machines that measured it"))
        else:
            undecided = pd.concat([group[group["run"] == THIS_RUN], measured])
            undecided = undecided[~undecided["verdict"].isin(DECISIVE)]
            text = ("undecided on " + ", ".join(f"{r.run} ({r.verdict})" for r in undecided.itertuples())
                    + (f"; the same verdict where decided ({decided['verdict'].iloc[0]} on {len(decided)} "
                       f"machine{'s' if len(decided) != 1 else ''})" if len(decided) else ""))
        rows.append((cid, shown, text, bool(dependent)))
    return pd.DataFrame(rows, columns=["claim_id", "machines", "portability", "machine_dependent"])


def _exact_changed(measured: pd.DataFrame, here) -> pd.DataFrame:
    """The other runs whose verdict differs from this run's on evidence exact on both (``exact``), decided or not."""
    if "exact" not in measured:
        return measured[:0]
    return measured[measured["exact"].eq(True) & (measured["verdict"] != here["verdict"])]


def _commit(row) -> str:
    """A comparison row's run and commit in words: ``this run (commit 0123456789ab)``."""
    commit = str(row.get("commit") or "")
    name = "this run" if row.get("run") == THIS_RUN else str(row.get("run"))
    return f"{name} (commit {commit[:12]})" if commit and commit != "nan" else f"{name} (commit not recorded)"


def with_portability(rows: pd.DataFrame, comparison: pd.DataFrame) -> pd.DataFrame:
    """The verdict rows with ``machines`` and ``portability`` (empty for our own findings, and when no shipped
    run was compared)."""
    port = portability(comparison).drop(columns="machine_dependent").set_index("claim_id")
    out = rows.copy()
    for col in ("machines", "portability"):
        out[col] = [("" if v == FINDING else port[col].get(c, "")) for c, v in zip(out["claim_id"], out["verdict"])]
    return out


def machine_dependent(rows: pd.DataFrame) -> set[str]:
    """The claims of verdict rows (:func:`with_portability`) whose verdict differs between machines."""
    if "portability" not in rows.columns:
        return set()
    return set(rows.loc[rows["portability"].astype(str).str.startswith("machine-dependent"), "claim_id"])


def differing(comparison: pd.DataFrame) -> pd.DataFrame:
    """Every claim whose verdict differs between two machines that measured it: one row per claim, each run's
    verdict a column, and ``machine-dependent`` (two machines decided it differently) or not (only undecided
    on some)."""
    port = portability(comparison).set_index("claim_id")
    measured = comparison[comparison["verdict"] != NOT_MEASURED]
    ids = [c for c, g in measured.groupby("claim_id", sort=False) if g["verdict"].nunique() > 1
           and (g["run"] == THIS_RUN).any()]
    sub = comparison[comparison["claim_id"].isin(ids)]
    wide = sub.pivot_table(index=["claim_id", "paper", "tier"], columns="run", values="verdict", aggfunc="first",
                           sort=False)
    order = [THIS_RUN] + [r for r in dict.fromkeys(comparison["run"]) if r != THIS_RUN]
    wide = wide.reindex(columns=[r for r in order if r in wide.columns]).reset_index()
    wide["machine-dependent"] = [bool(port.loc[c, "machine_dependent"]) for c in wide["claim_id"]]
    wide["why"] = [(CODE_CHANGED + " (exact evidence)" if str(port.loc[c, "portability"]).startswith(CODE_CHANGED)
                    else SAME_CPU if str(port.loc[c, "portability"]).startswith(SAME_CPU) else "")
                   for c in wide["claim_id"]]
    return wide.sort_values("machine-dependent", ascending=False, kind="stable").reset_index(drop=True)


def speed_table(comparison: pd.DataFrame) -> pd.DataFrame:
    """Every speed claim with the estimate and interval on each machine (speed ratios), the ratio between
    this machine and each other one, and whether the size is machine-bound by evidence: one row per claim and
    run."""
    speed_ids = comparison.loc[comparison["speed"].astype(bool), "claim_id"].unique()
    sub = comparison[comparison["claim_id"].isin(speed_ids)].copy()
    sub["bound_by_evidence"] = sub["bound_by_evidence"].eq(True) if "bound_by_evidence" in sub else False
    return sub[["claim_id", "paper", "tier", "run", "verdict", "estimate", "low", "high", "ratio_to_this",
                "size_differs", "bound_by_evidence"]]


@dataclass(frozen=True)
class RunNoise:
    """Run-to-run noise of the speed rows against one shipped run of this CPU kind (:func:`run_to_run_noise`)."""

    run: str          # the shipped run of the same CPU kind
    total: int        # speed claims measured as speed ratios on both runs
    disjoint: int     # of them, those whose two 95 % intervals do not overlap


def run_to_run_noise(comparison: pd.DataFrame, claim_ids: "set[str] | None" = None) -> "RunNoise | None":
    """How many speed rows have disjoint intervals between this run and a shipped run of the same CPU kind (the
    first such run): the measured run-to-run noise, so a reader knows an interval is the spread within one run.
    ``claim_ids`` restricts it to some claims (one paper's). ``None`` when no shipped run of this CPU kind was
    compared. Shown only: it changes no verdict."""
    if comparison is None or comparison.empty or "same_cpu" not in comparison:
        return None
    other = comparison[(comparison["run"] != THIS_RUN) & comparison["same_cpu"].eq(True)]
    if other.empty:
        return None
    run = str(other["run"].iloc[0])
    there = other[(other["run"] == run) & other["speed"].astype(bool) & other["low"].notna() & other["high"].notna()]
    here = comparison[(comparison["run"] == THIS_RUN) & comparison["speed"].astype(bool) & comparison["low"].notna()
                      & comparison["high"].notna()]
    both = there[there["claim_id"].isin(set(here["claim_id"]))]
    if claim_ids is not None:
        both = both[both["claim_id"].isin(set(claim_ids))]
    both = both.drop_duplicates("claim_id")
    return RunNoise(run=run, total=len(both), disjoint=int(both["size_differs"].eq(True).sum()))


def _ratio_text(row) -> str:
    """A comparison row's speed ratio with its interval: ``1.40× [1.38, 1.42]``."""
    if pd.isna(row["estimate"]):
        return "not a speed ratio"
    if pd.isna(row["low"]) or pd.isna(row["high"]):
        return f"{fmt(row['estimate'])}×"
    return f"{fmt(row['estimate'])}× [{fmt(row['low'])}, {fmt(row['high'])}]"


@dataclass
class BoundByEvidence:
    """The claims machine-bound by evidence (:func:`bound_by_evidence`): this run's verdict rows decided again
    as machine-bound, each other run's likewise, and which runs' sizes lie apart from this run's."""

    here: dict = field(default_factory=dict)      # claim -> this run's verdict row (a dict)
    there: dict = field(default_factory=dict)     # (run, claim) -> that run's verdict row
    pairs: dict = field(default_factory=dict)     # claim -> {run: the sentence naming both machines' figures}


def _sized(claims: pd.DataFrame) -> pd.DataFrame:
    """The claims whose stated size is declared to carry over to another machine (``carries: size``, the
    default) and which a rule decides with a size: a margin, or a stated bound."""
    carries = claims["carries"].fillna("").astype(str) if "carries" in claims else pd.Series("", index=claims.index)
    # a claim decided under every style (readings: any) has no one figure to set beside another machine's
    anyr = (claims["readings"].fillna("").astype(str) == "any") if "readings" in claims else carries.eq("x")
    return claims[carries.isin(["", "size"]) & ~anyr & claims["rule"].isin(["within_margin", "ordering"])
                  & (claims["scope"] != "extension") & (claims["covered_by"].fillna("").astype(str) == "")]


def _as_machine_bound(claim: pd.DataFrame, measured: Measured, rules: dict) -> "tuple[dict, pd.Series] | None":
    """The claim decided on ``measured``'s evidence with its size machine-bound (``carries: direction``): its
    verdict row and deciding evidence when the direction holds there beyond the noise, else None."""
    cid = claim["claim_id"].iloc[0]
    evs = measured.evidence[measured.evidence["claim_id"] == cid]
    if evs.empty:
        return None
    try:
        row = decide_all(claim.assign(carries="direction"), evs, rules).iloc[0]
    except (ValueError, KeyError, TypeError):
        return None
    if row["outcome"] not in MACHINE_OUTCOMES:
        return None
    row["carries"] = claim["carries"].iloc[0] if "carries" in claim else ""   # the declaration, as it stands
    ev = _deciding(cid, row, measured.evidence)
    return (row.to_dict(), ev) if _speed_ratio(ev) is not None else None


def _apart(ev_a: pd.Series, ev_b: pd.Series, rules: dict) -> "tuple[float, float, float] | None":
    """How far apart two machines' intervals of one speed ratio lie (in %, the nearer edges' ratio), with each
    run's noise half-width; None unless that gap exceeds ``size_apart`` times the sum of the two half-widths."""
    (_, lo_a, hi_a), (_, lo_b, hi_b) = _speed_ratio(ev_a), _speed_ratio(ev_b)
    if np.isnan([lo_a, hi_a, lo_b, hi_b]).any():
        return None
    gap = (lo_b / hi_a - 1) * 100 if lo_b > hi_a else (lo_a / hi_b - 1) * 100 if lo_a > hi_b else 0.0
    floor = float(rules["noise_floor_pct"])
    h_a, h_b = noise_half_width(ev_a, floor), noise_half_width(ev_b, floor)
    factor = size_apart(rules)
    return (gap, h_a, h_b) if gap > factor * (h_a + h_b) else None


def size_apart(rules: dict) -> float:
    """``across_machines: size_apart`` of the rules file: how many times the sum of two runs' noise half-widths
    their intervals must lie apart for a size to be machine-bound by evidence."""
    value = (rules.get("across_machines") or {}).get("size_apart", 1.0)
    try:
        value = float(value)
    except (TypeError, ValueError):
        value = float("nan")
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"config/verdicts.yaml: across_machines: size_apart must be a number >= 0, got {value!r}")
    return value


def _pct(ev: pd.Series) -> str:
    return f"{fmt(float(ev['estimate']))} % [{fmt(float(ev['low']))}, {fmt(float(ev['high']))}]"


def bound_by_evidence(this: Measured, others: "list[Measured]", claims: "pd.DataFrame | None" = None,
                      rules: "dict | None" = None) -> BoundByEvidence:
    """The claims whose size, declared to carry over, differs between two real machines (the rule
    ``across_machines`` of ``config/verdicts.yaml``): decided with the size machine-bound on this run and on a
    shipped run, the direction holds beyond the noise on both, and the two intervals of the speed ratio lie
    apart by more than ``size_apart`` times the sum of both runs' noise half-widths. An emulated run (this one
    or a shipped one, ``emulated``) never counts: its machine is this one with features switched off."""
    claims = load_claims() if claims is None else claims
    rules = rules or load_rules()
    out = BoundByEvidence()
    real = [o for o in others if not o.emulated and not same_cpu(this, o)]   # the same CPU kind: another run
    if this.emulated or not real:
        return out
    for _, one in _sized(claims).iterrows():
        claim = claims[claims["claim_id"] == one["claim_id"]]
        here = _as_machine_bound(claim, this, rules)
        if here is None:
            continue
        for other in real:
            there = _as_machine_bound(claim, other, rules)
            gap = there and _apart(here[1], there[1], rules)
            if not gap:
                continue
            cid = one["claim_id"]
            out.there[(other.run, cid)] = there[0]
            out.pairs.setdefault(cid, {})[other.run] = (
                f"{_pct(here[1])} here and {_pct(there[1])} on {other.machine or other.run}, "
                f"{fmt(gap[0])} % apart beyond both runs' noise (±{fmt(gap[1])} %, ±{fmt(gap[2])} %)")
            out.here[cid] = here[0]
    for cid, row in out.here.items():
        row["reason"] = (f"{str(row['reason']).rstrip('.')}. Machine-bound by evidence, though the claim row "
                         "declares its size to carry over: the size is " + "; ".join(out.pairs[cid].values()) + ".")
    return out


def _with(measured: Measured, rows: "dict[str, dict]") -> Measured:
    """``measured`` with the verdict rows of ``rows`` (claim -> row) in place of its own."""
    if not rows:
        return measured
    frame = measured.rows.copy()
    for cid, row in rows.items():
        keep = [c for c in frame.columns if c in row]
        frame.loc[frame["claim_id"] == cid, keep] = [row[c] for c in keep]
    return Measured(measured.run, measured.machine, measured.emulated, measured.commit, frame, measured.evidence,
                    measured.retired, measured.cpu)


def decide_across(profile: "str | Profile", rows: pd.DataFrame, evidence: pd.DataFrame,
                  claims: "pd.DataFrame | None" = None) -> "tuple[pd.DataFrame, pd.DataFrame]":
    """This run's verdict rows beside every shipped run of its profile (but the one this book is built from):
    the claims machine-bound by evidence (:func:`bound_by_evidence`) decided so, here and on the run that shows
    it, then :func:`compare` and :func:`with_portability`. Returns the verdict rows and the comparison.
    ``claims`` defaults to the registry (:func:`cipherlab.analysis.claims.load_claims`)."""
    prof = as_profile(profile)
    claims = load_claims() if claims is None else claims
    others = [shipped_measured(r, claims) for r in _runs.shipped_runs(prof.name, exclude=[prof.shipped_run or ""])]
    this = measured_here(prof, rows, evidence)
    bound = bound_by_evidence(this, others, claims)
    this = _with(this, bound.here)
    others = [_with(o, {c: r for (run, c), r in bound.there.items() if run == o.run}) for o in others]
    comparison = compare(this, others, claims, bound.pairs)
    return with_portability(this.rows, comparison), comparison


def measured_here(profile: "str | Profile", rows: pd.DataFrame, evidence: pd.DataFrame) -> Measured:
    """This run (the book's): its verdict rows and evidence, named by the run the tree holds; emulated when
    the tree is an emulated machine's, or the shipped run it is built from was one."""
    prof = as_profile(profile)
    emulated = (_runs.load_run(prof.shipped_run).emulated if prof.shipped_run else prof.machine) or ""
    card = this_card(prof)
    return Measured(THIS_RUN, prof.shipped_run or (prof.machine and f"this machine, emulated {prof.machine}")
                    or "this machine", emulated, str((card or {}).get("commit") or ""), rows, evidence,
                    cpu=cpu_kind(card))


def this_card(profile: "str | Profile") -> "dict | None":
    """The card of the run this book is built from: a shipped run's own, else made from this tree's raw records
    (None when they are missing or mixed: the Environment page shows the machine then)."""
    prof = as_profile(profile)
    if prof.shipped_run:
        return _runs.load_run(prof.shipped_run).card
    metas = {}
    for path in sorted(prof.raw.glob("*.meta.json")):
        try:
            metas[path.name] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
    if not metas:
        return None
    try:
        machine = _runs.MACHINES.get(prof.machine or "")
        return _runs.machine_card(metas, machine="this machine", profile=prof.name, emulated=machine)
    except _runs.RunError:
        return None


def compare_with_shipped(profile: "str | Profile", rows: pd.DataFrame, evidence: pd.DataFrame) -> pd.DataFrame:
    """:func:`compare` of this run with every shipped run of its profile (but the one this book is built from),
    the claims machine-bound by evidence decided so (:func:`decide_across`, which also gives the rows)."""
    return decide_across(profile, rows, evidence)[1]


def save_comparison(comparison: pd.DataFrame, profile: "str | Profile"):
    """The comparison as the pipeline's table ``machines`` (``data/tables/<profile>/machines.csv``)."""
    return save_table(comparison, "machines", profile)
