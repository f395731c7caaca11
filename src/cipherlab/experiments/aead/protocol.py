"""Paper 003's own timing protocol, measured apart: one cold call per file, where the fixed costs matter.

The paper times each file once (Pseudocodes 1-4: start the timer, make the
cipher, encrypt the file, stop the timer), so every published time is a single
call, paying in full what a call costs before its first byte: the cipher
object, the nonce, the first touch of a fresh output buffer. Our phases 1 and 2
take warm, batched medians of many calls, which spread those costs thin.
Where a claim is about what fixed costs do (throughput that "rises" with file
size), it is decided under the paper's protocol:

* in fresh processes of its own, before the chapter's other timings,
  every case (cipher, mode, operation, size, and the A/A control's twin case)
  is called **once**, its cipher made inside the timed call, in a seeded random
  order, counterbalanced by process pairs: the second process of each pair
  calls the first's order with each case and its A/A twin swapped
  (:func:`cipherlab.analysis.timing.counterbalanced_order`), so that where a
  call lands in the order (the first calls pay for the interpreter's first
  touches) weighs on a case and its twin alike and the A/A control is
  unbiased; nothing is warmed up and nothing is batched;
* these processes time nothing else, and each makes every block from the
  smallest file size up a fresh mapping before it starts
  (:func:`fresh_threshold`): a call's output buffer then
  costs its first touch whatever ran before it, as in a program that times each
  file once.  With the C library's default (glibc raises its mmap threshold to
  the largest block freed), whether a 5 MB call's output landed on recycled or
  on fresh pages depended on the random order of the calls before it, and that
  alone moved an AES-EAX call by about a third: one step of a "steady rise"
  then came out reversed in one run and not in the next;
* the processes' single calls of a case are its sample; the speed statistic,
  its bootstrap over processes and the A/A band (the twin case, made and called
  alike) are the engine's, as for every speed claim.  A change with size under
  this protocol is the statistic :data:`COLD_STATISTIC`: one cold call on each
  side, whose time depends on the state the process is in when it lands, which
  the twin's single call at the same size measures (``noise_by_statistic``).

The rows it writes are evidence of the same claims as our warm medians, with
the style :data:`COLD_STYLE`; the claims name it in ``decided_by``, and the
warm rows stand beside them.
"""
from __future__ import annotations

import dataclasses
from typing import Mapping, Sequence

import pandas as pd
from Crypto.Random import get_random_bytes

from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead import comparisons as _comparisons
from cipherlab.experiments.aead.chapter import MB
from cipherlab.experiments.aead.measure import (DEFAULT_NONCE_BYTES, IMPL, LABELS, PHASE1_COMBOS, PHASE1_CONTROL,
                                                PHASE2_COMBOS, PHASE2_CONTROL, _decrypt_fn, _encrypt_fn, new_aead,
                                                seeded_bytes)

#: The style label of the paper's protocol in the evidence (``decided_by`` of the claims decided on it).
COLD_STYLE = f"{IMPL}, one cold call per file"
#: The label that tells a cold case from its A/A twin: the order is counterbalanced over it (ABBA by process pairs).
COLD_COUNTERBALANCE = "instance"
#: A page: the cold processes' allocator threshold is a whole number of them.
PAGE_BYTES = 4096
#: The statistic of a change with size under the paper's protocol: decided against the A/A band of the twin's
#: single cold calls, at least the floor (``noise_by_statistic`` in config/verdicts.yaml).
COLD_STATISTIC = "cold_size_change"
#: The readings of a claim measured under both protocols.
COLD_READING = "protocol=one cold call per file"
WARM_READING = "protocol=warm, batched medians"
#: Claims decided on the paper's protocol (``cold`` of ``data/paper/003_comparisons.yaml``): claim -> (phase, operation, cases, end size), ``cases`` the
#: ciphers (phase 2) or modes (phase 1) whose weakest gain decides, end ``largest`` or ``level`` (about 1 MB).
COLD_CLAIMS = {cid: (e["phase"], e["operation"], tuple(e["cases"]), e["until"])
               for cid, e in _comparisons.section("cold").items()}
#: Of those, the claims of a throughput that rises with size (Fig. 5 "steadily increases", Fig. 6 "performance increase
#: with file size"), read as a TREND across every size unless the sentence says every step (below): their ``steps``.
#: The gain from the smallest size to the largest (of the mode that gains least) decides; the gain of every mode at
#: every pair of neighbouring sizes is shown beside it (in the evidence's detail), not deciding: one cold call per
#: process and size is noisy enough that one adjacent step may come out flat or reversed by chance while the trend
#: holds (a step never contradicts a trend).
STEP_CLAIMS = tuple(cid for cid, e in _comparisons.section("cold").items() if e.get("steps"))
#: Of those, the claims whose sentence says the rise holds at every step (Fig. 5 "steadily increases", ``steps:
#: every``): the engine's ``readings: monotone`` (config/verdicts.yaml): the gain from the smallest size to the largest
#: decides the direction, and one reading per mode and pair of neighbouring sizes contradicts only by going the other
#: way beyond the noise (the A/A band of single cold calls, at least the floor: :data:`COLD_STATISTIC`) at the
#: family-wise level (Bonferroni over every step and mode), so that chance alone does not decide.
EVERY_STEP_CLAIMS = tuple(cid for cid, e in _comparisons.section("cold").items() if e.get("steps") == "every")


def fresh_threshold(sizes) -> int:
    """The block size from which the cold processes map every block afresh
    (:func:`cipherlab.analysis.timing.fresh_mappings`): the smallest file size rounded down to a page (at least
    one), so that every file's output buffer, at every size, is a fresh mapping; a threshold above a size would
    leave that size's buffer on recycled or fresh heap pages by the order of the calls before it."""
    sizes = [int(n) for n in sizes]
    if not sizes or min(sizes) <= 0:
        raise ValueError(f"sizes must be positive byte counts, got {sizes!r}")
    return max(PAGE_BYTES, min(sizes) // PAGE_BYTES * PAGE_BYTES)


def cold_cases(data_by_size: Mapping[int, bytes], *, aad: bytes, seed: int, key_bytes: int = 16,
               nonce_bytes: "Mapping[str, int] | None" = None) -> list[dict]:
    """The cases of both phases and their A/A twins, each a call that makes its cipher and encrypts (or decrypts
    and verifies) one whole file; nothing is called here (the ciphertexts come from a separate cipher object)."""
    nonces = {**DEFAULT_NONCE_BYTES, **(nonce_bytes or {})}
    cases = []
    for phase, combos, control in ((1, PHASE1_COMBOS, PHASE1_CONTROL), (2, PHASE2_COMBOS, PHASE2_CONTROL)):
        runs = [(c, m, "main") for c, m in combos] + [(*control, "control")]
        for cipher, mode, instance in runs:
            key = seeded_bytes(seed, "key", cipher, n=key_bytes)
            for nbytes, data in data_by_size.items():
                labels = {"phase": phase, "cipher": cipher, "impl": COLD_STYLE, "mode": mode, "bytes": int(nbytes),
                          "instance": instance}
                nonce = get_random_bytes(nonces[mode])
                enc = new_aead(cipher, mode, key, nonce)
                enc.update(aad)
                ct, tag = enc.encrypt_and_digest(data)
                cases.append({**labels, "operation": "encrypt",
                              "fn": _encrypt_fn(cipher, mode, key, data, aad, nonces[mode])})
                cases.append({**labels, "operation": "decrypt", "fn": _decrypt_fn(cipher, mode, key, nonce, ct, tag, aad)})
    return cases


def cold_build(data_by_size: Mapping[int, bytes], *, aad: bytes, seed: int, key_bytes: int = 16,
               nonce_bytes: "Mapping[str, int] | None" = None) -> dict:
    """The keyword arguments of :func:`cold_cases` as a timing process receives them (plain, picklable)."""
    return dict(data_by_size={int(n): bytes(d) for n, d in data_by_size.items()}, aad=aad, seed=seed,
                key_bytes=key_bytes, nonce_bytes=dict(nonce_bytes or {}))


def cold_evidence(cold: pd.DataFrame, *, profile: str, seed: int = 0, level_bytes: int = MB,
                  sections: "Mapping[str, str] | None" = None,
                  claims: Sequence[str] = tuple(COLD_CLAIMS)) -> list[_v.Evidence]:
    """Evidence of :data:`COLD_CLAIMS` under the paper's protocol: a case's throughput gain from the smallest size
    to the largest (or to the size nearest ``level_bytes``), the weakest of its cases, with the A/A band of the
    twin case's same gain; a claim of :data:`STEP_CLAIMS` (a trend across every size) shows every mode's gain at
    every pair of neighbouring sizes in that row's detail, not deciding, and one of :data:`EVERY_STEP_CLAIMS` gets
    the gain as its end-to-end reading and one reading per mode and step (``readings: monotone``)."""
    from cipherlab.experiments.aead.evidence import SECTIONS, compare, weakest
    sections = sections or {}
    out = []
    for cid in claims:
        phase, op, names, end = COLD_CLAIMS[cid]
        df = cold[cold["phase"] == phase]
        sizes = sorted(int(b) for b in df["bytes"].unique())
        small = sizes[0]
        large = sizes[-1] if end == "largest" else min(sizes[1:], key=lambda b: abs(b / level_bytes - 1))
        section = sections.get(cid) or SECTIONS["fig9" if op == "encrypt" and phase == 2 else
                                                "fig10" if phase == 2 else "fig5" if op == "encrypt" else "fig6"]

        def gain(k, a, b, what=""):
            return dataclasses.replace(
                compare(cid, df, phase, op, k, k, b, slow_bytes=a, per_byte=True, profile=profile, section=section,
                        seed=seed, detail=(f"throughput gain of {LABELS[k]} from {a} B to {b} B, {op}, one cold call "
                                           f"per file and process (the paper's protocol){what}")), style=COLD_STYLE,
                statistic=COLD_STATISTIC)

        evs = [gain(k, small, large) for k in names]
        whole = weakest(evs, "cases") if len(evs) > 1 else evs[0]
        if cid in EVERY_STEP_CLAIMS:    # the claim's readings: monotone, the steps its readings
            out.append(dataclasses.replace(whole, reading=_v.END_TO_END))
            for a, b in zip(sizes[:-1], sizes[1:]):
                out += [dataclasses.replace(gain(k, a, b, "; one step of a rise claimed at every step"),
                                            reading=f"{COLD_READING}, {k}, step {a} B to {b} B") for k in names]
            continue
        if cid in STEP_CLAIMS:      # the steps, shown beside the trend that decides
            steps = "; ".join(f"{LABELS[k]} {a} B to {b} B: {_pct(gain(k, a, b))}"
                              for a, b in zip(sizes[:-1], sizes[1:]) for k in names)
            whole = dataclasses.replace(whole, detail=f"{whole.detail}; the trend from the smallest size to the largest "
                                                      f"decides, each step shown, not deciding: {steps}")
        out.append(dataclasses.replace(whole, reading=COLD_READING))
    return out


def _pct(ev: _v.Evidence) -> str:
    return f"{ev.estimate:.3g} % [{ev.low:.3g}, {ev.high:.3g}]"


def cold_table(cold: pd.DataFrame, phase1: pd.DataFrame, phase2: pd.DataFrame, mb_bytes: int = MB) -> pd.DataFrame:
    """Each case under both protocols: the median of the processes' single cold calls beside the warm, batched
    median of phases 1 and 2, in seconds and MB/s, and the cold call's time over the warm one."""
    keys = ["cipher", "mode", "operation", "bytes"]
    rows = []
    for phase, warm in ((1, phase1), (2, phase2)):
        c = cold[(cold["phase"] == phase) & (cold["instance"] == "main")].groupby(keys)["seconds"].median()
        w = warm[warm["instance"] == "main"].groupby(keys)["seconds"].median()
        for key, t_cold in c.items():
            t_warm = float(w.get(key, float("nan")))
            nbytes = key[3]
            rows.append({"phase": phase, **dict(zip(keys, key)), "cold_calls": int(
                ((cold["phase"] == phase) & (cold["instance"] == "main")
                 & (cold[keys].apply(tuple, axis=1) == key)).sum()),
                "cold_median_s": float(t_cold), "warm_median_s": t_warm,
                "cold_mb_per_s": nbytes / mb_bytes / float(t_cold), "warm_mb_per_s": nbytes / mb_bytes / t_warm,
                "cold_over_warm": float(t_cold) / t_warm})
    return pd.DataFrame(rows)
