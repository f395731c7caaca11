"""Seeded generation of every input file the experiments read.

Each file's content depends only on the profile seed, the file name and its
spec, so adding a file never changes another, and two runs give the same bytes.

Kinds
-----
``text``
    ASCII English-like prose (words drawn from the Zen of Python, which ships
    with CPython) in lines of at most 72 characters: a stand-in for the papers'
    unspecified "text file".
``random``
    Uniform random bytes.
``zeros``
    All-zero bytes (a low-entropy input for randomness tests).
``image``
    The test photograph (``grace_hopper.jpg``, 512x600 RGB, matplotlib's sample image, shipped
    with cipherlab as package data: :data:`cipherlab.pipeline.paths.TEST_IMAGE`) as a ``.npy``
    uint8 array of shape (height, width, 3); ``bytes`` is ignored.
"""
from __future__ import annotations

import argparse
import ast
import codecs
import hashlib
import importlib.util
import io
import re
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np

from cipherlab.pipeline.config import input_specs, load_config
from cipherlab.pipeline.machine_lock import machine_lock
from cipherlab.pipeline.paths import TEST_IMAGE
from cipherlab.pipeline.results import write_bytes

KINDS = ("text", "random", "zeros", "image")
KiB = 1024
MiB = 1024 * 1024


def _file_seed(seed: int, name: str) -> int:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _vocabulary() -> list[str]:
    # Read the Zen from the stdlib module's source: importing ``this`` would print it.
    source = Path(importlib.util.find_spec("this").origin).read_text(encoding="utf-8")
    literal = next(n.value.value for n in ast.parse(source).body
                   if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "s")
    zen = codecs.decode(literal, "rot13")
    words = sorted(set(re.findall(r"[A-Za-z']+", zen.lower())))
    return words


def text_bytes(nbytes: int, rng: np.random.Generator) -> bytes:
    """English-like ASCII text of exactly ``nbytes`` bytes."""
    words = _vocabulary()
    out = io.StringIO()
    size = 0
    line = 0
    sentence_start = True
    while size < nbytes:
        w = words[rng.integers(len(words))]
        if sentence_start:
            w = w.capitalize()
        end = rng.random()
        w += ". " if end < 0.08 else (", " if end < 0.15 else " ")
        sentence_start = end < 0.08
        if line + len(w) > 72:
            out.write("\n")
            size += 1
            line = 0
        out.write(w)
        size += len(w)
        line += len(w)
    return out.getvalue().encode("ascii")[:nbytes]


def test_image() -> np.ndarray:
    """The test photograph (Grace Hopper, :data:`~cipherlab.pipeline.paths.TEST_IMAGE`) as uint8 RGB, shape (600, 512, 3)."""
    with open(TEST_IMAGE, "rb") as fh:
        img = np.asarray(mpimg.imread(fh, format="jpg"))
    if img.dtype != np.uint8:
        img = np.clip(np.round(img * 255), 0, 255).astype(np.uint8)
    return np.ascontiguousarray(img[..., :3])


def generate(kind: str, nbytes: int, *, seed: int, name: str) -> bytes:
    """Content of one input file (for ``image``, the ``.npy`` serialisation)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if kind != "image" and (not isinstance(nbytes, int) or nbytes < 0):
        raise ValueError(f"bytes must be a non-negative integer for kind {kind!r}, got {nbytes!r}")
    rng = np.random.default_rng(_file_seed(seed, name))
    if kind == "text":
        return text_bytes(nbytes, rng)
    if kind == "random":
        return rng.integers(0, 256, size=nbytes, dtype=np.uint8).tobytes()
    if kind == "zeros":
        return bytes(nbytes)
    buf = io.BytesIO()
    np.save(buf, test_image(), allow_pickle=False)
    return buf.getvalue()


def write_input(path: "str | Path", spec: dict, *, seed: int) -> Path:
    """Generate the file ``path`` from ``spec`` (``{"kind": ..., "bytes": ...}``), atomically."""
    path = Path(path)
    data = generate(spec["kind"], spec.get("bytes", 0), seed=seed, name=path.name)
    return write_bytes(path, data)


def read_input(path: "str | Path") -> "bytes | np.ndarray":
    """Read an input file: ``.npy`` as an array, anything else as bytes."""
    path = Path(path)
    if path.suffix == ".npy":
        return np.load(path, allow_pickle=False)
    return path.read_bytes()


def main(argv=None) -> int:
    """``python -m cipherlab.pipeline.inputs PROFILE NAME OUT``: write one declared input file."""
    p = argparse.ArgumentParser(prog="python -m cipherlab.pipeline.inputs")
    p.add_argument("profile")
    p.add_argument("name")
    p.add_argument("out")
    a = p.parse_args(argv)
    cfg = load_config(a.profile)
    specs = input_specs(cfg)
    if a.name not in specs:
        p.error(f"input {a.name!r} is not declared in the {a.profile} config; declared: {sorted(specs)}")
    with machine_lock(exclusive=False):   # never beside a timing job
        write_input(a.out, specs[a.name], seed=cfg["seed"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
