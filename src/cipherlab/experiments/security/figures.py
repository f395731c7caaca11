"""Figures of the security chapter; each function returns a matplotlib Figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cipherlab.present.plotting import PALETTE


def ddt_lat_figure(tables: dict, names) -> plt.Figure:
    """DDT and |LAT| heatmaps (rows: the named S-boxes)."""
    names = list(names)
    fig, axes = plt.subplots(len(names), 2, figsize=(9, 4.2 * len(names)), squeeze=False)
    for row, name in zip(axes, names):
        ddt, lat = tables[name]
        ddt = ddt.astype(float).copy()
        ddt[0, 0] = np.nan  # the trivial entry (256) would swamp the colour scale
        im = row[0].imshow(ddt, cmap="viridis", interpolation="nearest")
        row[0].set_title(f"DDT: {name}", fontsize=9)
        row[0].set_xlabel("output difference")
        row[0].set_ylabel("input difference")
        fig.colorbar(im, ax=row[0], fraction=0.046)
        alat = np.abs(lat).astype(float)
        alat[0, 0] = np.nan
        im = row[1].imshow(alat, cmap="magma", interpolation="nearest")
        row[1].set_title(f"|LAT|: {name}", fontsize=9)
        row[1].set_xlabel("output mask")
        row[1].set_ylabel("input mask")
        fig.colorbar(im, ax=row[1], fraction=0.046)
        for ax in row:
            ax.grid(False)
    fig.tight_layout()
    return fig


#: Line styles and markers that keep curves apart where they coincide (colour is the cipher's).
_STYLES = (("-", "o", 3.2), ("--", "s", 2.4), (":", "^", 2.0), ("-.", "D", 1.6), ((0, (5, 1)), "v", 1.3))


def _grid(n: int, width: float = 3.6, height: float = 3.6):
    """Panels two to a row, so that each stays legible at the book's width (ticks at least 9 pt)."""
    cols = min(2, n)
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols + 1.0, height * rows), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, axes


def coinciding(curves: "dict[str, np.ndarray]") -> dict[str, str]:
    """For each curve identical to an earlier one, the name of that earlier curve."""
    out: dict[str, str] = {}
    names = list(curves)
    for i, name in enumerate(names):
        for earlier in names[:i]:
            a, b = np.asarray(curves[name], dtype=float), np.asarray(curves[earlier], dtype=float)
            if a.shape == b.shape and np.allclose(a, b, equal_nan=True):
                out[name] = out.get(earlier, earlier)
                break
    return out


def _label(cipher: str, same: dict[str, str]) -> str:
    return f"{cipher} (coincides with {same[cipher]})" if cipher in same else cipher


def _matrix_panels(matrices: "dict[str, np.ndarray]", *, cmap: str, xlabel: str, ylabel: str, bar_label: str,
                   ticks: "range | None" = None) -> plt.Figure:
    """One panel per cipher, each a matrix of probabilities (0 to 1) on one shared colour bar."""
    fig, grid = _grid(len(matrices))
    axes = grid.reshape(1, -1)
    for ax, (cipher, m) in zip(axes[0], matrices.items()):
        im = ax.imshow(m, vmin=0, vmax=1, cmap=cmap, interpolation="nearest")
        ax.set_title(cipher, fontsize=12)
        ax.set_xlabel(xlabel, fontsize=11)
        ax.set_ylabel(ylabel, fontsize=11)
        if ticks is not None:
            ax.set_xticks(ticks)
            ax.set_yticks(ticks)
        ax.tick_params(labelsize=11)
        ax.grid(False)
    bar = fig.colorbar(im, ax=[a for a in axes[0] if a.get_visible()], fraction=0.03)
    bar.set_label(bar_label, fontsize=11)
    bar.ax.tick_params(labelsize=11)
    return fig


def dependency_figure(dependency: pd.DataFrame) -> plt.Figure:
    """16 x 16 change-rate matrices, one panel per cipher."""
    matrices = {cipher: d.pivot(index="input_byte", columns="output_byte", values="change_rate").to_numpy()
                for cipher, d in dependency.groupby("cipher", sort=False)}
    return _matrix_panels(matrices, cmap="Greys", xlabel="output byte", ylabel="changed input byte",
                          bar_label="P(output byte changes)", ticks=range(0, 16, 3))


def avalanche_figure(avalanche: pd.DataFrame) -> plt.Figure:
    """Distribution of changed ciphertext bits after a one-bit plaintext flip."""
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    first = avalanche[avalanche["cipher"] == avalanche["cipher"].iloc[0]]
    ax.plot(first["bits_flipped"], first["binomial_fraction"], color="black", lw=1, ls="--",
            label="Binomial(128, 1/2)")
    groups = dict(list(avalanche.groupby("cipher", sort=False)))
    same = coinciding({c: d["fraction"].to_numpy() for c, d in groups.items()})
    for i, (cipher, d) in enumerate(groups.items()):
        ls, _, lw = _STYLES[i % len(_STYLES)]
        ax.step(d["bits_flipped"], d["fraction"], where="mid", color=PALETTE.get(cipher), ls=ls, lw=lw,
                label=_label(cipher, same))
    ax.set_xlabel("ciphertext bits changed by one flipped plaintext bit (of 128)")
    ax.set_ylabel("fraction of flips")
    ax.set_yscale("log")
    ax.set_ylim(1e-5, 1)
    ax.legend(fontsize=9)
    return fig


def sac_figure(sac: dict) -> plt.Figure:
    """128 x 128 SAC matrices, one panel per cipher (0.5 is ideal)."""
    return _matrix_panels(sac, cmap="coolwarm", xlabel="output bit", ylabel="flipped input bit",
                          bar_label="P(output bit flips)")


def rounds_figure(rounds: pd.DataFrame) -> plt.Figure:
    """Dependent (input, output) byte pairs after r rounds, per cipher."""
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    groups = dict(list(rounds.groupby("cipher", sort=False)))
    same = coinciding({c: d["dependent_pairs"].to_numpy() for c, d in groups.items()})
    for i, (cipher, d) in enumerate(groups.items()):
        ls, marker, lw = _STYLES[i % len(_STYLES)]
        ax.plot(d["rounds"], d["dependent_pairs"], marker=marker, ls=ls, lw=lw, markersize=4 + lw,
                color=PALETTE.get(cipher), label=_label(cipher, same))
    ax.axhline(256, color="black", lw=0.8, ls=":")
    ax.set_xlabel("rounds")
    ax.set_ylabel("dependent byte pairs (of 256)")
    ax.set_yscale("log", base=2)
    ax.legend(fontsize=9)
    return fig


def recovered_image_figure(original: np.ndarray, ciphertexts: dict, recovered: dict) -> plt.Figure:
    """Original, ciphertext (as an image) and recovered plaintext, one row per case."""
    n = len(recovered)
    fig, axes = plt.subplots(n, 3, figsize=(9, 3.1 * n), squeeze=False)
    shape = original.shape
    for row, (label, rec) in zip(axes, recovered.items()):
        ct = np.asarray(ciphertexts[label], dtype=np.uint8)[: original.size].reshape(shape)
        for ax, img, title in zip(row, (original, ct, rec.reshape(shape)),
                                  ("plaintext", f"ciphertext ({label})", f"recovered ({label})")):
            ax.imshow(img)
            ax.set_title(title, fontsize=9)
            ax.axis("off")
    fig.tight_layout()
    return fig


def randomness_figure(summary: pd.DataFrame) -> plt.Figure:
    """Pass proportion per test, cipher x mode x input, against SP 800-22's bound."""
    d = summary[summary["cipher"] != "plaintext"].copy()
    d["case"] = d["cipher"] + " " + d["mode"].str.upper() + " " + d["input"]
    pivot = d.pivot_table(index="case", columns="test", values="proportion", sort=False)
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(pivot) + 1.5))
    im = ax.imshow(pivot.to_numpy(), vmin=0, vmax=1, cmap="RdYlGn", aspect="auto",
                   interpolation="nearest")
    ax.set_yticks(range(len(pivot)), pivot.index, fontsize=8)
    ax.set_xticks(range(pivot.shape[1]), pivot.columns, rotation=45, ha="right", fontsize=8)
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="proportion of sequences with p >= 0.01")
    fig.tight_layout()
    return fig
