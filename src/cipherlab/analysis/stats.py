"""Statistics helpers, all on top of :mod:`scipy.stats`.

``welch_table``, ``speedup``, ``speedup_ci`` (the one bootstrap: processes, then the rounds within them),
``process_pvalue`` (a p-value over processes, the independent unit), ``byte_entropy``,
``chi_square_uniform``, ``family_scale`` (Bonferroni widening of a family of intervals).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

#: Row labels of Excel's "t-Test: Two-Sample Assuming Unequal Variances", the layout of papers 000/001.
WELCH_ROWS = (
    "Mean", "Variance", "Observations", "Hypothesized Mean Difference", "df", "t Stat",
    "P(T<=t) one-tail", "t Critical one-tail", "P(T<=t) two-tail", "t Critical two-tail",
)


def _as_sample(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64).ravel()
    if arr.size < 2:
        raise ValueError(f"{name} needs at least 2 observations, got {arr.size}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def welch_from_stats(mean1: float, var1: float, n1: int, mean2: float, var2: float, n2: int,
                     alpha: float = 0.05, hypothesized_difference: float = 0.0) -> dict[str, float]:
    """Welch's unequal-variance t-test from summary statistics.

    Returns the quantities of Excel's layout (see :data:`WELCH_ROWS`, minus the
    per-sample rows).  ``df`` is the Welch-Satterthwaite value, unrounded;
    p-values are for the direction of the observed ``t`` (as Excel reports them).
    """
    if n1 < 2 or n2 < 2:
        raise ValueError(f"n1 and n2 must be >= 2, got {n1} and {n2}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    se1, se2 = var1 / n1, var2 / n2
    df = (se1 + se2) ** 2 / (se1 ** 2 / (n1 - 1) + se2 ** 2 / (n2 - 1))
    t = (mean1 - mean2 - hypothesized_difference) / np.sqrt(se1 + se2)
    res = _st.ttest_ind_from_stats(mean1 - hypothesized_difference, np.sqrt(var1), n1,
                                   mean2, np.sqrt(var2), n2, equal_var=False)
    p_two = float(res.pvalue)
    return {
        "Hypothesized Mean Difference": float(hypothesized_difference),
        "df": float(df),
        "t Stat": float(t),
        "P(T<=t) one-tail": p_two / 2.0,
        "t Critical one-tail": float(_st.t.ppf(1 - alpha, df)),
        "P(T<=t) two-tail": p_two,
        "t Critical two-tail": float(_st.t.ppf(1 - alpha / 2, df)),
    }


def welch_table(a: Sequence[float], b: Sequence[float], *, labels: Sequence[str] = ("Variable 1", "Variable 2"),
                alpha: float = 0.05, hypothesized_difference: float = 0.0) -> pd.DataFrame:
    """Welch's t-test of two samples in the papers' (Excel ToolPak) layout.

    Parameters
    ----------
    a, b : array_like
        The two samples (e.g. per-trial times of the old and the new cipher).
    labels : pair of str
        Column headers.
    alpha : float
        Significance level of the critical values.
    hypothesized_difference : float
        Mean difference under the null hypothesis.

    Returns
    -------
    DataFrame
        Index :data:`WELCH_ROWS`, one column per sample; test statistics sit
        in the first column, as in Excel.  ``t`` and the p-values come from
        :func:`scipy.stats.ttest_ind` with ``equal_var=False``.
    """
    x, y = _as_sample(a, "a"), _as_sample(b, "b")
    if len(labels) != 2:
        raise ValueError("labels must hold two names")
    res = _st.ttest_ind(x - hypothesized_difference, y, equal_var=False)
    summary = welch_from_stats(x.mean(), x.var(ddof=1), x.size, y.mean(), y.var(ddof=1), y.size,
                               alpha=alpha, hypothesized_difference=hypothesized_difference)
    # scipy is the source of t and p; the summary-statistics route must agree with it.
    summary["t Stat"] = float(res.statistic)
    summary["P(T<=t) two-tail"] = float(res.pvalue)
    summary["P(T<=t) one-tail"] = float(res.pvalue) / 2.0
    col_a = [x.mean(), x.var(ddof=1), x.size] + [summary[r] for r in WELCH_ROWS[3:]]
    col_b = [y.mean(), y.var(ddof=1), y.size] + [np.nan] * (len(WELCH_ROWS) - 3)
    return pd.DataFrame({labels[0]: col_a, labels[1]: col_b}, index=pd.Index(WELCH_ROWS, name="statistic"))


def speedup(t_old: "float | np.ndarray", t_new: "float | np.ndarray") -> "float | np.ndarray":
    """Speedup in percent as papers 000/001 define it: ``(T_old / T_new - 1) * 100``."""
    return (np.asarray(t_old) / np.asarray(t_new) - 1.0) * 100.0


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float
    confidence: float


#: Statistics a speed comparison can be decided on (``config/verdicts.yaml`` picks one).
SPEED_STATISTICS = {
    "median": lambda x, axis=-1: np.median(x, axis=axis),
    "mean": lambda x, axis=-1: np.mean(x, axis=axis),
    "q25": lambda x, axis=-1: np.quantile(x, 0.25, axis=axis),
}
#: Every statistic :func:`speedup_ci` can compare: the speed statistics and two of spread
#: (standard deviation, coefficient of variation), for claims that one case varies more.
RATIO_STATISTICS = {
    **SPEED_STATISTICS,
    "std": lambda x, axis=-1: np.std(x, axis=axis, ddof=1),
    "cv": lambda x, axis=-1: np.std(x, axis=axis, ddof=1) / np.mean(x, axis=axis),
}


#: Statistics of the per-round log ratios that a paired comparison (``paired=True``) can take.
PAIRED_STATISTICS = ("median", "mean")


def speedup_ci(old: Sequence[float], new: Sequence[float], *, statistic: str = "median",
               confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0,
               method: str = "percentile", paired: bool = False) -> Interval:
    """Speedup in percent, ``(stat(old) / stat(new) - 1) * 100``, with a bootstrap interval.

    The one bootstrap of cipherlab, seeded, so the same samples always give
    the same interval.

    * **One process** (1-D samples, or arrays of one row): the two samples are
      resampled independently (trials are not paired) by
      :func:`scipy.stats.bootstrap`, vectorized.
    * **Several processes** (2-D samples, processes x trials, as
      :func:`cipherlab.analysis.timing.trials_by_process` gives, both with the
      same processes in the same order): the ratio ``stat(old) / stat(new)``
      is taken within each process, where both cases were timed side by side,
      and the processes' ratios are combined by their geometric mean.  A
      process that ran slower as a whole (another core, a busy neighbour)
      shifts both cases alike and so cancels, as it would not in a ratio of
      pooled statistics.  The interval is a two-level percentile bootstrap:
      each resample draws the processes with replacement, then the trials
      within each drawn process, independently for the two cases; so it
      includes the spread between fresh processes that a bootstrap over one
      process's trials cannot see.
    * **Paired** (``paired=True``; old and new of the same shape, trial ``t``
      of both timed in the same interleaved round, as :func:`cipherlab.analysis.timing.measure`
      runs them): the ratio is taken **within each round**, ``old[p, t] / new[p, t]``,
      and ``statistic`` (median or mean) is taken of the rounds' log ratios in
      each process; the processes combine by their mean (a geometric mean of
      ratios).  A slow spell of the machine that lasts longer than a round
      (a frequency step, a neighbour's burst) slows both calls of the round
      alike and cancels, as it does not in a ratio of each case's own median.
      The bootstrap draws processes, then rounds within each, keeping each
      round's pair together.

    Parameters
    ----------
    old, new : array_like
        Per-call times of the baseline and of the candidate (>= 2 each): 1-D,
        or processes x trials.
    statistic : {"median", "mean", "q25", "std", "cv"}
        What is compared (:data:`RATIO_STATISTICS`): a speed statistic, or
        the spread of the trials (then the result is how much more ``old``
        spreads than ``new``, in percent).
    confidence : float
        In (0, 1).
    n_resamples : int
        >= 100.
    seed : int
        Seeds the resampling.
    method : {"percentile", "BCa", "basic"}
        Passed to :func:`scipy.stats.bootstrap` (one process only; several
        processes take the percentile interval).
    paired : bool
        Compare round by round (see above); ``statistic`` must then be one of
        :data:`PAIRED_STATISTICS`.
    """
    x, y = _as_trials(old, "old"), _as_trials(new, "new")
    if paired:
        return _paired_speedup_ci(x, y, statistic=statistic, confidence=confidence, n_resamples=n_resamples,
                                  seed=seed, method=method)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"old and new must come from the same processes, got {x.shape[0]} and {y.shape[0]} rows")
    if statistic not in RATIO_STATISTICS:
        raise ValueError(f"statistic must be one of {tuple(RATIO_STATISTICS)}, got {statistic!r}")
    _check_interval_args(confidence, n_resamples, method)
    f = RATIO_STATISTICS[statistic]

    def stat(o, n, axis=-1):
        return (f(o, axis=axis) / f(n, axis=axis) - 1.0) * 100.0

    def per_process(o, n):   # o, n: (..., processes, trials) -> geometric mean over processes of the ratios
        return (np.exp(np.mean(np.log(f(o, axis=-1) / f(n, axis=-1)), axis=-1)) - 1.0) * 100.0

    estimate = float(stat(x[0], y[0])) if x.shape[0] == 1 else float(per_process(x, y))
    if np.ptp(x) == 0 and np.ptp(y) == 0:  # constant samples: scipy warns of a degenerate distribution
        return Interval(estimate, estimate, estimate, confidence)
    rng = np.random.default_rng(seed)
    if x.shape[0] == 1:
        xs, ys = x[0], y[0]
        batch = max(1, int(2e7 // max(xs.size, ys.size)))
        res = _st.bootstrap((xs, ys), stat, paired=False, vectorized=True, confidence_level=confidence,
                            n_resamples=int(n_resamples), method=method, batch=batch, rng=rng)
        return Interval(estimate, float(res.confidence_interval.low), float(res.confidence_interval.high),
                        confidence)
    dist = np.empty(int(n_resamples))
    procs = x.shape[0]
    batch = max(1, int(2e7 // (procs * max(x.shape[1], y.shape[1]))))
    for lo in range(0, dist.size, batch):
        b = min(batch, dist.size - lo)
        pick = rng.integers(0, procs, size=(b, procs, 1))                  # processes, shared by both samples
        xo = x[pick, rng.integers(0, x.shape[1], size=(b, procs, x.shape[1]))]
        yo = y[pick, rng.integers(0, y.shape[1], size=(b, procs, y.shape[1]))]
        dist[lo:lo + b] = per_process(xo, yo)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(dist, [tail, 100 - tail])
    return Interval(estimate, float(low), float(high), confidence)


def _paired_speedup_ci(x: np.ndarray, y: np.ndarray, *, statistic: str, confidence: float, n_resamples: int,
                       seed: int, method: str) -> Interval:
    """:func:`speedup_ci` with ``paired=True``: the statistic of the per-round log ratios."""
    if x.shape != y.shape:
        raise ValueError(f"paired samples must have the same processes x trials shape, got {x.shape} and {y.shape}")
    if statistic not in PAIRED_STATISTICS:
        raise ValueError(f"statistic must be one of {PAIRED_STATISTICS} for a paired comparison, got {statistic!r}")
    _check_interval_args(confidence, n_resamples, method)
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("paired samples must be positive times (their ratios are taken in logs)")
    f = SPEED_STATISTICS[statistic]
    d = np.log(x / y)                                             # processes x rounds

    def combine(logs, axis=-1):                                   # (..., processes, rounds) -> percent
        return (np.exp(np.mean(f(logs, axis=axis), axis=-1)) - 1.0) * 100.0

    estimate = float(combine(d))
    if np.ptp(d) == 0:
        return Interval(estimate, estimate, estimate, confidence)
    rng = np.random.default_rng(seed)
    if d.shape[0] == 1:
        batch = max(1, int(2e7 // d.shape[1]))
        res = _st.bootstrap((d[0],), lambda s, axis=-1: (np.exp(f(s, axis=axis)) - 1.0) * 100.0,
                            vectorized=True, confidence_level=confidence, n_resamples=int(n_resamples),
                            method=method, batch=batch, rng=rng)
        return Interval(estimate, float(res.confidence_interval.low), float(res.confidence_interval.high),
                        confidence)
    procs, rounds = d.shape
    dist = np.empty(int(n_resamples))
    batch = max(1, int(2e7 // (procs * rounds)))
    for lo in range(0, dist.size, batch):
        b = min(batch, dist.size - lo)
        pick = rng.integers(0, procs, size=(b, procs, 1))
        dist[lo:lo + b] = combine(d[pick, rng.integers(0, rounds, size=(b, procs, rounds))])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(dist, [tail, 100 - tail])
    return Interval(estimate, float(low), float(high), confidence)


def process_pvalue(old: Sequence[float], new: Sequence[float], *, statistic: str = "median",
                   paired: bool = True) -> float:
    """Two-sided p-value of "no speed difference", tested at the level of the independent unit, the process.

    Trials timed in one process share its warm-up, its memory layout and its
    spell of machine load: they are not independent observations, and a test
    that pools them (a Mann-Whitney U or Welch test over all trials of a few
    processes) counts one process's bias many times and gives p-values far too
    small (pseudo-replication).  Here each process gives one number, the log
    of its speed ratio (``paired``: ``statistic`` of its rounds' log ratios, as
    :func:`speedup_ci` takes it; else the log of ``stat(old) / stat(new)``),
    and a one-sample t-test asks whether their mean is 0, with ``processes - 1``
    degrees of freedom (:func:`scipy.stats.ttest_1samp`).

    ``old`` and ``new`` are processes x trials from the same processes (at
    least 2: one process gives no p-value, its trials being one unit).
    """
    x, y = _as_trials(old, "old"), _as_trials(new, "new")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"old and new must come from the same processes, got {x.shape[0]} and {y.shape[0]} rows")
    if x.shape[0] < 2:
        raise ValueError(f"a process-level p-value needs at least 2 processes, got {x.shape[0]}")
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("old and new must be positive times (their ratios are taken in logs)")
    if paired:
        if x.shape != y.shape:
            raise ValueError(f"paired samples must have the same processes x trials shape, got {x.shape} and "
                             f"{y.shape}")
        if statistic not in PAIRED_STATISTICS:
            raise ValueError(f"statistic must be one of {PAIRED_STATISTICS} for a paired comparison, "
                             f"got {statistic!r}")
        units = SPEED_STATISTICS[statistic](np.log(x / y), axis=-1)
    else:
        if statistic not in SPEED_STATISTICS:
            raise ValueError(f"statistic must be one of {tuple(SPEED_STATISTICS)}, got {statistic!r}")
        f = SPEED_STATISTICS[statistic]
        units = np.log(f(x, axis=-1) / f(y, axis=-1))
    if np.ptp(units) == 0:                        # every process agrees exactly: no spread to test against
        return 1.0 if units[0] == 0 else 0.0
    return float(_st.ttest_1samp(units, 0.0).pvalue)


def _check_interval_args(confidence: float, n_resamples: int, method: str) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 100:
        raise ValueError(f"n_resamples must be an integer >= 100, got {n_resamples!r}")
    if method not in ("percentile", "BCa", "basic"):
        raise ValueError(f"method must be one of percentile, BCa, basic; got {method!r}")


def _as_trials(x, name: str) -> np.ndarray:
    """A sample as processes x trials (a 1-D sample is one process)."""
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 1-D (trials) or 2-D (processes x trials), got {arr.ndim} dimensions")
    _as_sample(arr, name)
    if arr.shape[1] < 1:
        raise ValueError(f"{name} needs at least 1 trial per process")
    return arr


def bootstrap_speedup_ci(old: Sequence[float], new: Sequence[float], *, confidence: float = 0.95,
                         n_resamples: int = 10_000, seed: int = 0) -> Interval:
    """Speedup of **mean** times with a BCa interval: :func:`speedup_ci` as papers 000/001 compare."""
    return speedup_ci(old, new, statistic="mean", confidence=confidence, n_resamples=n_resamples,
                      seed=seed, method="BCa")


def byte_histogram(data) -> np.ndarray:
    """Counts of each byte value 0..255."""
    arr = np.frombuffer(data, dtype=np.uint8) if isinstance(data, (bytes, bytearray, memoryview)) \
        else np.asarray(data, dtype=np.uint8).ravel()
    return np.bincount(arr, minlength=256)


def byte_entropy(data) -> float:
    """Shannon entropy of the byte distribution in bits per byte (8.0 is the maximum)."""
    counts = byte_histogram(data)
    if counts.sum() == 0:
        raise ValueError("data must not be empty")
    return float(_st.entropy(counts, base=2))


def chi_square_uniform(data) -> tuple[float, float]:
    """Chi-square goodness of fit of the byte histogram to uniform: ``(statistic, p_value)``."""
    counts = byte_histogram(data)
    if counts.sum() == 0:
        raise ValueError("data must not be empty")
    res = _st.chisquare(counts)
    return float(res.statistic), float(res.pvalue)


def timing_summary(df: pd.DataFrame, by: Sequence[str], value: str = "seconds") -> pd.DataFrame:
    """Median, quartiles, mean, standard deviation and count of ``value`` per group."""
    g = df.groupby(list(by), sort=True)[value]
    out = pd.DataFrame({
        "n": g.size(),
        "median": g.median(),
        "q1": g.quantile(0.25),
        "q3": g.quantile(0.75),
        "mean": g.mean(),
        "std": g.std(ddof=1),
        "min": g.min(),
        "max": g.max(),
    })
    return out.reset_index()


def family_scale(confidence: float, m: int) -> float:
    """How much wider each of ``m`` intervals at ``confidence`` must be to hold at that level family-wise
    (Bonferroni: each at ``1 - (1 - confidence) / m``), by the normal quantiles' ratio: 1 for ``m = 1``.
    Applied to each side of a percentile interval about its estimate (:func:`widen`)."""
    if not 0 < confidence < 1 or int(m) < 1:
        raise ValueError(f"confidence must lie in (0, 1) and m be >= 1, got {confidence!r}, {m!r}")
    alpha = 1 - confidence
    return float(_st.norm.ppf(1 - alpha / (2 * int(m))) / _st.norm.ppf(1 - alpha / 2))


def widen(est: float, lo: float, hi: float, scale: float) -> tuple[float, float]:
    """An interval ``[lo, hi]`` about ``est`` with each side ``scale`` times as long."""
    return est - (est - lo) * scale, est + (hi - est) * scale

