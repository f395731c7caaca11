"""Paper 003's figures, rebuilt from our measurements (return matplotlib figures; the notebook saves them)."""
from __future__ import annotations

import re
from typing import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cipherlab._checks import check_choice
from cipherlab.experiments.aead.measure import CIPHERS, LABELS, MODES

# ---------------------------------------------------------------------------
# Figures (return matplotlib figures; the notebook saves them)
# ---------------------------------------------------------------------------

_COLOURS = {"gcm": "#1f77b4", "ccm": "#ff7f0e", "eax": "#2ca02c",
            "aes": "#1f77b4", "blowfish": "#9467bd", "cast": "#8c564b"}
#: Marker of a published point by its qualifier (the ``note`` of ``003_prose_throughput.csv`` up to ":").
_QUALIFIER_MARKERS = {"approximate": "X", "lower bound": "^"}


def prose_marks(prose: pd.DataFrame, paper_sizes_mb: Sequence[float], group: str, operation: str,
                quantity: str) -> pd.DataFrame:
    """The paper's prose numbers that belong on one size figure, as marks to draw.

    Parameters
    ----------
    prose : DataFrame
        Rows of ``data/paper/003_prose_throughput.csv`` (:func:`cipherlab.analysis.paper.published`).
    paper_sizes_mb : sequence of float
        The paper's file sizes (``003_setup.csv``): a quoted range "across all
        file sizes" spans all of them, a "plateau" the larger half (as
        :func:`.tables.prose_comparison` reads it).

    Returns
    -------
    DataFrame
        ``key, qualifier, mb_low, mb_high, low, high, label``: a point when
        ``mb_low == mb_high`` and ``low == high``, else a range; values in the
        quoted unit (seconds or MB/s).
    """
    check_choice("group", group, ("mode", "cipher"))
    check_choice("quantity", quantity, ("time", "throughput"))
    check_choice("operation", operation, ("encrypt", "decrypt"))
    sizes = sorted(float(x) for x in paper_sizes_mb)
    if not sizes:
        raise ValueError("paper_sizes_mb must name at least one size")
    word = "encryption" if operation == "encrypt" else "decryption"
    keys = MODES if group == "mode" else CIPHERS
    rows, ranges = [], {}
    for _, p in prose.iterrows():
        m = re.match(rf"{word} {quantity} (at ([\d.]+) MB|(range|plateau) (low|high))$", str(p["column"]))
        key = str(p["row"]).lower()
        if not m or key not in keys:
            continue
        value = float(p["value"])
        qualifier = str(p["note"]).split(":")[0]
        if m.group(2):
            mb = float(m.group(2))
            rows.append((key, qualifier, mb, mb, value, value, f"{p['table']}: {p['row']} {p['value']} {p['unit']}"))
        else:
            span = sizes if m.group(3) == "range" else [s for s in sizes if s >= float(np.median(sizes))]
            r = ranges.setdefault((key, m.group(3)), {"qualifier": qualifier, "mb": span, "table": p["table"],
                                                      "row": p["row"], "unit": p["unit"]})
            r[m.group(4)] = value
    for (key, _), r in ranges.items():
        lo, hi = r.get("low", r.get("high")), r.get("high", r.get("low"))
        rows.append((key, r["qualifier"], r["mb"][0], r["mb"][-1], lo, hi,
                     f"{r['table']}: {r['row']} {lo:g}-{hi:g} {r['unit']}"))
    return pd.DataFrame(rows, columns=["key", "qualifier", "mb_low", "mb_high", "low", "high", "label"])


def _draw_prose_marks(ax, marks: pd.DataFrame, scale: float) -> list:
    for r in marks.itertuples():
        colour = _COLOURS[r.key]
        if r.mb_low == r.mb_high and r.low == r.high:
            ax.plot([r.mb_low], [r.low * scale], marker=_QUALIFIER_MARKERS.get(r.qualifier, "s"), markersize=10,
                    color=colour, markeredgecolor="black", linestyle="none")
        else:
            ax.fill_between([r.mb_low, r.mb_high], [r.low * scale] * 2, [r.high * scale] * 2, facecolor="none",
                            edgecolor=colour, hatch="xx", linewidth=1)
    used = [q for q in _QUALIFIER_MARKERS if q in set(marks["qualifier"])]
    handles = [plt.Line2D([], [], marker=_QUALIFIER_MARKERS[q], color="grey", markeredgecolor="black",
                          linestyle="none", markersize=9, label=f"paper's prose, {q}") for q in used]
    if (marks["mb_low"] != marks["mb_high"]).any():
        handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="none", edgecolor="grey", hatch="xx",
                                     label="paper's prose, range"))
    return handles


def plot_size_curves(summary: pd.DataFrame, group: str, operation: str, quantity: str, title: str,
                     published: "pd.DataFrame | None" = None):
    """Median with interquartile band against file size, one line per mode or cipher.

    Parameters
    ----------
    quantity : {"time", "throughput"}
    published : DataFrame, optional
        From :func:`prose_marks`: the paper's quoted values, drawn in the same
        colour (a cross: approximate, a triangle: "over", hatched: a range).
    """
    check_choice("group", group, ("mode", "cipher"))
    check_choice("quantity", quantity, ("time", "throughput"))
    check_choice("operation", operation, ("encrypt", "decrypt"))
    col = "s" if quantity == "time" else "mb_per_s"
    scale = 1e3 if quantity == "time" else 1.0
    fig, ax = plt.subplots()
    d = summary[summary["operation"] == operation]
    for k in [x for x in MODES + CIPHERS if x in set(d[group])]:
        p = d[d[group] == k].sort_values("bytes")
        ax.plot(p["mb"], p[f"median_{col}"] * scale, marker="o", color=_COLOURS[k], label=LABELS[k])
        ax.fill_between(p["mb"], p[f"q1_{col}"] * scale, p[f"q3_{col}"] * scale, color=_COLOURS[k], alpha=0.25,
                        linewidth=0)
    handles = [] if published is None or published.empty else _draw_prose_marks(ax, published, scale)
    ax.set_xlabel("file size (MB = 10^6 bytes)")
    ax.set_ylabel("time (ms)" if quantity == "time" else "throughput (MB/s)")
    ax.set_xscale("log")
    if quantity == "time":
        ax.set_yscale("log")
    ax.set_title(title)
    ax.legend(handles=ax.get_legend_handles_labels()[0] + handles, title="ours: median, IQR band",
              fontsize=8)
    fig.tight_layout()
    return fig


def plot_forgery_times(table: pd.DataFrame, nbytes: int, title: str, published: "pd.DataFrame | None" = None,
                       published_label: str = "paper"):
    """Median ``decrypt_and_verify`` time with IQR error bars (and the mean) per mode and tag kind at one size.

    Parameters
    ----------
    published : DataFrame, optional
        One of the paper's Tables 5-7 (:func:`cipherlab.analysis.paper.published`):
        its mean ("Fail Avg.") and standard deviation ("Fail Std.") of the
        forged-tag check per mode are drawn as a red star with +-1 std bars
        beside our bars.  The y axis turns logarithmic when the paper's and our
        values differ by more than a factor 30 (another machine, or the quick
        profile's smaller files).
    published_label : str
        Legend text of the paper's mark (e.g. "paper, Table 5 (0.1 MB)").
    """
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
    values = list(d["q3_us"]) + list(d["median_us"])
    if published is not None and not published.empty:
        for j, mode in enumerate(("eax", "gcm", "ccm")):
            p = published[published["row"] == LABELS[mode]].set_index("column")["value"]
            if "Fail Avg." not in p.index:
                continue
            mean = float(p["Fail Avg."])
            std = float(p["Fail Std."]) if "Fail Std." in p.index else 0.0
            x = j + 0.45
            ax.errorbar([x], [mean], yerr=[[min(std, 0.999 * mean)], [std]], marker="*", markersize=13,
                        color="#d62728", markeredgecolor="black", capsize=4, linestyle="none",
                        label=published_label + ": mean, +-1 std" if j == 0 else None)
            values.append(mean)
        positive = [v for v in values if v > 0]
        if positive and max(positive) / min(positive) > 30:
            ax.set_yscale("log")
    ax.set_xticks(range(3), [LABELS[m] for m in ("eax", "gcm", "ccm")])
    ax.set_ylabel("decrypt_and_verify time (us): median, IQR; mean")
    ax.set_title(title)
    # Below the axes, never over the bars (the EAX group is at the left edge where "best" put it).
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, frameon=False)
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
    # What the two line styles mean, once for the figure.
    styles = [plt.Line2D([], [], color="black", linestyle="-", label="tag length the mode's standard allows"),
              plt.Line2D([], [], color="black", linestyle="--",
                         label="dashed: tag length outside the mode's standard (bound shown for comparison)")]
    fig.legend(handles=styles, loc="lower center", ncol=2, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig




#: Figs. 3-10: name -> (phase, group, operation, quantity, title).
SIZE_FIGURES = {
    "aead_fig03_enc_time": (1, "mode", "encrypt", "time", "Fig. 3: encryption time, AES-128"),
    "aead_fig04_dec_time": (1, "mode", "decrypt", "time", "Fig. 4: decryption + verification time, AES-128"),
    "aead_fig05_enc_tp": (1, "mode", "encrypt", "throughput", "Fig. 5: encryption throughput, AES-128"),
    "aead_fig06_dec_tp": (1, "mode", "decrypt", "throughput", "Fig. 6: decryption throughput, AES-128"),
    "aead_fig07_enc_time": (2, "cipher", "encrypt", "time", "Fig. 7: EAX encryption time"),
    "aead_fig08_dec_time": (2, "cipher", "decrypt", "time", "Fig. 8: EAX decryption + verification time"),
    "aead_fig09_enc_tp": (2, "cipher", "encrypt", "throughput", "Fig. 9: EAX encryption throughput"),
    "aead_fig10_dec_tp": (2, "cipher", "decrypt", "throughput", "Fig. 10: EAX decryption throughput"),
}
#: Figs. 11-13: name -> the paper's table of the same forgery data.
FORGERY_FIGURES = {"aead_fig11_forgery": "Table 5", "aead_fig12_forgery": "Table 6", "aead_fig13_forgery": "Table 7"}


def size_figures(summary1: pd.DataFrame, summary2: pd.DataFrame, prose: pd.DataFrame,
                 paper_sizes_mb: Sequence[float]) -> dict:
    """Figs. 3-10 (:data:`SIZE_FIGURES`): our curves, with the paper's prose values (:func:`prose_marks`) marked."""
    out = {}
    for name, (phase, group, op, qty, title) in SIZE_FIGURES.items():
        fig_no = int(name.split("_")[1][3:])
        marks = prose_marks(prose[prose["table"] == f"Figure {fig_no} (prose)"], paper_sizes_mb, group, op, qty)
        out[name] = plot_size_curves(summary1 if phase == 1 else summary2, group, op, qty, title, published=marks)
    return out


def forgery_figures(table: pd.DataFrame, published: pd.DataFrame, sizes_by_table: "dict[str, int]",
                    paper_sizes: "dict[str, str]", mb_bytes: int) -> dict:
    """Figs. 11-13 (:data:`FORGERY_FIGURES`): tag-check times at our size standing for each of Tables 5-7,
    the paper's mean and standard deviation of that table marked (its own size named in the legend)."""
    out = {}
    for name, tname in FORGERY_FIGURES.items():
        nb = sizes_by_table[tname]
        fig_no = int(name.split("_")[1][3:])
        out[name] = plot_forgery_times(table, nb, f"Fig. {fig_no}: tag check time at {nb / mb_bytes:g} MB ({tname})",
                                       published=published[published["table"] == tname],
                                       published_label=f"paper, {tname} at {paper_sizes[tname]}")
    return out
