"""Can the JIT emit AES-NI here? Answered before anything is compiled.

Numba compiles for the CPU model and feature list of its target
(``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``, default: the host). If that
target lacks ``+aes``, LLVM does not raise a Python error for an AES-NI
intrinsic: it aborts the whole interpreter ("Cannot select: intrinsic").
So :func:`check_aesni` decides from the target description alone and raises
a clear ``ValueError`` (for ``impl``) naming the missing feature; nothing in
:mod:`cipherlab.ciphers._aesni_kernels` is ever compiled without it passing.

When the target is a named CPU model with no explicit feature list, the model
alone decides; the only safe way to ask LLVM is to compile a probe in a child
process (once per process, about a second).
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys
from functools import lru_cache

import llvmlite.binding as llvm
import numpy as np
import numba
from numba.core.codegen import get_host_cpu_features

from cipherlab.ciphers._numba import jit as _jit

__all__ = ["AESNI_FEATURES", "VAES_FEATURES", "ZMM_FEATURES", "aesni_status", "check_aesni", "has_aesni",
           "host_has_aesni", "has_vaes",
           "vaes_status", "has_zmm", "zmm_status", "jit_target", "measured_clock_hz", "feature_flags",
           "REPORTED_FEATURES", "emulated_without_aes", "pycryptodome_options"]

#: LLVM features the hardware kernels use: AES-NI and SSSE3 (``pshufb``).
AESNI_FEATURES = ("aes", "ssse3")
_X86 = {"x86_64", "amd64", "i386", "i686", "x86"}

_PROBE = """
import numpy as np
from cipherlab.ciphers._aesni_kernels import aesenc
from numba import njit, uint64
@njit(cache=False)
def probe(a):
    return aesenc((a, a), (a, a))[0]
probe(uint64(1))
"""


@lru_cache(maxsize=1)
def _host_name() -> str:
    return str(llvm.get_host_cpu_name())


@lru_cache(maxsize=1)
def _host_features_string() -> str:
    """Numba's feature string for the host (asks LLVM: about a millisecond, so once per process)."""
    return str(get_host_cpu_features())


@lru_cache(maxsize=1)
def _host_features() -> dict:
    """LLVM's host feature map, once per process (the CPU does not change under a running process)."""
    return dict(llvm.get_host_cpu_features())


def host_has_aesni() -> bool:
    """Whether the CPU itself has AES-NI (an x86 CPU whose LLVM host features include ``aes``): what
    PyCryptodome's C code uses, recorded with every run.  cipherlab's own hardware kernels need the JIT
    target to have it too (:func:`has_aesni`): under ``NUMBA_CPU_NAME=generic`` this stays true and that
    is false, and the record holds both."""
    return platform.machine().lower() in _X86 and bool(_host_features().get("aes", False))


def jit_target() -> tuple[str, str]:
    """``(cpu_name, features)`` Numba compiles for (the host unless overridden)."""
    name = numba.config.CPU_NAME or _host_name()
    features = numba.config.CPU_FEATURES
    if features is None:
        features = _host_features_string()
    return str(name), str(features)


def _parse(features: str) -> dict[str, bool]:
    out: dict[str, bool] = {}
    for item in features.split(","):
        item = item.strip()
        if len(item) > 1 and item[0] in "+-":
            out[item[1:]] = item[0] == "+"  # the last mention wins, as in LLVM
    return out


@lru_cache(maxsize=1)
def _probe_named_cpu(name: str, features: str) -> str:
    env = dict(os.environ, NUMBA_CPU_NAME=name, NUMBA_CPU_FEATURES=features)
    try:
        run = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"could not probe CPU model {name!r} for AES-NI ({exc})"
    if run.returncode:
        return f"the JIT target CPU model {name!r} (NUMBA_CPU_NAME) has no AES-NI: a probe compile failed"
    return ""


def aesni_status() -> str:
    """``""`` if the hardware kernels can be compiled here, else the reason why not.

    Decided once per JIT target (``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` as Numba holds them):
    the host's features are asked once per process.
    """
    return _aesni_status(numba.config.CPU_NAME, numba.config.CPU_FEATURES)


@lru_cache(maxsize=8)
def _aesni_status(cpu_name, cpu_features) -> str:
    if platform.machine().lower() not in _X86:
        return f"AES-NI is an x86 instruction set; this machine is {platform.machine()!r}"
    host = _host_features()
    missing_host = [f for f in AESNI_FEATURES if not host.get(f, False)]
    if missing_host:
        return f"the CPU lacks the feature(s) {missing_host} (AES-NI needs 'aes', the AES-2SBox map 'ssse3')"
    name, features = jit_target()
    declared = _parse(features)
    off = [f for f in AESNI_FEATURES if declared.get(f) is False]
    if off:
        return f"the JIT target disables {['-' + f for f in off]} (NUMBA_CPU_FEATURES={features!r})"
    if all(declared.get(f) for f in AESNI_FEATURES):
        return ""
    if name.lower() in ("generic", "x86-64", ""):
        return (f"the JIT target CPU model {name!r} (NUMBA_CPU_NAME) has no AES-NI and NUMBA_CPU_FEATURES "
                f"does not add '+aes,+ssse3'")
    return _probe_named_cpu(name, features)


#: LLVM features the 256-bit kernels (:mod:`cipherlab.ciphers._vaes_kernels`) need besides AES-NI.
VAES_FEATURES = ("vaes", "avx2")


def vaes_status() -> str:
    """``""`` if the VAES kernels can run here (two blocks per AES instruction), else why not.

    Only on the host's own JIT target: any ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` override
    turns them off (the 128-bit AES-NI kernels run instead), so no override can make LLVM meet
    a VAES intrinsic it cannot select.
    """
    return _vaes_status(numba.config.CPU_NAME, numba.config.CPU_FEATURES)


@lru_cache(maxsize=8)
def _vaes_status(cpu_name, cpu_features) -> str:
    return _wide_status(cpu_name, cpu_features, VAES_FEATURES)


def _wide_status(cpu_name, cpu_features, needed) -> str:
    reason = aesni_status()
    if reason:
        return reason
    if cpu_name is not None or cpu_features is not None:
        return "the JIT target is overridden (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES): the 128-bit kernels run"
    host = _host_features()
    declared = _parse(_host_features_string())
    missing = [f for f in needed if not (host.get(f, False) and declared.get(f, False))]
    if missing:
        return f"the CPU lacks the feature(s) {missing}"
    return ""


def has_vaes() -> bool:
    """True if the hardware style may use its VAES kernels in this process."""
    return not vaes_status()


#: LLVM features the 512-bit kernels need besides VAES and AVX2: AVX-512 Foundation (zmm registers,
#: ``vaesenc zmm``) and Vector Length (the EVEX forms on xmm and ymm LLVM may pick beside them).
ZMM_FEATURES = VAES_FEATURES + ("avx512f", "avx512vl")


def zmm_status() -> str:
    """``""`` if the 512-bit VAES kernels can run here (four blocks per AES instruction), else why not;
    like :func:`vaes_status`, only on the host's own JIT target."""
    return _zmm_status(numba.config.CPU_NAME, numba.config.CPU_FEATURES)


@lru_cache(maxsize=8)
def _zmm_status(cpu_name, cpu_features) -> str:
    return _wide_status(cpu_name, cpu_features, ZMM_FEATURES)


def has_zmm() -> bool:
    """True if this process may run the 512-bit VAES kernels (whether they are used: ``_aesni.width``)."""
    return not zmm_status()


#: The CPU features the hardware style's kernels and the bound probe care about, as LLVM names them.
REPORTED_FEATURES = ("aes", "ssse3", "avx2", "vaes", "vpclmulqdq", "avx512f", "avx512vl", "avx512bw")


def feature_flags() -> list:
    """Which of :data:`REPORTED_FEATURES` the host CPU has (LLVM's view of it), for the record of a run."""
    if platform.machine().lower() not in _X86:
        return []
    host = _host_features()
    return [f for f in REPORTED_FEATURES if host.get(f, False)]


def has_aesni() -> bool:
    """True if ``impl="aesni"`` can run in this process."""
    return not aesni_status()


def check_aesni() -> None:
    """Raise ``ValueError`` naming the missing feature unless AES-NI kernels can be compiled."""
    reason = aesni_status()
    if reason:
        raise ValueError(f"impl 'aesni' is not available: {reason}. Use impl 'table', 'reference' or 'auto'.")


def emulated_without_aes() -> bool:
    """True when the JIT target is overridden (``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``) to one without
    AES instructions on a host that has them: this process plays a machine without AES instructions
    (``make reproduce NO_AES=1`` sets ``NUMBA_CPU_NAME=generic``)."""
    overridden = numba.config.CPU_NAME is not None or numba.config.CPU_FEATURES is not None
    return overridden and not has_aesni() and platform.machine().lower() in _X86 and all(
        _host_features().get(f, False) for f in AESNI_FEATURES)


def pycryptodome_options(cipher: str = "aes", mode: "str | None" = None) -> dict:
    """Keyword arguments for PyCryptodome's ``new`` so that it runs as cipherlab's kernels do here.

    Where this process plays a machine without AES instructions (:func:`emulated_without_aes`),
    PyCryptodome's AES is told to do without them too: ``use_aesni=False`` (its software AES) and,
    for GCM, ``use_clmul=False`` (GHASH without carry-less multiplication), as on a CPU that has
    neither. No paper's protocol names the instruction set (paper 003 used PyCryptodome on an Intel
    i7, its features not stated), so every one allows it. Otherwise ``{}``: PyCryptodome uses what
    the CPU has. Blowfish and CAST-128 have no hardware path: always ``{}``.
    """
    if cipher != "aes" or not emulated_without_aes():
        return {}
    return {"use_aesni": False, **({"use_clmul": False} if mode == "gcm" else {})}


# -- the clock, measured -----------------------------------------------------------------------

#: Cycles per iteration of :func:`_chain`: an add and a shift in parallel, then an XOR, each one
#: cycle on every x86 core (the assumption of :func:`measured_clock_hz`).
CHAIN_CYCLES = 2


@_jit
def _chain(n, seed):
    x = seed
    for _ in range(n):
        x = (x + np.uint64(0x9E3779B97F4A7C15)) ^ (x >> np.uint64(1))
    return x


def measured_clock_hz(iterations: int = 20_000_000, repeats: int = 5) -> float:
    """The core clock the code runs at, measured: a serial chain of one-cycle integer operations
    (:data:`CHAIN_CYCLES` per iteration) timed on this thread's CPU time (``thread_time``: time
    while another process has the core is not counted), the fastest of ``repeats``.

    A virtual machine whose host steals cycles unseen still makes a run slower, never faster, so
    the fastest run is the best estimate; it is an estimate (a lower bound of the clock).
    """
    import time
    _chain(10, np.uint64(1))
    best = float("inf")
    for i in range(repeats):
        t0 = time.thread_time()
        _chain(iterations, np.uint64(i + 1))
        best = min(best, time.thread_time() - t0)
    return CHAIN_CYCLES * iterations / best
