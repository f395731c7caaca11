"""The four steps of an AES round, each timed alone, and MixColumns' share of the round (papers 000, 001, 002).

Papers 000 and 001 (Section 4) premise that MixColumns needs "more computational
resources ... as compared to the other functions", and paper 002 (Section 4B)
that it is "the most computational demanding stage ... and therefore it consumes
most of the time". A speed-up of AES with MixColumns removed only bounds that
share from below; here the share itself is measured: each step of a middle
round (SubBytes, ShiftRows, MixColumns, AddRoundKey; for decryption their
inverses in FIPS-197's inverse-cipher order) is applied to ``n_states`` random
states ``rounds`` times inside one compiled loop
(:func:`cipherlab.ciphers._step_kernels.step_runner`), in the byte-oriented
(reference) style the papers' software describes, with the very step functions
the cipher runs; the whole round is timed the same way, and the steps are
checked to add up to it. MixColumns (and InvMixColumns) is timed twice, as two
separate cases on their own states: the A/A control.

Claims decided here (the engine decides; this module writes evidence):

* "the costliest of the four steps" (000-s4, 001-s4, 002-s4b-mixcolumns-most-time):
  MixColumns' time over the costliest other step, one reading per operation;
* "most of the time needed for encryption and decryption" (002-s4b-mixcolumns-most-of-time):
  MixColumns' time in a whole AES-128 block (nine rounds with it) over the rest of the block
  (the other three steps of those rounds, the last round without it, the first key addition),
  trial by trial, the rounds' rest taken from the steps timed alone and from the round timed
  whole less MixColumns (the steps timed alone need not add up to the round, so the share's
  denominator is left open: one row per operation whose interval spans both denominators'
  intervals, deciding only where both agree).
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np
import pandas as pd

from cipherlab.analysis import timing as _timing
from cipherlab.analysis import verdicts as _verdicts
from cipherlab.ciphers import _step_kernels as SK
from cipherlab.ciphers.aes import expand_key
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.maes.published import MIX_ROUNDS

#: The costliest-step claims (one per paper) and the most-of-the-time claim.
COSTLIEST_CLAIMS = {"002-s4b-mixcolumns-most-time": "002", "000-s4-mixcolumns-most-resources": "000",
                    "001-s4-mixcolumns-most-resources": "001"}
SHARE_CLAIM = "002-s4b-mixcolumns-most-of-time"
SECTION = "maes-steps"
#: The steps of each operation's middle round, the mixing step, and the whole round.
OPERATIONS = {"encrypt": (SK.ENCRYPT_STEPS, "mix_columns", "round"),
              "decrypt": (SK.DECRYPT_STEPS, "inv_mix_columns", "inv_round")}
STYLE = "reference"


def steps_cases(key: bytes, n_states: int = 4096, rounds: int = 9, seed: int = 0) -> list[dict]:
    """Timing cases: every step of both operations' middle rounds and the two whole rounds, each on its own
    ``n_states`` random states, ``rounds`` times per call; the mixing steps twice (``role = "control"``)."""
    if isinstance(n_states, bool) or not isinstance(n_states, (int, np.integer)) or n_states < 1:
        raise ValueError(f"n_states must be an integer >= 1, got {n_states!r}")
    rk = expand_key(key)
    sbox = rijndael_sbox()
    inv = np.argsort(sbox).astype(np.uint8)
    rng = np.random.default_rng(seed)
    cases = []
    for op, (steps, mix, whole) in OPERATIONS.items():
        for step, role in [(s, "main") for s in (*steps, whole)] + [(mix, "control")]:
            states = rng.integers(0, 256, size=(int(n_states), 16), dtype=np.uint8)
            cases.append({"cipher": "aes", "impl": STYLE, "mode": "none", "operation": op, "step": step,
                          "bytes": 16 * int(n_states), "states": int(n_states), "rounds": int(rounds),
                          "role": role, "fn": SK.step_runner(states, step, rounds, rk, sbox, inv)})
    return cases


def _ns(raw: pd.DataFrame) -> pd.Series:
    return raw["seconds"] * 1e9 / (raw["states"] * raw["rounds"])


def steps_table(raw: pd.DataFrame) -> pd.DataFrame:
    """Per operation and step: the median time per state and step (ns), its share of the four steps, and the
    four steps' sum against the whole round timed alike (``adds_up_pct``: sum / round - 1)."""
    main = raw[raw["role"] == "main"].assign(ns=_ns(raw[raw["role"] == "main"]))
    med = main.groupby(["operation", "step"])["ns"].median()
    rows = []
    for op, (steps, mix, whole) in OPERATIONS.items():
        total = float(sum(med[(op, s)] for s in steps))
        for s in (*steps, whole):
            rows.append({"operation": op, "step": s, "ns_per_state": float(med[(op, s)]),
                         "share_pct": 100.0 * float(med[(op, s)]) / total if s != whole else float("nan"),
                         "mixing_step": s == mix, "adds_up_pct": (total / float(med[(op, whole)]) - 1) * 100
                         if s == whole else float("nan")})
    return pd.DataFrame(rows)


def _times(raw: pd.DataFrame, op: str, step: str, role: str = "main") -> np.ndarray:
    sel = raw[(raw["operation"] == op) & (raw["step"] == step) & (raw["role"] == role)]
    if len(sel) < 2:
        raise ValueError(f"the steps timings have {len(sel)} trials of {op} {step} ({role}); need at least 2")
    return _timing.trials_by_process(sel.assign(seconds=_ns(sel)))


def steps_evidence(raw: pd.DataFrame, *, profile: str, seed: int = 0,
                   claims: Sequence[str] = (*COSTLIEST_CLAIMS, SHARE_CLAIM)) -> list[_verdicts.Evidence]:
    """Evidence of the costliest-step and most-of-the-time claims, one row per claim and operation
    (``reading = "operation=..."``), each with the mixing step's A/A band (its two separate cases)."""
    table = steps_table(raw).set_index(["operation", "step"])
    out = []
    for op, (steps, mix, whole) in OPERATIONS.items():
        others = [s for s in steps if s != mix]
        med = {s: float(table.loc[(op, s), "ns_per_state"]) for s in steps}
        top = max(others, key=med.get)
        t_mix, ctl = _times(raw, op, mix), _times(raw, op, mix, "control")
        rest = sum(_times(raw, op, s) for s in others)
        share = 100.0 * med[mix] / sum(med.values())
        adds = float(table.loc[(op, whole), "adds_up_pct"])
        cond = dict(size=f"{int(raw['states'].iloc[0])} states x {int(raw['rounds'].iloc[0])} rounds per call",
                    style=STYLE, mode="none", profile=profile, section=SECTION, reading=f"operation={op}")
        check = (f"the four steps timed alone add up to {adds + 100:.0f} % of the {whole.replace('_', ' ')} "
                 "timed alike")
        costliest = _verdicts.speed_evidence(
            "x", t_mix, _times(raw, op, top), t_mix, ctl, seed=seed,
            detail=(f"{mix} against {top}, the costliest other step ({med[mix]:.1f} against {med[top]:.1f} ns per "
                    f"state); MixColumns' share of the four steps {share:.0f} %; {check}"), **cond)
        # "most of the time needed for encryption and decryption": MixColumns' share of a whole block, AES-128's
        # initial AddRoundKey, MIX_ROUNDS rounds with the mixing step and a last round of the other three steps:
        # MixColumns is most of the block where its MIX_ROUNDS calls cost more than the rest of the block
        t_ark = _times(raw, op, "add_round_key")
        final = rest + t_ark                      # the last round (the other three steps) and the first key addition
        most = _verdicts.speed_evidence(
            SHARE_CLAIM, MIX_ROUNDS * t_mix, MIX_ROUNDS * rest + final, t_mix, ctl, seed=seed, **cond)
        # the same share with each mixing round timed whole less MixColumns: the steps timed alone do not add up to
        # the round, so the share's denominator is a reading of its own (the round's time less MixColumns', trial by
        # trial; a round timed no longer than MixColumns alone, a noisy trial, leaves its rest floored at 1 %)
        t_round = _times(raw, op, whole)
        round_rest = np.maximum(t_round - t_mix, 0.01 * t_round)
        most_round = _verdicts.speed_evidence(
            SHARE_CLAIM, MIX_ROUNDS * t_mix, MIX_ROUNDS * round_rest + final, t_mix, ctl, seed=seed, **cond)
        block = MIX_ROUNDS * sum(med.values()) + sum(med[s] for s in others) + med["add_round_key"]
        block_round = (MIX_ROUNDS * float(table.loc[(op, whole), "ns_per_state"]) + sum(med[s] for s in others)
                       + med["add_round_key"])
        # both denominators are fair and the harness cannot choose: the row's interval spans both readings' (the
        # share is decided only where both agree, undecided where they straddle half the block)
        lo, hi = min(most.low, most_round.low), max(most.high, most_round.high)
        both = dataclasses.replace(
            most, low=lo, high=hi, estimate=min(max((most.estimate + most_round.estimate) / 2, lo), hi),
            detail=(f"{MIX_ROUNDS} x {mix} against the rest of an AES-128 block ({MIX_ROUNDS} rounds with it, a last "
                    f"round without it, a first key addition), its interval spanning two denominators the harness "
                    f"leaves open: the steps timed alone ({' + '.join(others)}), where {mix} takes "
                    f"{100 * MIX_ROUNDS * med[mix] / block:.0f} % of the block ({MIX_ROUNDS * med[mix]:.1f} of "
                    f"{block:.1f} ns per state, {most.estimate:+.1f} % [{most.low:+.1f}, {most.high:+.1f}]), and "
                    f"each {whole.replace('_', ' ')} timed whole, where it takes "
                    f"{100 * MIX_ROUNDS * med[mix] / block_round:.0f} % ({MIX_ROUNDS * med[mix]:.1f} of "
                    f"{block_round:.1f} ns, {most_round.estimate:+.1f} % [{most_round.low:+.1f}, "
                    f"{most_round.high:+.1f}]); of one round, {share:.0f} % of the four steps; {check}"))
        for cid in claims:
            if cid == SHARE_CLAIM:
                out.append(both)
            elif cid in COSTLIEST_CLAIMS:
                paper = COSTLIEST_CLAIMS[cid]
                tail = f"; paper {paper}, Section 4" if paper != "002" else ""
                out.append(dataclasses.replace(costliest, claim_id=cid, detail=costliest.detail + tail))
    return out
