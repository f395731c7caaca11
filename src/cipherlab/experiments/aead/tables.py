"""Paper 003: the paper's worded Tables 1-4 derived by a rule, ratios, the machines and the prose numbers.

These tables describe; they decide nothing.  Verdicts come from
:mod:`cipherlab.analysis.verdicts` on the evidence of :mod:`.evidence`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import pandas as pd

from cipherlab._checks import check_choice
from cipherlab.present.display import format_number
from cipherlab.experiments.aead.measure import CIPHERS, LABELS, MODES

# ---------------------------------------------------------------------------
# Tables 1-4: the qualitative ranking rule
# ---------------------------------------------------------------------------

#: The rule's thresholds, parameters of :func:`ranking_table`.
@dataclass(frozen=True)
class RankingRule:
    """Thresholds of the rule that turns measurements into the paper's wording.

    Parameters
    ----------
    linear_tolerance : float
        Time grows "linearly" (affinely: a fixed cost plus a cost per byte)
        when a straight-line fit of median time against size is within this
        fraction of every median.
    convergent_tolerance : float
        Encryption and decryption times "converge" when, for every group, the
        median over sizes of |enc/dec - 1| is within this fraction.
    flat_tolerance : float
        Throughput is "flat" when largest-size / smallest-size throughput is
        within this fraction of 1.
    """

    linear_tolerance: float = 0.20
    convergent_tolerance: float = 0.25
    flat_tolerance: float = 0.15


_RANK_WORDS = {1: "Highest", 2: "Medium", 3: "Lowest"}
def _loglog_slope(sizes: np.ndarray, values: np.ndarray) -> float:
    if len(sizes) < 2:
        return float("nan")
    return float(np.polyfit(np.log(sizes), np.log(values), 1)[0])


def _growth(sizes: np.ndarray, times: np.ndarray, tolerance: float) -> tuple[str, float, float, float]:
    """Name how time grows with size: (kind, fixed cost s, worst relative misfit, log-log slope)."""
    slope = _loglog_slope(sizes, times)
    if len(sizes) < 3:
        return "too few sizes", float("nan"), float("nan"), slope
    # Weights 1/t make the fit minimise relative error, so the small files count as much as the large.
    b, a = np.polyfit(sizes, times, 1, w=1 / times)
    misfit = float(np.max(np.abs((a + b * sizes) - times) / times))
    if misfit <= tolerance and b > 0:
        kind = "linear"
    else:
        kind = "super-linear" if slope > 1 else "sub-linear"
    return kind, float(a), misfit, slope


def _order_counts(summary: pd.DataFrame, group: str, operation: str, value: str, lowest_first: bool):
    """Per size the groups ordered best first; counts of how often each group is first/last."""
    d = summary[summary["operation"] == operation]
    first, last, orders = {}, {}, []
    for nbytes, part in d.groupby("bytes", sort=True):
        order = list(part.sort_values(value, ascending=lowest_first, kind="stable")[group])
        orders.append(tuple(order))
        first[order[0]] = first.get(order[0], 0) + 1
        last[order[-1]] = last.get(order[-1], 0) + 1
    return orders, first, last


def _count_phrase(name: str, k: int, n: int) -> str:
    return f"{name} at every size ({n} of {n})" if k == n else f"{name} at {k} of {n} sizes"


def ranking_table(summary: pd.DataFrame, group: str, rule: RankingRule = RankingRule()) -> pd.DataFrame:
    """Our wording of the paper's qualitative tables, derived from the measurements.

    For ``group="mode"`` (phase 1) this builds Table 1 (times) and Table 2
    (throughput); for ``group="cipher"`` (phase 2) Table 3 (times) and
    Table 4 (throughput).  Rule: a group ranks by its median at each size;
    "fastest"/"slowest" name the group first/last at most sizes with the
    count; overall rank is by the mean over sizes of median throughput; time
    growth is named from the log-log slope; stability is the mean relative
    IQR of throughput.

    Returns
    -------
    DataFrame
        Columns ``table, row, column, ours, rank, detail``.
    """
    check_choice("group", group, ("mode", "cipher"))
    names = sorted(summary[group].unique(), key=lambda x: (MODES + CIPHERS).index(x))
    t_time, t_tp = ("Table 1", "Table 2") if group == "mode" else ("Table 3", "Table 4")
    rows = []
    n_sizes = summary["bytes"].nunique()
    ops = [o for o in ("encrypt", "decrypt") if o in set(summary["operation"])]
    col = {"encrypt": "Encryption", "decrypt": "Decryption"}
    # Table 1/3: time.
    enc = summary[summary["operation"] == "encrypt"].set_index([group, "bytes"])["median_s"]
    dec = summary[summary["operation"] == "decrypt"].set_index([group, "bytes"])["median_s"]
    gap = (enc / dec - 1).abs().dropna()
    per_group = gap.groupby(level=0).median() if len(gap) else pd.Series(dtype=float)
    dev = float(per_group.max()) if len(per_group) else float("nan")
    worst_group = per_group.idxmax() if len(per_group) else None
    for op in ops:
        conv = "convergent" if dev <= rule.convergent_tolerance else "different"
        rows.append((t_time, "Overall Time", col[op],
                     f"encryption and decryption {conv} (median enc/dec gap at most {dev:.0%}, "
                     f"{LABELS.get(worst_group, '-')})", None, f"{dev:.4f}"))
        _, first, last = _order_counts(summary, group, op, "median_s", lowest_first=True)
        best = max(first, key=lambda k: (first[k], -names.index(k)))
        worst = max(last, key=lambda k: (last[k], -names.index(k)))
        rows.append((t_time, "Fastest", col[op], _count_phrase(LABELS[best], first[best], n_sizes), None, best))
        rows.append((t_time, "Slowest", col[op], _count_phrase(LABELS[worst], last[worst], n_sizes), None, worst))
        d = summary[summary["operation"] == op]
        growth = {k: _growth(p["bytes"].to_numpy(float), p["median_s"].to_numpy(float), rule.linear_tolerance)
                  for k, p in d.groupby(group)}
        parts = []
        for k in names:
            kind, fixed, misfit, slope = growth[k]
            parts.append(f"{LABELS[k]} {kind} (fixed cost {fixed * 1e6:.0f} us, misfit {misfit:.0%})")
        rows.append((t_time, "Gradual Behavior", col[op], "; ".join(parts), None,
                     ";".join(f"{k}={growth[k][0]}" for k in names)))
    # Table 2/4: throughput.
    for op in ops:
        d = summary[summary["operation"] == op]
        mean_tp = d.groupby(group)["median_mb_per_s"].mean()
        order = list(mean_tp.sort_values(ascending=False, kind="stable").index)
        rel_iqr = ((d["q3_mb_per_s"] - d["q1_mb_per_s"]) / d["median_mb_per_s"]).groupby(d[group]).mean()
        most_stable = rel_iqr.idxmin()
        _, first, _ = _order_counts(summary, group, op, "median_mb_per_s", lowest_first=False)
        for k in names:
            rank = order.index(k) + 1
            word = _RANK_WORDS.get(rank, f"rank {rank}")
            if group == "cipher":
                word = {1: "Fastest", 2: "Medium", 3: "Slowest"}.get(rank, word)
            if k == most_stable:
                word += " & Most Stable"
            detail = (f"mean of medians {mean_tp[k]:.1f} MB/s; first at {first.get(k, 0)} of {n_sizes} sizes; "
                      f"mean relative IQR {rel_iqr[k]:.1%}")
            rows.append((t_tp, f"Throughput {col[op]}", LABELS[k], word, rank, detail))
    # Trend with increasing volume: throughput growth from smallest to largest size.
    for k in names:
        parts = []
        for op in ops:
            d = summary[(summary["operation"] == op) & (summary[group] == k)].sort_values("bytes")
            growth = float(d["median_mb_per_s"].iloc[-1] / d["median_mb_per_s"].iloc[0])
            trend = "flat" if abs(growth - 1) <= rule.flat_tolerance else ("rises" if growth > 1 else "falls")
            parts.append(f"{col[op].lower()} {trend} x{growth:.2f}")
        rows.append((t_tp, "Trend with Increasing Volume", LABELS[k], "; ".join(parts), None,
                     f"{d['mb'].iloc[0]:g} to {d['mb'].iloc[-1]:g} MB"))
    return pd.DataFrame(rows, columns=["table", "row", "column", "ours", "rank", "detail"])


#: The claim of ``data/paper/claims.csv`` that tests each worded cell of Tables 1, 2 and 4
#: (Table 3's printed body repeats Table 2 and is tested there).
WORDING_CLAIMS = {
    ("Table 1", "Fastest Mode"): "003-t1-gcm-fastest-{op}", ("Table 1", "Slowest Mode"): "003-t1-eax-slowest-{op}",
    ("Table 1", "Overall Time"): "003-t1-converge", ("Table 1", "Gradual Behavior"): "003-t1-semilinear",
    ("Table 2", "Throughput Encryption"): "003-t2-tp-order-enc", ("Table 2", "Throughput Decryption"): "003-t2-tp-order-dec",
    ("Table 2", "Trend with Increasing Volume"): "003-t2-trend-words",
    ("Table 4", "Encryption performance"): "003-t4-order-enc", ("Table 4", "Decryption Performance"): "003-t4-order-dec",
    ("Table 4", "general evaluation"): "003-t4-general-words",
}


def _wording_claim(table: str, row: str, column: str) -> str:
    if table == "Table 2" and row == "Throughput Encryption" and column == "GCM Mode":
        return "003-t2-tp-order-enc, 003-t2-gcm-most-stable"
    key = (table, column) if table == "Table 4" else (table, row)
    op = "enc" if "Encryption" in column else "dec"
    return WORDING_CLAIMS.get(key, "").format(op=op)


def ranking_beside_paper(ours: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Our wording beside the paper's, and the claim of ``claims.csv`` that tests each cell.

    Descriptive: whether a wording holds is decided by :mod:`cipherlab.analysis.verdicts`
    on that claim's evidence, never here.

    Parameters
    ----------
    ours : DataFrame
        From :func:`ranking_table`.
    published : DataFrame
        Paper 003's Tables 1-4 from :func:`cipherlab.analysis.paper.published`.

    Returns
    -------
    DataFrame
        ``table, row, column, published, ours, claim_id`` (``claim_id`` empty for Table 3's printed copy).
    """
    out = []
    for _, p in published.iterrows():
        row, column = p["row"], p["column"]
        cand = ours[(ours["table"] == p["table"])]
        text = ""
        if p["table"] == "Table 3":
            # The printed body repeats Table 2's mode wording; set our cipher-time ranking beside it.
            op = "Encryption" if "Encryption" in row else "Decryption"
            fast = cand[(cand["row"] == "Fastest") & (cand["column"] == op)]["ours"]
            slow = cand[(cand["row"] == "Slowest") & (cand["column"] == op)]["ours"]
            text = (f"(printed body repeats Table 2) our cipher {op.lower()} times: fastest {fast.iloc[0]}, "
                    f"slowest {slow.iloc[0]}" if len(fast) and len(slow) else "(printed body repeats Table 2)")
        elif p["table"] == "Table 1":
            hit = cand[(cand["row"].str.casefold() == row.replace(" Mode", "").casefold()) & (cand["column"] == column)]
            text = hit["ours"].iloc[0] if len(hit) else ""
        elif p["table"] == "Table 4":
            op = {"Encryption performance": "Throughput Encryption",
                  "Decryption Performance": "Throughput Decryption"}.get(column)
            if op is None:  # "general evaluation": mean of the encryption and decryption ranks
                ranks = cand[(cand["column"] == row) & cand["rank"].notna()]["rank"]
                all_ranks = cand[cand["rank"].notna()].groupby("column")["rank"].mean()
                if row in all_ranks.index:
                    text = f"overall rank {int(all_ranks.rank(method='min')[row])} (mean rank {ranks.mean():.1f})"
            else:
                hit = cand[(cand["row"] == op) & (cand["column"] == row)]
                text = hit["ours"].iloc[0] if len(hit) else ""
        else:  # Table 2 prints modes as columns
            hit = cand[(cand["row"] == row) & (cand["column"] == column.replace(" Mode", ""))]
            text = hit["ours"].iloc[0] if len(hit) else ""
        out.append((p["table"], row, column, p["value"], text, _wording_claim(p["table"], row, column)))
    return pd.DataFrame(out, columns=["table", "row", "column", "published", "ours", "claim_id"])


# ---------------------------------------------------------------------------
# Machine comparison and the prose numbers
# ---------------------------------------------------------------------------

def _nearest_size(summary: pd.DataFrame, mb: float) -> int:
    sizes = np.array(sorted(summary["bytes"].unique()))
    mbs = np.array(sorted(summary["mb"].unique()))
    return int(sizes[np.argmin(np.abs(mbs - mb))])


def throughput_ratios(phase1: pd.DataFrame, phase2: pd.DataFrame, nbytes: "int | None" = None) -> pd.DataFrame:
    """Throughput ratios at one size (the largest by default): modes against EAX, ciphers against AES.

    ``phase1`` and ``phase2`` are :func:`throughput_summary` frames.
    """
    rows = []
    for name, summ, group, ref, cipher_or_mode in (("mode", phase1, "mode", "eax", "aes"),
                                                   ("cipher", phase2, "cipher", "aes", "eax")):
        if summ is None or summ.empty:
            continue
        nb = nbytes or int(summ["bytes"].max())
        for op in ("encrypt", "decrypt"):
            d = summ[(summ["operation"] == op) & (summ["bytes"] == nb)].set_index(group)["median_mb_per_s"]
            for k in d.index:
                rows.append({"comparison": name, "operation": op, "bytes": nb, "name": k, "median_mb_per_s": d[k], "reference": ref, "ratio_to_reference": d[k] / d[ref]})
    return pd.DataFrame(rows)


def machine_comparison(setup: pd.DataFrame, meta: Mapping[str, Any]) -> pd.DataFrame:
    """The paper's machine (``data/paper/003_setup.csv``) beside ours (the run's metadata)."""
    s = setup.set_index("column")["value"]
    pk = meta.get("packages", {}) if isinstance(meta.get("packages"), Mapping) else {}
    rows = [
        ("CPU", s.get("CPU", ""), str(meta.get("cpu_model", meta.get("cpu", "")))),
        ("AES-NI", "not given", str(meta.get("cpu_aes_ni", ""))),
        ("logical cores", "not given", str(meta.get("logical_cores", ""))),
        ("RAM", s.get("RAM", ""), f"{meta['memory_gib']} GiB" if meta.get("memory_gib") else "not recorded"),
        ("OS", s.get("OS", ""), str(meta.get("os", meta.get("platform", "")))),
        ("library", s.get("library", ""), f"PyCryptodome {pk.get('pycryptodome', '')}".strip()),
        ("Python", "not given", str(meta.get("python", ""))),
        ("trials per point", s.get("trials per mode", ""), str(meta.get("trials", ""))),
        ("warm-up rounds", s.get("warm-up rounds", ""), str(meta.get("warmup", ""))),
    ]
    return pd.DataFrame(rows, columns=["item", "paper", "ours"])


def _prose_targets(summary1: pd.DataFrame, summary2: pd.DataFrame, column: str, row: str):
    """Our median for one quoted prose number, in the quoted unit, and the sizes it was measured at."""
    m = re.match(r"(encryption|decryption) (throughput|time) (at ([\d.]+) MB|range|plateau)", column)
    if not m:
        raise ValueError(f"cannot read prose column {column!r}")
    op = "encrypt" if m.group(1) == "encryption" else "decrypt"
    qty = m.group(2)
    if row in ("GCM", "CCM"):
        summ, cipher, mode = summary1, "aes", row.lower()
    else:
        summ, cipher, mode = summary2, row.lower(), "eax"
    if summ is None or summ.empty:
        return None
    col = "median_mb_per_s" if qty == "throughput" else "median_s"
    d = summ[(summ["cipher"] == cipher) & (summ["mode"] == mode) & (summ["operation"] == op)].sort_values("bytes")
    if m.group(4):
        nb = _nearest_size(summ, float(m.group(4)))
        return format_number(float(d[d['bytes'] == nb][col].iloc[0]), 3), f"{nb} B"
    if m.group(3) == "plateau":  # the larger half of the sizes
        d = d[d["bytes"] >= d["bytes"].median()]
    return f"{format_number(float(d[col].min()), 3)} to {format_number(float(d[col].max()), 3)}", \
        f"{int(d['bytes'].min())} B to {int(d['bytes'].max())} B"


def prose_comparison(summary1: pd.DataFrame, summary2: pd.DataFrame, prose: pd.DataFrame) -> pd.DataFrame:
    """Every throughput/time the paper quotes in prose beside our median, at the size we actually measured.

    Descriptive only: an absolute speed measured on another, unnamed CPU
    cannot be reproduced or refuted here (the claims are ``not_testable``);
    their testable forms are ratios measured side by side (:mod:`.evidence`).
    """
    rows = []
    for _, p in prose.iterrows():
        got = _prose_targets(summary1, summary2, p["column"], p["row"])
        if got is None:
            continue
        ours, measured_at = got
        rows.append({"table": p["table"], "row": p["row"], "column": p["column"], "published": p["value"],
                     "unit": p["unit"], "qualifier": p["note"].split(":")[0], "ours": ours,
                     "measured_at": measured_at})
    return pd.DataFrame(rows)
