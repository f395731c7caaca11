"""The compiled key expansion (``_key_kernels.expand_key_words``, what a cipher object is built from)
against the naive one in ``tests/naive.py``, for random keys of every size, including words run
past the schedule (the MAES ``keyexp`` IV source continues Rcon in GF(2^8))."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

import naive
from cipherlab.ciphers.aes import expand_key, expand_key_words


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from((16, 24, 32)).flatmap(lambda n: st.binary(min_size=n, max_size=n)),
       extra=st.integers(0, 40))
def test_compiled_key_expansion_matches_naive(key, extra):
    n_words = 4 * (len(key) // 4 + 7) + extra
    words = naive.key_words(key, n_words)
    assert expand_key_words(key, n_words) == [int.from_bytes(bytes(w), "big") for w in words]
    assert np.array_equal(expand_key(key), np.array(naive.round_keys(key), dtype=np.uint8).reshape(-1, 16))
