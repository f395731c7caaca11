"""Tests of cipherlab.experiments.maes.image."""
from __future__ import annotations

import numpy as np
import pytest

import cipherlab
from cipherlab.experiments.maes import image as figure8
from cipherlab.experiments.maes import common, dependency
from cipherlab.names import MODES

from maes_synthetic import IV, KEY

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


# --- image -----------------------------------------------------------------


def test_image_loads_deterministically(image):
    again = figure8.load_test_image()
    assert image.dtype == np.uint8 and image.shape == (600, 512, 3)
    assert image.flags["C_CONTIGUOUS"]
    assert np.array_equal(image, again)
    assert figure8.image_digest(image) == figure8.image_digest(again)
    assert image.size % 16 == 0  # encrypted without padding, shown at the same size


def test_encrypt_image_matches_cipher_and_round_trips(image):
    small = np.ascontiguousarray(image[:32, :32])  # 3072 bytes, whole blocks
    for cipher in common.CIPHERS:
        for mode in MODES:
            enc = figure8.encrypt_image(small, cipher, mode, KEY, IV)
            assert enc.shape == small.shape and enc.dtype == np.uint8
            kw = {"iv": IV} if mode != "ecb" else {}
            c = cipherlab.new(KEY, cipher=cipher, mode=mode, padding=False, **kw)
            assert np.array_equal(np.asarray(c.encrypt(small.ravel())), enc.ravel())
            d = cipherlab.new(KEY, cipher=cipher, mode=mode, padding=False, **kw)
            assert np.array_equal(np.asarray(d.decrypt(enc.ravel())), small.ravel())


def test_encrypt_image_pads_then_cuts_odd_sizes():
    odd = np.arange(3 * 5 * 3, dtype=np.uint8).reshape(3, 5, 3)  # 45 bytes
    enc = figure8.encrypt_image(odd, "aes", "ecb", KEY)
    assert enc.shape == odd.shape
    full = cipherlab.new(KEY, cipher="aes", mode="ecb").encrypt(odd.ravel())
    assert np.array_equal(np.asarray(full)[:45], enc.ravel())


def test_image_ciphertexts_keys_and_bad_input(image):
    small = np.ascontiguousarray(image[:16, :16])
    out = figure8.image_ciphertexts(small, KEY, IV, ciphers=("aes", "maes-2"), modes=("ecb",))
    assert list(out) == [("plain", "none"), ("aes", "ecb"), ("maes-2", "ecb")]
    with pytest.raises(ValueError, match="cipher"):
        figure8.image_ciphertexts(small, KEY, IV, ciphers=("des",))
    with pytest.raises(ValueError, match="mode"):
        figure8.encrypt_image(small, "aes", "ofb", KEY)
    with pytest.raises(ValueError, match="iv"):
        figure8.encrypt_image(small, "aes", "cbc", KEY, None)


def test_histogram_frame_counts_every_byte(image):
    small = np.ascontiguousarray(image[:8, :8])
    h = figure8.histogram_frame({("plain", "none"): small})
    assert len(h) == 256 and h["count"].sum() == small.size
    assert np.array_equal(h["count"].to_numpy(), np.bincount(small.ravel(), minlength=256))


def test_leak_table_maes_ecb_keeps_every_repeat(image):
    small = np.ascontiguousarray(image[:64, :64])
    ims = figure8.image_ciphertexts(small, KEY, IV)
    routes = {c: dependency.byte_routes(c, KEY) for c in common.CIPHERS}
    lk = figure8.leak_table(ims, routes=routes).set_index(["cipher", "mode"])
    for cipher in ("maes-1", "maes-2"):
        assert lk.loc[(cipher, "ecb"), "p_equal_if_plain_equal"] == 1.0
        assert lk.loc[(cipher, "ecb"), "p_equal_if_plain_differs"] == 0.0
    assert lk.loc[("aes", "ecb"), "p_equal_if_plain_equal"] < 0.05
    assert not lk.loc[("aes", "ecb"), "routed"]
    with pytest.raises(ValueError, match="lag_bytes"):
        figure8.leak_table(ims, lag_bytes=20)


def test_repeat_map_counts_equal_channels():
    flat = np.full((4, 32, 3), 7, dtype=np.uint8)
    rm = figure8.repeat_map(flat, lag_bytes=48)
    assert rm.shape == (4, 32) and rm.dtype == np.uint8
    assert (rm.ravel()[16:] == 3).all() and (rm.ravel()[:16] == 0).all()
    noisy = np.arange(4 * 32 * 3, dtype=np.uint8).reshape(4, 32, 3)
    assert (figure8.repeat_map(noisy, lag_bytes=48) == 0).all()  # i and i-48 never equal mod 256
