"""A report's section across machines: which verdicts hold on every machine a shipped run measured, which differ
(the rows' ``portability``, :mod:`cipherlab.analysis.machines`; a verdict that differs between machines belongs to
the machine and never counts as the paper's error), what the machines compared are, and that their agreement says
nothing about the paper's own machine. Split from :mod:`cipherlab.report.template`, which calls it."""
from __future__ import annotations

from typing import Sequence

import pandas as pd

from cipherlab.analysis.machines import CODE_CHANGED, SAME_CPU, RunNoise, machine_dependent
from cipherlab.report.text import cell as _s, claim_link as _link, literal as _t, plural as _plural

__all__ = ["machines_section"]


def machines_section(claims: pd.DataFrame, noise: "RunNoise | None" = None, reference: str = "",
                     machines: Sequence[str] = (), protocol: "pd.DataFrame | None" = None) -> str:
    """The section's text (:func:`_machines`), with the machines compared named (:func:`_which_machines`)."""
    return _machines(claims, noise, reference, _which_machines(machines, protocol))


def _which_machines(compared: Sequence[str], protocol: "pd.DataFrame | None") -> str:
    """What the machines compared are, and that their agreement says nothing about the paper's own machine (named
    from the protocol table's ``machine`` row where the paper states it)."""
    theirs = ""
    if protocol is not None and len(protocol) and "aspect" in protocol:
        row = protocol[protocol["aspect"].astype(str).str.strip().str.lower() == "machine"]
        theirs = _s(row["paper"].iloc[0]) if len(row) else ""
    named = "; ".join(dict.fromkeys(_t(m) for m in compared if _s(m)))
    text = (f" The machines compared (this run's and the shipped runs') are {named}" if named
            else " The machines compared are this run's and the shipped runs'")
    mine = (f"the paper's own ({_t(theirs)})" if theirs and not theirs.lower().startswith("not stated")
            else "the paper's own, which it does not state")
    return (text + f": a verdict that agrees on all of them says nothing about {mine}, where a size that belongs to "
            "the machine may differ.")


def _machines(claims: pd.DataFrame, noise: "RunNoise | None" = None, reference: str = "",
              which: str = "") -> str:
    """From the rows' ``portability``: the claims with one verdict on every machine, those that differ (never the
    paper's error), undecided on another, changed with the code (exact evidence) or with a run of the same CPU kind;
    ``noise`` (:func:`cipherlab.analysis.machines.run_to_run_noise`) after it. ``reference``: this run IS that
    shipped run, compared with nothing (never with itself under its own name)."""
    if reference:
        return (f"This run is the shipped reference run `{reference}` (`data/runs/{reference}/`), and no other "
                "run was compared with it, so no verdict is compared across machines here (the "
                "[Machines](machines.html) page says how to add a run of another machine).")
    if "portability" not in claims.columns:
        return "This run was not compared with another machine." + _noise_text(noise)
    port = claims["portability"].fillna("").astype(str)
    mine = claims[port != ""]
    if mine.empty:
        return ("No shipped run of this profile was compared with this one, so it cannot say which verdicts hold "
                "on other machines (the [Machines](machines.html) page says how to add one).")
    port = mine["portability"].astype(str)
    dep = mine[mine["claim_id"].isin(machine_dependent(mine))]
    same = mine[port.str.startswith("portable")]
    text = (f"Across machines (the [Machines](machines.html) page): {len(same)} of the paper's claims have the same "
            f"verdict on every machine that measured them")
    bound = mine[port.str.startswith("machine-bound by evidence")]
    if len(bound):   # a size that differs between two real machines (cipherlab.analysis.machines.decide_across)
        text += (f"; {len(bound)} state a size that differs between two real machines beyond both runs' noise "
                 "(machine-bound by evidence, counted apart, never as the paper's error: "
                 + "; ".join(_link(_s(c)) for c in bound["claim_id"]) + ")")
    if dep.empty:
        text += ", and none differs between machines"
    else:
        text += (f"; {len(dep)} differ between machines and are counted apart, never as the paper's error: "
                 + "; ".join(f"{_link(_s(r['claim_id']))} ({_t(_s(r['portability']).split(': ', 1)[-1])})"
                             for _, r in dep.iterrows()))
    text += "." + which
    for _, r in mine[port.str.startswith("undecided on")].iterrows():   # decided on some runs only: said with its row
        text += f" {_link(_s(r['claim_id']))} is {_t(_s(r['portability']))}."
    code = mine[port.str.startswith(CODE_CHANGED)]
    if len(code):   # exact evidence that differs changed with the code or data, never with the machine
        text += (f" {_plural(len(code), 'verdict')} {'differs' if len(code) == 1 else 'differ'} from the shipped "
                 "run because the code or data changed (not the machine: the evidence is exact, with no timing "
                 "and no noise): " + "; ".join(_link(_s(c)) for c in code["claim_id"]) + ".")
    kind = mine[port.str.startswith(SAME_CPU)]
    if len(kind):
        text += (f" {_plural(len(kind), 'verdict')} {'differs' if len(kind) == 1 else 'differ'} only from a run on "
                 "the same CPU kind (run-to-run variation, never the machine's): "
                 + "; ".join(_link(_s(c)) for c in kind["claim_id"]) + ".")
    return text + _noise_text(noise)


def _noise_text(noise: "RunNoise | None") -> str:
    """The run-to-run noise of speed rows against a shipped run of this CPU kind, in one sentence (or nothing)."""
    if noise is None or not noise.total:
        return ""
    return (f" Run-to-run noise: of the {_plural(noise.total, 'speed row')} measured both here and in "
            f"`{noise.run}` (a run on the same CPU kind), {noise.disjoint} have 95 % intervals that do not overlap "
            "between the two runs; an interval is the spread within one run, not between runs (shown only: it "
            "changes no verdict).")
