"""Paper 003's "semi-linear / linear scalability": a fixed cost plus a cost per byte, fitted over every size.

A call costs a fixed part (the library's set-up, the nonce, the tag) plus a
part that grows with the message. Time is then *linear* in size, yet the
exponent ``b`` of ``time ~ size^b`` between two sizes is below 1 whenever the
fixed part is not negligible, so that exponent tests something the authors did
not claim. Here ``time(n) = fixed + per_byte * n`` is fitted to the median
times at every measured size by least squares on the relative residuals
(:func:`numpy.linalg.lstsq` on the rows divided by the observed time), and the
claim is judged by the **misfit**: the largest relative gap between the fit
and a median, in percent. Its interval comes from resampling the trials at
each size (percentile bootstrap, the confidence and resamples of
``config/verdicts.yaml``); its A/A band is the largest relative gap between the
medians of the two identical control instances at any size, what two equal
cases differ by on this machine.
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from cipherlab.analysis import timing as _timing
from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead.forgery import FORGERY_CONTROL
from cipherlab.experiments.aead.measure import IMPL, LABELS, MODES, PHASE1_CONTROL

OPERATIONS = ("encrypt", "decrypt")


def fit_linear(sizes, times) -> tuple[float, float, np.ndarray]:
    """``(fixed, per_byte, misfit_pct)`` of ``time = fixed + per_byte * size`` (relative least squares).

    ``misfit_pct[i]`` is ``(fit_i / time_i - 1) * 100`` at each size. At least
    three sizes (two parameters and one degree of freedom to judge the fit by).
    """
    x = np.asarray(sizes, dtype=float)
    t = np.asarray(times, dtype=float)
    if x.ndim != 1 or x.shape != t.shape or x.size < 3:
        raise ValueError(f"sizes and times must be 1-D of equal length >= 3, got {x.shape} and {t.shape}")
    if not (np.all(t > 0) and np.all(x > 0)):
        raise ValueError("sizes and times must be positive")
    design = np.column_stack([np.ones_like(x), x]) / t[:, None]
    (fixed, per_byte), *_ = np.linalg.lstsq(design, np.ones_like(x), rcond=None)
    return float(fixed), float(per_byte), ((fixed + per_byte * x) / t - 1) * 100


def _trials(df: pd.DataFrame, **sel) -> np.ndarray:
    mask = np.ones(len(df), dtype=bool)
    for k, v in sel.items():
        mask &= (df[k] == v).to_numpy()
    return np.asarray(_timing.trials_by_process(df.loc[mask]), dtype=float).ravel()


def _cases(p1: pd.DataFrame):
    sizes = sorted(int(b) for b in p1["bytes"].unique())
    for mode in MODES:
        for op in OPERATIONS:
            yield mode, op, sizes, [_trials(p1, cipher="aes", mode=mode, operation=op, bytes=b, instance="main")
                                    for b in sizes]


def linear_fit_table(p1: pd.DataFrame) -> pd.DataFrame:
    """One row per mode and operation: the fit's fixed cost and cost per byte, its misfit, and beside it
    the two-point exponent ``b`` of ``time ~ size^b`` (the old metric, < 1 whenever there is a fixed cost)."""
    rows = []
    for mode, op, sizes, samples in _cases(p1):
        med = np.array([np.median(s) for s in samples])
        fixed, per_byte, mis = fit_linear(sizes, med)
        rows.append({"mode": mode, "operation": op, "sizes": len(sizes), "fixed_us": fixed * 1e6,
                     "ns_per_byte": per_byte * 1e9, "fixed_share_at_largest_pct": 100 * fixed / med[-1],
                     "misfit_max_pct": float(np.max(np.abs(mis))),
                     "worst_size_bytes": int(sizes[int(np.argmax(np.abs(mis)))]),
                     "two_point_exponent": float(np.log(med[-1] / med[0]) / np.log(sizes[-1] / sizes[0]))})
    return pd.DataFrame(rows)


def _misfit_interval(sizes, samples, rng, n_resamples: int, confidence: float) -> tuple[float, float]:
    boot = np.empty(n_resamples)
    draws = [rng.integers(0, s.size, size=(n_resamples, s.size)) for s in samples]
    meds = np.stack([np.median(s[d], axis=1) for s, d in zip(samples, draws)], axis=1)
    for i in range(n_resamples):
        boot[i] = np.max(np.abs(fit_linear(sizes, meds[i])[2]))
    tail = (1 - confidence) / 2 * 100
    return float(np.percentile(boot, tail)), float(np.percentile(boot, 100 - tail))


def linearity_evidence(p1: pd.DataFrame, *, profile: str, seed: int = 0, section: str = "aead-linear-fit",
                       n_resamples: "int | None" = None) -> _v.Evidence:
    """Evidence of ``003-t1-semilinear``: the misfit (%) of the linear fit, for the mode and operation that fits worst."""
    rules = _v.load_rules()
    confidence = float(rules["confidence"])
    n_resamples = int(rules["bootstrap_resamples"]) if n_resamples is None else int(n_resamples)
    rng = np.random.default_rng(seed)
    best = None
    for mode, op, sizes, samples in _cases(p1):
        med = np.array([np.median(s) for s in samples])
        fixed, per_byte, mis = fit_linear(sizes, med)
        est = float(np.max(np.abs(mis)))
        if best is None or est > best[0]:
            best = (est, mode, op, sizes, samples, fixed, per_byte)
    est, mode, op, sizes, samples, fixed, per_byte = best
    low, high = _misfit_interval(sizes, samples, rng, n_resamples, confidence)
    c, m = PHASE1_CONTROL
    gaps = []
    for b in sizes:
        main = _trials(p1, cipher=c, mode=m, operation="encrypt", bytes=b, instance="main")
        ctl = _trials(p1, cipher=c, mode=m, operation="encrypt", bytes=b, instance="control")
        gaps.append(abs(np.median(ctl) / np.median(main) - 1) * 100)
    band = float(max(gaps))
    n = int(min(s.size for s in samples))
    return _v.Evidence("003-t1-semilinear", estimate=est, low=min(low, est), high=max(high, est), n=n,
                       control_low=-band, control_high=band, unit="%", statistic="fit_misfit", size=", ".join(f"{b} B" for b in sizes),
                       style=IMPL, mode=mode, profile=profile, section=section,
                       detail=(f"largest gap between time = fixed + per-byte x size, fitted over all {len(sizes)} "
                               f"sizes, and the median time, AES-{LABELS[mode]} {op} (the worst of "
                               f"{len(MODES) * len(OPERATIONS)} mode x operation): fixed {fixed * 1e6:.1f} us + "
                               f"{per_byte * 1e9:.3f} ns/B"))


def _slope_boot(sizes, samples, rng, n_resamples: int) -> np.ndarray:
    """Bootstrap of the fitted cost per byte: the trials at each size resampled, the medians refitted."""
    meds = np.stack([np.median(s[rng.integers(0, s.size, size=(n_resamples, s.size))], axis=1) for s in samples],
                    axis=1)
    return np.array([fit_linear(sizes, meds[i])[1] for i in range(n_resamples)])


def parallel_cause_evidence(p1: pd.DataFrame, *, profile: str, seed: int = 0, section: str = "aead-linear-fit",
                            n_resamples: "int | None" = None) -> _v.Evidence:
    """Evidence of ``003-s6-gcm-parallel-cause``: GCM's lead lies in its cost per byte (its authentication).

    The three modes share AES-CTR, so what differs in their cost per byte is the MAC: GHASH (parallel, carry-less
    multiply) against CBC-MAC and OMAC (one block cipher call after another). The statistic is the smaller of
    CCM's and EAX's cost per byte over GCM's, minus 1 (%), for the operation where it is smaller; its A/A band is
    the same ratio between the two identical GCM instances (main and control) timed in the same run.
    """
    rules = _v.load_rules()
    confidence = float(rules["confidence"])
    n_resamples = int(rules["bootstrap_resamples"]) if n_resamples is None else int(n_resamples)
    rng = np.random.default_rng(seed)
    best = None
    for op in OPERATIONS:
        cases = {m: (sz, smp) for m, o, sz, smp in _cases(p1) if o == op}
        slope = {m: fit_linear(sz, np.array([np.median(s) for s in smp]))[1] for m, (sz, smp) in cases.items()}
        est = (min(slope["ccm"], slope["eax"]) / slope["gcm"] - 1) * 100
        if best is None or est < best[0]:
            best = (est, op, cases, slope)
    est, op, cases, slope = best
    boot = {m: _slope_boot(sz, smp, rng, n_resamples) for m, (sz, smp) in cases.items()}
    stat = (np.minimum(boot["ccm"], boot["eax"]) / boot["gcm"] - 1) * 100
    tail = (1 - confidence) / 2 * 100
    low, high = float(np.percentile(stat, tail)), float(np.percentile(stat, 100 - tail))
    sizes = cases["gcm"][0]
    c, m = PHASE1_CONTROL
    twin = {inst: _slope_boot(sizes, [_trials(p1, cipher=c, mode=m, operation=op, bytes=b, instance=inst)
                                      for b in sizes], rng, n_resamples) for inst in ("main", "control")}
    aa = (twin["control"] / twin["main"] - 1) * 100
    return _v.Evidence("003-s6-gcm-parallel-cause", estimate=float(est), low=min(low, est), high=max(high, est),
                       n=int(min(s.size for _, smp in cases.values() for s in smp)), unit="%",
                       control_low=float(np.percentile(aa, tail)), control_high=float(np.percentile(aa, 100 - tail)),
                       size=", ".join(f"{b} B" for b in sizes), style=IMPL, mode="gcm vs ccm, eax", profile=profile,
                       section=section,
                       detail=(f"cost per byte of the linear fits, {op}: " + ", ".join(
                           f"{LABELS[k]} {v * 1e9:.3f} ns/B" for k, v in slope.items())
                               + "; the fixed costs are in aead_linear_fit; this places the lead in the MAC's "
                                 "per-byte work, it does not show that parallelism, rather than a faster "
                                 "primitive (carry-less multiply), causes it"))


def _growth_boot(sizes, samples, rng, n_resamples: int) -> np.ndarray:
    """Bootstrap of a mode's growth of time from the smallest to the largest size (largest median over smallest)."""
    first, last = samples[0], samples[-1]
    return (np.median(last[rng.integers(0, last.size, size=(n_resamples, last.size))], axis=1)
            / np.median(first[rng.integers(0, first.size, size=(n_resamples, first.size))], axis=1))


GROWTH_READINGS = ("relative growth", "cost per byte")


def equal_growth_evidence(p1: pd.DataFrame, *, profile: str, seed: int = 0, section: str = "aead-linear-fit",
                          n_resamples: "int | None" = None) -> list[_v.Evidence]:
    """Evidence of ``003-s511-equally-affected`` ("all three modes are equally affected by file size"), decided
    BETWEEN the modes: how much a larger file costs each mode, compared across the modes, under two readings the
    paper leaves open (``readings: open``), one Evidence row each:

    * ``relative growth``: each mode's time at the largest size over its time at the smallest (its own growth);
    * ``cost per byte``: each mode's slope of the fit ``time = fixed + per_byte * size`` (:func:`fit_linear`).

    Each statistic is the largest of the three modes over the smallest, minus 1, in percent (0: equally
    affected), for the operation where the modes differ most; its interval resamples the trials at each size.
    Its A/A band is the same ratio between the two identical GCM instances (main and control) of the run.
    """
    rules = _v.load_rules()
    confidence = float(rules["confidence"])
    n_resamples = int(rules["bootstrap_resamples"]) if n_resamples is None else int(n_resamples)
    tail = (1 - confidence) / 2 * 100
    by_op: dict = {}
    for mode, op, sizes, samples in _cases(p1):
        by_op.setdefault(op, []).append((mode, sizes, samples))
    point = {"relative growth": lambda sz, smp: float(np.median(smp[-1]) / np.median(smp[0])),
             "cost per byte": lambda sz, smp: fit_linear(sz, np.array([np.median(s) for s in smp]))[1]}
    boots = {"relative growth": _growth_boot, "cost per byte": _slope_boot}
    words = {"relative growth": lambda v: f"{v:.1f}x", "cost per byte": lambda v: f"{v * 1e9:.3f} ns/B"}
    what = {"relative growth": "growth of time from the smallest to the largest size",
            "cost per byte": "cost per byte of the linear fits"}
    out = []
    for reading in GROWTH_READINGS:
        rng = np.random.default_rng(seed)
        best = None
        for op, cases in by_op.items():
            vals = {m: point[reading](sz, smp) for m, sz, smp in cases}
            est = (max(vals.values()) / min(vals.values()) - 1) * 100
            if best is None or est > best[0]:
                best = (est, op, cases, vals)
        est, op, cases, vals = best
        boot = np.stack([boots[reading](sz, smp, rng, n_resamples) for _, sz, smp in cases], axis=1)
        stat = (boot.max(axis=1) / boot.min(axis=1) - 1) * 100
        low, high = float(np.percentile(stat, tail)), float(np.percentile(stat, 100 - tail))
        sizes = cases[0][1]
        c, m = PHASE1_CONTROL
        twin = {inst: boots[reading](sizes, [_trials(p1, cipher=c, mode=m, operation=op, bytes=b, instance=inst)
                                             for b in sizes], rng, n_resamples) for inst in ("main", "control")}
        aa = (twin["control"] / twin["main"] - 1) * 100
        out.append(_v.Evidence(
            "003-s511-equally-affected", estimate=float(est), low=min(low, est), high=max(high, est),
            n=int(min(s.size for _, _, smp in cases for s in smp)), unit="%",
            control_low=float(np.percentile(aa, tail)), control_high=float(np.percentile(aa, 100 - tail)),
            size=", ".join(f"{b} B" for b in sizes), style=IMPL, mode="gcm, ccm, eax", profile=profile,
            section=section, reading=reading,
            detail=(f"largest over smallest {what[reading]}, {op} (the operation where the modes differ most): "
                    + ", ".join(f"{LABELS[k]} {words[reading](v)}" for k, v in vals.items()))))
    return out


def rejection_linearity_evidence(fg: pd.DataFrame, *, profile: str, seed: int = 0, section: str = "aead-forgery",
                                 kind: str = "random_tag", control: "tuple[str, str]" = FORGERY_CONTROL,
                                 n_resamples: "int | None" = None) -> _v.Evidence:
    """Evidence of ``003-s52-reject-linear`` ("all values increased almost linearly with increasing size").

    The forgery tables' "Fail Avg." is the time to reject a forged tag; the
    same fixed-cost-plus-per-byte fit as :func:`linearity_evidence` is fitted
    to each mode's median rejection time at every forgery size (``kind``
    tags), and the mode that fits worst decides. The A/A band is the largest
    relative gap between the medians of the control case's two identical
    instances (``control`` = (mode, kind) of the forgery run) at any size.
    """
    rules = _v.load_rules()
    confidence = float(rules["confidence"])
    n_resamples = int(rules["bootstrap_resamples"]) if n_resamples is None else int(n_resamples)
    rng = np.random.default_rng(seed)
    tags = fg[fg["kind"] == kind]
    sizes = sorted(int(b) for b in tags["bytes"].unique())
    best = None
    for mode in MODES:
        samples = [_trials(tags, mode=mode, bytes=b, instance="main") for b in sizes]
        fixed, per_byte, mis = fit_linear(sizes, np.array([np.median(s) for s in samples]))
        est = float(np.max(np.abs(mis)))
        if best is None or est > best[0]:
            best = (est, mode, samples, fixed, per_byte)
    est, mode, samples, fixed, per_byte = best
    low, high = _misfit_interval(sizes, samples, rng, n_resamples, confidence)
    c_mode, c_kind = control
    ctl = fg[fg["kind"] == c_kind]
    band = float(max(abs(np.median(_trials(ctl, mode=c_mode, bytes=b, instance="control"))
                         / np.median(_trials(ctl, mode=c_mode, bytes=b, instance="main")) - 1) * 100 for b in sizes))
    return _v.Evidence("003-s52-reject-linear", estimate=est, low=min(low, est), high=max(high, est),
                       n=int(min(s.size for s in samples)), control_low=-band, control_high=band, unit="%", statistic="fit_misfit",
                       size=", ".join(f"{b} B" for b in sizes), style=IMPL, mode=mode, profile=profile,
                       section=section,
                       detail=(f"largest gap between rejection time = fixed + per-byte x size, fitted over all "
                               f"{len(sizes)} forgery sizes, and the median time to reject a forged tag, "
                               f"AES-{LABELS[mode]} (the worst of {len(MODES)} modes): fixed {fixed * 1e6:.1f} us + "
                               f"{per_byte * 1e9:.3f} ns/B"))


def fixed_share_evidence(p1: pd.DataFrame, *, profile: str, seed: int = 0, section: str = "aead-linear-fit",
                         n_resamples: "int | None" = None) -> _v.Evidence:
    """Evidence of ``003-f5-rise-cause`` ("the initial and static operations have less impact with larger data"):
    the fixed per-call cost of the fit, as a share (%) of an encryption call at the smallest size, for the mode
    where that share is smallest, with a percentile bootstrap of the trials at each size. Above 0 %, a fixed cost
    makes throughput rise with size; no A/A band (a share of one fitted call, not a comparison of two cases)."""
    rules = _v.load_rules()
    confidence = float(rules["confidence"])
    n_resamples = int(rules["bootstrap_resamples"]) if n_resamples is None else int(n_resamples)
    rng = np.random.default_rng(seed)
    rows = []
    for mode, op, sizes, samples in _cases(p1):
        if op != "encrypt":
            continue
        med = np.array([np.median(s) for s in samples])
        fixed, _, _ = fit_linear(sizes, med)
        draws = [rng.integers(0, s.size, size=(n_resamples, s.size)) for s in samples]
        meds = np.stack([np.median(s[d], axis=1) for s, d in zip(samples, draws)], axis=1)
        boot = np.array([100 * fit_linear(sizes, m)[0] / m[0] for m in meds])
        tail = (1 - confidence) / 2 * 100
        rows.append((100 * fixed / med[0], float(np.percentile(boot, tail)), float(np.percentile(boot, 100 - tail)),
                     mode, sizes, fixed, int(min(s.size for s in samples))))
    est, low, high, mode, sizes, fixed, n = min(rows, key=lambda r: r[1])
    return _v.Evidence("003-f5-rise-cause", estimate=est, low=min(low, est), high=max(high, est), n=n,
                       unit="% of a call",
                       size=f"{sizes[0]} B", style=IMPL, mode=mode, profile=profile, section=section,
                       detail=(f"the fitted fixed cost {fixed * 1e6:.1f} us per call of AES-{LABELS[mode]} encryption "
                               f"is {est:.2f} % of a {sizes[0]} B call (the smallest share of the three modes), "
                               "warm and batched; the paper's one cold call per file pays more"))
