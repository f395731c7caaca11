"""The size sweep's tables (``cipherlab bench --sizes``): MB/s by message size, cycles per byte beside the
bound measured on the running CPU, the fraction of the bound, two threads against one, and the probe's
figures per register width.

One job, two readers: ``cipherlab bench --sizes`` prints these tables and the Environment page
(:mod:`cipherlab.report.environment`) shows them, so the terminal and the page show the same thing.
Everything here reads what a run wrote (its rows and provenance record); no number is typed in.  The
bound comes from the probe of :mod:`cipherlab.ciphers.probe`, recorded with the run (``probe`` in the
provenance); its formula's figure is :func:`cipherlab.ciphers.probe.instruction_bound`.
"""
from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from cipherlab.ciphers.probe import ROUNDS, WIDTHS, instruction_bound
from cipherlab.pipeline.results import check_raw_file

__all__ = ["SWEEP_EXPERIMENT", "SWEEP_MODE", "sweep_parameters", "SWEEP_SHORT", "sweep_table", "sweep_results", "limit_table", "probe_table", "bound_of", "formula_of",
           "LIMIT_COLUMNS", "LIMIT_SHORT", "CASES", "size_label", "part"]

#: The raw file of the pipeline's size sweep (rule ``bench_sweep``: ``cipherlab bench --sizes --profile <profile>``).
SWEEP_EXPERIMENT = "bench_sweep"
#: The mode of the pipeline's size sweep (``cipherlab bench --sizes`` without ``--mode``).
SWEEP_MODE = "ctr"


def sweep_parameters(repeats: int, mode: str = SWEEP_MODE) -> dict:
    """The sweep's parameters as its provenance records them (``config``) and the Environment page expects them."""
    return {"mode": mode, "repeats": int(repeats)}


MiB = 1 << 20
#: The sweep table's short view on the page (the full table folds out).
#: What a user does (bytes in and out, a fresh and a reused object) against PyCryptodome, the fraction of the
#: measured bound, and two threads against one (warm, and the first calls apart), two user threads' streams and a
#: plain copy's beside; arrays, MB/s and cycles per byte fold out.
SWEEP_SHORT = ["message", "bytes fresh: cipherlab / PyCryptodome", "bytes reused: cipherlab / PyCryptodome",
               "reused: fraction of the bound", "2 threads / 1 thread", "2 threads first calls / 1 thread",
               "2 streams / 1 thread", "plain copy: 2 threads / 1 thread"]
CASES = (("cipherlab", "fresh"), ("cipherlab", "reused"), ("pycryptodome", "fresh"), ("pycryptodome", "reused"))


def size_label(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB else f"{n // 1024} KiB" if n >= 1024 else f"{n} B"


def part(frame: pd.DataFrame, part: str) -> pd.DataFrame:
    """The rows of one part of the sweep (a sweep written before the parts existed is all ``sizes``)."""
    if "data" not in frame:  # a sweep written before bytes were timed timed cipherlab on arrays
        frame = frame.assign(data="array")
    if "part" not in frame:
        return frame.assign(threads=1, key_bits=128) if part == "sizes" else frame.iloc[0:0]
    return frame[frame.part == part]


def bound_of(meta: dict, key_bits: int) -> float:
    """The measured bound (cycles per byte) of ``key_bits`` recorded with the run, NaN if none was."""
    value = (meta.get("probe") or {}).get("bound_cycles_per_byte", {}).get(str(key_bits))
    return float(value) if value is not None else math.nan


def formula_of(meta: dict, key_bits: int) -> float:
    """The formula's figure for the width the hardware style ran at (NaN if not recorded)."""
    width = meta.get("kernel_width")
    return instruction_bound(ROUNDS[key_bits], WIDTHS[int(width)]) if width else math.nan


def sweep_table(frame: pd.DataFrame, openssl: "pd.DataFrame | str | None" = None, meta: "dict | None" = None
                ) -> pd.DataFrame:
    """One row per message size (AES-128, the ``sizes`` part): MB/s of cipherlab and PyCryptodome (a fresh
    object per message, one object reused), ``openssl speed -evp`` where measured, cipherlab's cycles
    per byte beside the measured bound and the formula's figure (from ``meta``, the run's record) and
    the fraction of the bound (bound / measured), the ratios to PyCryptodome (cipherlab on arrays, and
    on bytes in and out as a user calls it), and at the sizes timed on two threads, a reused object's
    MB/s there, its scaling factor (two threads / one; on arrays, and on bytes; warm: a stream of messages
    after the size class's first calls), the same factor of those first calls (timed alone, apart: the
    choice of one thread or sharing being learned, the helper thread waking), of two user threads each
    streaming its own messages on one thread (``streams``), and the ceiling beside them: the same factor
    of a plain copy of the message's bytes, shared by two threads the same way.

    ``frame``: the rows of :func:`cipherlab.bench.run_sweep`; ``openssl``: its rows (``bytes, mb_per_s``)
    or None to take the ``openssl_mb_per_s`` column.
    """
    meta = meta or {}
    frame = part(frame, "sizes")
    on_bytes = frame[(frame.library == "cipherlab") & (frame["data"] == "bytes")]
    bytes_two = on_bytes[on_bytes.threads == 2].set_index("bytes").mb_per_s
    on_bytes = on_bytes[on_bytes.threads == 1]
    streams = frame[(frame.library == "cipherlab") & (frame["data"] == "streams")].set_index("bytes").mb_per_s
    copies = frame[frame.library == "copy"].pivot_table(index="bytes", columns="threads", values="mb_per_s")
    frame = frame[(frame["data"] == "array") | (frame.library == "pycryptodome")]
    one = frame[frame.threads == 1]
    wide = one.pivot_table(index="bytes", columns=["library", "object"], values="mb_per_s")
    out = pd.DataFrame(index=wide.index)
    for lib, obj in CASES:
        out[f"{lib} {obj} MB/s"] = wide[(lib, obj)] if (lib, obj) in wide else float("nan")
    if isinstance(openssl, pd.DataFrame):
        out["openssl -evp MB/s"] = openssl.set_index("bytes").mb_per_s.reindex(out.index)
    elif "openssl_mb_per_s" in frame:
        out["openssl -evp MB/s"] = frame.groupby("bytes").openssl_mb_per_s.first().reindex(out.index)
    else:
        out["openssl -evp MB/s"] = float("nan")
    cpb = one[one.library == "cipherlab"].pivot_table(index="bytes", columns="object", values="cycles_per_byte",
                                                      dropna=False)
    bound = bound_of(meta, 128)
    for obj in ("fresh", "reused"):
        out[f"cipherlab {obj} cycles/B"] = cpb[obj] if obj in cpb else float("nan")
    out["bound cycles/B (measured)"] = bound
    out["formula cycles/B"] = formula_of(meta, 128)
    for obj in ("fresh", "reused"):
        out[f"{obj}: fraction of the bound"] = bound / out[f"cipherlab {obj} cycles/B"]
    out["fresh: cipherlab / PyCryptodome"] = out["cipherlab fresh MB/s"] / out["pycryptodome fresh MB/s"]
    out["reused: cipherlab / PyCryptodome"] = out["cipherlab reused MB/s"] / out["pycryptodome reused MB/s"]
    by_bytes = on_bytes.pivot_table(index="bytes", columns="object", values="mb_per_s")
    for obj in ("fresh", "reused"):
        out[f"cipherlab {obj} bytes MB/s"] = by_bytes[obj].reindex(out.index) if obj in by_bytes else float("nan")
        out[f"bytes {obj}: cipherlab / PyCryptodome"] = (out[f"cipherlab {obj} bytes MB/s"]
                                                        / out[f"pycryptodome {obj} MB/s"])
    ours_two = frame[(frame.threads == 2) & (frame.library == "cipherlab")]
    two = ours_two[ours_two.object == "reused"].set_index("bytes").mb_per_s
    out["cipherlab reused 2 threads MB/s"] = two.reindex(out.index)
    out["2 threads / 1 thread"] = out["cipherlab reused 2 threads MB/s"] / out["cipherlab reused MB/s"]
    first = ours_two[ours_two.object == "first calls"].set_index("bytes").mb_per_s
    out["cipherlab 2 threads first calls MB/s"] = first.reindex(out.index)
    out["2 threads first calls / 1 thread"] = out["cipherlab 2 threads first calls MB/s"] / out["cipherlab reused MB/s"]
    out["cipherlab 2 streams MB/s"] = streams.reindex(out.index)
    out["2 streams / 1 thread"] = out["cipherlab 2 streams MB/s"] / out["cipherlab reused MB/s"]
    out["cipherlab reused bytes 2 threads MB/s"] = bytes_two.reindex(out.index)
    out["bytes: 2 threads / 1 thread"] = out["cipherlab reused bytes 2 threads MB/s"] / out["cipherlab reused bytes MB/s"]
    out["plain copy: 2 threads / 1 thread"] = ((copies[2] / copies[1]).reindex(out.index)
                                               if 1 in copies and 2 in copies else float("nan"))
    out.index = [size_label(int(n)) for n in out.index]
    out.index.name = "message"
    return out.reset_index()


LIMIT_COLUMNS = ["key", "mode", "message", "MB/s", "cipherlab cycles/B", "bound cycles/B (measured)",
                 "fraction of the bound", "AES units alone cycles/B", "formula cycles/B"]
#: The limit table's short view on the page (the cross-checks fold out).
LIMIT_SHORT = ["key", "mode", "message", "cipherlab cycles/B", "bound cycles/B (measured)", "fraction of the bound"]


def limit_table(frame: pd.DataFrame, meta: dict) -> pd.DataFrame:
    """Per key size and mode (the ``limit`` part: one thread, a reused object, the largest message):
    cipherlab's cycles per byte, the bound measured on this CPU, the fraction of the bound, the AES
    units' own bound (the probe's chains) and the formula's figure, as cross-checks."""
    rows = []
    for r in part(frame, "limit").sort_values(["key_bits", "mode"]).itertuples():
        bits, bound = int(r.key_bits), bound_of(meta, int(r.key_bits))
        aes = (meta.get("probe") or {}).get("aes_bound_cycles_per_byte", {}).get(str(bits))
        rows.append({"key": f"AES-{bits}", "mode": r.mode.upper(), "message": size_label(int(r.bytes)),
                     "MB/s": r.mb_per_s, "cipherlab cycles/B": r.cycles_per_byte,
                     "bound cycles/B (measured)": bound, "fraction of the bound": bound / r.cycles_per_byte,
                     "AES units alone cycles/B": float(aes) if aes is not None else math.nan,
                     "formula cycles/B": formula_of(meta, bits)})
    return pd.DataFrame(rows, columns=LIMIT_COLUMNS)


_REGISTER_NAMES = {"128": "xmm (AES-NI)", "256": "ymm (VAES)", "512": "zmm (VAES, AVX-512)"}


def probe_table(meta: dict) -> pd.DataFrame:
    """The probe's figures per register width: AES instructions per cycle, blocks per instruction,
    block-rounds per cycle (the chains), a CTR block's cycles per byte per key size, or why not measured."""
    rows = []
    for width, r in sorted(((meta.get("probe") or {}).get("widths") or {}).items(), key=lambda kv: int(kv[0])):
        measured = r.get("status") == "measured"
        row = {"register": _REGISTER_NAMES.get(width, width),
               "measured": "yes" if measured else r.get("status", ""),
               "AES instructions / cycle": r.get("aes_per_cycle") if measured else math.nan,
               "blocks / instruction": r.get("blocks_per_instruction"),
               "block-rounds / cycle": r.get("block_rounds_per_cycle") if measured else math.nan}
        for bits in ROUNDS:
            row[f"CTR block AES-{bits} cycles/B"] = (r.get("ctr_cycles_per_byte") or {}).get(str(bits), math.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def sweep_results(path: "str | Path") -> "tuple[pd.DataFrame, dict] | None":
    """The rows and provenance record of a sweep run by hand (``cipherlab bench --sizes --out <path>``,
    its record ``<path>.meta.json``), checked by the raw reader; None when no CSV is there."""
    path = Path(path)
    if not path.is_file():
        return None
    record = check_raw_file(path, path.with_name(path.name + ".meta.json"), experiment=SWEEP_EXPERIMENT)
    return record.frame, record.meta
