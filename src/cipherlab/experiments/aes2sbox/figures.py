"""The AES-2SBox chapter's figures: the timed trials and the avalanche distribution."""
from __future__ import annotations

from typing import Iterable

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cipherlab.present.plotting import PALETTE, style

from cipherlab.experiments.aes2sbox.common import BLOCK_BITS, OPERATIONS, PAPER_LABELS, PAPERS
from cipherlab.experiments.aes2sbox.measure import times_ms


def plot_avalanche(hist: pd.DataFrame, by_position: pd.DataFrame, pairs: "pd.DataFrame | None" = None):
    """Left: histogram of changed bits per cipher against Binomial(128, 1/2). Right: mean per input bit."""
    style()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for cipher_name, sub in hist.groupby("cipher", sort=True):
        ax1.bar(sub["changed_bits"], sub["share"], width=1.0, alpha=0.6, color=PALETTE.get(cipher_name),
                label=PAPER_LABELS.get(cipher_name, cipher_name))
    ideal = hist.drop_duplicates("changed_bits")
    ax1.plot(ideal["changed_bits"], ideal["ideal_share"], color="black", lw=1, label="ideal: Binomial(128, 1/2)")
    if pairs is not None and len(pairs):
        pub = pairs[pairs["published_bits"].astype(str) != ""]
        for bits in sorted({int(b) for b in pub["published_bits"]}):
            ax1.axvline(bits, color=PALETTE["aes-2sbox"], ls=":", lw=1)
        ax1.plot([], [], color=PALETTE["aes-2sbox"], ls=":", label="published AES-2SBox pairs")
    ax1.axvline(BLOCK_BITS / 2, color="grey", ls="--", lw=1)
    ax1.set_xlabel("changed ciphertext bits after flipping one plaintext bit")
    ax1.set_ylabel("share of flips")
    ax1.set_xlim(-1, BLOCK_BITS + 1)
    ax1.legend(fontsize=8)
    for cipher_name, sub in by_position.groupby("cipher", sort=True):
        colour = PALETTE.get(cipher_name)
        ax2.plot(sub["bit_position"], sub["mean_bits"], color=colour, label=f"{PAPER_LABELS.get(cipher_name)} mean")
        ax2.fill_between(sub["bit_position"], sub["min_bits"], sub["max_bits"], color=colour, alpha=0.2)
    ax2.axhline(BLOCK_BITS / 2, color="grey", ls="--", lw=1, label="50 %")
    ax2.set_xlabel("flipped plaintext bit (0 = most significant bit of byte 0)")
    ax2.set_ylabel("changed ciphertext bits (band: min-max)")
    ax2.set_ylim(0, BLOCK_BITS)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot_speed_trials(raw: pd.DataFrame, papers: Iterable[str] = PAPERS):
    """Per-call times (box plus the trials as dots): one panel per protocol x operation.

    x: implementation style; colour: cipher (the A/A control in grey); y: ms (log scale).
    """
    style()
    papers = list(papers)
    fig, axes = plt.subplots(len(OPERATIONS), len(papers), figsize=(4.2 * len(papers), 6.4), squeeze=False,
                             sharey=True)
    series = [("aes", "main"), ("aes", "control"), ("aes-2sbox", "main")]
    colours = {("aes", "main"): PALETTE["aes"], ("aes", "control"): "#9a9a9a", ("aes-2sbox", "main"): PALETTE["aes-2sbox"]}
    for j, paper in enumerate(papers):
        sub = raw[raw["protocol"].astype(str).str.zfill(3) == paper]
        for i, operation in enumerate(OPERATIONS):
            ax = axes[i][j]
            pos, ticks, labels = 0.0, [], []
            for impl in dict.fromkeys(sub["impl"]):
                start = pos
                for cipher, instance in series:
                    ms = times_ms(sub, paper, cipher, impl, operation, instance)
                    if not ms.size:
                        continue
                    colour = colours[(cipher, instance)]
                    ax.boxplot([ms], positions=[pos], widths=0.6, showfliers=False,
                               medianprops={"color": colour}, boxprops={"color": colour},
                               whiskerprops={"color": colour}, capprops={"color": colour})
                    ax.plot(pos + np.linspace(-0.2, 0.2, ms.size), ms, "o", ms=2.5, alpha=0.6, color=colour)
                    pos += 1.0
                if pos > start:
                    ticks.append((start + pos - 1) / 2)
                    labels.append(impl)
                    pos += 0.5
            ax.set_xticks(ticks, labels)
            ax.set_yscale("log")
            ax.set_title(f"paper {paper} protocol, {operation}")
            if j == 0:
                ax.set_ylabel("time per call (ms)")
    names = {("aes", "main"): "AES-Rijndael", ("aes", "control"): "AES, second instance (A/A control)",
             ("aes-2sbox", "main"): "AES-2SBox"}
    handles = [plt.Line2D([], [], marker="o", ls="", color=colours[s], label=names[s]) for s in series]
    fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
