"""SP 800-22 on the variant's CTR keystream and on its ECB encryption of the test image, AES beside; image entropy.

The tests and the pass-proportion rule are the security chapter's
(:mod:`cipherlab.experiments.security.randomness`).  A CTR encryption of
zeros is the keystream; the ECB image keeps every repeated plaintext block
repeated, which is what the byte-entropy figures of the papers miss.  AES is
run with the same settings beside the variant (the control), and each test row
carries the probability that a truly random source passes it at this many
sequences (:func:`expected_pass_probability`): with few sequences one bad
sequence fails a test, so a failure of an AES-like cipher is what chance gives.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from cipherlab.analysis.stats import byte_entropy
from cipherlab.experiments.security import randomness
from cipherlab.experiments.security.quiet import new_quiet
from cipherlab.names import MODES

__all__ = ["randomness_tables", "expected_pass_probability", "chance_of_failing", "chance_of_worst_test",
           "chance_of_passing_all", "image_entropy_table", "ENTROPY_MODES"]

#: the modes the encrypted image's byte entropy is measured in (a paper's entropy claim names one)
ENTROPY_MODES = MODES


def expected_pass_probability(n_sequences: int, alpha: float = randomness.ALPHA) -> float:
    """The probability that a truly random source passes one SP 800-22 test at ``n_sequences`` sequences: at
    least the acceptable proportion (section 4.2.1) of sequences with P >= alpha, each with probability 1 - alpha."""
    need = math.ceil(randomness.acceptable_proportion(n_sequences, alpha) * n_sequences - 1e-9)
    return float(stats.binom.sf(need - 1, n_sequences, 1 - alpha))


def chance_of_failing(failed: int, tests: int, pass_probability: float) -> float:
    """An upper bound on the probability that a truly random source fails ``failed`` or more of ``tests`` SP 800-22
    tests, true however the tests are correlated: the expected number of failures over ``failed`` (Markov's
    inequality), ``tests * (1 - pass_probability) / failed``, each test passing with ``pass_probability``
    (:func:`expected_pass_probability`). Never the binomial count of independent tests: the tests read the same bits
    (frequency, cumulative sums and runs move together), and independence makes a few failures look about a hundred
    times rarer than they are."""
    if failed <= 0:
        return 1.0
    return float(min(1.0, tests * (1.0 - pass_probability) / failed))


def chance_of_worst_test(lowest: int, n_sequences: int, tests: int, alpha: float = randomness.ALPHA) -> float:
    """SP 800-22's own per-test reading (the proportion of sequences passing): an upper bound on the probability that
    a truly random source gives, in any of ``tests`` tests, a count of passing sequences (P >= alpha) of ``lowest``
    or fewer of ``n_sequences``, true however the tests are correlated (a union bound over the tests)."""
    return float(min(1.0, tests * float(stats.binom.cdf(int(lowest), int(n_sequences), 1.0 - alpha))))


def chance_of_passing_all(tests: int, pass_probability: float) -> float:
    """A lower bound on the probability that a truly random source passes all ``tests`` tests, true however they
    are correlated (the union bound): ``1 - tests * (1 - pass_probability)``, at least 0."""
    return float(max(0.0, 1.0 - tests * (1.0 - pass_probability)))


def randomness_tables(cipher: str, image: np.ndarray, *, keystream_bytes: int = 65536, seed: int = 0,
                      n_sequences: int = 8, block_size: int = 128, apen_m: int = 8,
                      serial_m: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-sequence P-values and their summary for ``ctr`` of zeros and ``ecb`` of ``image``, the variant and AES.

    Returns ``(per_sequence, summary)`` as :func:`randomness.ciphertext_randomness` and
    :func:`randomness.randomness_summary`, the summary with ``expected_pass_probability``.
    """
    if isinstance(keystream_bytes, bool) or not isinstance(keystream_bytes, (int, np.integer)) \
            or keystream_bytes < 16:
        raise ValueError(f"keystream_bytes must be an integer >= 16, got {keystream_bytes!r}")
    ciphers = [cipher] if cipher == "aes" else [cipher, "aes"]
    kw = dict(ciphers=ciphers, seed=seed, n_sequences=n_sequences, block_size=block_size, apen_m=apen_m,
              serial_m=serial_m)
    ctr = randomness.ciphertext_randomness({"keystream (zeros)": bytes(keystream_bytes)}, modes=("ctr",), **kw)
    img = randomness.ciphertext_randomness({"image": np.ascontiguousarray(image).tobytes()}, modes=("ecb",), **kw)
    # the plaintext rows: zeros say nothing, the image is the control of the ECB case
    per_seq = pd.concat([ctr[ctr["cipher"] != "plaintext"], img], ignore_index=True)
    summary = randomness.randomness_summary(per_seq)
    summary["expected_pass_probability"] = [expected_pass_probability(int(n)) for n in summary["sequences"]]
    return per_seq, summary


def image_entropy_table(cipher: str, image: np.ndarray, *, seed: int = 0) -> pd.DataFrame:
    """Byte entropy (bits per byte, 8 at most) of the image encrypted in each of :data:`ENTROPY_MODES`, by the
    variant and by AES under the same seeded key and IV; the plaintext's beside."""
    rng = np.random.default_rng(seed)
    key, iv = rng.bytes(16), rng.bytes(16)
    plain = np.ascontiguousarray(image).tobytes()
    rows = [{"cipher": "plaintext", "mode": "-", "bytes": len(plain), "byte_entropy": byte_entropy(plain)}]
    for name in ([cipher] if cipher == "aes" else [cipher, "aes"]):
        for mode in ENTROPY_MODES:
            obj = new_quiet(key, name, mode, iv=None if mode == "ecb" else iv, padding=mode != "ctr")
            ct = obj.encrypt(plain)
            rows.append({"cipher": name, "mode": mode, "bytes": len(ct), "byte_entropy": byte_entropy(ct)})
    return pd.DataFrame(rows)
