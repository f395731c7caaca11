"""Tests of cipherlab.experiments.security.chapter."""

from __future__ import annotations

import pandas as pd
import pytest


# ---------------------------------------------------------------- the declaration

TINY = dict(dependency_keys=1, dependency_plaintexts=8, avalanche_keys=1, avalanche_plaintexts=4, rounds_keys=1,
            rounds_plaintexts=4, image_stride=16, text_bytes=512, randomness_bytes=2048, n_sequences=2, apen_m=3,
            serial_m=4)


def test_build_returns_every_declared_output_and_nothing_else():
    import matplotlib.pyplot as plt

    from cipherlab.experiments.security import driver
    from cipherlab.experiments.security.chapter import CHAPTER

    run = CHAPTER.run("quick", TINY)
    built = CHAPTER.build(run, {})
    assert sorted(built) == sorted(CHAPTER.outputs)
    assert all(isinstance(built[t], pd.DataFrame) for t in CHAPTER.all_tables)
    assert all(isinstance(built[f], plt.Figure) for f in CHAPTER.figures)
    # the tables are analyse()'s, with this run's parameters and the profile's seed
    again = driver.analyse(seed=run.seed, **TINY)
    for name in driver.TABLES:
        assert built[f"security_{name}"].equals(again[name]), name
    cipher, mode, n = driver.RECOVERED_TEXT
    (row,) = built["security_recovered_text"].itertuples()
    assert (row.cipher, row.mode, row.bytes_shown) == (cipher, mode, n)
    assert row.text == bytes(again["recovered"][(cipher, mode, "text")][:n]).decode("ascii")
    assert set(built["evidence_security"]["profile"]) == {"quick"}


@pytest.mark.parametrize("overrides, key", [
    ({"xor_byte": 256}, "xor_byte"), ({"text_bytes": 15}, "text_bytes"), ({"randomness_bytes": 8}, "randomness_bytes"),
    ({"block_size": 1}, "block_size"), ({"serial_m": 1}, "serial_m"), ({"image_stride": 0}, "image_stride"),
    ({"dependency_keys": 1.5}, "dependency_keys"), ({"trials": 3}, "trials"),
])
def test_the_security_section_refuses_what_the_old_schema_refused(overrides, key):
    from cipherlab.experiments.security.chapter import CHAPTER

    with pytest.raises(ValueError, match=key):
        CHAPTER.run("quick", overrides)
