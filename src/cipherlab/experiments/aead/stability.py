"""Paper 003's "stable" and "consistent" as the paper uses them: how little a throughput changes across file sizes.

The paper times one call per file and size (Pseudocodes 1-4): it has no repeated
measurement whose spread it could call stable. Where it says what it means, it
means the curve across sizes: Blowfish "remains relatively stable. This
demonstrates that performance appears relatively constant and does not increase
significantly as file size increases"; CAST "remains stable, ranging from ~45
to 50 MB/Sec across all file sizes" (Sec. 5.1.2). So a mode's stability here is
the **span** of its throughput over the paper's sizes, the largest per-size
throughput over the smallest (``span_pct`` = (max / min - 1) x 100, the paper's
"45 to 50" is a span of 11 %), each size's throughput the median of the
processes' calls, measured under the paper's protocol (one cold call per file
and process, :mod:`.protocol`), which drew its curves.

A claim that mode A is more stable than mode B is decided on B's span over A's
(``(1 + span_B) / (1 + span_A) - 1``, %, above 0 when A is the steadier), with a
bootstrap over processes (all sizes of a drawn process together) and the A/A
band of the twin case: the same ratio of the twin's span over the main case's.
:func:`stability_table` prints each mode's spans, so the figures of every
stability row can be read off it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead.chapter import MB
from cipherlab.experiments.aead.measure import LABELS, PHASE1_CONTROL

#: The claims decided on the span: claim -> (steadier mode, the modes it is claimed steadier than, operations).
STABILITY_CLAIMS = {
    "003-t2-gcm-most-stable": ("gcm", ("ccm", "eax"), ("encrypt",)),
    "003-s511-gcm-consistent": ("gcm", ("ccm", "eax"), ("encrypt", "decrypt")),
    "003-s511-ccm-stable": ("ccm", ("gcm",), ("encrypt", "decrypt")),
}
SECTION = "aead-stability"


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


def span_pct(cold: pd.DataFrame, mode: str, op: str, instance: str = "main") -> float:
    """The span of a mode's cold throughput over the sizes, (max / min - 1) x 100."""
    return float(np.expm1(_log_span(_per_process(cold, mode, op, instance)[1])) * 100)


def span_evidence(claim_id: str, cold: pd.DataFrame, steady: str, other: str, op: str, *, profile: str,
                  seed: int = 0, n_resamples: "int | None" = None) -> _v.Evidence:
    """``other``'s throughput span over ``steady``'s (%, above 0: ``steady`` varies less across sizes), with the
    bootstrap over processes and the A/A band of the control twin's span over its main case's."""
    rules = _v.load_rules()
    n_resamples = int(n_resamples or rules["bootstrap_resamples"])
    conf = float(rules["confidence"])
    _, cm = PHASE1_CONTROL
    sizes, a = _per_process(cold, steady, op)
    _, b = _per_process(cold, other, op)
    _, c_main = _per_process(cold, cm, op)
    _, c_twin = _per_process(cold, cm, op, instance="control")
    procs = a.shape[0]
    if not b.shape[0] == c_main.shape[0] == c_twin.shape[0] == procs:
        raise ValueError("every case must come from the same processes")
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, procs, size=(n_resamples, procs))

    def ratio(x, y, idx=None):      # (span of x) over (span of y), minus 1, %
        if idx is None:
            return float(np.expm1(_log_span(x) - _log_span(y)) * 100)
        return np.expm1(_log_span(x[idx]) - _log_span(y[idx])) * 100
    tail = (1 - conf) / 2 * 100
    lo, hi = np.percentile(ratio(b, a, pick), [tail, 100 - tail])
    clo, chi = np.percentile(ratio(c_twin, c_main, pick), [tail, 100 - tail])
    from cipherlab.experiments.aead.protocol import COLD_READING, COLD_STYLE
    spans = {m: float(np.expm1(_log_span(x)) * 100) for m, x in ((steady, a), (other, b))}
    return _v.Evidence(claim_id, estimate=ratio(b, a), low=float(lo), high=float(hi), n=procs, processes=procs,
                       control_low=float(clo), control_high=float(chi), unit="%", style=COLD_STYLE,
                       mode=f"{other} vs {steady}", size=", ".join(f"{int(s)} B" for s in sizes), profile=profile,
                       section=SECTION, reading=f"operation={op}",
                       detail=(f"throughput span over the sizes (largest over smallest per-size median, one cold "
                               f"call per file and process), {op}: AES-{LABELS[other]} {spans[other]:.1f} %, "
                               f"AES-{LABELS[steady]} {spans[steady]:.1f} % ({COLD_READING}; aead_stability)"))


def stability_evidence(cold: pd.DataFrame, *, profile: str, seed: int = 0,
                       claims=tuple(STABILITY_CLAIMS)) -> list[_v.Evidence]:
    """Evidence of :data:`STABILITY_CLAIMS`: one row per operation (the claim's readings), the weaker of the
    modes compared deciding within it."""
    from cipherlab.experiments.aead.evidence import weakest
    out = []
    for cid in claims:
        steady, others, ops = STABILITY_CLAIMS[cid]
        for op in ops:
            evs = [span_evidence(cid, cold, steady, o, op, profile=profile, seed=seed) for o in others]
            out.append(weakest(evs, "modes") if len(evs) > 1 else evs[0])
    return out


def stability_table(cold: pd.DataFrame, phase1: pd.DataFrame, mb_bytes: int = MB) -> pd.DataFrame:
    """Each mode's throughput at each size under the paper's protocol (median of the processes' single cold
    calls, MB/s) beside our warm, batched median, and the span of the cold throughput over the sizes
    (``span_pct``, the stability the rows decide on, the same for every size of a mode and operation)."""
    rows = []
    warm = phase1[phase1["instance"] == "main"].groupby(["mode", "operation", "bytes"])["seconds"].median()
    for op in ("encrypt", "decrypt"):
        for mode in ("gcm", "ccm", "eax"):
            sizes, tp = _per_process(cold, mode, op)
            span = span_pct(cold, mode, op)
            for nb, v in zip(sizes, np.median(tp, axis=0)):
                t_warm = float(warm.get((mode, op, int(nb)), float("nan")))
                rows.append({"operation": op, "mode": mode, "bytes": int(nb), "cold_mb_per_s": v / mb_bytes,
                             "warm_mb_per_s": nb / mb_bytes / t_warm, "span_pct": span,
                             "processes": int(tp.shape[0])})
    return pd.DataFrame(rows)
