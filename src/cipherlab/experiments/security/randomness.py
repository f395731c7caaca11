"""NIST SP 800-22 Rev. 1a statistical tests (a subset) and a ciphertext runner.

Why our own: the PyPI candidate (``nistrng``) has had no release since 2021;
the seven tests below are short, and each is checked in
``tests/test_security_randomness.py`` against the worked examples printed in
SP 800-22 Rev. 1a (sections 2.1-2.4, 2.11-2.13; the vectors are in
``cipherlab/vectors/sp800_22_examples.json``). ``scipy.special`` supplies
``erfc`` and the regularised upper incomplete gamma ``gammaincc`` (the
document's ``igamc``); ``scipy.stats.norm`` the normal CDF.

Every test takes a 1-D array of bits (0/1) and returns its P-value(s); a
sequence passes at the 0.01 level when ``p >= 0.01``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import special, stats

from cipherlab.ciphers.registry import cipher_names
from cipherlab.analysis.stats import byte_entropy, chi_square_uniform

from cipherlab.experiments.security.quiet import cipher_label, new_quiet

ALPHA = 0.01


def as_bits(data) -> np.ndarray:
    """Bytes or a uint8 array -> bit array (most significant bit first)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = np.frombuffer(data, dtype=np.uint8)
    return np.unpackbits(np.asarray(data, dtype=np.uint8).reshape(-1))


def bits_from_string(text: str) -> np.ndarray:
    """``"0110..."`` -> bit array (the notation of the SP 800-22 examples)."""
    text = "".join(text.split())
    if set(text) - {"0", "1"}:
        raise ValueError("text: only the characters 0 and 1 are allowed")
    return np.frombuffer(text.encode(), dtype=np.uint8) - ord("0")


def _bits(eps) -> np.ndarray:
    eps = np.asarray(eps, dtype=np.int64).reshape(-1)
    if eps.size == 0:
        raise ValueError("eps: the bit sequence must not be empty")
    return eps


def frequency(eps) -> float:
    """2.1 Frequency (monobit) test."""
    e = _bits(eps)
    s_obs = abs(int((2 * e - 1).sum())) / np.sqrt(e.size)
    return float(special.erfc(s_obs / np.sqrt(2)))


def block_frequency(eps, block_size: int = 128) -> float:
    """2.2 Frequency test within a block of ``block_size`` bits."""
    e = _bits(eps)
    n_blocks = e.size // block_size
    if n_blocks < 1:
        raise ValueError(f"block_size must be at most the sequence length {e.size}, got {block_size}")
    pi = e[: n_blocks * block_size].reshape(n_blocks, block_size).mean(axis=1)
    chi2 = 4 * block_size * ((pi - 0.5) ** 2).sum()
    return float(special.gammaincc(n_blocks / 2, chi2 / 2))


def runs(eps) -> float:
    """2.3 Runs test (0.0 when the frequency prerequisite fails, as specified)."""
    e = _bits(eps)
    n = e.size
    pi = e.mean()
    if abs(pi - 0.5) >= 2 / np.sqrt(n):
        return 0.0
    v_obs = 1 + int((e[1:] != e[:-1]).sum())
    num = abs(v_obs - 2 * n * pi * (1 - pi))
    return float(special.erfc(num / (2 * np.sqrt(2 * n) * pi * (1 - pi))))


# (minimum n, block length M, class upper bounds v_0..v_K (first is "<="), probabilities)
_LONGEST_RUN = (
    (750_000, 10_000, (10, 11, 12, 13, 14, 15, 16),
     (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727)),
    (6_272, 128, (4, 5, 6, 7, 8, 9), (0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124)),
    (128, 8, (1, 2, 3, 4), (0.2148, 0.3672, 0.2305, 0.1875)),
)


def _longest_run_in_rows(blocks: np.ndarray) -> np.ndarray:
    """Longest run of ones in each row of a 0/1 matrix."""
    padded = np.pad(blocks, ((0, 0), (1, 1)))
    d = np.diff(padded, axis=1)
    longest = np.zeros(blocks.shape[0], dtype=np.int64)
    rows_s, cols_s = np.nonzero(d == 1)
    rows_e, cols_e = np.nonzero(d == -1)
    # starts and ends come in the same row-major order, paired one to one
    np.maximum.at(longest, rows_s, cols_e - cols_s)
    assert np.array_equal(rows_s, rows_e)
    return longest


def longest_run(eps) -> float:
    """2.4 Test for the longest run of ones in a block (needs n >= 128)."""
    e = _bits(eps)
    n = e.size
    for min_n, m, bounds, probs in _LONGEST_RUN:
        if n >= min_n:
            break
    else:
        raise ValueError(f"eps: the longest-run test needs at least 128 bits, got {n}")
    n_blocks = n // m
    longest = _longest_run_in_rows(e[: n_blocks * m].reshape(n_blocks, m))
    classes = np.clip(longest, bounds[0], bounds[-1]) - bounds[0]
    v = np.bincount(classes, minlength=len(bounds))
    expected = n_blocks * np.asarray(probs)
    chi2 = float(((v - expected) ** 2 / expected).sum())
    return float(special.gammaincc((len(bounds) - 1) / 2, chi2 / 2))


def cumulative_sums(eps, reverse: bool = False) -> float:
    """2.13 Cumulative sums (cusum) test, forward (mode 0) or backward (mode 1)."""
    e = _bits(eps)
    x = 2 * e - 1
    if reverse:
        x = x[::-1]
    n = x.size
    z = int(np.abs(np.cumsum(x)).max())
    sqrt_n = np.sqrt(n)
    phi = stats.norm.cdf
    # summation limits truncated toward zero, as the NIST reference code does
    # (C integer conversion); floor() misses the 2.13.4 example by 7e-5
    k1 = np.arange(int((-n / z + 1) / 4), int((n / z - 1) / 4) + 1)
    k2 = np.arange(int((-n / z - 3) / 4), int((n / z - 1) / 4) + 1)
    p = (1.0
         - (phi((4 * k1 + 1) * z / sqrt_n) - phi((4 * k1 - 1) * z / sqrt_n)).sum()
         + (phi((4 * k2 + 3) * z / sqrt_n) - phi((4 * k2 + 1) * z / sqrt_n)).sum())
    return float(p)


def _pattern_counts(e: np.ndarray, m: int) -> np.ndarray:
    """Counts of every overlapping m-bit pattern, the sequence wrapped around."""
    if m == 0:
        return np.array([e.size])
    wrapped = np.concatenate([e, e[: m - 1]])
    codes = np.zeros(e.size, dtype=np.int64)
    for i in range(m):
        codes = (codes << 1) | wrapped[i: i + e.size]
    return np.bincount(codes, minlength=1 << m)


def approximate_entropy(eps, m: int = 10) -> float:
    """2.12 Approximate entropy test with block length ``m``."""
    e = _bits(eps)
    n = e.size

    def phi(mm: int) -> float:
        c = _pattern_counts(e, mm) / n
        c = c[c > 0]
        return float((c * np.log(c)).sum())

    apen = phi(m) - phi(m + 1)
    chi2 = 2 * n * (np.log(2) - apen)
    return float(special.gammaincc(2 ** (m - 1), chi2 / 2))


def serial(eps, m: int = 16) -> tuple[float, float]:
    """2.11 Serial test with block length ``m``: ``(P-value1, P-value2)``."""
    e = _bits(eps)
    n = e.size
    if m < 2:
        raise ValueError(f"m must be at least 2, got {m}")

    def psi2(mm: int) -> float:
        if mm <= 0:
            return 0.0
        v = _pattern_counts(e, mm).astype(float)
        return float((2 ** mm) / n * (v ** 2).sum() - n)

    p_m, p_m1, p_m2 = psi2(m), psi2(m - 1), psi2(m - 2)
    d1 = p_m - p_m1
    d2 = p_m - 2 * p_m1 + p_m2
    return (float(special.gammaincc(2 ** (m - 2), d1 / 2)),
            float(special.gammaincc(2 ** (m - 3), d2 / 2)))


def run_tests(eps, *, block_size: int = 128, apen_m: int = 10, serial_m: int = 16) -> pd.DataFrame:
    """All seven tests on one bit sequence: one row per P-value."""
    e = _bits(eps)
    s1, s2 = serial(e, serial_m)
    results = [
        ("frequency", frequency(e)),
        ("block_frequency", block_frequency(e, block_size)),
        ("runs", runs(e)),
        ("longest_run", longest_run(e)),
        ("cumulative_sums_forward", cumulative_sums(e)),
        ("cumulative_sums_reverse", cumulative_sums(e, reverse=True)),
        ("approximate_entropy", approximate_entropy(e, apen_m)),
        ("serial_1", s1),
        ("serial_2", s2),
    ]
    df = pd.DataFrame(results, columns=["test", "p_value"])
    df["passed"] = df["p_value"] >= ALPHA
    return df


def acceptable_proportion(n_sequences: int, alpha: float = ALPHA) -> float:
    """Lowest pass proportion SP 800-22 section 4.2.1 accepts for ``n_sequences``.

    ``(1 - alpha) - 3 sqrt(alpha (1 - alpha) / n_sequences)``.
    """
    return float((1 - alpha) - 3 * np.sqrt(alpha * (1 - alpha) / n_sequences))


def sequence_tests(data, *, n_sequences: int = 8, block_size: int = 128, apen_m: int = 10,
                   serial_m: int = 16) -> pd.DataFrame:
    """Split ``data`` into ``n_sequences`` equal bit sequences and test each.

    One row per sequence x P-value, with a ``sequence`` column. Trailing
    bits that do not fill a sequence are dropped.
    """
    bits = as_bits(data)
    if not isinstance(n_sequences, (int, np.integer)) or n_sequences < 1:
        raise ValueError(f"n_sequences must be a positive integer, got {n_sequences!r}")
    length = bits.size // n_sequences
    if length < 128:
        raise ValueError(f"n_sequences: {n_sequences} sequences of {bits.size} bits are shorter "
                         "than the 128 bits the tests need")
    frames = []
    for k in range(n_sequences):
        df = run_tests(bits[k * length:(k + 1) * length], block_size=block_size, apen_m=apen_m,
                       serial_m=serial_m)
        df.insert(0, "sequence", k)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def ciphertext_randomness(inputs: dict, ciphers=None,
                          modes=("ecb", "ctr"), *, seed: int = 0, n_sequences: int = 8,
                          block_size: int = 128, apen_m: int = 10,
                          serial_m: int = 16) -> pd.DataFrame:
    """SP 800-22 P-values of ciphertexts, per sequence, with byte entropy and chi-square.

    Parameters
    ----------
    inputs : dict
        ``name -> bytes``: the low-entropy plaintexts (e.g. all-zero, text).
    ciphers : sequence of str or CipherInfo, optional
        Registered names or entries (default :func:`cipherlab.ciphers.registry.cipher_names`).
    seed : int
        Seeds one key per cipher and the CTR initial counter block.
    n_sequences : int
        The ciphertext is cut into this many bit sequences, each tested
        (SP 800-22 judges a generator by the proportion of sequences passing).

    Returns
    -------
    DataFrame
        One row per cipher x mode x input x sequence x P-value (plus the
        plaintext itself as cipher ``"plaintext"``, mode ``"-"``) with
        ``p_value`` and ``passed``; ``byte_entropy``, ``chi_square`` and
        ``chi_square_p`` describe the whole ciphertext.
    """
    def describe(data: np.ndarray, **labels) -> pd.DataFrame:
        df = sequence_tests(data, n_sequences=n_sequences, block_size=block_size,
                            apen_m=apen_m, serial_m=serial_m)
        chi2, chi2_p = chi_square_uniform(data)
        for col, val in reversed(labels.items()):
            df.insert(0, col, val)
        df["byte_entropy"] = byte_entropy(data)
        df["chi_square"] = chi2
        df["chi_square_p"] = chi2_p
        return df

    rng = np.random.default_rng(seed)
    frames = []
    for name, data in inputs.items():
        plain = np.frombuffer(bytes(data), dtype=np.uint8)
        frames.append(describe(plain, cipher="plaintext", mode="-", input=name))
    for cipher in cipher_names() if ciphers is None else ciphers:
        key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        counter = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        for mode in modes:
            for name, data in inputs.items():
                plain = np.frombuffer(bytes(data), dtype=np.uint8)
                iv = counter if mode == "ctr" else None
                obj = new_quiet(key, cipher, mode, iv=iv, padding=(mode == "ecb"))
                ct = np.asarray(obj.encrypt(plain), dtype=np.uint8)
                frames.append(describe(ct, cipher=cipher_label(cipher), mode=mode, input=name))
    return pd.concat(frames, ignore_index=True)


def randomness_summary(per_sequence: pd.DataFrame) -> pd.DataFrame:
    """Per cipher x mode x input x test: pass proportion against SP 800-22's bound.

    Adds ``acceptable`` (the section 4.2.1 lower bound), ``passed`` (proportion
    at or above it) and the whole-ciphertext byte entropy and chi-square.
    """
    keys = ["cipher", "mode", "input", "test"]
    g = per_sequence.groupby(keys, sort=False)
    out = g.agg(sequences=("p_value", "size"), proportion=("passed", "mean"),
                min_p_value=("p_value", "min"), byte_entropy=("byte_entropy", "first"),
                chi_square=("chi_square", "first"), chi_square_p=("chi_square_p", "first"))
    out = out.reset_index()
    out["acceptable"] = [acceptable_proportion(n) for n in out["sequences"]]
    out["passed"] = out["proportion"] >= out["acceptable"]
    return out
