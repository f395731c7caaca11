"""Figures of the variant battery (deterministic; saved by :func:`cipherlab.present.plotting.save_figure`)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cipherlab.experiments.variant.keys import CONTROL


def dependency_rounds_figure(dependency: pd.DataFrame, *, columns: int = 5) -> plt.Figure:
    """The 16 x 16 byte change-rate matrix after each round count, one small panel per round; one block of
    panels per cipher (the variant, then AES as its control, measured with the same settings)."""
    ciphers = list(dict.fromkeys(dependency["cipher"]))
    rounds = sorted(dependency["rounds"].unique())
    per = int(np.ceil(len(rounds) / columns))
    fig, axes = plt.subplots(per * len(ciphers), columns, figsize=(2.0 * columns, 2.1 * per * len(ciphers) + 0.3),
                             squeeze=False)
    for ax in axes.ravel():
        ax.set_axis_off()
    for k, cipher in enumerate(ciphers):
        block = axes[k * per:(k + 1) * per].ravel()
        mine = dependency[dependency["cipher"] == cipher]
        for ax, r in zip(block, sorted(mine["rounds"].unique())):
            d = mine[mine["rounds"] == r]
            m = np.zeros((16, 16))
            m[d["input_byte"], d["output_byte"]] = d["change_rate"]
            ax.set_axis_on()
            ax.imshow(m, vmin=0, vmax=1, cmap="viridis", interpolation="nearest")
            ax.set_title(f"{cipher}: {r} round{'s' if r > 1 else ''}", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
        block[0].set_ylabel("input byte")
    fig.suptitle("output byte changes when one input byte changes (rows: input, columns: output)", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


def attack_figure(original: np.ndarray, rows: "list[tuple[str, np.ndarray, np.ndarray]]", title: str) -> plt.Figure:
    """Per cipher (a row: its name, the ECB ciphertext of the image, what the attack recovered without the key):
    the image, its ciphertext seen as an image, and the recovered image. The variant's row, then AES's."""
    fig, axes = plt.subplots(len(rows), 3, figsize=(9, 3.1 * len(rows)), squeeze=False)
    shape = original.shape
    for line, (name, ciphertext, recovered) in zip(axes, rows):
        panels = (original, np.asarray(ciphertext, dtype=np.uint8)[: original.size].reshape(shape),
                  np.asarray(recovered, dtype=np.uint8)[: original.size].reshape(shape))
        for ax, img, label in zip(line, panels, ("plaintext", "ciphertext (ECB)", "recovered without the key")):
            ax.imshow(img)
            ax.set_title(f"{name}: {label}", fontsize=9)
            ax.set_axis_off()
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def rounds_figure(rounds: pd.DataFrame) -> plt.Figure:
    """Dependent byte pairs and the structural properties after each round count, per cipher (AES beside)."""
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    for i, (cipher, d) in enumerate(rounds.groupby("cipher", sort=False)):
        ax.plot(d["rounds"], d["dependent_pairs"], marker="o", color="black" if i == 0 else "grey",
                ls="-" if i == 0 else "--", label=f"{cipher}: dependent byte pairs")
        for prop, marker, y in (("byte_local", "s", 16), ("affine", "^", 128)):
            held = d[d[prop].astype(bool)]
            if len(held):
                ax.scatter(held["rounds"], np.full(len(held), y + 6 * i), marker=marker,
                           label=f"{cipher}: {prop.replace('_', '-')} holds")
    ax.axhline(256, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("rounds")
    ax.set_ylabel("(input, output) byte pairs")
    ax.set_ylim(0, 270)
    ax.set_xticks(sorted(rounds["rounds"].unique()))
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def sbox_keys_figure(samples: pd.DataFrame) -> plt.Figure:
    """Nonlinearity and differential uniformity of every sampled S-box of the variant (over keys and rounds), AES's
    value marked: one bar where the S-box is fixed or every key gives the same values."""
    ours = samples[samples["cipher"] != CONTROL]
    aes = samples[samples["cipher"] == CONTROL].iloc[0]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for ax, measure, better in zip(axes, ("nonlinearity", "differential_uniformity"), ("higher", "lower")):
        counts = ours[measure].value_counts().sort_index()
        ax.bar(counts.index.astype(int), counts.to_numpy(), width=0.8, color="#4c72b0", label="the variant's S-boxes")
        ax.axvline(float(aes[measure]), color="black", ls="--", lw=1, label="AES")
        ax.set_xlabel(f"{measure.replace('_', ' ')} (AES {int(aes[measure])}; {better} is better)", fontsize=8)
        ax.set_ylabel("S-boxes sampled")
        ax.legend(fontsize=8)
    keys = int(ours["sample"].nunique())
    fig.suptitle(f"the variant's S-boxes over {keys} sampled key{'s' if keys > 1 else ''} "
                 f"({len(ours)} S-box{'es' if len(ours) > 1 else ''})", fontsize=9)
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
