"""The Machines page and the cross-machine parts of the verdict page (the referee's report's are a section of
:mod:`cipherlab.report.template`).

Everything here reads the pipeline's table ``machines`` (:mod:`cipherlab.analysis.machines`: this run's verdicts
beside every shipped run's, decided by the same engine) and the runs' cards (:mod:`cipherlab.pipeline.runs`);
no number is typed in. Text that comes from a file (a card's CPU model, a claim id) is escaped.
"""
from __future__ import annotations

import html

import pandas as pd

from cipherlab.analysis.machines import (CODE_CHANGED, NOT_MEASURED, SAME_CPU, THIS_RUN, RunNoise, differing,
                                        portability, run_to_run_noise,
                                        speed_table, this_card)
from cipherlab.pipeline import runs as _runs
from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.report.tiers import ALL_VERDICTS
from cipherlab.report.verdict_page import badge, claim_link

__all__ = ["load_comparison", "this_card", "machines_table", "summary_markdown", "differing_html", "speed_view"]


def load_comparison(profile: "str | Profile") -> pd.DataFrame:
    """The run's ``machines`` table (written by the verdict rule)."""
    df = pd.read_csv(as_profile(profile).table("machines"), keep_default_na=False, na_values=[""],
                     dtype={c: str for c in ("claim_id", "paper", "tier", "run", "machine", "emulated", "commit",
                                             "verdict", "reason")})
    for col in ("speed", "size_differs", "verdict_differs", "bound_by_evidence", "same_cpu", "exact"):
        df[col] = (df[col].astype(str).str.lower().isin(["true", "1"]) if col in df
                   else False)   # a table an older cipherlab wrote: neither column
    for col in ("run", "machine", "emulated", "commit", "verdict", "reason"):
        df[col] = df[col].fillna("").astype(str)
    return df


def _card_row(run: str, card: "dict | None") -> dict:
    if card is None:
        return {"run": run, "CPU": "not recorded (mixed or missing records)"}
    cpu = card.get("cpu", {})
    clock = cpu.get("clock_hz_measured")
    packages = card.get("packages", {})
    return {"run": run, "CPU": f"{cpu.get('model')} ({cpu.get('id', 'not recorded')})",
            "AES instructions": "used" if cpu.get("aes_instructions") else
            ("not used (emulated)" if card.get("emulated") else "not used"),
            "cores": cpu.get("logical_cores"),
            "clock (measured)": f"{clock / 1e9:.2f} GHz" if isinstance(clock, (int, float)) else "not recorded",
            "memory": f"{card.get('memory_gib')} GiB", "OS": card.get("os"), "Python": card.get("python"),
            "Numba": packages.get("numba"), "llvmlite": packages.get("llvmlite"),
            "PyCryptodome": packages.get("pycryptodome"), "OpenSSL": card.get("openssl"),
            "commit": str(card.get("commit", ""))[:12], "measured": str(card.get("dates", {}).get("last", ""))[:10]}


def machines_table(profile: "str | Profile") -> pd.DataFrame:
    """One row per machine compared: this run's, then every shipped run's card."""
    prof = as_profile(profile)
    rows = [_card_row(THIS_RUN + (f" ({prof.shipped_run})" if prof.shipped_run else ""), this_card(prof))]
    rows += [_card_row(r.name, r.card) for r in _runs.shipped_runs(prof.name, exclude=[prof.shipped_run or ""])]
    return pd.DataFrame(rows)


def summary_markdown(comparison: pd.DataFrame) -> str:
    """How many claims keep their verdict on every machine, how many differ, and how many no other run measured."""
    others = [r for r in dict.fromkeys(comparison["run"]) if r != THIS_RUN]
    if not others:
        return ("No other run of this profile is shipped in `data/runs/`, so no verdict is compared across "
                "machines yet. `make contribute` adds this run's measurements there (see the README).")
    port = portability(comparison)
    here = comparison[comparison["run"] == THIS_RUN].set_index("claim_id")["verdict"]
    measured = port[here.reindex(port["claim_id"]).to_numpy() != NOT_MEASURED]
    dep = int(measured["machine_dependent"].sum())
    alone = int(measured["portability"].str.startswith("not measured on another").sum())
    undecided = int(measured["portability"].str.startswith("undecided").sum())
    bound = int(measured["portability"].str.startswith("machine-bound by evidence").sum())
    code = int(measured["portability"].str.startswith(CODE_CHANGED).sum())
    kind = int(measured["portability"].str.startswith(SAME_CPU).sum())
    same = len(measured) - dep - alone - undecided - bound - code - kind
    cards = comparison.drop_duplicates("run")
    one_kind = [r for r in cards.itertuples() if r.run != THIS_RUN and getattr(r, "same_cpu", False)]
    speed = comparison.loc[comparison["speed"], "claim_id"].nunique()
    sized = comparison.loc[comparison["size_differs"], "claim_id"].nunique()
    return (f"This run is compared with {len(others)} shipped run{'s' if len(others) != 1 else ''} "
            f"({', '.join(f'`{r}`' for r in others)}). Of the {len(measured)} claims this run measured, "
            f"**{same}** have the same verdict on every machine that measured them, **{dep}** were decided "
            f"differently on two machines (machine-dependent: never counted as the paper's error), **{bound}** "
            "state a size that differs between two real machines beyond both runs' noise (machine-bound by "
            f"evidence: counted apart, never as the paper's error), **{code}** were decided differently on "
            "exact evidence (no timing, no noise: changed with the code or data between the two runs' commits, "
            f"never the machine's), **{kind}** differ only from a run on the same CPU kind ({SAME_CPU}: "
            f"run-to-run variation, never the machine's), {undecided} were left undecided on some "
            f"machine while the others agree, and {alone} were measured by no other run. "
            f"Of the {speed} speed claims, {sized} have an effect whose interval on another machine lies wholly "
            "apart from this run's; an emulated machine's, or a gap within both runs' noise, leaves the claim as "
            "its row declares."
            + (" " + ", ".join(f"`{r.run}`" for r in one_kind) + (" ran" if len(one_kind) > 1 else " ran")
               + f" on this run's CPU kind (the same CPU model and flags): {SAME_CPU}, never a second machine, so "
               "it can neither make a verdict machine-dependent nor a size machine-bound by evidence."
               if one_kind else "")
            + _noise_sentence(run_to_run_noise(comparison)))


def _noise_sentence(noise: "RunNoise | None") -> str:
    """The measured run-to-run noise: speed rows whose intervals are disjoint between this run and a shipped run
    of the same CPU kind (shown only; it changes no verdict)."""
    if noise is None or not noise.total:
        return ""
    return (f" **Run-to-run noise:** of the {noise.total} speed rows measured both here and in `{noise.run}` (the "
            f"same CPU kind), **{noise.disjoint}** have 95 % intervals that do not overlap between the two runs: an "
            "interval is the spread within one run, and a second run of the same machine may lie outside it. This "
            "is shown only; it changes no verdict.")


def differing_html(comparison: pd.DataFrame) -> str:
    """Every claim whose verdict differs between machines: the claim (linked to its verdict row) and each run's
    verdict as a badge."""
    table = differing(comparison)
    if table.empty:
        return "<p>No claim's verdict differs between the machines compared.</p>"
    runs = [c for c in table.columns if c not in ("claim_id", "paper", "tier", "machine-dependent", "why")]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in ["claim", "paper", "tier", "machine-dependent", *runs])
    body = []
    for _, r in table.iterrows():
        cells = [claim_link(r["claim_id"]), html.escape(str(r["paper"])), html.escape(str(r["tier"])),
                 "yes: decided differently" if r["machine-dependent"] else
                 f"no: {r['why']}" if r.get("why") else "no: undecided on some"]
        cells += [badge({"verdict": r[c], "covered_by": ""}) if r[c] in ALL_VERDICTS else html.escape(str(r[c]))
                  for c in runs]
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (f'<table class="cl-machines"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


def _interval(est, low, high) -> str:
    if pd.isna(est):
        return "—"
    return f"{est:.3f} [{low:.3f}, {high:.3f}]" if not (pd.isna(low) or pd.isna(high)) else f"{est:.3f}"


def speed_view(comparison: pd.DataFrame) -> pd.DataFrame:
    """Every speed claim on each other machine: this run's estimate and interval (as a speed ratio, 1 = no
    effect), that run's, the ratio between the two estimates (this / that), and whether the intervals are apart."""
    table = speed_table(comparison)
    here = table[table["run"] == THIS_RUN].set_index("claim_id")
    rows = []
    for _, r in table[table["run"] != THIS_RUN].iterrows():
        h = here.loc[r["claim_id"]]
        rows.append({"claim": r["claim_id"], "this run": _interval(h["estimate"], h["low"], h["high"]),
                     "verdict here": h["verdict"], "run": r["run"],
                     "there": _interval(r["estimate"], r["low"], r["high"]), "verdict there": r["verdict"],
                     "this / there": "—" if pd.isna(r["ratio_to_this"]) else f"{r['ratio_to_this']:.3f}",
                     "intervals apart": ("yes: machine-bound by evidence" if r["bound_by_evidence"]
                                         else "yes" if r["size_differs"] else "")})
    return pd.DataFrame(rows, columns=["claim", "this run", "verdict here", "run", "there", "verdict there",
                                       "this / there", "intervals apart"])

