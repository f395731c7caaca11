"""Figure 8 of the MAES chapter: the photograph encrypted by each cipher in each mode, what it leaks.

The encrypted images (:func:`image_ciphertexts`), their byte histograms
(:func:`histogram_frame`), and the repeats a byte-local cipher keeps
(:func:`repeat_map`, :func:`leak_table`).  Table IV's entropy is in
:mod:`.entropy`, which one plaintext byte reaches in :mod:`.dependency`.
Everything here is deterministic: its tables are byte-identical between runs.
"""
from __future__ import annotations

import hashlib
from typing import Sequence

import numpy as np
import pandas as pd

from cipherlab import new
from cipherlab.analysis import stats as _stats
from cipherlab.pipeline.inputs import test_image
from cipherlab.experiments.maes.common import CIPHERS
from cipherlab.names import MODES


def load_test_image() -> np.ndarray:
    """The test photograph: matplotlib's sample ``grace_hopper.jpg`` as ``uint8[600, 512, 3]``.

    Delegates to :func:`cipherlab.pipeline.inputs.test_image` (the pipeline's input
    generator writes the same array to ``data/inputs/<profile>/``). JPEG
    decoding is deterministic for a given libjpeg; the chapter prints the
    SHA-256 of the decoded array (:func:`image_digest`) so a reader can see
    which pixels were encrypted.
    """
    return test_image()


def image_digest(image: np.ndarray) -> str:
    """SHA-256 (hex) of the image bytes, to show the decoded input is the same every run."""
    return hashlib.sha256(np.ascontiguousarray(image).tobytes()).hexdigest()


def encrypt_image(image: np.ndarray, cipher: str, mode: str, key: bytes, iv: "bytes | None" = None,
                  impl: str = "table", **options) -> np.ndarray:
    """Encrypt the raw pixel bytes of ``image``; return an array of the same shape.

    The pixel bytes are encrypted as one message, row-major, without padding
    when their count is a whole number of blocks (the test image is), so the
    ciphertext can be shown as a picture of the same size. Otherwise the
    PKCS#7-padded ciphertext is cut back to the image size for display only.
    """
    flat = np.ascontiguousarray(image, dtype=np.uint8).ravel()
    whole = flat.size % 16 == 0
    kwargs = dict(options)
    if mode != "ecb":
        if iv is None:
            raise ValueError(f"iv must be given (16 bytes) for mode {mode!r}")
        kwargs["iv"] = iv
    c = new(key, cipher=cipher, mode=mode, impl=impl, padding=not whole, threads=1, **kwargs)
    out = np.asarray(c.encrypt(flat), dtype=np.uint8)
    return out[: flat.size].reshape(image.shape)


def image_ciphertexts(image: np.ndarray, key: bytes, iv: bytes, ciphers: Sequence[str] = CIPHERS,
                      modes: Sequence[str] = MODES, impl: str = "table",
                      maes_options: "dict | None" = None) -> dict[tuple[str, str], np.ndarray]:
    """Encrypted images keyed by ``(cipher, mode)``, plus ``("plain", "none")`` for the input."""
    out = {("plain", "none"): np.ascontiguousarray(image, dtype=np.uint8)}
    for cipher in ciphers:
        opts = dict(maes_options or {}) if cipher.startswith("maes") else {}
        for mode in modes:
            out[(cipher, mode)] = encrypt_image(image, cipher, mode, key, iv, impl=impl, **opts)
    return out


def _lagged_equal(flat: np.ndarray, lag_bytes: int) -> np.ndarray:
    eq = np.zeros(flat.size, dtype=bool)
    eq[lag_bytes:] = flat[lag_bytes:] == flat[:-lag_bytes]
    return eq


def _check_lag(lag_bytes: int) -> None:
    if lag_bytes < 16 or lag_bytes % 16:
        raise ValueError(f"lag_bytes must be a positive multiple of 16, got {lag_bytes}")


def repeat_map(image: np.ndarray, lag_bytes: int = 48) -> np.ndarray:
    """Where a byte equals the byte ``lag_bytes`` earlier, as a picture.

    Returns ``uint8[rows, cols]``: per pixel, how many of its channel bytes
    equal the byte ``lag_bytes`` before them in the row-major byte stream
    (0 .. channels). With ``lag_bytes`` a multiple of 16 both bytes sit at
    the same position of their blocks; with 48 = 16 x 3 they are also the
    same colour channel of pixels 16 columns apart. A cipher whose ECB
    ciphertext bytes each depend on one plaintext byte reproduces the
    plaintext's map exactly; a good block cipher gives noise.
    """
    _check_lag(lag_bytes)
    arr = np.ascontiguousarray(image, dtype=np.uint8)
    eq = _lagged_equal(arr.ravel(), lag_bytes).reshape(arr.shape)
    return (eq.reshape(arr.shape[0], arr.shape[1], -1).sum(axis=2)).astype(np.uint8)


def leak_table(images: dict[tuple[str, str], np.ndarray], lag_bytes: int = 48,
               routes: "dict[str, np.ndarray | None] | None" = None) -> pd.DataFrame:
    """How much of the plaintext's byte-equality pattern a ciphertext keeps.

    For ciphertext byte pairs ``lag_bytes`` apart (same block position):
    ``p_equal_if_plain_equal`` is the share equal in the ciphertext among the
    pairs whose *source* plaintext bytes are equal, ``p_equal_if_plain_differs``
    among those whose sources differ. The source of ciphertext position ``j``
    is the plaintext position ``routes[cipher]`` sends to ``j``
    (:func:`byte_routes`); without a route (a diffusing cipher) the same
    position is used. Random-looking ciphertext gives about 1/256 for both; a
    per-byte substitution in ECB gives exactly 1 and 0.
    """
    _check_lag(lag_bytes)
    routes = routes or {}
    plain = np.ascontiguousarray(images[("plain", "none")], dtype=np.uint8).ravel()
    rows = []
    for (cipher, mode), arr in images.items():
        if cipher == "plain":
            continue
        src = plain
        route = routes.get(cipher)
        if route is not None and plain.size % 16 == 0:
            inverse = np.empty(16, dtype=np.int64)
            inverse[np.asarray(route)] = np.arange(16)
            src = plain.reshape(-1, 16)[:, inverse].ravel()
        plain_eq = _lagged_equal(src, lag_bytes)[lag_bytes:]
        ct_eq = _lagged_equal(np.ascontiguousarray(arr).ravel(), lag_bytes)[lag_bytes:]
        rows.append({
            "cipher": cipher, "mode": mode, "lag_bytes": lag_bytes, "routed": route is not None,
            "plain_equal_pairs": int(plain_eq.sum()),
            "p_equal_if_plain_equal": float(ct_eq[plain_eq].mean()) if plain_eq.any() else np.nan,
            "p_equal_if_plain_differs": float(ct_eq[~plain_eq].mean()) if (~plain_eq).any() else np.nan,
        })
    return pd.DataFrame(rows)


def histogram_frame(images: dict[tuple[str, str], np.ndarray]) -> pd.DataFrame:
    """Tidy byte histograms: one row per ``(cipher, mode, byte)`` with its ``count``."""
    rows = []
    for (cipher, mode), arr in images.items():
        counts = _stats.byte_histogram(arr)
        rows.append(pd.DataFrame({"cipher": cipher, "mode": mode, "byte": np.arange(256), "count": counts}))
    return pd.concat(rows, ignore_index=True)
