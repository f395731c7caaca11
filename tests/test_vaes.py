"""The hardware style's VAES kernels (two blocks per instruction, picked at run time where the CPU
has VAES): bit-identical to the reference style in ECB and CTR for every key size, on AES and
MAES, with every length around the eight-block groups; and the clean fallback without VAES."""
from __future__ import annotations

import numpy as np
import pytest

import cipherlab
from cipherlab.ciphers import _aesni as HW
from cipherlab.ciphers import cpu
from cipherlab.ciphers.cpu import has_vaes

pytestmark = [pytest.mark.usefixtures("quiet_research_warning"),
              pytest.mark.skipif(not has_vaes(), reason="no VAES on this CPU / JIT target")]

# lengths around the eight-block group, a partial CTR block, several threaded ranges
LENGTHS = (16, 112, 128, 144, 16 * 23, 16 * 23 + 5, 70_000, 300_001)


@pytest.fixture(params=(True, False), ids=("vaes", "aesni-128"))
def wide(request):
    previous = HW.use_vaes(request.param)
    yield request.param
    HW.use_vaes(previous)


@pytest.mark.parametrize("cipher, options", [("aes", {}), ("maes-1", {}), ("maes-2", {}),
                                             ("maes-2", {"iv_source": "keyexp"})])
@pytest.mark.parametrize("key_bytes", (16, 24, 32))
@pytest.mark.parametrize("mode", ("ecb", "ctr"))
def test_vaes_matches_reference(wide, cipher, options, key_bytes, mode):
    assert HW.vaes_enabled() is wide
    rng = np.random.default_rng(key_bytes)
    key, iv = rng.bytes(key_bytes), bytes.fromhex("00000000000000fffffffffffffffffa")  # carries inside a group
    for n in LENGTHS:
        data = rng.bytes(n if mode == "ctr" else n // 16 * 16)
        kw = dict(iv=None if mode == "ecb" else iv, padding=False, **options)
        hw = cipherlab.new(key, cipher, mode, impl="aesni", **kw)
        ref = cipherlab.new(key, cipher, mode, impl="reference", **kw)
        ct = hw.encrypt(data)
        assert ct == ref.encrypt(data), (n, cipher, mode)
        assert hw.decrypt(ct) == data


def test_vaes_is_used_for_aes_and_maes_only():
    aes = cipherlab.new(bytes(16), "aes", impl="aesni")
    sbox2 = cipherlab.new(bytes(16), "aes-2sbox", impl="aesni")
    reduced = cipherlab.new(bytes(16), "aes", impl="aesni", rounds=7)
    assert HW._wide(aes._enc) == HW.vaes_enabled()
    assert not HW._wide(sbox2._enc) and not HW._wide(reduced._enc)  # pshufb rounds; the padded key form


def test_vaes_off_for_any_jit_target_override():
    """An overridden JIT target (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES) never meets a VAES intrinsic:
    the 128-bit kernels run (their results: ``wide`` above)."""
    assert cpu._vaes_status(None, None) == ""
    assert "overridden" in cpu._vaes_status(None, "+aes,+ssse3,-vaes")
    assert cpu._vaes_status("generic", None) != ""
