"""Does the variant decrypt what it encrypts, in every mode, and do its styles agree?

Seeded random keys (every key size the cipher takes) and messages; one row per
key size x mode x style.  ``agrees`` compares each style's ciphertext with the
first style's (``reference`` where the cipher has it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.ciphers.modes import MODES, available_impls
from cipherlab.ciphers.registry import lookup

from cipherlab.experiments.security.quiet import BLOCK, new_quiet


def styles_here(cipher: str) -> tuple[str, ...]:
    """The cipher's registered styles that run on this machine (``aesni`` needs AES-NI)."""
    here = available_impls()
    return tuple(s for s in lookup(cipher).styles if s in here)


def correctness_table(cipher: str, *, seed: int = 0, n_messages: int = 4, message_bytes: int = 1000,
                      **options) -> pd.DataFrame:
    """Round trips and agreement of every style, for every key size and mode of ``cipher``.

    Parameters
    ----------
    n_messages : int
        Random (key, IV, message) triples per key size and mode.
    message_bytes : int
        Length of each message; not a multiple of 16, so that ECB and CBC pad.
    """
    if isinstance(n_messages, bool) or not isinstance(n_messages, (int, np.integer)) or n_messages < 1:
        raise ValueError(f"n_messages must be a positive integer, got {n_messages!r}")
    if isinstance(message_bytes, bool) or not isinstance(message_bytes, (int, np.integer)) or message_bytes < 1:
        raise ValueError(f"message_bytes must be a positive integer, got {message_bytes!r}")
    info = lookup(cipher)
    styles = styles_here(cipher)
    rng = np.random.default_rng(seed)
    rows = []
    for key_bytes in info.key_sizes:
        for mode in MODES:
            trips = {s: 0 for s in styles}
            agree = {s: 0 for s in styles}
            for _ in range(n_messages):
                key = rng.integers(0, 256, key_bytes, dtype=np.uint8).tobytes()
                iv = None if mode == "ecb" else rng.integers(0, 256, BLOCK, dtype=np.uint8).tobytes()
                msg = rng.integers(0, 256, message_bytes, dtype=np.uint8)
                first = None
                for style in styles:
                    ct = np.asarray(new_quiet(key, cipher, mode, iv=iv, padding=True, impl=style,
                                              **options).encrypt(msg), dtype=np.uint8)
                    pt = np.asarray(new_quiet(key, cipher, mode, iv=iv, padding=True, impl=style,
                                              **options).decrypt(ct), dtype=np.uint8)
                    trips[style] += bool(np.array_equal(pt, msg))
                    first = ct if first is None else first
                    agree[style] += bool(np.array_equal(ct, first))
            for style in styles:
                rows.append({"cipher": cipher, "key_bits": 8 * key_bytes, "mode": mode, "style": style,
                             "messages": n_messages, "bytes": message_bytes,
                             "round_trips": trips[style], "agree_with": styles[0],
                             "agreements": agree[style],
                             "ok": trips[style] == n_messages and agree[style] == n_messages})
    return pd.DataFrame(rows)
