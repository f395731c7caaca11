"""cipherlab.ciphers.cpu: PyCryptodome runs as the JIT target does (a machine without AES instructions, emulated)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cipherlab.ciphers import cpu

HOST_AES = cpu.has_aesni() and not cpu.emulated_without_aes()

# Records what every PyCryptodome AES object cipherlab makes was told (use_aesni, use_clmul), through
# the library's doors: the pycryptodome style of new(), the AEAD chapter's objects, the tag checks.
_SPY = r"""
import json
from Crypto.Cipher import AES, _mode_gcm
seen = []
base = AES._create_base_cipher
def spy(params):
    seen.append(("use_aesni", params.get("use_aesni", True)))
    return base(params)
AES._create_base_cipher = spy
gcm = _mode_gcm._create_gcm_cipher
def spy_gcm(factory, **kwargs):
    seen.append(("use_clmul", kwargs.get("use_clmul", True)))
    return gcm(factory, **kwargs)
_mode_gcm._create_gcm_cipher = spy_gcm
AES._mode_gcm = _mode_gcm
import cipherlab
from cipherlab.ciphers import cpu
from cipherlab.experiments.aead.measure import new_aead
from cipherlab.experiments.aead.forgery import _verify
ct = cipherlab.new(bytes(16), "aes", "ctr", iv=bytes(16), impl="pycryptodome").encrypt(bytes(64))
new_aead("aes", "gcm", bytes(16), bytes(16)).encrypt_and_digest(b"x")
_verify(bytes(16), "eax", bytes(16), b"", b"", bytes(16))
print(json.dumps({"options": cpu.pycryptodome_options("aes", "gcm"), "seen": sorted(set(map(tuple, seen))),
                  "ct": ct.hex()}))
"""


def _spy(**env):
    run = subprocess.run([sys.executable, "-c", _SPY], env={**os.environ, **env}, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    import json
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.skipif(not HOST_AES, reason="this CPU has no AES-NI: there is no machine without it to emulate")
def test_a_generic_jit_target_makes_pycryptodome_run_without_aes_instructions():
    here, generic = _spy(), _spy(NUMBA_CPU_NAME="generic")
    assert here["options"] == {} and generic["options"] == {"use_aesni": False, "use_clmul": False}
    assert ["use_aesni", True] in here["seen"] and ["use_aesni", False] not in here["seen"]
    assert generic["seen"] == [["use_aesni", False], ["use_clmul", False]]
    assert generic["ct"] == here["ct"]   # the same AES, the software path


def test_other_ciphers_and_the_host_target_get_no_options():
    assert cpu.pycryptodome_options("cast", "eax") == {} and cpu.pycryptodome_options("blowfish") == {}
    if not cpu.emulated_without_aes():
        assert cpu.pycryptodome_options("aes", "gcm") == {}
