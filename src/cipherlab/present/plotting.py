"""Figure style and deterministic saving (PNG and SVG)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib

# No display on the pipeline's machines: draw with Agg in scripts.  Inside a
# Jupyter kernel (papermill) keep the inline backend, or plt.show() would show
# nothing and the book would lose its figures.
if "ipykernel" not in sys.modules and "MPLBACKEND" not in os.environ:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from IPython.display import Image, display  # noqa: E402

from cipherlab.pipeline.paths import Profile, as_profile  # noqa: E402
from cipherlab.pipeline.results import atomic_path  # noqa: E402

#: Colours per cipher / implementation, shared by every chapter so a reader learns them once.
PALETTE = {
    "aes": "#1f77b4",
    "aes-2sbox": "#d62728",
    "maes-1": "#2ca02c",
    "maes-2": "#9467bd",
    "reference": "#7f7f7f",
    "table": "#1f77b4",
    "aesni": "#ff7f0e",
}


def style() -> None:
    """Apply cipherlab's plot style; also fixes the SVG hash salt so SVGs are byte-identical."""
    plt.rcParams.update({
        "figure.dpi": 100,
        "savefig.dpi": 120,
        "figure.figsize": (7.0, 4.2),
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "font.size": 10,
        "svg.hashsalt": "cipherlab",
        "svg.fonttype": "none",
    })


def save_figure(fig: "plt.Figure", name: str, profile: "str | Profile") -> dict[str, Path]:
    """Save ``fig`` as ``data/figures/<profile>/<name>.png`` and ``.svg``, atomically.

    Metadata that would change from run to run (dates, software strings) is left out.
    """
    prof = as_profile(profile)
    style_salt = plt.rcParams.get("svg.hashsalt")
    if not style_salt:
        plt.rcParams["svg.hashsalt"] = "cipherlab"
    out = {}
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None, "Creator": None})):
        path = prof.figure(name, ext)
        with atomic_path(path, parents=True) as tmp:
            fig.savefig(tmp, format=ext, metadata=meta, bbox_inches="tight")
        out[ext] = path
    return out


def save_and_show(fig: "plt.Figure", name: str, profile: "str | Profile") -> dict[str, Path]:
    """Save ``fig`` (:func:`save_figure`), close it, and display the saved PNG in a notebook.

    The book then shows exactly the file the pipeline declared as output.
    """
    saved = save_figure(fig, name, profile)
    plt.close(fig)
    display(Image(filename=str(saved["png"])))
    return saved
