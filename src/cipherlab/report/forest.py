"""The referee's report's figure: published against ours for every quantitative headline claim.

A forest plot: one row per claim, the published value as a black bar, ours as a marker with its
interval, the marker's colour *and* shape telling the verdict (:data:`cipherlab.present.verdict_table.MARKS`).
Claims that are ratios (speedups in %, read as ``1 + x/100``) share a log axis where 1 is "no
effect", with the noise band the rule applied shaded around it; other quantitative claims are
shown in a second panel as ours divided by the published value (1 = as printed), log scale too.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

from cipherlab.analysis.reasons import is_reference
from cipherlab.present.plotting import style
from cipherlab.present.verdict_table import MARKS, UNKNOWN_MARK
from cipherlab.report import tiers

#: How a reference value the paper quotes (not a result of its own) is drawn and named in the legend.
REFERENCE_STYLE = ":"
REFERENCE_LEGEND = "a reference the paper quotes, not its result"
#: Kinds whose numbers are comparable with the published value (p-values and structural checks are not).
QUANTITATIVE_KINDS = ("ratio", "value", "ordering")


def _num(v) -> "float | None":
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def claim_numbers(rows: pd.DataFrame, claims: pd.DataFrame, evidence: pd.DataFrame) -> pd.DataFrame:
    """Per verdict row with a numeric published value and estimate: the numbers the figure plots.

    The evidence row is the one the engine decided on (same claim, size, style, mode).
    Columns: claim_id, verdict, covered_by, kind, unit, published, estimate, low, high, band, ratio, reference
    (the published value is a reference the paper quotes, such as the avalanche criterion's 50 %, not its result).
    """
    pub = claims.set_index("claim_id")
    out = []
    for _, r in rows.iterrows():
        cid = r["claim_id"]
        if cid not in pub.index:
            continue
        c = pub.loc[cid]
        if str(c["kind"]) not in QUANTITATIVE_KINDS:
            continue
        published = _num(c.get("published_value"))
        evs = evidence[evidence["claim_id"] == cid]
        for key in ("size", "style", "mode"):
            if key in r and key in evs:
                match = evs[evs[key].astype(str) == str(r[key])]
                evs = match if len(match) else evs
        if published is None or evs.empty:
            continue
        ev = evs.iloc[0]
        est = _num(ev.get("estimate"))
        if est is None:
            continue
        unit = str(c.get("unit", "") or "")
        ratio = unit == "%" and str(c["kind"]) in ("ratio", "ordering")
        out.append({"claim_id": cid, "verdict": r["verdict"], "covered_by": r.get("covered_by", ""),
                    "kind": c["kind"], "unit": unit, "published": published, "estimate": est,
                    "low": _num(ev.get("low")), "high": _num(ev.get("high")),
                    "band": tiers.applied_band(r), "ratio": ratio, "reference": is_reference(c)})
    return pd.DataFrame(out, columns=["claim_id", "verdict", "covered_by", "kind", "unit", "published", "estimate",
                                      "low", "high", "band", "ratio", "reference"])


def _as_ratio(pct: "float | None") -> "float | None":
    return None if pct is None else 1.0 + pct / 100.0


def _panel(ax, data: pd.DataFrame, ratio: bool) -> None:
    y = np.arange(len(data))[::-1]
    lows = []
    for yi, (_, r) in zip(y, data.iterrows()):
        if ratio:
            pub, est = _as_ratio(r["published"]), _as_ratio(r["estimate"])
            lo, hi = _as_ratio(r["low"]), _as_ratio(r["high"])
        else:
            base = r["published"] if r["published"] else None
            pub = 1.0
            est = r["estimate"] / base if base else None
            lo = r["low"] / base if base and r["low"] is not None else None
            hi = r["high"] / base if base and r["high"] is not None else None
        bg, _, _, marker = MARKS.get(r["verdict"], UNKNOWN_MARK)
        vals = [v for v in (pub, est, lo, hi) if v is not None and v > 0]
        lows += vals
        if pub and pub > 0:   # a reference value the paper quotes is drawn apart from its own figures
            ax.plot([pub, pub], [yi - 0.32, yi + 0.32], color="black", lw=2.2, solid_capstyle="butt", zorder=3,
                    ls=REFERENCE_STYLE if r.get("reference", False) else "-")
        if lo is not None and hi is not None and lo > 0 and hi > 0:
            ax.plot([lo, hi], [yi, yi], color=bg, lw=2, zorder=2)
        if est is not None and est > 0:
            ax.scatter([est], [yi], marker=marker, s=70, color=bg, edgecolor="black", linewidth=0.6, zorder=4)
        if ratio and r["band"] is not None:
            b_lo, b_hi = (_as_ratio(x) for x in r["band"])
            # a band reaching -100 % or below reaches ratio 0: it runs off the log axis's left edge
            ax.fill_betweenx([yi - 0.45, yi + 0.45], max(b_lo, 1e-3), max(b_hi, 2e-3), color="#9e9e9e", alpha=0.35,
                             lw=0, zorder=1)
    ax.set_xscale("log")
    ax.axvline(1.0, color="#555", lw=0.8, ls=":", zorder=0)
    ax.set_yticks(y)
    ax.set_yticklabels(data["claim_id"], fontsize=9)
    ax.tick_params(axis="x", labelsize=9)
    ax.set_ylim(-0.7, len(data) - 0.3)
    if lows:
        lo, hi = min(lows + [1.0]), max(lows + [1.0])
        ax.set_xlim(lo / 1.3, hi * 1.3)
    _plain_log_ticks(ax)
    ax.set_xlabel("ratio = 1 + (claimed or measured %) / 100   (1 = no difference)" if ratio
                  else "ours ÷ published or reference value (1 = as stated)", fontsize=9)


def _tick_text(value: float, _pos=None) -> str:
    """A ratio as a reader writes it: 0.5, 1, 2, 10, 0.02 (not 10⁰ or 2×10⁰)."""
    return f"{value:.3g}" if value < 1000 else f"{value:,.0f}"


def _plain_log_ticks(ax) -> None:
    """Ticks at 1, 2 and 5 times each power of ten (a narrow axis: about five evenly spaced ones),
    labelled as plain numbers; no minor labels."""
    lo, hi = ax.get_xlim()
    narrow = lo > 0 and hi / lo < 4
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]) if narrow
                               else LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FuncFormatter(_tick_text))
    ax.xaxis.set_minor_formatter(NullFormatter())


def forest_figure(numbers: pd.DataFrame, paper: str) -> "plt.Figure":
    """The report's figure (a figure that says so when the paper has no quantitative headline claim)."""
    style()
    if numbers.empty:
        fig, ax = plt.subplots(figsize=(7.0, 1.2))
        ax.axis("off")
        ax.text(0.5, 0.5, f"Paper {paper}: no quantitative headline claim with a number was decided in this run.",
                ha="center", va="center", fontsize=10)
        return fig
    panels = [(True, numbers[numbers["ratio"]]), (False, numbers[~numbers["ratio"]])]
    panels = [(r, d) for r, d in panels if len(d)]
    heights = [max(len(d), 1) * 0.42 + 0.9 for _, d in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(7.0, sum(heights) + 0.9),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, (ratio, data) in zip(axes[:, 0], panels):
        _panel(ax, data.reset_index(drop=True), ratio)
        ax.set_title("speed claims (ratios)" if ratio else "other quantitative claims", fontsize=10, loc="left")
    present = [v for v in (*tiers.ALL_VERDICTS, "finding") if v in set(numbers["verdict"])]
    handles = [Line2D([], [], ls="", marker=MARKS[v][3], markersize=8, markerfacecolor=MARKS[v][0],
                      markeredgecolor="black", label=v) for v in present]
    ref = (numbers["reference"].fillna(False).astype(bool) if "reference" in numbers
           else pd.Series(False, index=numbers.index))
    if (~ref).any():
        handles.append(Line2D([], [], color="black", lw=2.2, label="published by the paper"))
    if ref.any():
        handles.append(Line2D([], [], color="black", lw=2.2, ls=REFERENCE_STYLE, label=REFERENCE_LEGEND))
    if numbers["ratio"].any() and numbers["band"].notna().any():
        handles.append(plt.Rectangle((0, 0), 1, 1, color="#9e9e9e", alpha=0.35, label="noise band applied"))
    fig.legend(handles=handles, loc="lower center", ncol=min(4, len(handles)), fontsize=9, frameon=False,
               bbox_to_anchor=(0.5, 0.0))
    fig.suptitle(f"Paper {paper}: published against ours", fontsize=11, x=0.02, ha="left")
    fig.tight_layout(rect=(0, 0.06 + 0.03 * (len(handles) > 4), 1, 0.97))
    return fig
