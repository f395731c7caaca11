"""The variant against AES, in every style the variant has, decided by the verdict engine.

One interleaved measurement in fresh processes
(:func:`cipherlab.analysis.timing.measure_in_processes`) times, per style,
three cases on the same data (ECB encryption of ``nbytes`` bytes, one thread):
AES, a second identical AES instance (the A/A control) and the variant.  The
fresh process registers the variant itself from its description file, so any
variant works.  The table states what was measured, in words: faster, slower
or no difference from AES beyond the A/A band (the engine's ordering
comparison, :func:`cipherlab.analysis.verdicts.speed_evidence` and
:func:`~cipherlab.analysis.verdicts.decide`, classifies the direction).  It
carries no verdict: a paper's speed claim, if it makes one, is a row of its
claims file, decided on the same evidence (the measure ``speed``) as the paper
states it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from cipherlab.analysis import timing, verdicts
from cipherlab.ciphers.variant_files import register_variant_file
from cipherlab.ciphers.registry import InsecureCipherWarning, cipher_names
from cipherlab.ciphers.modes import new

from cipherlab.experiments.variant.correctness import styles_here

#: the measured direction in words, by the outcome of the engine's ordering comparison of the variant's speedup
#: against 0 (:mod:`cipherlab.analysis.compare`): a description of the measurement, never a verdict on a claim
WORDS = {"established": "faster than AES", "reversed": "slower than AES",
         "no_effect": "no difference from AES beyond the A/A band",
         "below_resolution": "no difference from AES beyond the A/A band", "undecided": "not told apart from AES",
         "too_noisy": "not told apart from AES (the machine was too noisy)"}
CASES = ("aes", "aes (A/A control)", "variant")


def build_speed_cases(cipher: str, variant_file: "str | None", styles, nbytes: int, seed: int):
    """The timed cases, built in the fresh process (module level: sent by name).

    Registers ``variant_file`` first when ``cipher`` is not registered in this
    process; each case's compile (or cache-load) time is a label of the case.
    """
    if cipher not in cipher_names(families=True) and variant_file:
        register_variant_file(variant_file)
    rng = np.random.default_rng(seed)
    key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
    data = rng.integers(0, 256, nbytes, dtype=np.uint8)
    cases = []
    for style in styles:
        for case, name in zip(CASES, ("aes", "aes", cipher)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", InsecureCipherWarning)
                obj = new(key, name, "ecb", impl=style, padding=False, threads=1)

            def fn(obj=obj):
                return obj.encrypt(data)

            cases.append({"cipher": name, "impl": style, "mode": "ecb", "operation": "encrypt",
                          "bytes": nbytes, "case": case, "compile_seconds": timing.compile_seconds(fn),
                          "fn": fn})
    return cases


def claim_row(cipher: str, style: str) -> dict:
    """The comparison that classifies the measured direction (the variant's speedup against 0, ``ordering``):
    internal to :func:`speed_table`, whose rows show only its outcome in words (:data:`WORDS`), never a verdict."""
    return {"claim_id": f"variant-{cipher}-faster-{style}", "rule": "ordering", "kind": "ordering",
            "scope": "extension", "null": "0", "null_value": 0.0, "unit": "%", "note": "",
            "quote": f"{cipher} encrypts faster than AES ({style})", "decided_by": f"style={style}"}


def measure_speed(cipher: str, variant_file: "str | None" = None, *, nbytes: int = 65536, processes: int = 2,
                  trials: int = 20, seed: int = 0, progress: bool = False) -> pd.DataFrame:
    """Raw per-trial times (one row per case x process x trial) of every style the variant runs here."""
    styles = styles_here(cipher)
    if isinstance(nbytes, bool) or not isinstance(nbytes, (int, np.integer)) or nbytes < 16 or nbytes % 16:
        raise ValueError(f"nbytes must be a positive multiple of 16, got {nbytes!r}")
    rules = verdicts.load_rules()
    return timing.measure_in_processes(
        build_speed_cases, {"cipher": cipher, "variant_file": None if variant_file is None else str(variant_file),
                            "styles": styles, "nbytes": int(nbytes), "seed": seed},
        processes=processes, trials=trials, seed=seed, progress=progress, desc=f"speed {cipher}",
        min_trial_seconds=float(rules["min_trial_seconds"]))


def speed_table(raw: pd.DataFrame, cipher: str, *, profile: str = "", seed: int = 0) -> pd.DataFrame:
    """Per style: the variant's speedup over AES (%), its interval, the A/A band and the measured direction in
    words (no verdict: the table states no claim)."""
    rows = []
    for style, d in raw.groupby("impl", sort=False):
        t = {case: timing.trials_by_process(d[d["case"] == case]) for case in CASES}
        ev = verdicts.speed_evidence(f"variant-{cipher}-faster-{style}", t["aes"], t["variant"], t["aes"],
                                     t["aes (A/A control)"], seed=seed, size=f"{int(d['bytes'].iloc[0])} B",
                                     style=style, mode="ecb", profile=profile)
        decision = verdicts.decide(claim_row(cipher, style), ev)
        med = {case: float(np.median(t[case])) for case in CASES}
        rows.append({"cipher": cipher, "style": style, "bytes": int(d["bytes"].iloc[0]),
                     "aes_mb_s": d["bytes"].iloc[0] / med["aes"] / 1e6,
                     "variant_mb_s": d["bytes"].iloc[0] / med["variant"] / 1e6,
                     "speedup_pct": ev.estimate, "low": ev.low, "high": ev.high,
                     "control_low": ev.control_low, "control_high": ev.control_high,
                     "processes": ev.processes, "trials": ev.n, "finding": WORDS[decision.outcome]})
    return pd.DataFrame(rows)


def compile_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Compile (or cache-load) seconds of each case, per process, reported apart from the trials."""
    first = raw.drop_duplicates(["process", "impl", "case"])
    return first[["case", "cipher", "impl", "process", "compile_seconds"]].reset_index(drop=True)
