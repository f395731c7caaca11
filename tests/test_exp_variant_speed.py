"""Tests of the variant battery: speed: what was measured, no verdict (experiments.variant.speed)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.variant import driver
from cipherlab.experiments.variant import correctness, speed

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


# ---------------------------------------------------------------- speed: what was measured, no verdict

def _raw(variant_factor: float, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for p in range(2):
        for t in range(30):
            base = 1e-3 * (1 + 0.01 * rng.standard_normal())
            for case, f in (("aes", 1.0), ("aes (A/A control)", 1.0), ("variant", variant_factor)):
                rows.append({"impl": "table", "case": case, "bytes": 65536, "process": p, "trial": t,
                             "seconds": base * f * (1 + 0.002 * rng.standard_normal())})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("factor, words", [(0.5, "faster than AES"), (2.0, "slower than AES"),
                                           (1.0, "no difference from AES beyond the A/A band")])
def test_speed_verdict_words(factor, words):
    t = speed.speed_table(_raw(factor), "toy")
    assert t["finding"].iloc[0] == words


def test_the_speed_table_states_no_claim_and_no_verdict():
    """A variant's speed table says what was measured; a claim the paper never made ("faster") gets no verdict and
    a measured slowdown is never called "the opposite of the claim"."""
    t = speed.speed_table(_raw(2.0), "toy")
    assert "verdict" not in t.columns and "reason" not in t.columns
    assert not t.astype(str).apply(lambda c: c.str.contains("claim|contradicted")).any().any()


def test_claim_row_is_ordering():
    assert speed.claim_row("x", "table")["rule"] == "ordering"


def test_speed_registers_the_variant_in_fresh_processes():
    name, path = driver.resolve("aes-affine-sbox")
    raw = speed.measure_speed(name, path, nbytes=1024, processes=1, trials=3)
    assert set(raw["case"]) == set(speed.CASES)
    assert set(raw["impl"]) == set(correctness.styles_here(name))
    assert (raw["compile_seconds"] > 0).all()
    table = speed.speed_table(raw, name)
    assert set(table["finding"]) <= set(speed.WORDS.values()) and len(table) == raw["impl"].nunique()
