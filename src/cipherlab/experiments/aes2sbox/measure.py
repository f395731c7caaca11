"""The AES-2SBox chapter's timings: Tables 3-5 of papers 000 and 001, with an A/A control.

Every (cipher, implementation style, operation) case is timed under each
paper's protocol, trials interleaved round by round; beside AES and AES-2SBox,
a second, identical AES instance (``instance="control"``) is timed in the same
run, so that the "speedup" of AES over itself shows the machine's own noise
(the A/A band).  Operations shorter than ``min_trial_seconds`` are timed in
batches (``calls`` per trial, :func:`cipherlab.analysis.timing.measure`).

* Measuring: :func:`speed_cases` (module-level: it is sent by name to fresh
  timing processes), :func:`run_speed_trials`, :func:`run_protocols`.
* Reading the trials back: :func:`times_ms`, :func:`times_by_process`,
  :func:`styles_compared`.

The implementation styles come from the chapter's parameters (``impls``).  A
(cipher, style) pair that cannot be built (e.g. ``aesni`` on a host without
AES-NI) is not timed, and :func:`speed_cases` returns why, so the chapter's
table says so.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from cipherlab._checks import check_choices
from cipherlab.analysis import timing as _timing
from cipherlab.analysis import verdicts as _verdicts
from cipherlab.ciphers.modes import new
from cipherlab.pipeline.provenance import new_run_id

from cipherlab.experiments.aes2sbox.common import CIPHERS, OPERATIONS, key_bytes


def speed_cases(data, *, key, impls: Sequence[str], operations: Sequence[str] = OPERATIONS, mode: str = "ecb",
                threads: "int | None" = 1, xor_byte: int = 0x7F, construction: str = "xor-index",
                labels: "Mapping[str, Any] | None" = None, first_calls: "list | None" = None,
                skipped: "list | None" = None) -> list[dict]:
    """Timing cases for :func:`cipherlab.analysis.timing.measure`: (cipher, instance) x style x operation.

    For each style: AES, AES-2SBox and a second AES object (``instance="control"``,
    same key, style, mode and data) for the A/A control.  Encrypting means
    encrypting ``data`` (PKCS#7 padding in ECB/CBC, as Java's default ``AES``
    transformation); decrypting means decrypting its ciphertext, prepared here.
    Every case must round-trip before it is returned.

    A (cipher, style) pair that :func:`cipherlab.new` refuses (``ValueError``,
    ``NotImplementedError``) is not timed: a dict ``{cipher, impl, reason}`` is
    appended to ``skipped`` (if given), and the style's control is dropped too
    (no comparison, no A/A band); AES alone is still timed, for scale.
    ``first_calls`` receives the seconds of each first call (JIT compile or
    cache load plus one run).
    """
    key = key_bytes(key)
    operations = check_choices("operations", operations, OPERATIONS)
    plain = np.frombuffer(bytes(data), dtype=np.uint8).copy() if not isinstance(data, np.ndarray) \
        else np.ascontiguousarray(data, dtype=np.uint8)
    iv = bytes(range(16)) if mode in ("cbc", "ctr") else None
    extra = dict(labels) if labels else {}
    cases = []
    for impl in impls:
        objects = {}
        for cipher_name in CIPHERS:
            options = {"xor_byte": xor_byte, "construction": construction} if cipher_name == "aes-2sbox" else {}
            try:
                objects[(cipher_name, "main")] = new(key, cipher=cipher_name, mode=mode, iv=iv, impl=impl,
                                                     padding=mode != "ctr", threads=threads, **options)
            except (ValueError, NotImplementedError) as exc:
                if skipped is not None:
                    skipped.append({**extra, "cipher": cipher_name, "impl": impl, "reason": str(exc)})
        if len(objects) == len(CIPHERS):
            objects[("aes", "control")] = new(key, cipher="aes", mode=mode, iv=iv, impl=impl,
                                              padding=mode != "ctr", threads=threads)
        for (cipher_name, instance), obj in objects.items():
            box = {}
            first = {"encrypt": _timing.compile_seconds(lambda: box.setdefault("c", obj.encrypt(plain)))}
            ciphertext = box["c"]
            first["decrypt"] = _timing.compile_seconds(lambda: box.setdefault("p", obj.decrypt(ciphertext)))
            if not np.array_equal(box["p"], plain):
                raise RuntimeError(f"{cipher_name}/{impl}/{mode} does not round-trip; refusing to time it")
            if first_calls is not None:
                first_calls.extend({**extra, "cipher": cipher_name, "instance": instance, "impl": impl,
                                    "operation": op, "first_call_seconds": first[op]} for op in operations)
            for op in operations:
                fn = (lambda o=obj, p=plain: o.encrypt(p)) if op == "encrypt" else \
                    (lambda o=obj, c=ciphertext: o.decrypt(c))
                cases.append({"cipher": cipher_name, "instance": instance, "impl": impl, "mode": mode,
                              "operation": op, "bytes": int(plain.size), **extra, "threads": threads, "fn": fn})
    return cases


def run_speed_trials(data, *, protocol: str, trials: int, warmup: int, key, impls: Sequence[str],
                     mode: str = "ecb", threads: "int | None" = 1, xor_byte: int = 0x7F,
                     construction: str = "xor-index", file: str = "", seed: int = 0,
                     run_id: "str | None" = None, min_trial_seconds: "float | None" = None,
                     processes: int = 1, progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One published protocol: every case of :func:`speed_cases`, trials interleaved, batched.

    :func:`run_protocols` with this one protocol, timing ``data``.

    Returns
    -------
    (trials, first_calls, skipped) : tuple of DataFrame
        ``trials``: one row per case and trial, ``seconds`` per call and
        ``calls`` per trial; ``first_calls``: the first call of each case;
        ``skipped``: ``protocol, file, cipher, impl, reason`` of every pair not timed.
    """
    return run_protocols({protocol: {"file": file, "trials": trials, "warmup": warmup}}, lambda name: data, key=key,
                         impls=impls, mode=mode, threads=threads, xor_byte=xor_byte, construction=construction,
                         seed=seed, run_id=run_id, min_trial_seconds=min_trial_seconds, processes=processes,
                         progress=progress)


def run_protocols(protocols: Mapping[str, Mapping[str, Any]], read_file, *, key, impls: Sequence[str],
                  mode: str = "ecb", threads: "int | None" = 1, xor_byte: int = 0x7F,
                  construction: str = "xor-index", seed: int = 0, run_id: "str | None" = None,
                  min_trial_seconds: "float | None" = None, processes: int = 1,
                  progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Every published protocol ``{paper: {file, trials, warmup}}``: the cases of :func:`speed_cases`.

    Each protocol's cases are interleaved among themselves, batched below
    ``min_trial_seconds`` (default: the declared one, ``config/verdicts.yaml``),
    and spread over ``processes`` fresh interpreters, each of which times every
    protocol in turn (:func:`cipherlab.analysis.timing.measure_groups_in_processes`);
    one ``run_id``.  Returns ``(trials, first_calls, skipped)`` as :func:`run_speed_trials`.
    """
    if min_trial_seconds is None:
        min_trial_seconds = float(_verdicts.load_rules()["min_trial_seconds"])
    run_id = run_id or new_run_id()
    first: list = []
    skipped: list = []
    groups = {}
    for protocol in sorted(protocols):
        spec = protocols[protocol]   # the chapter's parameter, checked at the door
        data = read_file(spec["file"])
        build = dict(data=np.frombuffer(bytes(data), dtype=np.uint8).copy() if not isinstance(data, np.ndarray)
                     else np.ascontiguousarray(data, dtype=np.uint8),
                     key=key, impls=list(impls), mode=mode, threads=threads, xor_byte=xor_byte,
                     construction=construction, labels={"protocol": str(protocol), "file": spec["file"]})
        # Built here once for the first calls (compile or cache load), the round-trip check and the
        # pairs that cannot be timed; then rebuilt and timed in each fresh process.
        speed_cases(**build, first_calls=first, skipped=skipped)
        groups[protocol] = (speed_cases, build, int(spec["trials"]), int(spec["warmup"]))
    frames = _timing.measure_groups_in_processes(groups, processes=processes, run_id=run_id, seed=seed,
                                                 progress=progress, desc="protocols",
                                                 min_trial_seconds=min_trial_seconds)
    return (pd.concat([frames[p] for p in sorted(frames)], ignore_index=True), pd.DataFrame(first),
            pd.DataFrame(skipped, columns=["protocol", "file", "cipher", "impl", "reason"]))


def _case_trials(raw: pd.DataFrame, protocol: str, cipher: str, impl: str, operation: str,
                 instance: str) -> pd.DataFrame:
    """The rows of ``raw`` of one timed case (protocol, cipher, style, operation, instance)."""
    sel = ((raw["protocol"].astype(str).str.zfill(3) == protocol) & (raw["cipher"] == cipher)
           & (raw["impl"] == impl) & (raw["operation"] == operation) & (raw["instance"] == instance))
    return raw.loc[sel]


def times_ms(raw: pd.DataFrame, protocol: str, cipher: str, impl: str, operation: str,
             instance: str = "main") -> np.ndarray:
    """Per-call times in ms of one case, in trial order."""
    trials = _case_trials(raw, protocol, cipher, impl, operation, instance)
    return trials.sort_values("trial")["seconds"].to_numpy(dtype=np.float64) * 1e3


def times_by_process(raw: pd.DataFrame, protocol: str, cipher: str, impl: str, operation: str,
                     instance: str = "main") -> np.ndarray:
    """Per-call times in ms as processes x trials (:func:`cipherlab.analysis.timing.trials_by_process`)."""
    trials = _case_trials(raw, protocol, cipher, impl, operation, instance)
    return _timing.trials_by_process(trials.sort_values([c for c in ("process", "trial") if c in raw])) * 1e3


def styles_compared(raw: pd.DataFrame, protocol: str, operation: "str | None" = None) -> list[str]:
    """Styles, in the order timed, in which both ciphers and the A/A control were timed."""
    sub = raw[raw["protocol"].astype(str).str.zfill(3) == protocol]
    if operation is not None:
        sub = sub[sub["operation"] == operation]
    out = []
    for impl in dict.fromkeys(sub["impl"]):
        s = sub[sub["impl"] == impl]
        have = set(zip(s["cipher"], s["instance"]))
        if {("aes", "main"), ("aes-2sbox", "main"), ("aes", "control")} <= have:
            out.append(impl)
    return out
