"""Paper 003's figures, rebuilt from our measurements (return matplotlib figures; the notebook saves them)."""
from __future__ import annotations

from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .measure import CIPHERS, LABELS, MODES, _check_choice

# ---------------------------------------------------------------------------
# Figures (return matplotlib figures; the notebook saves them)
# ---------------------------------------------------------------------------

_COLOURS = {"gcm": "#1f77b4", "ccm": "#ff7f0e", "eax": "#2ca02c",
            "aes": "#1f77b4", "blowfish": "#9467bd", "cast": "#8c564b"}


def plot_size_curves(summary: pd.DataFrame, group: str, operation: str, quantity: str, title: str):
    """Median with interquartile band against file size, one line per mode or cipher.

    Parameters
    ----------
    quantity : {"time", "throughput"}
    """
    _check_choice("group", group, ("mode", "cipher"))
    _check_choice("quantity", quantity, ("time", "throughput"))
    _check_choice("operation", operation, ("encrypt", "decrypt"))
    col = "s" if quantity == "time" else "mb_per_s"
    scale = 1e3 if quantity == "time" else 1.0
    fig, ax = plt.subplots()
    d = summary[summary["operation"] == operation]
    for k in [x for x in MODES + CIPHERS if x in set(d[group])]:
        p = d[d[group] == k].sort_values("bytes")
        ax.plot(p["mb"], p[f"median_{col}"] * scale, marker="o", color=_COLOURS[k], label=LABELS[k])
        ax.fill_between(p["mb"], p[f"q1_{col}"] * scale, p[f"q3_{col}"] * scale, color=_COLOURS[k], alpha=0.25,
                        linewidth=0)
    ax.set_xlabel("file size (MB = 10^6 bytes)")
    ax.set_ylabel("time (ms)" if quantity == "time" else "throughput (MB/s)")
    if quantity == "time":
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_title(title)
    ax.legend(title="median, IQR band")
    fig.tight_layout()
    return fig


def plot_forgery_times(table: pd.DataFrame, nbytes: int, title: str):
    """Median ``decrypt_and_verify`` time with IQR error bars (and the mean) per mode and tag kind at one size."""
    d = table[table["bytes"] == nbytes]
    fig, ax = plt.subplots()
    kinds = [k for k in ("random_tag", "flipped_tag", "valid") if k in set(d["kind"])]
    width = 0.8 / max(len(kinds), 1)
    hatches = {"random_tag": "", "flipped_tag": "//", "valid": ".."}
    for i, kind in enumerate(kinds):
        for j, mode in enumerate(("eax", "gcm", "ccm")):
            r = d[(d["mode"] == mode) & (d["kind"] == kind)]
            if r.empty:
                continue
            x = j + (i - (len(kinds) - 1) / 2) * width
            med, q1, q3 = r["median_us"].iloc[0], r["q1_us"].iloc[0], r["q3_us"].iloc[0]
            # Bars: median with interquartile error bars (robust to the outliers of a shared
            # machine); diamonds: the mean, the statistic the paper's tables report.
            ax.bar(x, med, width, yerr=[[med - q1], [q3 - med]],
                   color=_COLOURS[mode], hatch=hatches[kind], edgecolor="black", capsize=3,
                   label=kind.replace("_", " ") if j == 0 else None)
            ax.plot([x], [r["mean_us"].iloc[0]], marker="D", color="white", markeredgecolor="black",
                    linestyle="none", label="mean" if (i, j) == (0, 0) else None)
    ax.set_xticks(range(3), [LABELS[m] for m in ("eax", "gcm", "ccm")])
    ax.set_ylabel("decrypt_and_verify time (us): median, IQR; mean")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def plot_forgery_bound(bound: pd.DataFrame, modes: Sequence[str] = MODES):
    """log2 of the forgery bound against log2(q), one line per tag length, a panel per mode."""
    fig, axes = plt.subplots(1, len(modes), figsize=(11, 4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, mode in zip(axes, modes):
        d = bound[bound["mode"] == mode]
        lengths = sorted(d["tag_bytes"].unique())
        cmap = plt.get_cmap("viridis")
        for tb in lengths:
            p = d[d["tag_bytes"] == tb]
            # One colour per tag length across the panels; dashed: outside the mode's standard.
            ax.plot(p["log2_q"], p["log2_bound"], color=cmap((tb - 1) / 15),
                    linestyle="-" if bool(p["standard"].iloc[0]) else "--",
                    label=f"{8 * tb}" if tb in (2, 4, 8, 12, 16) else None)
        ax.set_title(f"{LABELS[mode]}: tags {8 * lengths[0]}-{8 * lengths[-1]} bits")
        ax.legend(title="tag bits", fontsize=8, loc="lower right")
        ax.set_xlabel("log2(q), forgery attempts")
    axes[0].set_ylabel("log2 P_forgery bound = min(0, log2 q - t)")
    fig.tight_layout()
    return fig


