"""Figure 8, Table IV, byte dependency and key space of the MAES chapter: the non-timing experiments.

Everything here is deterministic (seeded): its tables are byte-identical between runs.
"""
from __future__ import annotations

import hashlib
import math
import warnings
from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats as _sst

from cipherlab import new
from cipherlab.analysis import stats as _stats
from cipherlab.pipeline.inputs import test_image
from cipherlab.analysis.paper import published
from cipherlab.experiments.maes.common import CIPHERS, IMAGE_MODES, PAPER, TABLE4_ROWS, check_choice, check_choices, published_map

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
    check_choice("cipher", cipher, CIPHERS)
    check_choice("mode", mode, IMAGE_MODES)
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
                      modes: Sequence[str] = IMAGE_MODES, impl: str = "table",
                      maes_options: "dict | None" = None) -> dict[tuple[str, str], np.ndarray]:
    """Encrypted images keyed by ``(cipher, mode)``, plus ``("plain", "none")`` for the input."""
    ciphers = check_choices("ciphers", ciphers, CIPHERS)
    modes = check_choices("modes", modes, IMAGE_MODES)
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


def byte_routes(cipher: str, key: bytes, n_blocks: int = 4, seed: int = 0, impl: str = "table",
                **options) -> "np.ndarray | None":
    """Which ciphertext byte each plaintext byte alone reaches, measured through the cipher.

    For each of the 16 input positions, change that byte in ``n_blocks``
    random blocks and see which output bytes change. Returns ``int64[16]``
    (``routes[p]`` = the one output position input ``p`` reaches) when every
    change touches exactly one output byte, the same one each time; ``None``
    when the cipher diffuses (AES).
    """
    check_choice("cipher", cipher, CIPHERS)
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, size=(n_blocks, 16), dtype=np.uint8)
    c = new(key, cipher=cipher, mode="ecb", impl=impl, padding=False, threads=1, **options)
    base = np.asarray(c.encrypt(blocks.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
    routes = np.empty(16, dtype=np.int64)
    for pos in range(16):
        flipped = blocks.copy()
        flipped[:, pos] ^= 0x01
        enc = np.asarray(c.encrypt(flipped.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
        changed = enc != base
        if not (changed.sum(axis=1) == 1).all():
            return None
        outs = np.unique(np.argmax(changed, axis=1))
        if outs.size != 1:
            return None
        routes[pos] = outs[0]
    return routes


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


def byte_dependency(cipher: str, key: bytes, n_blocks: int = 256, seed: int = 0,
                    impl: str = "table", **options) -> pd.DataFrame:
    """How many ciphertext bytes change when one plaintext byte changes.

    For ``n_blocks`` random blocks and each of the 16 byte positions, the
    byte is replaced by another random value and both blocks are encrypted
    (ECB, one block). AES changes all 16 bytes (full diffusion after two
    rounds); a cipher without MixColumns changes exactly one. Returns one row
    per block and position with ``bytes_changed``.
    """
    check_choice("cipher", cipher, CIPHERS)
    if n_blocks < 1:
        raise ValueError(f"n_blocks must be >= 1, got {n_blocks}")
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, size=(n_blocks, 16), dtype=np.uint8)
    deltas = rng.integers(1, 256, size=(n_blocks, 16), dtype=np.uint8)
    c = new(key, cipher=cipher, mode="ecb", impl=impl, padding=False, threads=1, **options)
    base = np.asarray(c.encrypt(blocks.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
    rows = []
    for pos in range(16):
        flipped = blocks.copy()
        flipped[:, pos] ^= deltas[:, pos]
        enc = np.asarray(c.encrypt(flipped.ravel()), dtype=np.uint8).reshape(n_blocks, 16)
        changed = (enc != base).sum(axis=1)
        rows.append(pd.DataFrame({"cipher": cipher, "position": pos, "block": np.arange(n_blocks),
                                  "bytes_changed": changed}))
    return pd.concat(rows, ignore_index=True)


# ---------------------------------------------------------------------------
# key space
# ---------------------------------------------------------------------------

KEY_SPACE_NOTE = (
    "Key space bounds only exhaustive search. It says nothing about shortcuts: a cipher whose "
    "ciphertext bytes each depend on one plaintext byte (MAES) keeps AES's key space and still "
    "falls to attacks that never guess the key (codebooks per byte position, chosen plaintext). "
    "A large key space is necessary for security, not sufficient."
)


def keyspace_table(key_bits: Sequence[int] = (128, 192, 256), keys_per_second: float = 1e12) -> pd.DataFrame:
    """Key sizes and brute-force counts.

    Columns ``key_bits, keys`` (``2**key_bits`` as an exact decimal string),
    ``log10_keys``, ``expected_trials`` (half the key space, as a decimal
    string), ``years_at_rate`` (expected years at ``keys_per_second``) and
    ``published_key_bits`` (from the paper's Section 3, where stated) and
    ``accepted_by`` (which of our ciphers take a key of that size).
    """
    if keys_per_second <= 0:
        raise ValueError(f"keys_per_second must be > 0, got {keys_per_second}")
    bits = [int(b) for b in key_bits]
    for b in bits:
        if b < 1:
            raise ValueError(f"key_bits must be positive integers, got {b}")
    pub = published(PAPER, "Key space (prose)")
    # the AES key sizes the paper names (not its 3-bit illustration)
    sel = (pub["column"] == "Key length") & pub["row"].str.startswith("AES-")
    pub_bits = set(pub.loc[sel, "number"].dropna().astype(int))
    rows = []
    for b in bits:
        keys = 2 ** b
        rows.append({
            "key_bits": b,
            "keys": str(keys),
            "log10_keys": b * math.log10(2.0),
            "expected_trials": str(keys // 2),
            "years_at_rate": (keys / 2) / keys_per_second / (365.25 * 24 * 3600),
            "keys_per_second": keys_per_second,
            "published_key_bits": b in pub_bits,
            "accepted_by": " ".join(c for c in CIPHERS if _accepts_key_bits(c, b)),
        })
    return pd.DataFrame(rows)


def _accepts_key_bits(cipher: str, bits: int) -> bool:
    """True when :func:`cipherlab.new` accepts a key of ``bits`` bits for ``cipher``."""
    if bits % 8:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            new(bytes(bits // 8), cipher=cipher, mode="ecb", padding=False)
    except ValueError:
        return False
    return True



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
