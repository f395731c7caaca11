"""The compiled SHA-3 and key expansion of ``ciphers/_keccak.py`` against hashlib, FIPS 202 and the Python MAES set-up."""
import hashlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cipherlab.ciphers import _keccak as K
from cipherlab.ciphers import aes, maes

# FIPS 202 example values (NIST CSRC "SHA-3 examples"): the empty message and "abc".
NIST = {
    ("sha3_224", b""): "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
    ("sha3_256", b""): "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
    ("sha3_256", b"abc"): "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
    ("sha3_384", b"abc"): "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
                          "98d88cea927ac7f539f1edf228376d25",
    ("sha3_512", b"abc"): "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
                          "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
}


@pytest.mark.parametrize("variant,msg", list(NIST))
def test_nist_examples(variant, msg):
    assert K.sha3(msg, variant).hex() == NIST[(variant, msg)]


@settings(max_examples=60, deadline=None)
@given(msg=st.binary(max_size=600), variant=st.sampled_from(sorted(K.DIGEST_BYTES)))
def test_sha3_matches_hashlib(msg, variant):
    assert K.sha3(msg, variant) == getattr(hashlib, variant)(msg).digest()


@pytest.mark.parametrize("variant", sorted(K.DIGEST_BYTES))
def test_sha3_at_rate_boundaries(variant):
    rate = 200 - 2 * K.DIGEST_BYTES[variant]
    rng = np.random.default_rng(1)
    for n in (rate - 1, rate, rate + 1, 2 * rate, 3 * rate - 1):
        msg = rng.integers(0, 256, n, dtype=np.uint8)
        assert K.sha3(msg, variant) == getattr(hashlib, variant)(msg.tobytes()).digest()


@settings(max_examples=20, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)))
def test_round_keys_match_python(key):
    assert np.array_equal(K.round_keys(key), aes.expand_key(key))
    n = 4 * (len(key) // 4 + 6 + 1) + 8
    assert K.expand_key_words(key, n).tolist() == aes.expand_key_words(key, n)


@settings(max_examples=15, deadline=None)
@given(key=st.sampled_from([16, 24, 32]).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       approach=st.sampled_from(maes.APPROACHES), source=st.sampled_from(maes.IV_SOURCES),
       variant=st.sampled_from(maes.SHA3_VARIANTS), chain=st.sampled_from(maes.SHA3_CHAINS))
def test_maes_ivs_match_python(key, approach, source, variant, chain):
    assert np.array_equal(K.maes_ivs(key, approach, source, variant, chain),
                          maes.maes_ivs(key, approach, source, variant, chain))


def test_bound_calls_give_the_same_bytes():
    key = bytes(range(16))
    calls = K.bound_calls(key, approach=2)
    assert np.array_equal(calls["key_expansion"](), aes.expand_key(key))
    assert np.array_equal(calls["sha3"](), maes.maes_ivs(key, 2, "sha3"))
    assert np.array_equal(calls["keyexp"](), maes.maes_ivs(key, 2, "keyexp"))


@pytest.mark.parametrize("call,match", [
    (lambda: K.sha3(b"x", "sha3_100"), "variant"),
    (lambda: K.sha3("text"), "data must be bytes"),
    (lambda: K.sha3(np.zeros(4, dtype=np.int32)), "data must be bytes"),
    (lambda: K.round_keys(b"short"), "key must be 16 or 24 or 32 bytes"),
    (lambda: K.expand_key_words(bytes(16), 3), "n_words"),
    (lambda: K.maes_ivs(bytes(16), approach=3), "approach"),
    (lambda: K.bound_calls(bytes(16), sha3_chain="x"), "sha3_chain"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()
