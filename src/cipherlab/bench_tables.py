"""The tables of a ``cipherlab bench`` frame (:func:`cipherlab.bench.run_bench`): the kernels' rows, what a user
calls (bytes, fresh and reused objects), the issue's target ratios, the printed table and the AES rows against the
bound measured on this CPU. Presenting only: nothing here times anything."""
from __future__ import annotations

import math

import pandas as pd

from cipherlab.analysis.sweep import bound_of, formula_of

__all__ = ["REFERENCE", "kernel_rows", "user_table", "target_ratios", "format_table", "against_bound"]

#: The outside reference every bench row is compared with.
REFERENCE = "pycryptodome"


def kernel_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows a bench frame had before its ``data`` and ``object`` columns: cipherlab on arrays through a
    reused object, and PyCryptodome (a frame without those columns is returned whole)."""
    if "data" not in frame:
        return frame
    return frame[(frame.impl == REFERENCE) | ((frame["data"] == "array") & (frame["object"] == "reused"))]


def user_table(frame: pd.DataFrame) -> pd.DataFrame:
    """cipherlab's encryption MB/s as a user calls it (:data:`USER_CASES`) beside the array figure, per
    thread count, and each bytes figure's ratio to PyCryptodome's encryption in the same mode."""
    ours = frame[(frame.impl != REFERENCE) & (frame.operation == "encrypt")]
    pivot = ours.pivot_table(index=["cipher", "impl", "mode"], columns=["data", "object", "threads"],
                             values="mb_per_s", sort=False)
    pivot.columns = [f"{d} {o} {t}T" for d, o, t in pivot.columns]
    ref = frame[(frame.impl == REFERENCE) & (frame.operation == "encrypt")].set_index("mode").mb_per_s
    for name in [c for c in pivot.columns if c.startswith("bytes") and c.endswith(" 1T")]:
        pivot[f"{name} / {REFERENCE}"] = [pivot.loc[idx, name] / ref.get(idx[2], math.nan) for idx in pivot.index]
    return pivot


def _mbps(frame, cipher, impl, mode, threads, operation="encrypt") -> float:
    frame = kernel_rows(frame)
    sel = frame[(frame.cipher == cipher) & (frame.impl == impl) & (frame["mode"] == mode)
                & (frame.operation == operation) & (frame.threads == threads)]
    return float(sel.mb_per_s.iloc[0]) if len(sel) else float("nan")


def target_ratios(frame: pd.DataFrame) -> pd.DataFrame:
    """The issue's targets as ratios from one bench frame (NaN where a case was not run)."""
    top = int(frame.threads.max())
    m = lambda *a: _mbps(frame, *a)  # noqa: E731
    aesni = m("aes", "aesni", "ecb", 1)
    rows = [
        ("aesni AES ECB encrypt / PyCryptodome ECB", aesni / m("aes", REFERENCE, "ecb", 1), 1.0),
        ("aesni AES ECB decrypt / PyCryptodome ECB",
         m("aes", "aesni", "ecb", 1, "decrypt") / m("aes", REFERENCE, "ecb", 1, "decrypt"), 1.0),
        ("aesni AES CTR / PyCryptodome CTR", m("aes", "aesni", "ctr", 1) / m("aes", REFERENCE, "ctr", 1), 1.5),
        (f"aesni AES ECB, {top} threads / 1 thread", m("aes", "aesni", "ecb", top) / aesni, 1.7),
        ("aesni MAES-1 ECB / AES ECB", m("maes-1", "aesni", "ecb", 1) / aesni, 0.95),
        ("aesni MAES-2 ECB / AES ECB", m("maes-2", "aesni", "ecb", 1) / aesni, 0.95),
        ("table AES CTR / table AES ECB", m("aes", "table", "ctr", 1) / m("aes", "table", "ecb", 1), 0.95),
        (f"table AES ECB, {top} threads / 1 thread", m("aes", "table", "ecb", top) / m("aes", "table", "ecb", 1), 1.7),
    ]
    out = pd.DataFrame(rows, columns=["target", "ratio", "required"])
    return out.assign(met=out.ratio >= out.required)


def format_table(frame: pd.DataFrame) -> str:
    """MB/s per thread count, encrypt and decrypt side by side, and each row's ratio to PyCryptodome
    (cipherlab on arrays through a reused object: :func:`kernel_rows`)."""
    frame = kernel_rows(frame)
    pivot = frame.pivot_table(index=["cipher", "impl", "mode"], columns=["operation", "threads"],
                              values="mb_per_s", sort=False)
    pivot.columns = [f"{op} {t}T" for op, t in pivot.columns]
    ref = frame[(frame.impl == REFERENCE) & (frame.operation == "encrypt")].set_index("mode").mb_per_s
    pivot[f"enc 1T / {REFERENCE}"] = [pivot.loc[idx, "encrypt 1T"] / ref.get(idx[2], math.nan) for idx in pivot.index]
    return pivot.round(2).to_string()


def against_bound(frame: pd.DataFrame, record: dict, key_bits: int) -> pd.DataFrame:
    """The bench's AES rows on one thread (encryption) in cycles per byte, each beside the bound measured
    on this CPU (:func:`bound_record`), the fraction of it (bound / measured) and the formula's figure."""
    frame = kernel_rows(frame)
    rows = frame[(frame.cipher == "aes") & (frame.threads == 1) & (frame.operation == "encrypt")]
    cpb = rows.seconds * record["probe"]["clock_hz"] / rows.bytes
    bound = bound_of(record, key_bits)
    return pd.DataFrame({"impl": rows.impl, "mode": rows["mode"], "cycles/B": cpb,
                         f"bound AES-{key_bits} cycles/B (measured)": bound, "fraction of the bound": bound / cpb,
                         "formula cycles/B": formula_of(record, key_bits)}).reset_index(drop=True)
