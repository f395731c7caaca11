"""The byte maps of a variant (its S-box, and the linear layer's byte map if any), measured.

The measures are the security chapter's
(:mod:`cipherlab.experiments.security.sbox_properties`); this module adds
:func:`is_affine` and puts each map beside Rijndael's S-box, the control.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.ciphers.variant_files import variant_byte_maps
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security.sbox_properties import PARITY, as_sbox, sbox_properties

#: the name of the control row (Rijndael's S-box) in the byte-map and S-box tables
CONTROL = "rijndael (AES)"
#: the columns of :func:`byte_map_table`, in order
COLUMNS = ("map", "bijective", "affine", "affine_components", "nonlinearity", "differential_uniformity", "algebraic_degree",
           "max_lat_abs", "max_linear_bias", "fixed_points", "opposite_fixed_points", "sac_max_deviation")


def is_affine(sbox) -> bool:
    """True when ``x -> S[x] ^ S[0]`` is linear over GF(2): ``S[x ^ y] ^ S[0] == S[x] ^ S[y]`` for all x, y.

    A linear map is fixed by its values on the eight unit vectors, so the
    check compares ``S[x] ^ S[0]`` with the XOR of those values over the bits
    of ``x``, for all 256 inputs.
    """
    s = as_sbox(sbox)
    columns = s[1 << np.arange(8)] ^ s[0]                 # image of each unit vector
    bits = (np.arange(256)[:, None] >> np.arange(8)) & 1   # bits[x, i]
    linear = np.bitwise_xor.reduce(np.where(bits == 1, columns[None, :], 0), axis=1)
    return bool(np.array_equal(s ^ s[0], linear))


def byte_maps(cipher: str) -> dict[str, np.ndarray]:
    """``{"sbox": uint8[256]}`` plus ``"linear"`` when the linear layer is a byte map (a registered cipher)."""
    return variant_byte_maps(cipher)


def byte_map_table(maps: "dict[str, np.ndarray]", *, control: bool = True) -> pd.DataFrame:
    """One row per byte map: every measure of :func:`sbox_properties` and :func:`is_affine`.

    ``control`` adds Rijndael's S-box as the row ``"rijndael (AES)"``.
    """
    named = dict(maps)
    if control:
        named[CONTROL] = rijndael_sbox()
    rows = [{"map": name, "affine": is_affine(s), "affine_components": affine_components(s), **sbox_properties(s)} for name, s in named.items()]
    return pd.DataFrame(rows)[list(COLUMNS)]


def affine_components(sbox) -> int:
    """Number of non-zero linear combinations of output bits that are affine in the input (0 for a good S-box).

    Equals ``255`` exactly when the map is affine; counts the components
    ``b . S(x)`` whose Walsh spectrum has a value of magnitude 256.
    """
    s = as_sbox(sbox)
    x = np.arange(256)
    comps = PARITY[np.arange(1, 256)[:, None] & s[None, :]].astype(np.int64)  # [b, x]
    signs = 1 - 2 * comps
    # correlation with every linear function a.x
    lin = 1 - 2 * PARITY[x[:, None] & x[None, :]].astype(np.int64)         # [a, x]
    corr = np.abs(signs @ lin.T)
    return int((corr.max(axis=1) == 256).sum())
