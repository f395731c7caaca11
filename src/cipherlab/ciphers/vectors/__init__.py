"""Test vectors shipped as JSON package data, read by one loader.

* ``fips197``: FIPS-197 Appendix C (AES-128/192/256, one block).
* ``sp800_38a``: NIST SP 800-38A Appendix F, ECB/CBC/CTR for all key sizes.
* ``aes_2sbox``, ``maes_1``, ``maes_2``: known answers of the research ciphers
  for every key size, mode and option, multi-block messages; generated once by
  ``tests/make_vectors.py`` from the naive implementation ``tests/naive.py``
  (shares no code with the kernels).  Each case is one message:
  ``new(key, cipher, mode, iv=iv, padding=padding, **options)``.

All hex strings are lower case; a missing ``iv`` is ``None``.
"""
from __future__ import annotations

import json
from importlib import resources

__all__ = ["load", "available"]


def available() -> list[str]:
    """Names of the vector files in this package."""
    return sorted(p.name[:-5] for p in resources.files(__name__).iterdir() if p.name.endswith(".json"))


def load(name: str) -> dict:
    """The parsed JSON of vector file ``name`` (e.g. ``"fips197"``)."""
    names = available()
    if name not in names:
        raise ValueError(f"name must be one of {names}, got {name!r}")
    return json.loads(resources.files(__name__).joinpath(f"{name}.json").read_text())
