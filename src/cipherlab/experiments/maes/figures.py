"""Figures of the MAES chapter: Figure 8 (pictures, repeat maps, histograms) and the speed-ups."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cipherlab.present.plotting import PALETTE
from cipherlab.experiments.maes.image import repeat_map


def _bare(axes) -> None:
    """Pictures, not plots: no ticks and no grid on any of ``axes``."""
    for ax in np.ravel(axes):
        ax.set_xticks([])
        ax.set_yticks([])
        ax.grid(False)


def repeat_map_figure(images: dict[tuple[str, str], np.ndarray], lag_bytes: int = 48):
    """Figure 8, repeat maps (:func:`repeat_map`) of the plain image and each ciphertext."""
    modes = sorted({m for _, m in images if m != "none"})
    ciphers = [c for c in dict.fromkeys(c for c, _ in images) if c != "plain"]
    fig, axes = plt.subplots(len(modes), 1 + len(ciphers), figsize=(2.4 * (1 + len(ciphers)), 2.9 * len(modes)),
                             squeeze=False)
    plain = repeat_map(images[("plain", "none")], lag_bytes)
    for i, mode in enumerate(modes):
        axes[i][0].imshow(plain, cmap="gray_r", interpolation="nearest", vmin=0, vmax=3)
        axes[i][0].set_title("plain image")
        for j, cipher in enumerate(ciphers, start=1):
            axes[i][j].imshow(repeat_map(images[(cipher, mode)], lag_bytes), cmap="gray_r",
                              interpolation="nearest", vmin=0, vmax=3)
            axes[i][j].set_title(f"{cipher.upper()}-{mode.upper()}")
    _bare(axes)
    fig.tight_layout()
    return fig




def image_figure(images: dict[tuple[str, str], np.ndarray]):
    """Figure 8, pictures: the photograph and each encrypted image as an RGB picture."""
    keys = list(images)
    modes = sorted({m for _, m in keys if m != "none"})
    ciphers = [c for c in dict.fromkeys(c for c, _ in keys) if c != "plain"]
    fig, axes = plt.subplots(len(modes), 1 + len(ciphers), figsize=(2.4 * (1 + len(ciphers)), 2.9 * len(modes)),
                             squeeze=False)
    for i, mode in enumerate(modes):
        ax = axes[i][0]
        ax.imshow(images[("plain", "none")], interpolation="nearest")
        ax.set_title("plain image")
        for j, cipher in enumerate(ciphers, start=1):
            axes[i][j].imshow(images[(cipher, mode)], interpolation="nearest")
            axes[i][j].set_title(f"{cipher.upper()}-{mode.upper()}")
    _bare(axes)
    fig.tight_layout()
    return fig


def histogram_figure(hist: pd.DataFrame):
    """Figure 8, histograms: byte counts of the plain image and of each ciphertext."""
    modes = sorted(m for m in hist["mode"].unique() if m != "none")
    ciphers = [c for c in dict.fromkeys(hist["cipher"]) if c != "plain"]
    fig, axes = plt.subplots(len(modes), 1 + len(ciphers), figsize=(2.6 * (1 + len(ciphers)), 2.4 * len(modes)),
                             squeeze=False, sharex=True)
    plain = hist[hist["cipher"] == "plain"]
    for i, mode in enumerate(modes):
        axes[i][0].bar(plain["byte"], plain["count"], width=1.0, color="#555555")
        axes[i][0].set_title("plain image")
        for j, cipher in enumerate(ciphers, start=1):
            h = hist[(hist["cipher"] == cipher) & (hist["mode"] == mode)]
            axes[i][j].bar(h["byte"], h["count"], width=1.0, color=PALETTE.get(cipher, "#1f77b4"))
            axes[i][j].set_title(f"{cipher.upper()}-{mode.upper()}")
    for ax in axes[-1]:
        ax.set_xlabel("byte value")
    for row in axes:
        row[0].set_ylabel("count")
    fig.tight_layout()
    return fig




def speedup_figure(speedups: pd.DataFrame, title: str):
    """Measured speed-ups with their intervals, the A/A band of each row, and the published ones."""
    df = speedups.reset_index(drop=True)
    labels = [f"{c} vs aes ({i})\n{o}" for c, i, o in zip(df["cipher"], df["impl"], df["operation"])]
    y = np.arange(len(df))
    fig, ax = plt.subplots(figsize=(9.0, 0.45 * len(df) + 1.2))
    for yi, lo, hi in zip(y, df["control_low_pct"], df["control_high_pct"]):
        ax.fill_betweenx([yi - 0.3, yi + 0.3], lo, hi, color="#bbbbbb", lw=0,
                         label="A/A band (AES vs AES)" if yi == 0 else None)
    err = np.vstack([df["speedup_pct"] - df["low_pct"], df["high_pct"] - df["speedup_pct"]])
    ax.errorbar(df["speedup_pct"], y, xerr=np.abs(err), fmt="o", color=PALETTE["maes-2"],
                label="measured (95 % interval)")
    pub = df["published_speedup_pct"].where(df["paper_aes"] != "")
    ax.scatter(pub, y, marker="x", color="black", label="published (Table III)")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_xlabel("speed-up, % = (T_AES / T_MAES - 1) x 100")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    return fig
