"""Tests of cipherlab.experiments.security.summary."""

from __future__ import annotations


from cipherlab.experiments.security import summary
from cipherlab.experiments.security import sbox_properties as sp


def test_second_sbox_readings():
    cat = summary.sbox_catalogue()
    table = sp.sbox_property_table(cat).set_index("sbox")
    # the xor-index reading affine(x ^ 7F) is an affine map: no nonlinearity
    assert table.loc["second (xor-index, 7F)", "nonlinearity"] == 0
    # the round composition S2(S(x)) is affine-equivalent to S: same NL and DU
    r = table.loc["aes-2sbox round: S2(S(x)) (xor-index, 7F)"]
    assert r.nonlinearity == 112 and r.differential_uniformity == 4
    spread = summary.second_sbox_spread("xor-index")
    assert len(spread) == 256 and (spread.nonlinearity == 0).all()
