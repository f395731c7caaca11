"""Shared inputs of the AES-2SBox chapter's tests (tests/test_aes2sbox_*.py): the FIPS-197 key, a naive bit
count, raw timings as the measuring notebook writes them."""
from __future__ import annotations

import pandas as pd


FIPS_KEY = "2b7e151628aed2a6abf7158809cf4f3c"


def naive_bits(a: bytes, b: bytes) -> int:
    return sum(bin(x ^ y).count("1") for x, y in zip(a, b))


# --- speed ----------------------------------------------------------------------

#: The papers' file sizes (59 KB and 50 KB, KB = 1024 bytes: config/config.yaml), so the fakes are at the claims' condition.
PROTOCOL_BYTES = {"000": 60416, "001": 51200}


def _fake_raw(old_ms, new_ms, control_ms=None, protocol="000", operation="encrypt", impl="table", processes=None):
    """Trials of one process, or (``processes``) the trials split evenly over that many processes in order."""
    rows = []
    series = [("aes", "main", old_ms), ("aes-2sbox", "main", new_ms),
              ("aes", "control", old_ms if control_ms is None else control_ms)]
    for cipher, instance, ms in series:
        for t, v in enumerate(ms):
            rows.append({"cipher": cipher, "instance": instance, "impl": impl, "mode": "ecb", "operation": operation,
                         "bytes": PROTOCOL_BYTES[protocol], "trial": t, "seconds": v / 1e3, "calls": 1, "run_id": "r",
                         "protocol": protocol, **({} if processes is None else
                                                  {"process": t * processes // len(ms)})})
    return pd.DataFrame(rows)
