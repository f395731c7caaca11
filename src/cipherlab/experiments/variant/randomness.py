"""SP 800-22 on the variant's CTR keystream and on its ECB encryption of the test image.

The tests and the pass-proportion rule are the security chapter's
(:mod:`cipherlab.experiments.security.randomness`).  A CTR encryption of
zeros is the keystream; the ECB image keeps every repeated plaintext block
repeated, which is what the byte-entropy figures of the papers miss.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.experiments.security import randomness


def randomness_tables(cipher: str, image: np.ndarray, *, keystream_bytes: int = 65536, seed: int = 0,
                      n_sequences: int = 8, block_size: int = 128, apen_m: int = 8,
                      serial_m: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-sequence P-values and their summary for ``ctr`` of zeros and ``ecb`` of ``image``.

    Returns ``(per_sequence, summary)`` as
    :func:`randomness.ciphertext_randomness` and :func:`randomness.randomness_summary`.
    """
    if isinstance(keystream_bytes, bool) or not isinstance(keystream_bytes, (int, np.integer)) \
            or keystream_bytes < 16:
        raise ValueError(f"keystream_bytes must be an integer >= 16, got {keystream_bytes!r}")
    kw = dict(ciphers=[cipher], seed=seed, n_sequences=n_sequences, block_size=block_size, apen_m=apen_m,
              serial_m=serial_m)
    ctr = randomness.ciphertext_randomness({"keystream (zeros)": bytes(keystream_bytes)}, modes=("ctr",), **kw)
    img = randomness.ciphertext_randomness({"image": np.ascontiguousarray(image).tobytes()}, modes=("ecb",), **kw)
    # the plaintext rows: zeros say nothing, the image is the control of the ECB case
    per_seq = pd.concat([ctr[ctr["cipher"] != "plaintext"], img], ignore_index=True)
    return per_seq, randomness.randomness_summary(per_seq)
