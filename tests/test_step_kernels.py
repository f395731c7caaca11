"""The step-timing kernels (cipherlab.ciphers._step_kernels): each step does what the cipher's step does, the
round composes them in FIPS-197's order, and bad arguments get one clear error."""
from __future__ import annotations

import numpy as np
import pytest

import naive
from cipherlab.ciphers import _step_kernels as SK
from cipherlab.ciphers.aes import expand_key
from cipherlab.ciphers.sboxes import rijndael_sbox

KEY = bytes(range(16))
SBOX = rijndael_sbox()
assert list(SBOX) == naive.rijndael_sbox_naive()
INV = np.argsort(SBOX).astype(np.uint8)


def _states(n=8, seed=0):
    return np.random.default_rng(seed).integers(0, 256, size=(n, 16), dtype=np.uint8)


def _naive_round(block, k, decrypt=False):
    """A middle round of naive.py's byte-by-byte AES: SubBytes, ShiftRows, MixColumns, AddRoundKey (or the inverse
    round in FIPS-197's inverse-cipher order)."""
    s = list(block)
    if not decrypt:
        s = [SBOX[b] for b in s]
        s = naive._shift_rows(s)
        s = naive._mix_columns(s)
        return [a ^ b for a, b in zip(s, k)]
    s = naive._shift_rows(s, inverse=True)
    s = [INV[b] for b in s]
    s = [a ^ b for a, b in zip(s, k)]
    return naive._mix_columns(s, naive._INV_M)


@pytest.mark.parametrize("step, decrypt", [("round", False), ("inv_round", True)])
def test_the_round_kernel_is_a_fips_round_with_the_middle_keys(step, decrypt):
    rk = expand_key(KEY)
    st = _states()
    want = np.array([_naive_round(b, rk[1], decrypt) for b in st], dtype=np.uint8)
    assert np.array_equal(SK.run_steps(st.copy(), step, 1, rk, SBOX, INV), want)
    # nine rounds use the keys of rounds 1 .. 9 in turn
    got, want = SK.run_steps(st.copy(), step, 9, rk, SBOX, INV), st.copy()
    for r in range(9):
        want = np.array([_naive_round(b, rk[1 + r], decrypt) for b in want], dtype=np.uint8)
    assert np.array_equal(got, want)


def test_the_steps_of_a_round_compose_to_the_round():
    rk = expand_key(KEY)
    for steps, whole in ((SK.ENCRYPT_STEPS, "round"), (SK.DECRYPT_STEPS, "inv_round")):
        st = _states(seed=1)
        one = st.copy()
        for s in steps:
            SK.run_steps(one, s, 1, rk, SBOX, INV)
        assert np.array_equal(one, SK.run_steps(st.copy(), whole, 1, rk, SBOX, INV))


def test_each_step_is_the_ciphers_own_and_inverts():
    rk = expand_key(KEY)
    st = _states(seed=2)
    for fwd, inv in (("sub_bytes", "inv_sub_bytes"), ("shift_rows", "inv_shift_rows"),
                     ("mix_columns", "inv_mix_columns"), ("add_round_key", "add_round_key")):
        out = SK.run_steps(SK.run_steps(st.copy(), fwd, 1, rk, SBOX, INV), inv, 1, rk, SBOX, INV)
        assert np.array_equal(out, st), fwd
    assert np.array_equal(SK.run_steps(st.copy(), "sub_bytes", 1, rk, SBOX, INV), SBOX[st])


@pytest.mark.parametrize("kw, match", [
    (dict(step="mixcolumns"), "step must be one of"),
    (dict(rounds=0), "rounds must be an integer >= 1"),
    (dict(rounds=True), "rounds must be an integer >= 1"),
    (dict(states=np.zeros((4, 15), dtype=np.uint8)), "states must be a uint8 array of shape nx16"),
    (dict(states=np.zeros((4, 16), dtype=np.int64)), "states must be a uint8 array"),
    (dict(sbox=np.zeros(255, dtype=np.uint8)), "sbox must be a uint8 array of shape 256"),
    (dict(round_keys=np.zeros((2, 16), dtype=np.uint8)), "at least 3 round keys"),
    (dict(states=np.zeros((4, 32), dtype=np.uint8)[:, ::2]), "C-contiguous"),
])
def test_bad_arguments_name_the_parameter(kw, match):
    args = dict(states=_states(), step="round", rounds=1, round_keys=expand_key(KEY), sbox=SBOX, inv_sbox=INV)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        SK.step_runner(**args)
