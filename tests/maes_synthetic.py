"""Shared inputs of the MAES chapter's tests (tests/test_maes_*.py): the key and IV, synthetic raw timings."""
from __future__ import annotations

import numpy as np
import pandas as pd


KEY = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
IV = bytes(range(16))


STYLES = ("reference", "table")


def _synthetic_raw(times: dict[tuple[str, str, str], float], n: int = 40, mode: str = "block") -> pd.DataFrame:
    """Per-call times with 0.1 % noise; AES gets a twin (role control) with AES's own time."""
    rng = np.random.default_rng(0)
    rows = []
    for (cipher, impl, op), t in times.items():
        for role in (("main", "control") if cipher == "aes" else ("main",)):
            for i in range(n):
                rows.append({"cipher": cipher, "impl": impl, "mode": mode, "operation": op, "bytes": 16,
                             "role": role, "trial": i, "seconds": t * (1 + 1e-3 * rng.standard_normal()),
                             "calls": 100, "run_id": "x"})
    return pd.DataFrame(rows)


def _times(aes=3.0, maes1=1.0, maes2=1.5):
    return {(c, i, o): t for i in STYLES for o in ("encrypt", "decrypt")
            for c, t in (("aes", aes), ("maes-1", maes1), ("maes-2", maes2))}
