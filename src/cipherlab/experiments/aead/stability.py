"""Paper 003's "stable" and "consistent": how little a mode's throughput varies from one call to the next.

Two readings were open. The span of a throughput across sizes (largest over
smallest) is ruled out by the paper's own Fig. 5 text: "the differences in speed
... become even more apparent as file size increased, with mode GCM also
appearing to be the most consistent and efficient with larger files" -- GCM's
throughput is the one that climbs most with size (to "over 1000 MB/s at 5 MB"),
so the widest span cannot be what the paper calls the most consistent. The
reading its text supports is the spread of the measurements themselves: a mode is
stable when its calls at one size give nearly the same throughput. Here, as in the
chapter's Table 2 ranking (:func:`.tables.ranking_table`, "Most Stable"), that is
the **relative IQR** of throughput over the warm, batched trials of a mode at a
size, (Q3 - Q1) / median, averaged over the sizes (``rel_iqr_pct``): one
definition for the verdicts and the chapter, on the same trials.

A claim that mode A is more stable than mode B is decided on B's relative IQR over
A's (%, above 0 when A is the steadier), with a bootstrap over processes (all of a
drawn process's trials at every size together) and the A/A band of the twin
case: the same ratio between AES-GCM's control instance and its main instance,
timed in the same interleaved run. :func:`stability_table` prints each mode's
relative IQR beside its cold and warm throughput, so the figures of every
stability row can be read off it.

Referees read "stable" both ways, so each stability row states and decides both
readings (:data:`READINGS`), and the least favourable decides the row (the
engine's ``readings: every``): the call-to-call spread above, and the **fit across
sizes**, how closely a mode's time under the paper's own protocol (one cold call
per file, the protocol of its Figs. 5-6) follows a fixed cost per call plus a cost
per byte, ``t = a + b * size``: the relative RMS residual of the per-size median
times around that fit, weighted by time (``fit_resid_pct``). The raw span of the
throughput across sizes (largest over smallest, ``span_pct``, shown in the table,
deciding nothing) is not a reading of stability: a fixed cost per call bends the
fastest mode's throughput most, because it spends least per byte, so the span
measures speed; the fit's residual is the same whatever ``a`` and ``b`` are, and
only a mode whose time strays from its own cost model counts as unsteady. B's
residual minus A's (points of %, above 0 when A is the steadier; a difference, as
a residual near 0 makes a ratio meaningless), with the same bootstrap
over processes and the A/A band of the control twin's residual over its main
case's.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.analysis import timing as _timing
from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead import comparisons as _comparisons
from cipherlab.experiments.aead.chapter import MB
from cipherlab.experiments.aead.measure import IMPL, LABELS, MODES, PHASE1_CONTROL

#: The claims decided on the relative IQR (``stability`` of ``data/paper/003_comparisons.yaml``): claim -> (steadier mode, the modes it is claimed steadier than, operations).
STABILITY_CLAIMS = {cid: (e["steadier"], tuple(e["than"]), tuple(e["operations"]))
                    for cid, e in _comparisons.section("stability").items()}
SECTION = "aead-stability"
#: The two readings of "stable" every stability row is decided under (the least favourable decides).
READINGS = {"spread": "stable=call-to-call spread", "shape": "stable=fit of fixed + per-byte cost across sizes"}


def _per_process(cold: pd.DataFrame, mode: str, op: str, instance: str = "main") -> tuple[np.ndarray, np.ndarray]:
    """Sizes (bytes) and the throughput (bytes per second) of each process's one call at each: processes x sizes."""
    d = cold[(cold["phase"] == 1) & (cold["mode"] == mode) & (cold["operation"] == op)
             & (cold["instance"] == instance)]
    if d.empty:
        raise ValueError(f"no cold calls of AES-{mode} {op} ({instance})")
    t = d.pivot_table(index="process", columns="bytes", values="seconds", aggfunc="median").sort_index(axis=1)
    if t.isna().any().any() or t.shape[0] < 2 or t.shape[1] < 2:
        raise ValueError(f"AES-{mode} {op} ({instance}) needs one call per process at every size, "
                         f"in >= 2 processes and >= 2 sizes")
    sizes = t.columns.to_numpy(dtype=np.float64)
    return sizes, sizes / t.to_numpy(dtype=np.float64)


def _log_span(tp: np.ndarray) -> np.ndarray:
    """log(max / min) over sizes of the per-size median throughput; ``tp``: (..., processes, sizes)."""
    med = np.median(tp, axis=-2)
    return np.log(med.max(axis=-1) / med.min(axis=-1))


def _log_fit_resid(sizes: np.ndarray, tp: np.ndarray) -> np.ndarray:
    """log of the relative RMS residual of the per-size median time around its weighted least-squares fit
    ``t = a + b * size`` (each size weighted by 1 / t, so every size counts by its relative error);
    ``tp``: (..., processes, sizes) throughput, ``sizes`` in bytes."""
    t = sizes / np.median(tp, axis=-2)                                  # (..., sizes) seconds
    x = np.stack([1.0 / t, sizes / t], axis=-1)                         # the model, divided by t
    xtx = np.einsum("...si,...sj->...ij", x, x)
    xty = x.sum(axis=-2)
    coef = np.linalg.solve(xtx, xty[..., None])[..., 0]
    resid = 1.0 - np.einsum("...si,...i->...s", x, coef)               # (t - fit) / t
    rms = np.sqrt(np.mean(resid ** 2, axis=-1))
    # a floor far below any timer's resolution, so two exact fits compare as equal, not as 0 / 0
    return np.log(np.maximum(rms, 1e-9))


def fit_resid_pct(cold: pd.DataFrame, mode: str, op: str, instance: str = "main") -> float:
    """How far a mode's cold time strays from its own fixed + per-byte cost model: the relative RMS residual, %."""
    sizes, tp = _per_process(cold, mode, op, instance)
    if sizes.size < 3:
        raise ValueError(f"AES-{mode} {op} ({instance}) needs >= 3 sizes to fit a fixed and a per-byte cost")
    return float(np.exp(_log_fit_resid(sizes, tp)) * 100)


def span_pct(cold: pd.DataFrame, mode: str, op: str, instance: str = "main") -> float:
    """The span of a mode's cold throughput over the sizes, (max / min - 1) x 100."""
    return float(np.expm1(_log_span(_per_process(cold, mode, op, instance)[1])) * 100)


def _per_process_warm(phase1: pd.DataFrame, mode: str, op: str, instance: str = "main") -> list[np.ndarray]:
    """The warm trials' throughput (bytes per second) at each size: one processes x trials array per size."""
    d = phase1[(phase1["mode"] == mode) & (phase1["operation"] == op) & (phase1["instance"] == instance)]
    if "cipher" in d:
        d = d[d["cipher"] == "aes"]
    if d.empty:
        raise ValueError(f"no warm trials of AES-{mode} {op} ({instance})")
    out = []
    for nb in sorted(int(b) for b in d["bytes"].unique()):
        t = np.asarray(_timing.trials_by_process(d[d["bytes"] == nb]), dtype=np.float64)
        # one process: its trials are the units the bootstrap draws (a trials x 1 array)
        out.append(nb / (t if t.shape[0] > 1 else t.reshape(-1, 1)))
    if len(out) < 2 or min(a.size for a in out) < 4:
        raise ValueError(f"AES-{mode} {op} ({instance}) needs warm trials at >= 2 sizes, >= 4 at each")
    return out


def _rel_iqr(per_size: list[np.ndarray], idx: "np.ndarray | None" = None) -> "float | np.ndarray":
    """Mean over sizes of (Q3 - Q1) / median of throughput; ``idx`` (resamples x processes) draws processes."""
    vals = []
    for a in per_size:
        x = a.reshape(1, -1) if idx is None else a[idx].reshape(idx.shape[0], -1)
        q1, med, q3 = np.percentile(x, [25, 50, 75], axis=1)
        vals.append((q3 - q1) / med)
    m = np.mean(vals, axis=0)
    return float(m[0]) if idx is None else m


def rel_iqr_pct(phase1: pd.DataFrame, mode: str, op: str, instance: str = "main") -> float:
    """A mode's stability: the mean over sizes of the relative IQR of its warm throughput, in %."""
    return _rel_iqr(_per_process_warm(phase1, mode, op, instance)) * 100


def spread_evidence(claim_id: str, phase1: pd.DataFrame, steady: str, other: str, op: str, *, profile: str,
                    seed: int = 0, n_resamples: "int | None" = None) -> _v.Evidence:
    """``other``'s relative IQR of throughput over ``steady``'s (%, above 0: ``steady`` varies less from call to
    call), with the bootstrap over processes and the A/A band of the control twin's over its main case's."""
    rules = _v.load_rules()
    n_resamples = int(n_resamples or rules["bootstrap_resamples"])
    conf = float(rules["confidence"])
    _, cm = PHASE1_CONTROL
    a, b = _per_process_warm(phase1, steady, op), _per_process_warm(phase1, other, op)
    c_main, c_twin = _per_process_warm(phase1, cm, op), _per_process_warm(phase1, cm, op, instance="control")
    procs = min(x.shape[0] for x in a + b + c_main + c_twin)
    a, b, c_main, c_twin = ([x[:procs] for x in g] for g in (a, b, c_main, c_twin))
    pick = np.random.default_rng(seed).integers(0, procs, size=(n_resamples, procs))
    tail = (1 - conf) / 2 * 100
    lo, hi = np.percentile((_rel_iqr(b, pick) / _rel_iqr(a, pick) - 1) * 100, [tail, 100 - tail])
    clo, chi = np.percentile((_rel_iqr(c_twin, pick) / _rel_iqr(c_main, pick) - 1) * 100, [tail, 100 - tail])
    spreads = {m: _rel_iqr(x) * 100 for m, x in ((steady, a), (other, b))}
    est = (spreads[other] / spreads[steady] - 1) * 100
    sizes = sorted(int(x) for x in phase1["bytes"].unique())
    return _v.Evidence(claim_id, estimate=est, low=float(min(lo, est)), high=float(max(hi, est)),
                       n=int(min(x.size for x in a + b)), processes=procs,
                       control_low=float(clo), control_high=float(chi), unit="%", style=IMPL,
                       mode=f"{other} vs {steady}", size=", ".join(f"{s} B" for s in sizes), profile=profile,
                       section=SECTION, reading=f"{READINGS['spread']}, operation={op}",
                       detail=(f"relative IQR of throughput over the warm trials, mean over the sizes, {op}: "
                               f"AES-{LABELS[other]} {spreads[other]:.2f} %, AES-{LABELS[steady]} "
                               f"{spreads[steady]:.2f} % (rel_iqr_pct of aead_stability)"))


def shape_evidence(claim_id: str, cold: pd.DataFrame, steady: str, other: str, op: str, *, profile: str,
                   seed: int = 0, n_resamples: "int | None" = None) -> _v.Evidence:
    """``other``'s relative residual around its fixed + per-byte cost fit minus ``steady``'s (in points of %,
    above 0: ``steady``'s time follows its cost model the more closely; a difference, not a ratio, since an exact
    fit's residual is near 0), with the bootstrap over processes and the A/A
    band of the control twin's residual over its main's. Speed does not enter: a mode's fixed cost and cost per
    byte are fitted away."""
    from cipherlab.experiments.aead.protocol import COLD_STYLE
    rules = _v.load_rules()
    n_resamples = int(n_resamples or rules["bootstrap_resamples"])
    conf = float(rules["confidence"])
    _, cm = PHASE1_CONTROL
    sizes, a = _per_process(cold, steady, op)
    if sizes.size < 3:
        raise ValueError(f"AES-{steady} {op} needs >= 3 sizes to fit a fixed and a per-byte cost")
    b, c_main, c_twin = (_per_process(cold, m, op, inst)[1] for m, inst in ((other, "main"), (cm, "main"),
                                                                          (cm, "control")))
    procs = min(x.shape[0] for x in (a, b, c_main, c_twin))
    a, b, c_main, c_twin = (x[:procs] for x in (a, b, c_main, c_twin))
    pick = np.random.default_rng(seed).integers(0, procs, size=(n_resamples, procs))
    tail = (1 - conf) / 2 * 100
    r = {k: np.exp(_log_fit_resid(sizes, x[pick])) * 100 for k, x in (("a", a), ("b", b), ("m", c_main),
                                                                          ("t", c_twin))}
    lo, hi = np.percentile(r["b"] - r["a"], [tail, 100 - tail])
    clo, chi = np.percentile(r["t"] - r["m"], [tail, 100 - tail])
    res = {m: float(np.exp(_log_fit_resid(sizes, x)) * 100) for m, x in ((steady, a), (other, b))}
    est = res[other] - res[steady]
    return _v.Evidence(claim_id, estimate=est, low=float(min(lo, est)), high=float(max(hi, est)), n=procs,
                       processes=procs, control_low=float(clo), control_high=float(chi), unit="%", style=COLD_STYLE,
                       mode=f"{other} vs {steady}", size=", ".join(f"{int(x)} B" for x in sizes), profile=profile,
                       section=SECTION, reading=f"{READINGS['shape']}, operation={op}",
                       detail=(f"relative RMS residual of the cold time (median of the processes' one call per "
                               f"file) around its fit t = a + b * size, {op}: AES-{LABELS[other]} "
                               f"{res[other]:.2f} %, AES-{LABELS[steady]} {res[steady]:.2f} % (fit_resid_pct of "
                               "aead_stability; the raw span of the throughput, which a fixed cost bends most for "
                               "the fastest mode, is shown there and decides nothing)"))


def stability_evidence(phase1: pd.DataFrame, *, profile: str, seed: int = 0, cold: "pd.DataFrame | None" = None,
                       claims=tuple(STABILITY_CLAIMS)) -> list[_v.Evidence]:
    """Evidence of :data:`STABILITY_CLAIMS`: one row per reading of "stable" (:data:`READINGS`; the fit across
    sizes only with ``cold``, the paper's protocol) and operation, the weaker of the modes compared deciding
    within it; the engine combines the readings, the least favourable deciding."""
    from cipherlab.experiments.aead.evidence import weakest
    out = []
    for cid in claims:
        steady, others, ops = STABILITY_CLAIMS[cid]
        for op in ops:
            evs = [spread_evidence(cid, phase1, steady, o, op, profile=profile, seed=seed) for o in others]
            out.append(weakest(evs, "modes") if len(evs) > 1 else evs[0])
            if cold is not None:
                evs = [shape_evidence(cid, cold, steady, o, op, profile=profile, seed=seed) for o in others]
                out.append(weakest(evs, "modes") if len(evs) > 1 else evs[0])
    return out


def stability_table(cold: pd.DataFrame, phase1: pd.DataFrame, mb_bytes: int = MB) -> pd.DataFrame:
    """Each mode's throughput at each size under the paper's protocol (median of the processes' single cold
    calls, MB/s) beside our warm, batched median; the mean relative IQR of the warm throughput (``rel_iqr_pct``,
    the call-to-call stability the rows decide on), the relative residual of the cold time around its fixed +
    per-byte cost fit (``fit_resid_pct``, the across-sizes stability they decide on) and the span of the cold
    throughput over the sizes (``span_pct``, shown, not deciding: it measures speed), each the same for every size of a mode and operation."""
    rows = []
    warm = phase1[phase1["instance"] == "main"].groupby(["mode", "operation", "bytes"])["seconds"].median()
    for op in ("encrypt", "decrypt"):
        for mode in MODES:
            sizes, tp = _per_process(cold, mode, op)
            span = span_pct(cold, mode, op)
            resid = fit_resid_pct(cold, mode, op) if sizes.size >= 3 else float("nan")
            spread = rel_iqr_pct(phase1, mode, op)
            for nb, v in zip(sizes, np.median(tp, axis=0)):
                t_warm = float(warm.get((mode, op, int(nb)), float("nan")))
                rows.append({"operation": op, "mode": mode, "bytes": int(nb), "cold_mb_per_s": v / mb_bytes,
                             "warm_mb_per_s": nb / mb_bytes / t_warm, "rel_iqr_pct": spread,
                             "fit_resid_pct": resid, "span_pct": span,
                             "processes": int(tp.shape[0])})
    return pd.DataFrame(rows)
