"""Timing cases of the MAES chapter (Tables I-III, bulk throughput) and the run that times them.

Every group of cases carries its **A/A control**: a second, identical AES
case (a separate :func:`cipherlab.new` object, same key, style, mode and
size; for Table II a second copy of the same stage on its own states) timed
in the same interleaved :func:`cipherlab.analysis.timing.measure` call, column
``role = "control"``. The "speed-up" of AES over its own twin is what this
machine's noise alone produces.

Operations shorter than ``min_trial_seconds`` (one block, a key expansion)
are timed in batches of ``k`` calls per trial (column ``calls``), so a trial
lasts long enough for the timer; the empty-call overhead is measured apart
(:func:`cipherlab.analysis.timing.call_overhead`).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from cipherlab.ciphers import aes as _aes
from cipherlab.ciphers import maes as _maes
from cipherlab import new
from cipherlab.pipeline.provenance import new_run_id
from cipherlab.analysis.timing import TIMING_COLUMNS, call_overhead, compile_seconds, measure_groups_in_processes
from cipherlab._checks import check_choices
from cipherlab.experiments.maes.common import DEFAULT_IMPLS
from cipherlab.names import MAES_IV_SOURCES

#: Raw experiments the measuring notebook writes (``data/raw/<profile>/<name>.csv``).
RAW_EXPERIMENTS = ("maes_keyexp", "maes_stage", "maes_block", "maes_bulk", "maes_steps", "maes_compile",
                   "maes_overhead")


def _bind(fn, arg):
    def call():
        return fn(arg)
    return call


def _iv_options(maes_options: "dict | None") -> dict:
    """The MAES options that shape the IVs (``sha3``, ``sha3_chain``); others are not IV options."""
    return {k: v for k, v in (maes_options or {}).items() if k in ("sha3", "sha3_chain")}


#: Languages Table I is timed in (column ``impl``): ``python`` is what a Python caller times, cipherlab's key
#: expansion (a compiled kernel behind one Python call) beside ``hashlib``'s SHA-3 (in C, called once per IV);
#: ``numba`` is both sides in one compiled call
#: (:mod:`cipherlab.ciphers._keccak`), the like-for-like pair that decides the paper's claims.
TABLE1_LANGUAGES = ("python", "numba")


def table1_cases(key: bytes, iv_sources: Sequence[str] = MAES_IV_SOURCES, maes_options: "dict | None" = None,
                 languages: Sequence[str] = TABLE1_LANGUAGES) -> list[dict]:
    """Timing cases of Table I: AES key expansion and MAES IV generation, in each of ``languages``.

    Operations:

    * ``key_expansion`` (AES only): the round keys, the paper's "AES (original
      algorithm)" row; twice, the second with ``role = "control"``;
    * ``iv_generation``: MAES's IVs for the approach and IV source. With
      ``keyexp`` it runs the key expansion on past the last round key, so it
      *is* the paper's "modified key expansion, which includes the original
      AES key expansion";
    * ``setup``: round keys plus IVs, what a MAES session pays before its
      first block.

    Column ``impl`` is the language: ``python`` times
    :func:`cipherlab.ciphers.aes.expand_key` and
    :func:`cipherlab.ciphers.maes.maes_ivs` (whose SHA-3 is ``hashlib``, in C:
    unequal terms, kept as a finding); ``numba`` times the compiled kernels of
    :mod:`cipherlab.ciphers._keccak` (both sides one compiled call, the same bytes).
    """
    from cipherlab.ciphers import _keccak
    languages = check_choices("languages", languages, TABLE1_LANGUAGES)
    opts = _iv_options(maes_options)
    key = bytes(key)
    cases = []
    for lang in languages:
        common = {"impl": lang, "mode": "none", "bytes": len(key)}
        if lang == "python":
            expand = _bind(_aes.expand_key, key)

            def iv_call(approach, src):
                return lambda: _maes.maes_ivs(key, approach, src, **opts)
        else:
            bound = {a: _keccak.bound_calls(key, a, **opts) for a in (1, 2)}
            expand = bound[2]["key_expansion"]

            def iv_call(approach, src):
                return bound[approach][src]
        cases += [{"cipher": "aes", **common, "operation": "key_expansion", "iv_source": "none", "role": role,
                   "fn": expand} for role in ("main", "control")]
        for src in iv_sources:
            for approach, cipher in ((1, "maes-1"), (2, "maes-2")):
                ivs = iv_call(approach, src)

                def setup(ivs=ivs):
                    return expand(), ivs()

                cases.append({"cipher": cipher, **common, "operation": "iv_generation", "iv_source": src,
                              "role": "main", "fn": ivs})
                cases.append({"cipher": cipher, **common, "operation": "setup", "iv_source": src,
                              "role": "main", "fn": setup})
    return cases


def stage_impls(impls: Sequence[str]) -> tuple:
    """The styles of ``impls`` that have MixColumns as a separate step (Table II).

    A hardware style (``aesni``) runs a whole round in one instruction: it has
    no stage to time, so Table II leaves it out and says so.
    """
    return tuple(i for i in impls if i in _aes.STEP_IMPLS)


def table2_cases(n_blocks: int = 65536, impls: Sequence[str] = DEFAULT_IMPLS, seed: int = 0) -> list[dict]:
    """Timing cases of Table II: the replaced stage alone, per implementation style.

    ``mix_columns`` (AES encryption), ``inv_mix_columns`` (AES decryption)
    and ``xor_iv`` (MAES, both directions: the XOR is its own inverse), each
    applied to ``n_blocks`` random states in one call
    (:func:`cipherlab.ciphers.aes.mix_columns_blocks`,
    :func:`cipherlab.ciphers.aes.inv_mix_columns_blocks`,
    :func:`cipherlab.ciphers.maes.xor_iv_blocks`); the per-state time is the call's
    time over ``n_blocks`` (column ``blocks``). Beside them, per style:

    * ``role = "control"``: MixColumns and InvMixColumns again, on a copy of the states (the A/A control);
    * ``role = "dispatch"``: each step on *one* state, timed in batches: what a
      call costs apart from the work, so the table can show the share of
      dispatch in the ``n_blocks`` call (choose ``n_blocks`` so it is under 1 %).
    """
    styles = stage_impls(impls)
    if not styles:
        raise ValueError(f"impls must hold a style with separate steps {_aes.STEP_IMPLS} for Table II, got {list(impls)}")
    if isinstance(n_blocks, bool) or not isinstance(n_blocks, (int, np.integer)) or n_blocks < 1:
        raise ValueError(f"n_blocks must be an integer >= 1, got {n_blocks!r}")
    rng = np.random.default_rng(seed)
    states = rng.integers(0, 256, size=(n_blocks, 16), dtype=np.uint8)
    twin = states.copy()
    iv = rng.integers(0, 256, size=16, dtype=np.uint8)
    one = states[:1].copy()
    cases = []
    for impl in styles:
        # One output buffer per input, reused by every call: a fresh 16 * n_blocks-byte array per
        # call would put allocation and first-touch page faults in the timed region, and glibc's
        # moving mmap threshold makes that cost differ from run to run (it once turned the XOR
        # stage three times slower than InvMixColumns in one run and not in the next).
        def steps(s, impl=impl):
            buf = np.empty_like(s)
            return {"mix_columns": lambda: _aes.mix_columns_blocks(s, impl, out=buf),
                    "inv_mix_columns": lambda: _aes.inv_mix_columns_blocks(s, impl, out=buf),
                    "xor_iv": lambda: _maes.xor_iv_blocks(s, iv, impl, out=buf)}
        for role, s in (("main", states), ("control", twin), ("dispatch", one)):
            for step, fn in steps(s).items():
                if role == "control" and step == "xor_iv":
                    continue
                cases.append({"cipher": "maes" if step == "xor_iv" else "aes", "impl": impl, "mode": "none",
                              "operation": step, "bytes": 16 * len(s), "blocks": len(s), "role": role, "fn": fn})
    return cases


def table3_cases(key: bytes, impls: Sequence[str] = DEFAULT_IMPLS, seed: int = 0,
                 maes_options: "dict | None" = None) -> list[dict]:
    """Timing cases of Table III: one 16-byte block, encrypt and decrypt.

    Every cipher in every style of ``impls``, each through the public
    ``encrypt_block`` / ``decrypt_block`` of a cipher object made beforehand
    (key set-up outside the timed call), plus a second AES object per style
    (``role = "control"``).
    """
    rng = np.random.default_rng(seed)
    block = rng.integers(0, 256, size=16, dtype=np.uint8).tobytes()
    cases = []
    for cipher, role in (("aes", "main"), ("aes", "control"), ("maes-1", "main"), ("maes-2", "main")):
        opts = dict(maes_options or {}) if cipher.startswith("maes") else {}
        for impl in impls:
            c = new(key, cipher=cipher, mode="ecb", impl=impl, padding=False, threads=1, **opts)
            ct = c.encrypt_block(block)
            for op, fn in (("encrypt", _bind(c.encrypt_block, block)), ("decrypt", _bind(c.decrypt_block, ct))):
                cases.append({"cipher": cipher, "impl": impl, "mode": "block", "operation": op, "bytes": 16,
                              "role": role, "fn": fn})
    return cases


def bulk_cases(key: bytes, data: np.ndarray, impls: Sequence[str] = DEFAULT_IMPLS, modes: Sequence[str] = ("ecb",),
               iv: "bytes | None" = None, threads: int = 1, maes_options: "dict | None" = None) -> list[dict]:
    """Timing cases of bulk throughput: ``data`` (block-exact) through each cipher and style, plus the AES twin."""
    data = np.ascontiguousarray(data, dtype=np.uint8).ravel()
    if data.size == 0 or data.size % 16:
        raise ValueError(f"data must be a non-empty whole number of 16-byte blocks, got {data.size} bytes")
    cases = []
    for cipher, role in (("aes", "main"), ("aes", "control"), ("maes-1", "main"), ("maes-2", "main")):
        opts = dict(maes_options or {}) if cipher.startswith("maes") else {}
        for impl in impls:
            for mode in modes:
                kw = dict(opts)
                if mode != "ecb":
                    if iv is None:
                        raise ValueError(f"iv must be given (16 bytes) for mode {mode!r}")
                    kw["iv"] = iv
                enc = new(key, cipher=cipher, mode=mode, impl=impl, padding=False, threads=threads, **kw)
                dec = new(key, cipher=cipher, mode=mode, impl=impl, padding=False, threads=threads, **kw)
                ct = np.asarray(enc.encrypt(data), dtype=np.uint8)
                for op, fn in (("encrypt", _bind(enc.encrypt, data)), ("decrypt", _bind(dec.decrypt, ct))):
                    cases.append({"cipher": cipher, "impl": impl, "mode": mode, "operation": op,
                                  "bytes": int(data.size), "role": role, "fn": fn})
    return cases


def compile_times(cases: Sequence[dict], run_id: str = "") -> pd.DataFrame:
    """First-call seconds of each case (JIT compile or cache load, plus one run), reported apart.

    A tidy timing frame like :func:`cipherlab.analysis.timing.measure`'s (``trial`` 0,
    ``seconds`` the first call), so it is saved and read as any raw file.
    """
    rows = []
    for case in cases:
        labels = {k: v for k, v in case.items() if k != "fn"}
        rows.append({**labels, "trial": 0, "seconds": compile_seconds(case["fn"]), "run_id": run_id})
    df = pd.DataFrame(rows)
    lead = [c for c in TIMING_COLUMNS if c in df.columns]
    return df[lead + [c for c in df.columns if c not in lead]]


def measure_all(key: bytes, bulk_data: np.ndarray, *, options: dict, impls: Sequence[str], trials_keyexp: int,
                trials_stage: int, trials_block: int, trials_bulk: int, warmup: int, stage_blocks: int,
                iv: bytes, min_trial_seconds: float, bulk_modes: Sequence[str] = ("ecb",), seed: int = 0,
                processes: int = 1, progress: bool = True, trials_steps: int = 0, steps_states: int = 4096
                ) -> dict[str, pd.DataFrame]:
    """Run every timing of the chapter; one tidy frame per raw experiment (see :data:`RAW_EXPERIMENTS`).

    Each group of cases is measured side by side with interleaved trials
    (:func:`cipherlab.analysis.timing.measure`, batched to ``min_trial_seconds``)
    after ``warmup`` untimed calls, in ``processes`` fresh interpreters one
    after another, each timing every group in turn
    (:func:`cipherlab.analysis.timing.measure_groups_in_processes`; ``trials_*``
    count the trials of all processes); the first call of every case is timed
    apart as its compile (or cache load) time in ``maes_compile``, and the
    empty-call overhead in ``maes_overhead``. Bulk runs use one thread so
    that ciphers, not thread scheduling, are compared. ``trials_steps`` (0:
    none) times each step of an AES round alone (:mod:`.steps`, ``maes_steps``).
    """
    run_id = new_run_id()   # impls are checked by the case builders below
    groups = {
        "maes_keyexp": (table1_cases, dict(key=key, maes_options=options), trials_keyexp),
        "maes_stage": (table2_cases, dict(n_blocks=stage_blocks, impls=impls, seed=seed), trials_stage),
        "maes_block": (table3_cases, dict(key=key, impls=impls, seed=seed, maes_options=options), trials_block),
        "maes_bulk": (bulk_cases, dict(key=key, data=bulk_data, impls=impls, modes=bulk_modes, iv=iv, threads=1,
                                       maes_options=options), trials_bulk),
    }
    if trials_steps:
        from cipherlab.experiments.maes.steps import steps_cases
        groups["maes_steps"] = (steps_cases, dict(key=key, n_states=steps_states, seed=seed), trials_steps)
    compiles = []
    for name, (build, kwargs, _) in groups.items():
        ct = compile_times(build(**kwargs), run_id=run_id)
        ct["experiment"] = name
        compiles.append(ct)
    out = measure_groups_in_processes(groups, processes=processes, warmup=warmup, run_id=run_id, seed=seed,
                                      progress=progress, desc="maes", min_trial_seconds=min_trial_seconds)
    out["maes_compile"] = pd.concat(compiles, ignore_index=True)
    overhead = [call_overhead(min_trial_seconds=min_trial_seconds) for _ in range(5)]
    out["maes_overhead"] = pd.DataFrame({"cipher": "(empty call)", "impl": "none", "mode": "none",
                                         "operation": "call", "bytes": 0, "trial": range(len(overhead)),
                                         "seconds": overhead, "run_id": run_id})
    return out
