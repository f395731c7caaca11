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
