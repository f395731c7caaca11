"""Table IV of the MAES chapter: entropy and chi-square uniformity of the encrypted images, and the
comparison the claim makes (each MAES entropy minus AES's, same image and mode, with a second-key control).

Deterministic: its tables are byte-identical between runs.
"""
from __future__ import annotations

import hashlib
import math

import numpy as np
import pandas as pd
from scipy import stats as _sst

from cipherlab.analysis import stats as _stats
from cipherlab.experiments.maes.common import TABLE4_ROWS, published_map


def expected_entropy_uniform(n_bytes: int) -> float:
    """Expected plug-in entropy (bits/byte) of ``n_bytes`` independent uniform bytes.

    The plug-in estimate is biased low; to first order (Miller 1955) the bias
    is ``(256 - 1) / (2 n ln 2)`` bits. A perfect cipher's output of ``n``
    bytes is therefore expected near this value, not at 8.
    """
    if n_bytes < 1:
        raise ValueError(f"n_bytes must be >= 1, got {n_bytes}")
    return 8.0 - 255.0 / (2.0 * n_bytes * math.log(2.0))


def entropy_sd_uniform(n_bytes: int) -> float:
    """Standard deviation (bits/byte) of the plug-in entropy of ``n_bytes`` uniform bytes.

    Near uniformity the entropy deficit is ``chi2 / (2 n ln 2)`` bits, with
    ``chi2`` the chi-square statistic of the byte counts (255 degrees of
    freedom, variance 510), so the spread is ``sqrt(510) / (2 n ln 2)``. It
    also shows that entropy and the chi-square test measure the same thing.
    """
    if n_bytes < 1:
        raise ValueError(f"n_bytes must be >= 1, got {n_bytes}")
    return math.sqrt(2.0 * 255.0) / (2.0 * n_bytes * math.log(2.0))


def bytes_for_expected_entropy(entropy_bits: float) -> float:
    """Inverse of :func:`expected_entropy_uniform`: the file size (bytes) at which
    uniform random bytes are expected to show ``entropy_bits``.

    Used to read a published entropy: a perfect cipher's output of about this
    many bytes would score it.
    """
    if not 0 < entropy_bits < 8:
        raise ValueError(f"entropy_bits must be in (0, 8), got {entropy_bits}")
    return 255.0 / (2.0 * math.log(2.0) * (8.0 - entropy_bits))


def entropy_table(images: dict[tuple[str, str], np.ndarray], alpha: float = 0.01) -> pd.DataFrame:
    """Table IV: entropy (bits/byte) and chi-square uniformity test of each image.

    Columns ``cipher, mode, bytes, entropy_bits, expected_uniform_bits,
    chi2, p_value, uniform_at_alpha, published_entropy``. ``uniform_at_alpha``
    is True when the chi-square test (255 degrees of freedom,
    :func:`scipy.stats.chisquare`) does not reject a uniform byte
    distribution at level ``alpha``.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    pub = published_map("Table IV")
    rows = []
    for (cipher, mode), arr in images.items():
        chi2, p = _stats.chi_square_uniform(arr)
        pub_row = TABLE4_ROWS.get(cipher)
        rows.append({
            "cipher": cipher, "mode": mode, "bytes": int(arr.size),
            "entropy_bits": _stats.byte_entropy(arr),
            "expected_uniform_bits": expected_entropy_uniform(int(arr.size)),
            "chi2": chi2, "p_value": p, "uniform_at_alpha": bool(p >= alpha),
            "published_entropy": pub.get((pub_row, "Entropy"), np.nan) if pub_row else np.nan,
        })
    return pd.DataFrame(rows)


def second_key(key: bytes) -> bytes:
    """A second key of the same length, derived from ``key`` (SHA-256): the A/A control of Table IV."""
    return hashlib.sha256(b"cipherlab maes control key" + bytes(key)).digest()[: len(key)]


def entropy_comparison(images: dict[tuple[str, str], np.ndarray],
                       control: "dict[tuple[str, str], np.ndarray] | None" = None,
                       confidence: float = 0.95) -> pd.DataFrame:
    """Table IV the way the claim reads: each MAES entropy minus AES's, same image and mode.

    ``difference_bits`` is ``H(MAES) - H(AES)`` (bits per byte) with a normal
    interval from the sampling spread of two plug-in entropies of ``n`` nearly
    uniform bytes (:func:`entropy_sd_uniform`, times sqrt 2). ``control`` holds
    AES ciphertexts of the same image under a second key (:func:`second_key`),
    keyed ``("aes", mode)``: its row (``cipher = "aes (second key)"``) shows the
    difference that two keys of the *same* cipher produce, the noise band of
    the comparison. ``published_difference_bits`` is the same difference of the
    paper's Table IV cells (the paper's image, mode unknown), shown as context.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    z = float(_sst.norm.ppf(0.5 + confidence / 2))
    pub = published_map("Table IV")
    pub_aes = pub.get((TABLE4_ROWS["aes"], "Entropy"), np.nan)
    others = {k: v for k, v in images.items() if k[0].startswith("maes")}
    for (cipher, mode), arr in (control or {}).items():
        if cipher != "aes":
            raise ValueError(f"control must hold AES ciphertexts keyed ('aes', mode), got {(cipher, mode)!r}")
        others[("aes (second key)", mode)] = arr
    rows = []
    for (cipher, mode), arr in others.items():
        if ("aes", mode) not in images:
            raise ValueError(f"images lacks the AES ciphertext for mode {mode!r}")
        base = images[("aes", mode)]
        h, h_aes = _stats.byte_entropy(arr), _stats.byte_entropy(base)
        sd = math.hypot(entropy_sd_uniform(int(arr.size)), entropy_sd_uniform(int(base.size)))
        diff = h - h_aes
        pub_row = TABLE4_ROWS.get(cipher)
        pub_diff = pub.get((pub_row, "Entropy"), np.nan) - pub_aes if pub_row else np.nan
        rows.append({"cipher": cipher, "mode": mode, "bytes": int(arr.size), "entropy_bits": h,
                     "aes_entropy_bits": h_aes, "difference_bits": diff, "low_bits": diff - z * sd,
                     "high_bits": diff + z * sd, "published_difference_bits": pub_diff})
    return pd.DataFrame(rows)


def fig8_worst(entropy: pd.DataFrame) -> dict:
    """002-fig8-uniform in one mode: the worse of the two approaches (the larger chi-square, which ranks them
    where both p-values underflow to 0; the same order as the p-value, both having 255 df), its p-value and n, and
    a detail naming the one that decides and the other beside it, each with its own chi-square and p."""
    e = entropy.sort_values(["chi2", "cipher"], ascending=[False, True])
    worst, rest = e.iloc[0], e.iloc[1:]

    def each(r) -> str:
        return f"{r['cipher']} chi2 = {r['chi2']:.0f}, p = {r['p_value']:.3g}"

    other = "; ".join(each(r) for _, r in rest.iterrows())
    detail = (f"chi-square of the byte counts, 255 df, the worse of the approaches: {each(worst)}"
              + (f" (beside it {other})" if other else ""))
    return dict(p_value=float(worst["p_value"]), n=int(worst["bytes"]), detail=detail)
