"""Each step of an AES round timed alone, and the round whole, in the byte-oriented (reference) style.

Why this exists: papers 000, 001 and 002 premise that MixColumns is the costliest
of the four steps of an AES round ("requiring more computational resources",
"consumes most of the time"). A cipher's speed-up when MixColumns is replaced
only bounds that share from below; the share itself is measured here. Each
kernel below applies **one** step (or the whole round) to every state of a
batch, ``rounds`` times, inside one compiled loop, with the very step functions
the reference cipher runs (:mod:`cipherlab.ciphers._kernels`: ``sub_bytes``,
``shift_rows``, ``mix_columns``, ``add_round_key`` and their inverses), so a
step costs here what it costs in the cipher, without the call overhead of a
Python call per step. The round kernel runs the four steps in the cipher's
order; the measuring code checks that the steps timed alone add up to it.

Steps (the ``step`` argument): encryption ``SUB_BYTES``, ``SHIFT_ROWS``,
``MIX_COLUMNS``, ``ADD_ROUND_KEY``, ``ROUND`` (the four in FIPS-197 order);
decryption ``INV_SHIFT_ROWS``, ``INV_SUB_BYTES``, ``INV_MIX_COLUMNS``,
``ADD_ROUND_KEY`` and ``INV_ROUND`` (FIPS-197's inverse cipher order, the
papers' decryption). The kernels are private and trust their arguments;
:func:`run_steps` checks them. Measurement only: the ciphers keep their own kernels.
"""
from __future__ import annotations

import numpy as np

from cipherlab.ciphers._kernels import (add_round_key, inv_mix_columns, inv_shift_rows, mix_columns, shift_rows,
                                        sub_bytes)
from cipherlab.ciphers._numba import jit

__all__ = ["STEPS", "ENCRYPT_STEPS", "DECRYPT_STEPS", "ROUND_OF", "step_runner", "run_steps"]

SUB_BYTES = 0
SHIFT_ROWS = 1
MIX_COLUMNS = 2
ADD_ROUND_KEY = 3
ROUND = 4
INV_SUB_BYTES = 5
INV_SHIFT_ROWS = 6
INV_MIX_COLUMNS = 7
INV_ROUND = 8

#: Step name -> kernel code.
STEPS = {"sub_bytes": SUB_BYTES, "shift_rows": SHIFT_ROWS, "mix_columns": MIX_COLUMNS,
         "add_round_key": ADD_ROUND_KEY, "round": ROUND, "inv_sub_bytes": INV_SUB_BYTES,
         "inv_shift_rows": INV_SHIFT_ROWS, "inv_mix_columns": INV_MIX_COLUMNS, "inv_round": INV_ROUND}
#: The four steps of a middle round, in the cipher's order, per operation.
ENCRYPT_STEPS = ("sub_bytes", "shift_rows", "mix_columns", "add_round_key")
DECRYPT_STEPS = ("inv_shift_rows", "inv_sub_bytes", "add_round_key", "inv_mix_columns")
#: The whole-round step of each operation.
ROUND_OF = {"encrypt": "round", "decrypt": "inv_round"}


@jit
def _steps_kernel(states, step, rounds, rk8, sboxes):
    """Apply ``step`` ``rounds`` times to every row of ``states`` (in place); round ``r`` uses key row
    ``1 + r % (len(rk8) - 2)``, the keys of the middle rounds."""
    n = states.shape[0]
    middle = rk8.shape[0] - 2
    for b in range(n):
        st = states[b]
        for r in range(rounds):
            k = 1 + r % middle
            if step == SUB_BYTES:
                sub_bytes(st, sboxes, 0)
            elif step == SHIFT_ROWS:
                shift_rows(st)
            elif step == MIX_COLUMNS:
                mix_columns(st)
            elif step == ADD_ROUND_KEY:
                add_round_key(st, rk8, k)
            elif step == ROUND:
                sub_bytes(st, sboxes, 0)
                shift_rows(st)
                mix_columns(st)
                add_round_key(st, rk8, k)
            elif step == INV_SUB_BYTES:
                sub_bytes(st, sboxes, 1)
            elif step == INV_SHIFT_ROWS:
                inv_shift_rows(st)
            elif step == INV_MIX_COLUMNS:
                inv_mix_columns(st)
            else:  # INV_ROUND, FIPS-197 5.3 order
                inv_shift_rows(st)
                sub_bytes(st, sboxes, 1)
                add_round_key(st, rk8, k)
                inv_mix_columns(st)


def step_runner(states: np.ndarray, step: str, rounds: int, round_keys: np.ndarray, sbox: np.ndarray,
                inv_sbox: np.ndarray):
    """A zero-argument callable that applies one round step (or the whole round) ``rounds`` times to each
    state of ``states``, in place: the arguments are checked once, here, so that a timed call is the kernel.

    Parameters
    ----------
    states : uint8[n, 16], C-contiguous
        The states, FIPS-197 layout (byte ``r + 4c`` is row ``r`` of column ``c``); changed in place.
    step : str
        A key of :data:`STEPS`.
    rounds : int
        How many times each state goes through the step (>= 1).
    round_keys : uint8[R + 1, 16]
        The cipher's round keys ``k_0 .. k_R`` (R >= 2); the middle rounds' keys ``k_1 .. k_{R-1}`` are used.
    sbox, inv_sbox : uint8[256]
        The S-box and its inverse.
    """
    if step not in STEPS:
        raise ValueError(f"step must be one of {sorted(STEPS)}, got {step!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise ValueError(f"rounds must be an integer >= 1, got {rounds!r}")
    for name, arr, shape in (("states", states, (None, 16)), ("round_keys", round_keys, (None, 16)),
                             ("sbox", sbox, (256,)), ("inv_sbox", inv_sbox, (256,))):
        if not isinstance(arr, np.ndarray) or arr.dtype != np.uint8 or arr.ndim != len(shape) or any(
                s is not None and s != got for s, got in zip(shape, arr.shape)):
            want = "x".join("n" if s is None else str(s) for s in shape)
            raise ValueError(f"{name} must be a uint8 array of shape {want}, got "
                             f"{getattr(arr, 'dtype', type(arr).__name__)} {getattr(arr, 'shape', '')}")
    if not states.flags.c_contiguous or not states.flags.writeable:
        raise ValueError("states must be a writeable C-contiguous array (it is changed in place)")
    if round_keys.shape[0] < 3:
        raise ValueError(f"round_keys must hold at least 3 round keys (k_0, a middle one, k_R), got "
                         f"{round_keys.shape[0]}")
    sboxes = np.zeros((4, 256), dtype=np.uint8)
    sboxes[0], sboxes[1] = sbox, inv_sbox
    keys, code, n = np.ascontiguousarray(round_keys), STEPS[step], int(rounds)

    def run():
        _steps_kernel(states, code, n, keys, sboxes)
    return run


def run_steps(states: np.ndarray, step: str, rounds: int, round_keys: np.ndarray, sbox: np.ndarray,
              inv_sbox: np.ndarray) -> np.ndarray:
    """Apply one round step (or the whole round) ``rounds`` times to each state, in place (:func:`step_runner`
    called once); returns ``states``."""
    step_runner(states, step, rounds, round_keys, sbox, inv_sbox)()
    return states
