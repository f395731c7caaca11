"""cipherlab.analysis.compare's noise band (with the verdict engine's half-width), against the naive reference."""
from __future__ import annotations

import naive
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from cipherlab.analysis.compare import noise_band
from cipherlab.analysis.verdicts import noise_half_width


@settings(max_examples=40, deadline=None)
@given(lo=hs.floats(-20, 20), width=hs.floats(0, 20), floor=hs.floats(0, 5), percent=hs.booleans(),
       at=hs.floats(-99, 200))
def test_the_noise_band_is_the_naive_one(lo, width, floor, percent, at):
    """The A/A band a speed claim is decided against: the control's largest excursion, at least the floor in
    percent; for a speed-up in percent a band of ratios, the same factor either way around 1 + at/100."""
    ev = dict(control_low=lo, control_high=lo + width, unit="%" if percent else "bits", statistic="speed_ratio")
    got = noise_band(noise_half_width(ev, floor), at, percent)
    assert got == pytest.approx(naive.noise_band_naive(lo, lo + width, floor, percent, at), rel=1e-12, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(h=hs.floats(0.5, 40), ratio=hs.floats(0.3, 3.0))
def test_a_ratio_and_its_inverse_lie_alike_against_the_band(h, ratio):
    """A speed-up and the same comparison turned round (B over A for A over B) are inside or beyond the band
    alike: CAST 14 % slower than Blowfish is as far out as Blowfish 16.3 % faster than CAST."""
    lo, hi = noise_band(h, 0.0, True)
    forward, backward = 100 * (ratio - 1), 100 * (1 / ratio - 1)
    assert (forward > hi) == (backward < lo) and (forward < lo) == (backward > hi)


def test_a_statistic_without_noise_gets_no_band():
    ev = dict(control_low=-3.0, control_high=3.0, unit="%", statistic="size_change")
    assert noise_half_width(ev, 1.0) == 0.0
