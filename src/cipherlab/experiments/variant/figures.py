"""Figures of the variant battery (deterministic; saved by :func:`cipherlab.analysis.plotting.save_figure`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd


def dependency_rounds_figure(dependency: pd.DataFrame, *, columns: int = 5) -> plt.Figure:
    """The 16 x 16 byte change-rate matrix after each round count, one small panel per round."""
    rounds = sorted(dependency["rounds"].unique())
    rows = int(np.ceil(len(rounds) / columns))
    fig, axes = plt.subplots(rows, columns, figsize=(2.0 * columns, 2.1 * rows), squeeze=False)
    for ax in axes.ravel():
        ax.set_axis_off()
    for ax, r in zip(axes.ravel(), rounds):
        d = dependency[dependency["rounds"] == r]
        m = np.zeros((16, 16))
        m[d["input_byte"], d["output_byte"]] = d["change_rate"]
        ax.set_axis_on()
        ax.imshow(m, vmin=0, vmax=1, cmap="viridis", interpolation="nearest")
        ax.set_title(f"{r} round{'s' if r > 1 else ''}", fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
    axes[0, 0].set_ylabel("input byte")
    fig.suptitle("output byte changes when one input byte changes (rows: input, columns: output)", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig


def attack_figure(original: np.ndarray, ciphertext: np.ndarray, recovered: np.ndarray, title: str) -> plt.Figure:
    """The image, its ECB ciphertext seen as an image, and what the attack recovered without the key."""
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.3))
    shape = original.shape
    panels = (original, np.asarray(ciphertext, dtype=np.uint8)[: original.size].reshape(shape),
              np.asarray(recovered, dtype=np.uint8)[: original.size].reshape(shape))
    for ax, img, label in zip(axes, panels, ("plaintext", "ciphertext (ECB)", "recovered without the key")):
        ax.imshow(img)
        ax.set_title(label, fontsize=9)
        ax.set_axis_off()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def rounds_figure(rounds: pd.DataFrame) -> plt.Figure:
    """Dependent byte pairs and the structural properties after each round count."""
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    ax.plot(rounds["rounds"], rounds["dependent_pairs"], marker="o", color="black", label="dependent byte pairs")
    ax.axhline(256, color="grey", lw=0.8, ls=":")
    for prop, marker, y in (("byte_local", "s", 16), ("affine", "^", 128)):
        held = rounds[rounds[prop]]
        ax.scatter(held["rounds"], np.full(len(held), y), marker=marker, label=f"{prop.replace('_', '-')} holds")
    ax.set_xlabel("rounds")
    ax.set_ylabel("(input, output) byte pairs")
    ax.set_ylim(0, 270)
    ax.set_xticks(rounds["rounds"])
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def trail_bounds_figure(bounds: pd.DataFrame, cipher: str) -> plt.Figure:
    """Left: the active-S-box lower bound by round count, the variant beside AES. Right: the trail bounds (log2).

    ``bounds`` is the battery's ``trail_bounds`` table (:func:`cipherlab.experiments.variant.trails.bound_table`
    for the variant and for AES). The right panel plots the weaker of the differential and linear bounds
    against the line ``2^-128``.
    """
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    names = list(dict.fromkeys(bounds["cipher"]))
    for name in names:
        d = bounds[bounds["cipher"] == name]
        style = dict(marker="o", ms=3, label=name, ls="-" if name == cipher else "--")
        left.plot(d["rounds"], d["active_sboxes_differential"], **style)
        if not d["active_sboxes_linear"].equals(d["active_sboxes_differential"]):
            left.plot(d["rounds"], d["active_sboxes_linear"], **{**style, "ls": ":", "label": f"{name} (linear)"})
        weaker = np.maximum(d["log2_differential_trail_bound"], d["log2_linear_trail_bound"])
        right.plot(d["rounds"], weaker, **style)
    right.axhline(-128, color="grey", lw=0.8)
    right.annotate("$2^{-128}$", (bounds["rounds"].min(), -128), textcoords="offset points", xytext=(2, 3), fontsize=8)
    left.set_xlabel("rounds")
    left.set_ylabel("active S-boxes (lower bound)")
    left.set_title("minimum active S-boxes (MILP)", fontsize=9)
    right.set_xlabel("rounds")
    right.set_ylabel("log2 of the best trail's bound")
    right.set_title("differential / linear trail bound (the weaker)", fontsize=9)
    for ax in (left, right):
        ax.set_xticks(sorted(bounds["rounds"].unique()))
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
