"""Paper 003, Tables 5-7 and equations 1-4: tag forgery trials and the forgery bound."""
from __future__ import annotations

import json
import math
from fractions import Fraction
from numbers import Integral
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy.stats import beta, binomtest

from cipherlab._checks import check_choice
from cipherlab.analysis import timing as _timing
from cipherlab.experiments.aead.measure import DEFAULT_NONCE_BYTES, IMPL, LABELS, MODES, STANDARD_TAG_BYTES, \
    aead_factory, library_tag_bytes, main_instance, new_aead, seeded_bytes

# ---------------------------------------------------------------------------
# Tables 5-7: tag forgery
# ---------------------------------------------------------------------------

FORGERY_KINDS = ("valid", "random_tag", "flipped_tag")


def forged_tags(tag: bytes, kind: str, n: int, seed: int, *labels: Any) -> list[bytes]:
    """``n`` tags for a forgery ``kind``: the genuine one, uniformly random ones, or one random bit flipped."""
    check_choice("kind", kind, FORGERY_KINDS)
    if kind == "valid":
        return [tag] * n
    rng = np.random.default_rng([int(seed)] + [int(b) for b in json.dumps([kind, *map(str, labels)]).encode()])
    out = []
    for _ in range(n):
        if kind == "random_tag":
            t = rng.integers(0, 256, size=len(tag), dtype=np.uint8).tobytes()
        else:
            bit = int(rng.integers(0, 8 * len(tag)))
            b = bytearray(tag)
            b[bit // 8] ^= 1 << (bit % 8)
            t = bytes(b)
        out.append(t)
    return out


def _forgery_setup(data_by_size: Mapping[int, bytes], modes: Sequence[str], aad: bytes, seed: int,
                   key_bytes: int):
    """Per (mode, size): key, nonce, ciphertext and genuine tag, all derived from ``seed``."""
    out = {}
    for mode in modes:
        check_choice("mode", mode, MODES)
        key = seeded_bytes(seed, "forgery-key", mode, n=key_bytes)
        for nbytes, data in data_by_size.items():
            nonce = seeded_bytes(seed, "forgery-nonce", mode, nbytes, n=DEFAULT_NONCE_BYTES[mode])
            enc = new_aead("aes", mode, key, nonce)
            enc.update(aad)
            ct, tag = enc.encrypt_and_digest(data)
            out[(mode, int(nbytes))] = (key, nonce, ct, tag)
    return out


def _verify(key: bytes, mode: str, nonce: bytes, aad: bytes, ct: bytes, tag: bytes,
            make: "Callable[[bytes, bytes], Any] | None" = None) -> bool:
    """``decrypt_and_verify`` as the paper calls it: True when the tag is rejected. ``make``: AES's
    :func:`~.measure.aead_factory` for ``mode`` (built here when not given; a timed call passes its own)."""
    c = (aead_factory("aes", mode) if make is None else make)(key, nonce)
    c.update(aad)
    try:
        c.decrypt_and_verify(ct, tag)
    except ValueError:
        return True
    return False


#: The A/A control of the forgery timings: AES-GCM checking random tags, timed twice.
FORGERY_CONTROL = ("gcm", "random_tag")


def forgery_cases(data_by_size: Mapping[int, bytes], *, modes: Sequence[str] = MODES, n_tags: int,
                  aad: bytes, seed: int, kinds: Sequence[str] = FORGERY_KINDS, key_bytes: int = 16,
                  control: "tuple[str, str] | None" = FORGERY_CONTROL) -> tuple[list[dict], list[dict]]:
    """Timing cases of ``decrypt_and_verify`` with genuine and forged tags, and their outcome logs.

    Each case cycles through ``n_tags`` seeded tags of its kind (the same tags
    :func:`forgery_outcomes` checks) and records, per tag index, whether the
    tag was rejected: a deterministic outcome, whatever the number of calls the
    timing makes.  ``control`` (mode, kind) adds an identical second instance of
    that case, labelled ``instance="control"``.
    """
    if control is not None and (control[0] not in modes or control[1] not in kinds):
        raise ValueError(f"control must be a (mode, kind) of modes {tuple(modes)} and kinds {tuple(kinds)}, "
                         f"got {control!r}")
    setup = _forgery_setup(data_by_size, modes, aad, seed, key_bytes)
    runs = [(m, k, "main") for m in modes for k in kinds] + ([(*control, "control")] if control else [])
    cases, logs = [], []
    for mode, kind, instance in runs:
        for nbytes in data_by_size:
            key, nonce, ct, tag = setup[(mode, int(nbytes))]
            tags = forged_tags(tag, kind, n_tags, seed, mode, nbytes)
            state, log = [0], {}

            def fn(key=key, mode=mode, nonce=nonce, ct=ct, tags=tags, state=state, log=log,
                   make=aead_factory("aes", mode)):
                i = state[0] % len(tags)
                state[0] += 1
                log[i] = _verify(key, mode, nonce, aad, ct, tags[i], make)
            cases.append({"cipher": "aes", "impl": IMPL, "mode": mode, "operation": f"verify_{kind}",
                          "bytes": int(nbytes), "instance": instance, "kind": kind, "fn": fn})
            logs.append(log)
    return cases, logs


def forgery_timing_cases(data_by_size: Mapping[int, bytes], **kwargs) -> list[dict]:
    """The timing cases of :func:`forgery_cases` alone (what each timing process builds)."""
    return forgery_cases(data_by_size, **kwargs)[0]


def measure_forgery(data_by_size: Mapping[int, bytes], *, trials: int, warmup: int, aad: bytes, seed: int,
                    modes: Sequence[str] = MODES, kinds: Sequence[str] = FORGERY_KINDS,
                    min_trial_seconds: float = 0.0, processes: int = 1,
                    progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tag-check times of ``decrypt_and_verify`` (with an A/A control) and whether each tag was rejected.

    The trials are spread over ``processes`` fresh interpreters
    (:func:`cipherlab.analysis.timing.measure_in_processes`); each case cycles through
    ``trials`` seeded tags.  Whether a tag is rejected does not depend on
    timing: the outcomes are those of the same tags checked once each,
    untimed (:func:`forgery_outcomes`).

    Returns
    -------
    times : DataFrame
        One row per trial and case (per-call ``seconds``, ``calls``, ``kind``, ``instance``, ``process``).
    outcomes : DataFrame
        ``bytes, mode, kind, tag_index, rejected``: :func:`forgery_outcomes`.
    """
    build = forgery_build(data_by_size, n_tags=trials, aad=aad, seed=seed, modes=modes, kinds=kinds)
    times = _timing.measure_in_processes(forgery_timing_cases, build, processes=processes, trials=trials,
                                         warmup=warmup, seed=seed, progress=progress, desc="forgery",
                                         min_trial_seconds=min_trial_seconds)
    return times, forgery_outcomes(**build)


def forgery_build(data_by_size: Mapping[int, bytes], *, n_tags: int, aad: bytes, seed: int,
                  modes: Sequence[str] = MODES, kinds: Sequence[str] = FORGERY_KINDS) -> dict:
    """The keyword arguments of :func:`forgery_timing_cases` (and :func:`forgery_outcomes`), plain and picklable."""
    return dict(data_by_size={int(n): bytes(d) for n, d in data_by_size.items()}, modes=tuple(modes), n_tags=n_tags,
                aad=aad, seed=seed, kinds=tuple(kinds))


def forgery_outcomes(data_by_size: Mapping[int, bytes], *, n_tags: int, aad: bytes, seed: int,
                     modes: Sequence[str] = MODES, kinds: Sequence[str] = FORGERY_KINDS,
                     key_bytes: int = 16) -> pd.DataFrame:
    """Whether each of ``n_tags`` seeded tags per mode, size and kind is rejected (deterministic, untimed).

    Returns
    -------
    DataFrame
        ``bytes, mode, kind, tag_index, rejected``.
    """
    if not (isinstance(n_tags, int) and n_tags >= 1):
        raise ValueError(f"n_tags must be an integer >= 1, got {n_tags!r}")
    setup = _forgery_setup(data_by_size, modes, aad, seed, key_bytes)
    rows = []
    for mode in modes:
        for nbytes in data_by_size:
            key, nonce, ct, tag = setup[(mode, int(nbytes))]
            for kind in kinds:
                for i, t in enumerate(forged_tags(tag, kind, n_tags, seed, mode, nbytes)):
                    rows.append((int(nbytes), mode, kind, i, _verify(key, mode, nonce, aad, ct, t)))
    out = pd.DataFrame(rows, columns=["bytes", "mode", "kind", "tag_index", "rejected"])
    return out.sort_values(["bytes", "mode", "kind", "tag_index"], kind="stable").reset_index(drop=True)


def forgery_table(times: pd.DataFrame, outcomes: pd.DataFrame) -> pd.DataFrame:
    """Tables 5-7 from our runs: fail (detection) rate %, mean and std of the check time in microseconds, and the
    std within a process (``std_within_us``, the geometric mean over processes of each one's std).

    ``fail_rate_pct`` is the paper's "Fail Rate": detected forgeries / tags
    tried x 100, from :func:`forgery_outcomes` (for ``valid`` it is the rate of
    wrongly rejected genuine tags).  Times are the main instance's trials of
    :func:`measure_forgery` (per call).
    """
    t = main_instance(times)
    g = t.groupby(["bytes", "mode", "kind"], sort=True)["seconds"]
    out = pd.DataFrame({
        "trials": g.size(),
        "mean_us": g.mean() * 1e6,
        "std_us": g.std(ddof=1) * 1e6,
        "median_us": g.median() * 1e6,
        "q1_us": g.quantile(0.25) * 1e6,
        "q3_us": g.quantile(0.75) * 1e6,
    }).reset_index()
    # the spread the claims decide on (003-s52-std-rises, -ccm-fluctuates-most): each process's own std, combined by
    # the geometric mean over processes, so that a ratio of two rows is the geometric mean of the processes' ratios
    # (the estimate of analysis.stats.speedup_ci with statistic std); the pooled std_us also holds the spread
    # between processes
    if "process" in t.columns:
        per = t.groupby(["bytes", "mode", "kind", "process"], sort=True)["seconds"].std(ddof=1)
        within = np.exp(np.log(per.where(per > 0)).groupby(level=["bytes", "mode", "kind"]).mean()) * 1e6
        out = out.merge(within.rename("std_within_us").reset_index(), on=["bytes", "mode", "kind"], how="left")
    else:
        out["std_within_us"] = out["std_us"]
    out = out.merge(forgery_outcome_table(outcomes)[["bytes", "mode", "kind", "tags", "rejected", "fail_rate_pct"]],
                    on=["bytes", "mode", "kind"], how="left", validate="one_to_one")
    valid = out[out["kind"] == "valid"].set_index(["bytes", "mode"])["median_us"]
    out["median_vs_valid"] = [m / valid.get((b, mo), np.nan) for b, mo, m in
                              zip(out["bytes"], out["mode"], out["median_us"])]
    return out


def forgery_outcome_table(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Counts of rejected tags per size, mode and kind (deterministic: from :func:`forgery_outcomes`)."""
    g = outcomes.groupby(["bytes", "mode", "kind"], sort=True)["rejected"]
    out = pd.DataFrame({"tags": g.size(), "rejected": g.sum().astype(int)}).reset_index()
    out["accepted"] = out["tags"] - out["rejected"]
    out["fail_rate_pct"] = 100.0 * out["rejected"] / out["tags"]
    return out


def forgery_beside_paper(table: pd.DataFrame, published: pd.DataFrame, sizes_by_table: Mapping[str, int],
                         kind: str = "random_tag") -> pd.DataFrame:
    """Tables 5-7 beside ours (one forgery ``kind``), wide: one row per table and mode.

    Parameters
    ----------
    sizes_by_table : mapping
        ``{"Table 5": bytes, ...}``: which of our sizes stands for each table.
    """
    rows = []
    for tname, nbytes in sizes_by_table.items():
        pub = published[published["table"] == tname]
        for mode in ("eax", "gcm", "ccm"):
            p = pub[pub["row"] == LABELS[mode]].set_index("column")["value"]
            o = table[(table["bytes"] == nbytes) & (table["mode"] == mode) & (table["kind"] == kind)]
            if o.empty or p.empty:
                continue
            o = o.iloc[0]
            rows.append({"table": tname, "bytes": nbytes, "mode": LABELS[mode],
                         "paper_fail_rate_pct": p.get("Fail Rate%", ""), "ours_fail_rate_pct": o["fail_rate_pct"],
                         "paper_mean_us": p.get("Fail Avg.", ""), "ours_mean_us": o["mean_us"],
                         "paper_std_us": p.get("Fail Std.", ""), "ours_std_us": o["std_us"],
                         "ours_median_us": o["median_us"]})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------
# Forgery bound P <= q / 2^t
# ---------------------------------------------------------------------------

def forgery_bound(q: int, t: int) -> Fraction:
    """Equations 2-4: the bound min(1, q / 2^t) on q forgery attempts against a t-bit tag, exactly."""
    if not (isinstance(q, int) and q >= 1 and isinstance(t, int) and 1 <= t <= 1024):
        raise ValueError(f"q must be an integer >= 1 and t an integer in 1..1024, got q={q!r}, t={t!r}")
    return min(Fraction(1), Fraction(q, 2**t))


def paper_eq4(q: int, t: int) -> Fraction:
    """Equation 4 as printed, ``q x 2^-t``, exactly and uncapped (:func:`forgery_bound` caps it at 1)."""
    forgery_bound(q, t)   # checks q and t
    return Fraction(q, 1) * Fraction(1, 2**t)


def rejection_rate_interval(rejected: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of a rejection rate, ``rejected`` of ``n`` forged tags."""
    ci = binomtest(rejected, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


def guess_rate_upper(accepted: int, n: int, confidence: float) -> float:
    """The upper end of the exact one-sided interval of the chance that a guessed tag is accepted.

    With no success in ``n`` trials it is ``1 - (1 - confidence)^(1/n)`` (about ``3 / n``), in closed form;
    otherwise the Clopper-Pearson end ``beta.ppf(confidence, accepted + 1, n - accepted)``.
    """
    if not (isinstance(n, Integral) and n >= 1 and isinstance(accepted, Integral) and 0 <= accepted <= n):
        raise ValueError(f"n must be an integer >= 1 and accepted in 0..n, got n={n!r}, accepted={accepted!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if accepted == 0:
        return 1 - (1 - confidence) ** (1 / n)
    if accepted == n:   # every guess accepted: nothing bounds the rate below 1 (beta.ppf would give nan)
        return 1.0
    return float(beta.ppf(confidence, accepted + 1, n - accepted))


def default_tag_bits() -> dict[str, int]:
    """The tag length (bits) of each mode as the experiment uses it: the library default (``mac_len`` not given)."""
    return {m: 8 * len(new_aead("aes", m, bytes(16), bytes(DEFAULT_NONCE_BYTES[m])).encrypt_and_digest(b"")[1])
            for m in MODES}


def forgery_power(n: int, accepted: int, confidence: float) -> str:
    """What ``accepted`` of ``n`` forgeries can tell apart: the longest tag whose forgery rate the interval excludes.

    A t-bit tag is forged with probability ``2^-t``. With no success in ``n``
    trials the upper end of the exact one-sided interval is
    ``1 - (1 - confidence)^(1/n)`` (about ``3 / n``); a tag length is told
    apart from a longer one only when ``2^-t`` lies above that end. So the
    trials distinguish tags of at most ``floor(-log2(upper))`` bits and cannot
    tell a 128-bit tag from any longer than that: the check has no power
    against the claim's alternative, and the text says so.
    """
    upper = guess_rate_upper(accepted, n, confidence)
    if accepted:
        return f"{accepted} forgeries accepted: a tag this short is told apart from a 128-bit one"
    bits = math.floor(-math.log2(upper))
    return (f"no power: {n} trials with no success exclude forgery rates above 2^{math.log2(upper):.1f}, so they "
            f"tell apart only tags of at most {bits} bits and cannot tell a 128-bit tag from a {bits + 1}-bit one")


def guessing_trials(outcomes: pd.DataFrame) -> tuple[int, int]:
    """``(n, accepted)`` of the forgery trials that guess a tag: the random tags only.

    The bound ``q / 2^t`` is the chance that a guessed tag is accepted. A
    bit-flipped tag is one fixed edit of the genuine tag, not a guess: its
    rejection shows the tag is checked, and says nothing of the chance of
    guessing it, so it adds no power against a longer tag and is not counted.
    """
    if not {"kind", "rejected"} <= set(outcomes.columns):
        raise ValueError("outcomes need the columns kind and rejected")
    g = outcomes[outcomes["kind"] == "random_tag"]
    if g.empty:
        raise ValueError("no random-tag trials in the outcomes: nothing guesses a tag")
    return len(g), int((~g["rejected"].astype(bool)).sum())


def gcm_forgery_bound(q: int, t: int, nbytes: int) -> Fraction:
    """GCM's forgery bound for q attempts at a t-bit tag on messages of ``nbytes`` bytes, exactly (ideal cipher).

    McGrew and Viega, *The Security and Performance of the Galois/Counter Mode* (2004), and NIST SP 800-38D,
    Appendix C: GHASH is a polynomial of degree ceil(bits / 128) + 1, so each attempt succeeds with probability
    up to (ceil(bits / 128) + 1) / 2^t: the bound grows with the message length, unlike an ideal MAC's q / 2^t.
    """
    if not (isinstance(nbytes, int) and nbytes >= 0):
        raise ValueError(f"nbytes must be an integer >= 0, got {nbytes!r}")
    forgery_bound(q, t)   # checks q and t
    return min(Fraction(1), Fraction(q * (-(-8 * nbytes // 128) + 1), 2**t))


def forgery_bound_table(tag_bytes_by_mode: "Mapping[str, Sequence[int]] | None" = None,
                        log2_q_max: int = 40, log2_q_step: int = 1) -> pd.DataFrame:
    """The bound P_forgery <= min(1, q / 2^t) for each mode's tag lengths and q = 2^0 .. 2^log2_q_max.

    Computed in log2 so it is exact for every tag length.

    Parameters
    ----------
    tag_bytes_by_mode : mapping of mode to tag lengths in bytes, optional
        Defaults to the lengths PyCryptodome accepts (:func:`library_tag_bytes`).
    log2_q_max : int
        Largest q is ``2**log2_q_max`` forgery attempts (0..64).
    log2_q_step : int
        Step of log2(q) (>= 1).
    """
    if not (isinstance(log2_q_max, int) and 0 <= log2_q_max <= 64):
        raise ValueError(f"log2_q_max must be an integer in 0..64, got {log2_q_max!r}")
    if not (isinstance(log2_q_step, int) and log2_q_step >= 1):
        raise ValueError(f"log2_q_step must be an integer >= 1, got {log2_q_step!r}")
    if tag_bytes_by_mode is None:
        tag_bytes_by_mode = {m: library_tag_bytes(m) for m in MODES}
    rows = []
    for mode, lengths in tag_bytes_by_mode.items():
        check_choice("mode", mode, MODES)
        for tb in lengths:
            if not (isinstance(tb, int) and 1 <= tb <= 16):
                raise ValueError(f"tag lengths must be integers in 1..16 bytes, got {tb!r}")
            t = 8 * tb
            for lq in range(0, log2_q_max + 1, log2_q_step):
                lb = min(0, lq - t)
                rows.append({"mode": mode, "tag_bytes": tb, "tag_bits": t, "log2_q": lq, "q": 2**lq,
                             "log2_bound": lb, "bound": 2.0**lb,
                             "standard": tb in STANDARD_TAG_BYTES[mode]})
    return pd.DataFrame(rows)


def trials_to_observe(tag_bits: Sequence[int], observed_trials: int, observed_accepts: int = 0,
                      confidence: float = 0.95) -> pd.DataFrame:
    """How many forgery attempts it takes to see one succeed, beside what our trials can show.

    For a tag of t bits a guess succeeds with p = 2^-t: one expects 2^t
    attempts per success and needs ln(1/(1-confidence)) * 2^t attempts to see
    one with that confidence.  Zero acceptances in n trials only bound p below
    1 - (1-confidence)^(1/n) (exact Clopper-Pearson), whatever the tag length.
    """
    if not (0 < confidence < 1):
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if observed_trials < 1 or observed_accepts < 0 or observed_accepts > observed_trials:
        raise ValueError("observed_trials must be >= 1 and 0 <= observed_accepts <= observed_trials")
    p_upper = guess_rate_upper(observed_accepts, observed_trials, confidence)
    factor = math.log(1 / (1 - confidence))
    rows = []
    for t in sorted(set(int(x) for x in tag_bits)):
        rows.append({"tag_bits": t, "p_single": 2.0**-t, "log2_expected_trials": t,
                     "log2_trials_for_confidence": t + math.log2(factor),
                     "observed_trials": observed_trials, "observed_accepts": observed_accepts,
                     "p_upper_from_observed": p_upper,
                     "observed_can_reject_tag": bool(2.0**-t > p_upper)})
    return pd.DataFrame(rows)


