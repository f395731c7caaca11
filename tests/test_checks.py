"""The key/IV parser of cipherlab._checks (check_hex), the one used by every chapter."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from cipherlab._checks import check_hex


@given(st.binary(max_size=64))
def test_check_hex_round_trips_hex_and_bytes(raw):
    assert check_hex("key_hex", raw.hex()) == raw
    assert check_hex("key_hex", raw.hex().upper()) == raw
    assert check_hex("key", raw) == raw
    assert check_hex("key", bytearray(raw), (len(raw),)) == raw


def test_check_hex_lengths():
    key = bytes(range(16))
    assert check_hex("key_hex", key.hex(), (16, 24, 32)) == key
    assert check_hex("key", np.frombuffer(key, dtype=np.uint8), (16,)) == key
    with pytest.raises(ValueError, match=r"^key_hex must be 16 or 24 or 32 bytes, got 1 bytes$"):
        check_hex("key_hex", "00", (16, 24, 32))
    with pytest.raises(ValueError, match=r"^iv_hex must be 16 bytes, got 15 bytes$"):
        check_hex("iv_hex", bytes(15), (16,))


@pytest.mark.parametrize("bad, why", [("zz", "character 1 of 2 is not a hex digit"),
                                      ("0", "an even number of digits (two per byte), got 1"),
                                      ("00 f", "character 3 of 4 is not"), ("0x00", "character 2 of 4 is not"),
                                      ("000102030405060708090a0b0c0d0e0", "got 31")])
def test_check_hex_refuses_what_is_not_hex_without_repeating_it(bad, why):
    """A mistyped key was echoed in full (and so reached logs); an odd digit count was called "not hex"."""
    with pytest.raises(ValueError, match=r"^key_hex must be a hex string") as err:
        check_hex("key_hex", bad)
    assert why in str(err.value) and (bad not in str(err.value) or len(bad) < 3)


@pytest.mark.parametrize("bad", [None, 16, 1.5, ["00"], np.zeros(2, dtype=np.int64)])
def test_check_hex_refuses_other_types(bad):
    with pytest.raises(ValueError, match=r"^key "):
        check_hex("key", bad)
