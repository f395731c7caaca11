"""cipherlab.pipeline.inputs: seeded generation of the input files."""
from __future__ import annotations

import numpy as np
import pytest

from cipherlab.analysis import stats

from cipherlab.pipeline import inputs
@pytest.mark.parametrize("kind", ["text", "random", "zeros"])
@pytest.mark.parametrize("nbytes", [0, 1, 1000, 65537])
def test_generate_exact_size_and_deterministic(kind, nbytes):
    a = inputs.generate(kind, nbytes, seed=5, name="f.bin")
    assert len(a) == nbytes
    assert a == inputs.generate(kind, nbytes, seed=5, name="f.bin")


def test_generate_depends_on_seed_and_name_only():
    a = inputs.generate("random", 4096, seed=1, name="a")
    assert a != inputs.generate("random", 4096, seed=2, name="a")
    assert a != inputs.generate("random", 4096, seed=1, name="b")


def test_text_is_ascii_lines_of_at_most_72():
    text = inputs.generate("text", 20000, seed=3, name="t.txt").decode("ascii")
    assert max(len(line) for line in text.split("\n")) <= 72
    assert stats.byte_entropy(text.encode()) < 5.0  # text-like, not random


def test_image_input():
    raw = inputs.generate("image", 0, seed=0, name="img.npy")
    import io
    arr = np.load(io.BytesIO(raw))
    assert arr.dtype == np.uint8 and arr.ndim == 3 and arr.shape[2] == 3
    assert raw == inputs.generate("image", 0, seed=9, name="other.npy")


@pytest.mark.parametrize("kind,nbytes,match", [("photo", 1, "kind must be one of"),
                                               ("random", -1, "bytes must be a non-negative integer"),
                                               ("text", 1.5, "bytes must be a non-negative integer")])
def test_generate_rejects_bad_specs(kind, nbytes, match):
    with pytest.raises(ValueError, match=match):
        inputs.generate(kind, nbytes, seed=0, name="x")


def test_write_and_read_input(tmp_path):
    p = inputs.write_input(tmp_path / "r.bin", {"kind": "random", "bytes": 100}, seed=4)
    assert inputs.read_input(p) == inputs.generate("random", 100, seed=4, name="r.bin")
