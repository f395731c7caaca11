"""The variant's S-boxes over many keys: a key- or round-dependent S-box is a family, measured as a distribution.

One key's S-box says little about a derived one: its nonlinearity or
differential uniformity may change with the key.  :func:`sbox_samples` draws
seeded keys (16 bytes, and the additional key byte where the variant has one),
takes every distinct S-box the key gives (one per round when they differ) and
measures each with the security chapter's measures
(:mod:`cipherlab.experiments.security.sbox_properties`): nonlinearity,
differential uniformity, algebraic degree, fixed points, the S-box's strict
avalanche criterion (the mean of its 8 x 8 SAC matrix and its largest distance
from 1/2) and the bit independence criterion (the least nonlinearity of the XOR
of two output bits).  Rijndael's S-box is the control row.
:func:`sbox_key_summary` gives each measure's distribution (minimum, median,
maximum, the share of S-boxes equal to AES's value) beside AES's value.  A
fixed S-box is one sample, the same for every key.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.ciphers.registry import lookup
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security.sbox_properties import (algebraic_degree, bic_nonlinearity, differential_uniformity,
                                                            fixed_points, nonlinearity, sac_matrix)

__all__ = ["MEASURES", "sbox_measures", "sbox_samples", "sbox_key_summary", "key_samples"]

#: Each measure of :func:`sbox_measures`, with the direction a designer wants it to go (+1 larger, -1 smaller).
MEASURES = {"nonlinearity": 1, "differential_uniformity": -1, "algebraic_degree": 1, "fixed_points": -1,
            "sac_mean": 0, "sac_max_deviation": -1, "bic_nonlinearity": 1}
#: the control row's label (Rijndael's S-box, AES's; apart from a variant named ``aes``)
CONTROL = "aes (control)"


def sbox_measures(sbox) -> dict:
    """The measures of :data:`MEASURES` for one S-box (a permutation of 0..255)."""
    sac = sac_matrix(sbox)
    return {"nonlinearity": nonlinearity(sbox), "differential_uniformity": differential_uniformity(sbox),
            "algebraic_degree": algebraic_degree(sbox), "fixed_points": int(fixed_points(sbox).size),
            "sac_mean": float(sac.mean()), "sac_max_deviation": float(np.abs(sac - 0.5).max()),
            "bic_nonlinearity": bic_nonlinearity(sbox)}


def key_samples(cipher: str, n_keys: int, seed: int) -> list[tuple[bytes, dict]]:
    """Seeded ``(key, options)`` pairs for ``cipher``: keys of its first size and, where it has one, the additional
    key byte drawn with each (``additional_key``)."""
    if isinstance(n_keys, bool) or not isinstance(n_keys, (int, np.integer)) or n_keys < 1:
        raise ValueError(f"n_keys must be a positive integer, got {n_keys!r}")
    info = lookup(cipher)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(int(n_keys)):
        key = rng.integers(0, 256, info.key_sizes[0], dtype=np.uint8).tobytes()
        out.append((key, {"additional_key": int(rng.integers(256))} if "additional_key" in info.options else {}))
    return out


def _key_dependent(info) -> bool:
    desc = getattr(info, "description", None)
    return bool(desc is not None and desc.custom is None and desc.sbox_plan is not None
                and desc.sbox_plan.key_dependent)


def sbox_samples(cipher: str, *, n_keys: int = 16, seed: int = 0) -> pd.DataFrame:
    """One row per distinct S-box of each sampled key (``sample``, ``rounds`` it serves), every measure;
    Rijndael's S-box as the control row (``cipher`` ``aes``)."""
    info = lookup(cipher)
    keyed = _key_dependent(info)
    samples = key_samples(cipher, n_keys if keyed else 1, seed)
    rows, seen = [], {}
    for i, (key, opts) in enumerate(samples):
        sboxes = info.round_tables(key, **opts)[0] if hasattr(info, "round_tables") else rijndael_sbox()[None]
        distinct: dict[bytes, list[int]] = {}
        for r, s in enumerate(sboxes, start=1):
            distinct.setdefault(s.tobytes(), []).append(r)
        for table, rounds in distinct.items():
            measured = seen.get(table) or seen.setdefault(table, sbox_measures(np.frombuffer(table, np.uint8)))
            rows.append({"cipher": cipher, "sample": i, "key_dependent": keyed,
                         "rounds": _rounds_text(rounds, sboxes.shape[0]), **measured})
    rows.append({"cipher": CONTROL, "sample": -1, "key_dependent": False, "rounds": "all",
                 **sbox_measures(rijndael_sbox())})
    return pd.DataFrame(rows)


def _rounds_text(rounds: list[int], total: int) -> str:
    if len(rounds) == total:
        return "all"
    return ", ".join(map(str, rounds))


def sbox_key_summary(samples: pd.DataFrame) -> pd.DataFrame:
    """Per measure: the variant's minimum, median and maximum over every sampled S-box, AES's value, and the
    share of sampled S-boxes whose value equals AES's."""
    ours = samples[samples["cipher"] != CONTROL]
    aes = samples[samples["cipher"] == CONTROL].iloc[0]
    rows = []
    for m in MEASURES:
        v = ours[m].astype(float)
        rows.append({"measure": m, "sboxes": int(len(v)), "keys": int(ours["sample"].nunique()),
                     "min": float(v.min()), "median": float(v.median()), "max": float(v.max()),
                     "aes": float(aes[m]),
                     "equal_to_aes": float(np.isclose(v, float(aes[m]), rtol=0, atol=1e-12).mean())})
    return pd.DataFrame(rows)
