"""Paper 003, common part: ciphers, modes, inputs, and the timed runs of phases 1 and 2.

Timing runners use PyCryptodome as the paper did, time with
:func:`cipherlab.analysis.timing.measure` (interleaved trials after warm-up, batched
below ``min_trial_seconds``) and draw a fresh random nonce per encryption.
Every run also times an **A/A control**: an identical second instance of one
AES case (``instance="control"``), interleaved with the rest, whose apparent
"speedup" over the main instance is this machine's noise.

Units: a megabyte is ``mb_bytes`` bytes (:data:`.chapter.MB` by default, the paper's
"100kb ... 5MB" read as decimal), throughput is in MB/s of plaintext.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from Crypto.Cipher import AES, CAST, Blowfish
from Crypto.Random import get_random_bytes

from cipherlab.analysis import timing as _timing
from cipherlab._checks import check_choice
from cipherlab.ciphers.cpu import pycryptodome_options
from cipherlab.experiments.aead.chapter import DEFAULT_NONCE_BYTES, MB, MODES

PAPER = "003"
CIPHERS = ("aes", "blowfish", "cast")
IMPL = "pycryptodome"

_MODULES = {"aes": AES, "blowfish": Blowfish, "cast": CAST}
_MODE_CONST = {"gcm": "MODE_GCM", "ccm": "MODE_CCM", "eax": "MODE_EAX", "ctr": "MODE_CTR", "cbc": "MODE_CBC"}
#: Modes PyCryptodome offers per cipher (GCM and CCM need a 128-bit block).
_CIPHER_MODES = {"aes": MODES, "blowfish": ("eax",), "cast": ("eax",)}
#: Published names of the ciphers and modes, as the paper's tables print them.
LABELS = {"aes": "AES", "blowfish": "Blowfish", "cast": "CAST", "gcm": "GCM", "ccm": "CCM", "eax": "EAX"}
#: Tag lengths (bytes) the standards allow: SP 800-38C for CCM, SP 800-38D for GCM,
#: and EAX (Bellare, Rogaway, Wagner) any length up to the block size.
STANDARD_TAG_BYTES = {
    "ccm": (4, 6, 8, 10, 12, 14, 16),
    "gcm": (4, 8, 12, 13, 14, 15, 16),
    "eax": tuple(range(1, 17)),
}


def read_inputs(paths: Iterable[Any]) -> dict[int, bytes]:
    """Read the plaintext files from disk, as the paper did, keyed by their size in bytes."""
    out: dict[int, bytes] = {}
    for p in paths:
        with open(p, "rb") as fh:
            data = fh.read()
        if not data:
            raise ValueError(f"input file {p} is empty")
        out[len(data)] = data
    return dict(sorted(out.items()))


def seeded_bytes(seed: int, *labels: Any, n: int) -> bytes:
    """``n`` reproducible bytes derived from ``seed`` and some labels (keys, fixed nonces, forged tags)."""
    digest = [int(b) for b in json.dumps([seed, *map(str, labels)]).encode()]
    rng = np.random.default_rng([int(seed)] + digest)
    return rng.integers(0, 256, size=n, dtype=np.uint8).tobytes()


def aead_factory(cipher: str, mode: str, mac_len: "int | None" = None) -> Callable[[bytes, bytes], Any]:
    """``new(key, nonce)``: PyCryptodome's AEAD objects of one cipher and mode, checked and resolved once.

    The one place this chapter builds a PyCryptodome object; a timed call pays for ``module.new`` alone.

    Parameters
    ----------
    cipher : {"aes", "blowfish", "cast"}
    mode : {"gcm", "ccm", "eax"}
        Blowfish and CAST-128 (64-bit blocks) only offer ``"eax"``.
    mac_len : int, optional
        Tag length in bytes; PyCryptodome's default (the block size) if omitted.
    """
    check_choice("cipher", cipher, CIPHERS)
    check_choice("mode", mode, _CIPHER_MODES[cipher])
    module = _MODULES[cipher]
    const = getattr(module, _MODE_CONST[mode])
    # none, unless this run plays a machine without AES instructions
    options = {**pycryptodome_options(cipher, mode), **({} if mac_len is None else {"mac_len": mac_len})}

    def new(key: bytes, nonce: bytes):
        return module.new(key, const, nonce=nonce, **options)
    return new


def new_aead(cipher: str, mode: str, key: bytes, nonce: bytes, mac_len: "int | None" = None):
    """A PyCryptodome AEAD object (:func:`aead_factory`'s, for one key and nonce)."""
    return aead_factory(cipher, mode, mac_len)(key, nonce)


def library_tag_bytes(mode: str) -> tuple[int, ...]:
    """Tag lengths (bytes) PyCryptodome's AES accepts in ``mode``, found by trying 1..16."""
    check_choice("mode", mode, MODES)
    ok = []
    for t in range(1, 17):
        try:
            new_aead("aes", mode, bytes(16), bytes(DEFAULT_NONCE_BYTES[mode]), mac_len=t)
        except ValueError:
            continue
        ok.append(t)
    return tuple(ok)


# ---------------------------------------------------------------------------
# Phases 1 and 2: encryption and decryption+verification times
# ---------------------------------------------------------------------------

def _encrypt_fn(cipher: str, mode: str, key: bytes, data: bytes, aad: bytes, nonce_bytes: int) -> Callable[[], Any]:
    make = aead_factory(cipher, mode)

    def fn():
        # A fresh random nonce per encryption, as AES.new(key, mode) draws one.
        c = make(key, get_random_bytes(nonce_bytes))
        c.update(aad)
        return c.encrypt_and_digest(data)
    return fn


def _decrypt_fn(cipher: str, mode: str, key: bytes, nonce: bytes, ct: bytes, tag: bytes, aad: bytes) -> Callable[[], Any]:
    make = aead_factory(cipher, mode)

    def fn():
        c = make(key, nonce)
        c.update(aad)
        return c.decrypt_and_verify(ct, tag)
    return fn


def aead_cases(data_by_size: Mapping[int, bytes], combos: Sequence[tuple[str, str]], *, aad: bytes,
               seed: int, key_bytes: int = 16, nonce_bytes: "Mapping[str, int] | None" = None,
               operations: Sequence[str] = ("encrypt", "decrypt"),
               control: "tuple[str, str] | None" = None) -> list[dict]:
    """Timing cases (for :func:`cipherlab.analysis.timing.measure`) of AEAD encryption and decryption.

    Parameters
    ----------
    data_by_size : mapping of int to bytes
        Plaintexts, read from disk beforehand, keyed by size in bytes.
    combos : sequence of (cipher, mode)
    aad : bytes
        Static associated data, authenticated with every message.
    seed : int
        Derives the keys (one per cipher).
    key_bytes : int
        Key length: 16 (AES-128, and 128-bit Blowfish and CAST-128 keys).
    nonce_bytes : mapping of mode to int, optional
        Defaults to :data:`DEFAULT_NONCE_BYTES`.
    operations : subset of ("encrypt", "decrypt")
        ``decrypt`` is decryption with tag verification (``decrypt_and_verify``).
    control : (cipher, mode), optional
        The A/A control: one of ``combos`` timed a second time, as an identical
        but separate set of cases (same key, data, sizes and operations) labelled
        ``instance="control"``; every other case is ``instance="main"``.
    """
    nonce_bytes = {**DEFAULT_NONCE_BYTES, **(nonce_bytes or {})}
    for op in operations:
        check_choice("operations", op, ("encrypt", "decrypt"))
    if control is not None and tuple(control) not in [tuple(c) for c in combos]:
        raise ValueError(f"control must be one of combos {list(combos)}, got {control!r}")
    runs = [(c, m, "main") for c, m in combos] + ([(*control, "control")] if control is not None else [])
    cases = []
    for cipher, mode, instance in runs:
        key = seeded_bytes(seed, "key", cipher, n=key_bytes)
        for nbytes, data in data_by_size.items():
            labels = {"cipher": cipher, "impl": IMPL, "mode": mode, "bytes": int(nbytes), "instance": instance}
            if "encrypt" in operations:
                cases.append({**labels, "operation": "encrypt",
                              "fn": _encrypt_fn(cipher, mode, key, data, aad, nonce_bytes[mode])})
            if "decrypt" in operations:
                nonce = get_random_bytes(nonce_bytes[mode])
                enc = new_aead(cipher, mode, key, nonce)
                enc.update(aad)
                ct, tag = enc.encrypt_and_digest(data)
                fn = _decrypt_fn(cipher, mode, key, nonce, ct, tag, aad)
                if fn() != data:  # never time a wrong round trip
                    raise RuntimeError(f"{cipher}-{mode} round trip failed at {nbytes} bytes")
                cases.append({**labels, "operation": "decrypt", "fn": fn})
    return cases


def measure_aead(data_by_size: Mapping[int, bytes], combos: Sequence[tuple[str, str]], *, trials: int,
                 warmup: int, aad: bytes, seed: int, key_bytes: int = 16,
                 nonce_bytes: "Mapping[str, int] | None" = None, control: "tuple[str, str] | None" = None,
                 min_trial_seconds: float = 0.0, processes: int = 1, progress: bool = True,
                 desc: str = "aead") -> pd.DataFrame:
    """Encryption and decryption+verification times, one row per trial (see :func:`aead_cases`).

    ``min_trial_seconds``: calls shorter than this are timed in batches
    (:func:`cipherlab.analysis.timing.measure`); ``seconds`` is per call, ``calls`` the batch.
    The ``trials`` are spread over ``processes`` fresh interpreters
    (:func:`cipherlab.analysis.timing.measure_in_processes`), each of which builds the
    cases (and checks their round trips) anew.
    """
    build = aead_build(data_by_size, combos, aad=aad, seed=seed, key_bytes=key_bytes, nonce_bytes=nonce_bytes,
                       control=control)
    return _timing.measure_in_processes(aead_cases, build, processes=processes, trials=trials, warmup=warmup,
                                        seed=seed, progress=progress, desc=desc, min_trial_seconds=min_trial_seconds)


def aead_build(data_by_size: Mapping[int, bytes], combos: Sequence[tuple[str, str]], *, aad: bytes, seed: int,
               key_bytes: int = 16, nonce_bytes: "Mapping[str, int] | None" = None,
               control: "tuple[str, str] | None" = None) -> dict:
    """The keyword arguments of :func:`aead_cases` as a timing process receives them (plain, picklable)."""
    return dict(data_by_size={int(n): bytes(d) for n, d in data_by_size.items()}, combos=[tuple(c) for c in combos],
                aad=aad, seed=seed, key_bytes=key_bytes, nonce_bytes=nonce_bytes, control=control)


#: The A/A control of each phase: the case timed twice (paper 003 names AES-GCM and AES-EAX).
PHASE1_CONTROL = ("aes", "gcm")
PHASE2_CONTROL = ("aes", "eax")
#: The (cipher, mode) pairs of each phase.
PHASE1_COMBOS = tuple(("aes", m) for m in MODES)
PHASE2_COMBOS = tuple((c, "eax") for c in CIPHERS)


def measure_phase1(data_by_size: Mapping[int, bytes], *, trials: int, warmup: int, aad: bytes, seed: int,
                   modes: Sequence[str] = MODES, **kw) -> pd.DataFrame:
    """Phase 1 (Figs. 3-6): AES-128 in GCM, CCM and EAX over the file sizes, with an AES-GCM A/A control."""
    combos = PHASE1_COMBOS if tuple(modes) == MODES else [("aes", m) for m in modes]
    return measure_aead(data_by_size, combos, trials=trials, warmup=warmup,
                        aad=aad, seed=seed, desc="phase 1", control=PHASE1_CONTROL, **kw)


def measure_phase2(data_by_size: Mapping[int, bytes], *, trials: int, warmup: int, aad: bytes, seed: int,
                   ciphers: Sequence[str] = CIPHERS, **kw) -> pd.DataFrame:
    """Phase 2 (Figs. 7-10): EAX with AES-128, Blowfish and CAST-128 over the file sizes, with an AES-EAX A/A control."""
    combos = PHASE2_COMBOS if tuple(ciphers) == CIPHERS else [(c, "eax") for c in ciphers]
    return measure_aead(data_by_size, combos, trials=trials, warmup=warmup,
                        aad=aad, seed=seed, desc="phase 2", control=PHASE2_CONTROL, **kw)


def main_instance(timings: pd.DataFrame) -> pd.DataFrame:
    """The trials of the cases proper, without the A/A control's second instance."""
    if "instance" not in timings.columns:
        return timings
    return timings[timings["instance"] == "main"]


def add_throughput(timings: pd.DataFrame, mb_bytes: int = MB) -> pd.DataFrame:
    """Add ``mb`` (size in MB) and ``mb_per_s`` (plaintext MB per second) to each trial row."""
    out = timings.copy()
    out["mb"] = out["bytes"] / mb_bytes
    out["mb_per_s"] = out["mb"] / out["seconds"]
    return out


def throughput_summary(timings: pd.DataFrame, mb_bytes: int = MB,
                       by: Sequence[str] = ("cipher", "mode", "operation", "bytes")) -> pd.DataFrame:
    """Per point: n, median, quartiles, mean and std of seconds and of MB/s (main instance only)."""
    t = add_throughput(main_instance(timings), mb_bytes)
    g = t.groupby(list(by), sort=True)
    out = pd.DataFrame({
        "n": g["seconds"].size(),
        "mb": g["mb"].first(),
        "median_s": g["seconds"].median(),
        "q1_s": g["seconds"].quantile(0.25),
        "q3_s": g["seconds"].quantile(0.75),
        "mean_s": g["seconds"].mean(),
        "std_s": g["seconds"].std(ddof=1),
        "median_mb_per_s": g["mb_per_s"].median(),
        "q1_mb_per_s": g["mb_per_s"].quantile(0.25),
        "q3_mb_per_s": g["mb_per_s"].quantile(0.75),
    })
    return out.reset_index()

