"""Every documented error path raises ValueError naming the parameter."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import cipherlab
from cipherlab.ciphers.aes import expand_key, mix_columns_blocks
from cipherlab.ciphers.maes import maes_ivs, xor_iv_blocks

KEY = bytes(16)
IV = bytes(16)


@pytest.mark.parametrize("kwargs,match", [
    (dict(key=bytes(15)), "key must be 16, 24 or 32 bytes"),
    (dict(key=bytes(33)), "key must be 16, 24 or 32 bytes"),
    (dict(key="0" * 16), "key must be bytes-like"),
    (dict(key=np.zeros(16, dtype=np.int32)), "key must be bytes"),
    (dict(cipher="des"), "cipher must be one of .*aes-2sbox"),
    (dict(mode="gcm"), "mode must be one of .*ecb"),
    (dict(impl="fast"), "impl must be one of .*reference"),
    (dict(mode="cbc"), "iv is required for mode 'cbc'"),
    (dict(mode="ctr"), "iv is required for mode 'ctr'"),
    (dict(mode="cbc", iv=bytes(8)), "iv must be exactly 16 bytes"),
    (dict(mode="ctr", iv=bytes(17)), "iv must be exactly 16 bytes"),
    (dict(mode="cbc", iv="x" * 16), "iv must be 16 bytes"),
    (dict(iv=IV), "iv must be None for mode 'ecb'"),
    (dict(padding="yes"), "padding must be True or False"),
    (dict(threads=0), r"threads must be None .* 1\.\."),
    (dict(threads=10_000), r"threads must be None .* 1\.\."),
    (dict(threads=1.5), r"threads must be None"),
    (dict(rounds=0), r"rounds must be an integer in 1\.\.10"),
    (dict(rounds=11), r"rounds must be an integer in 1\.\.10"),
    (dict(key=bytes(32), rounds=15), r"rounds must be an integer in 1\.\.14"),
    (dict(colour="red"), r"unknown option\(s\) \['colour'\] for cipher 'aes'; allowed options: \('rounds',\)"),
    (dict(xor_byte=1), r"unknown option\(s\) \['xor_byte'\] for cipher 'aes'"),
    (dict(cipher="maes-1", xor_byte=1), r"unknown option\(s\) \['xor_byte'\] for cipher 'maes-1'"),
    (dict(cipher="aes-2sbox", xor_byte=300), "xor_byte must be an integer in 0..255"),
    (dict(cipher="aes-2sbox", construction="x"), "construction must be one of"),
    (dict(cipher="maes-2", iv_source="rng"), "iv_source must be one of"),
    (dict(cipher="maes-2", sha3="sha256"), "sha3 must be one of"),
    (dict(cipher="maes-2", sha3_chain="x"), "sha3_chain must be one of"),
    (dict(cipher="aes-2sbox", impl="pycryptodome"),
     r"impl 'pycryptodome' is not a style of cipher 'aes-2sbox': its styles are \('reference', 'table', 'aesni'\)"),
    (dict(cipher="maes-3"), "cipher must be one of .*maes-1.*maes-2"),
    (dict(cipher="maes", approach=3), r"approach must be one of \(1, 2\)"),
    (dict(cipher="maes", approach=True), r"approach must be one of \(1, 2\)"),
    (dict(cipher="maes-1", approach=2), r"unknown option\(s\) \['approach'\] for cipher 'maes-1'.*fixed by the name"),
    (dict(impl="pycryptodome", rounds=5), "rounds: impl 'pycryptodome'"),
])
def test_new_rejects(kwargs, match):
    kwargs = {"key": KEY, **kwargs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=match):
            cipherlab.new(**kwargs)


@pytest.mark.parametrize("impl", ("reference", "table", "aesni", "pycryptodome"))
def test_data_errors(impl):
    ecb = cipherlab.new(KEY, impl=impl, padding=False)
    with pytest.raises(ValueError, match="whole number of 16-byte blocks when padding=False"):
        ecb.encrypt(bytes(17))
    with pytest.raises(ValueError, match="whole number of 16-byte blocks"):
        ecb.decrypt(bytes(17))
    padded = cipherlab.new(KEY, impl=impl)
    with pytest.raises(ValueError, match="non-empty whole number"):
        padded.decrypt(b"")
    with pytest.raises(ValueError, match="bad PKCS#7 padding"):
        padded.decrypt(ecb.encrypt(bytes(15) + b"\x00"))  # last byte 0: invalid
    with pytest.raises(ValueError, match="bad PKCS#7 padding"):
        padded.decrypt(ecb.encrypt(bytes(14) + b"\x01\x02"))  # inconsistent run
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt("text")
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt(np.zeros(16, dtype=np.int16))
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt(np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(ValueError, match="data must be bytes"):
        padded.encrypt(np.zeros(64, dtype=np.uint8)[::2])
    with pytest.raises(ValueError, match="block must be exactly 16 bytes"):
        padded.encrypt_block(bytes(15))
    with pytest.raises(ValueError, match="block must be exactly 16 bytes"):
        padded.decrypt_block(bytes(32))


def test_cbc_wrong_key_is_a_padding_error_not_a_crash():
    ct = cipherlab.new(KEY, mode="cbc", iv=IV).encrypt(b"secret message")
    with pytest.raises(ValueError, match="padding"):
        for k in range(1, 50):  # a wrong key gives valid padding ~1/256 of the time
            cipherlab.new(bytes([k]) + bytes(15), mode="cbc", iv=IV).decrypt(ct)


def test_helper_errors():
    with pytest.raises(ValueError, match="key must be 16, 24 or 32"):
        expand_key(bytes(5))
    with pytest.raises(ValueError, match="approach must be one of"):
        maes_ivs(KEY, approach=3)
    with pytest.raises(ValueError, match="iv_source must be one of"):
        maes_ivs(KEY, iv_source="x")
    with pytest.raises(ValueError, match="impl must be one of"):
        mix_columns_blocks(np.zeros((1, 16), dtype=np.uint8), impl="aesni")
    with pytest.raises(ValueError, match="state_blocks must be a uint8 array of shape"):
        mix_columns_blocks(np.zeros((1, 15), dtype=np.uint8))
    with pytest.raises(ValueError, match="iv must be 16 bytes"):
        xor_iv_blocks(np.zeros((1, 16), dtype=np.uint8), bytes(3))
