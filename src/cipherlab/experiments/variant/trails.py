"""The wide-trail referee: branch numbers, active-S-box bounds by round (MILP), trail bounds and the design margin.

A designer who proposes an AES variant is first asked how many rounds it takes
until no differential or linear trail is useful. This module answers it for
any variant the registry holds, from its S-box and its linear layer:

1. :func:`layer_properties`: the linear layer's differential and linear branch
   numbers (:mod:`cipherlab.ciphers.gfmatrix`; MDS when 5) and invertibility.
   ``mixcolumns`` and ``matrix`` are 4 x 4 matrices; ``none`` and ``xor-iv``
   act on differences and masks as the identity (branch number 2: no diffusion);
   ``byte-map`` is a byte-wise bijection, so byte activity passes through it
   unchanged (branch number 2), and its bytes count with the S-box (see 3).
2. :func:`active_sbox_bound`: the minimum number of active S-boxes over ``R``
   rounds, from the mixed-integer linear program of Mouha, Wang, Gu and Preneel
   (Inscrypt 2011): one binary variable per state byte and round (active or not),
   ShiftRows a relabelling, and per column and round a binary ``d`` with
   ``sum(in) + sum(out) >= B d`` and ``d >= each byte``, ``B`` the branch
   number. Because the layer is invertible, a column with an active input has
   an active output and back (``sum(in) >= d``, ``sum(out) >= d``), which the
   branch number alone implies only when ``B = 5``. Solved with
   :func:`scipy.optimize.milp` (HiGHS), optimal (a status other than optimal is
   an error). The model keeps only byte activity, so its optimum is a **lower
   bound** on the active S-boxes of every trail: AES gives 1, 5, 9, 25 for 1 to 4
   rounds (Daemen and Rijmen's wide-trail bound).
3. :func:`bound_table` and :func:`margin_table`: with ``p`` the S-box's maximum
   differential probability (differential uniformity / 256) and ``c^2`` its
   maximum squared correlation (``((128 - NL) / 128)^2``), a differential trail
   over ``R`` rounds has probability at most ``p^A(R)`` and a linear trail a
   squared correlation at most ``(c^2)^A(R)``. For ``byte-map``, each active
   position meets the S-box and then the byte map, so the per-byte measure is
   the worse of the S-box's and the composite's (the last round has no byte map).
   *Rounds needed* is the first ``R`` with both bounds below ``2^-128``; the
   design **margin** is the variant's own round count minus it. An affine S-box
   (``p = 1``, ``c^2 = 1``) makes every bound 1: the bound then says nothing
   and no round count is enough.

These are bounds on single trails (not on differentials or linear hulls, nor on
other attacks); the battery's real attacks stand beside them.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_matrix

from cipherlab.ciphers.variant_files import variant_byte_maps, variant_linear_layer
from cipherlab.ciphers.gfmatrix import branch_number, gf_inverse_matrix, linear_branch_number
from cipherlab.ciphers.registry import AES_ROUNDS, lookup
from cipherlab.experiments.security.sbox_properties import compose, differential_uniformity, nonlinearity
from cipherlab.experiments.variant.keys import key_samples

__all__ = ["layer_properties", "active_sbox_bound", "sbox_trail_measures", "bound_table", "margin_table",
           "SECURITY_BITS", "LAYER_COLUMNS", "BOUND_COLUMNS", "MARGIN_COLUMNS"]

#: the trail probability (and squared correlation) every bound is compared with: 2^-SECURITY_BITS
SECURITY_BITS = 128
LAYER_COLUMNS = ("cipher", "linear_layer", "matrix", "invertible", "differential_branch_number",
                 "linear_branch_number", "mds")
BOUND_COLUMNS = ("cipher", "rounds", "active_sboxes_differential", "active_sboxes_linear",
                 "log2_differential_trail_bound", "log2_linear_trail_bound", "both_below_2^-128")
MARGIN_COLUMNS = ("cipher", "own_rounds", "differential_uniformity", "nonlinearity", "log2_max_dp", "log2_max_lp",
                  "differential_branch_number", "linear_branch_number", "active_sboxes_4_rounds",
                  "rounds_needed_differential", "rounds_needed_linear", "rounds_needed", "margin_rounds",
                  "bound_meaningful", "note")
#: the rounds searched for the margin when the table's rounds are not enough
MARGIN_SEARCH_ROUNDS = 64


def _matrix_text(m) -> str:
    return "" if m is None else "[" + ", ".join("[" + ", ".join(str(int(v)) for v in row) + "]" for row in m) + "]"


def layer_properties(cipher: str) -> dict:
    """The linear layer of a registered cipher: kind, matrix, invertibility and both branch numbers."""
    kind, m = variant_linear_layer(cipher)
    if m is not None:
        bd, bl, inv = branch_number(m), linear_branch_number(m), gf_inverse_matrix(m) is not None
    else:  # none/xor-iv: the identity on differences and masks; byte-map: a byte-wise bijection
        bd = bl = 2
        inv = True
    return {"cipher": cipher, "linear_layer": kind, "matrix": _matrix_text(m), "invertible": bool(inv),
            "differential_branch_number": int(bd), "linear_branch_number": int(bl), "mds": bool(bd == 5 and bl == 5)}


def _check_rounds(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def active_sbox_bound(rounds: int, branch: int) -> int:
    """The minimum number of active S-boxes over ``rounds`` rounds for an invertible layer of branch number ``branch``.

    Mouha et al.'s MILP (see the module's docstring), solved to optimality by
    HiGHS; cached per ``(rounds, branch)``. ``branch`` must be 2..5.
    """
    rounds = _check_rounds("rounds", rounds)
    if isinstance(branch, bool) or not isinstance(branch, (int, np.integer)) or not 2 <= branch <= 5:
        raise ValueError(f"branch must be an integer in 2..5 (a 4 x 4 layer over bytes), got {branch!r}")
    return _solve(rounds, int(branch))[0]


@lru_cache(maxsize=1024)
def _solve(rounds: int, branch: int, perms: "tuple[tuple[int, ...], ...] | None" = None) -> tuple[int, float]:
    """``(optimum, seconds)`` of the MILP; ``perms[r]`` is the ShiftRows byte permutation of round ``r + 1``
    (``out[i] = in[p[i]]``; None: AES's in every round)."""
    start = time.perf_counter()
    nx = 16 * rounds
    n = nx + 4 * (rounds - 1)
    rows, cols, vals, lower = [], [], [], []

    def constraint(coeffs: dict, lo: float) -> None:
        k = len(lower)
        for var, coef in coeffs.items():
            rows.append(k)
            cols.append(var)
            vals.append(coef)
        lower.append(lo)

    constraint({i: 1 for i in range(16)}, 1)                      # a non-zero input difference
    for r in range(rounds - 1):
        for c in range(4):
            d = nx + 4 * r + c
            # column c after ShiftRows takes row `row` from column c + row (FIPS-197 byte row + 4 column),
            # or from wherever the variant's permutation of round r + 1 takes it
            ins = [16 * r + (row + 4 * ((c + row) % 4) if perms is None else perms[r][row + 4 * c])
                   for row in range(4)]
            outs = [16 * (r + 1) + row + 4 * c for row in range(4)]
            constraint({**{v: 1 for v in ins + outs}, d: -branch}, 0)
            constraint({**{v: 1 for v in ins}, d: -1}, 0)
            constraint({**{v: 1 for v in outs}, d: -1}, 0)
            for v in ins + outs:
                constraint({d: 1, v: -1}, 0)
    a = coo_matrix((vals, (rows, cols)), shape=(len(lower), n)).tocsr()
    res = milp(np.r_[np.ones(nx), np.zeros(n - nx)], constraints=LinearConstraint(a, lower, np.inf),
               integrality=np.ones(n), bounds=Bounds(0, 1))
    if res.status != 0:
        raise RuntimeError(f"the active-S-box MILP for {rounds} rounds, branch number {branch}, "
                           f"did not solve to optimality: {res.message}")
    return int(round(res.fun)), time.perf_counter() - start


#: keys whose S-boxes and ShiftRows stand for a key-dependent variant in the bounds (the weakest of them counts)
TRAIL_KEYS = 4


def _key_samples(cipher: str, n_keys: int = TRAIL_KEYS) -> list[tuple[bytes, dict]]:
    """Seeded keys (and additional key bytes) of a variant whose S-box or ShiftRows depends on the key; else one."""
    desc = getattr(lookup(cipher), "description", None)
    many = desc is not None and desc.custom is None and desc.key_dependent
    return key_samples(cipher, n_keys if many else 1, seed=0)


def sbox_trail_measures(cipher: str, n_keys: int = TRAIL_KEYS) -> dict:
    """Per active byte: differential uniformity, nonlinearity, ``log2`` of max DP and of max squared correlation.

    The S-box's, or for a ``byte-map`` layer the worse of the S-box's and the
    composite's (S-box then byte map); where the S-box changes with the round
    or the key, the worst over every round of ``n_keys`` seeded keys.
    """
    maps = variant_byte_maps(cipher)
    info = lookup(cipher)
    sboxes = [maps["sbox"]]
    if hasattr(info, "round_tables"):
        sboxes = list({s.tobytes(): s for key, opts in _key_samples(cipher, n_keys)
                       for s in info.round_tables(key, **opts)[0]}.values())
    candidates = sboxes + ([compose(maps["linear"], s) for s in sboxes] if "linear" in maps else [])
    du = max(differential_uniformity(s) for s in candidates)
    nl = min(nonlinearity(s) for s in candidates)
    corr = (128 - nl) / 128
    return {"differential_uniformity": int(du), "nonlinearity": int(nl),
            "log2_max_dp": math.log2(du / 256), "log2_max_lp": 2 * math.log2(corr) if corr > 0 else -math.inf}


def _shift_rows(cipher: str, n_keys: int = TRAIL_KEYS) -> "list[tuple[tuple[int, ...], ...]] | None":
    """The variant's ShiftRows permutations by round, one tuple per sampled key; None when they are AES's."""
    info = lookup(cipher)
    desc = getattr(info, "description", None)
    if desc is None or desc.custom is not None or desc.shift_rows.is_aes:
        return None
    out = []
    for key, opts in _key_samples(cipher, n_keys):
        perms = info.round_tables(key, **opts)[1]
        out.append(tuple(tuple(int(v) for v in p) for p in perms))
    return out


def _active(rounds: int, branch: int, perms) -> tuple[int, float]:
    """The MILP's optimum over ``rounds`` for the weakest sampled ShiftRows, and the seconds it took."""
    if perms is None:
        return _solve(rounds, branch)
    fixed = all(len(set(p)) == 1 for p in perms)   # one permutation for every round: any round count
    results = [_solve(rounds, branch, (p[0],) * rounds if fixed else p[:rounds]) for p in perms]
    return min(r[0] for r in results), sum(r[1] for r in results)


def _own_rounds(cipher: str) -> int:
    info = lookup(cipher)
    desc = getattr(info, "description", None)
    own = desc.rounds if desc is not None else None
    return int(own or AES_ROUNDS[info.key_sizes[0]])


def _bounds(cipher: str, rounds: int, n_keys: int = TRAIL_KEYS) -> tuple[dict, dict, float]:
    props, sb, perms = layer_properties(cipher), _measures(cipher, n_keys), _shift_rows_cached(cipher, n_keys)
    d = _active(rounds, props["differential_branch_number"], perms)
    lin = _active(rounds, props["linear_branch_number"], perms)
    return ({"active_sboxes_differential": d[0], "active_sboxes_linear": lin[0],
             "log2_differential_trail_bound": d[0] * sb["log2_max_dp"] + 0.0,
             "log2_linear_trail_bound": lin[0] * sb["log2_max_lp"] + 0.0}, sb,
            d[1] + (lin[1] if lin is not d else 0.0))


def bound_table(cipher: str, max_rounds: int = 10, n_keys: int = TRAIL_KEYS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(bounds, times)``: per round count ``1..max_rounds`` the active-S-box bounds and trail bounds.

    ``times`` (a timing table, not byte-identical run to run) holds the MILP's
    seconds per round count: the time HiGHS took when the model was first solved
    in this process (the differential and the linear model, once if their branch
    numbers agree; solutions are cached per round count and branch number).
    """
    max_rounds = min(_check_rounds("max_rounds", max_rounds), _search_limit(cipher, n_keys))
    rows, times = [], []
    for r in range(1, max_rounds + 1):
        b, _, seconds = _bounds(cipher, r, n_keys)
        times.append({"cipher": cipher, "rounds": r, "milp_seconds": seconds})
        rows.append({"cipher": cipher, "rounds": r, **b,
                     "both_below_2^-128": bool(max(b["log2_differential_trail_bound"],
                                                   b["log2_linear_trail_bound"]) < -SECURITY_BITS)})
    return pd.DataFrame(rows)[list(BOUND_COLUMNS)], pd.DataFrame(times)


def _measures(cipher: str, n_keys: int = TRAIL_KEYS) -> dict:
    return _cached(sbox_trail_measures, cipher, id(lookup(cipher)), n_keys)


def _shift_rows_cached(cipher: str, n_keys: int = TRAIL_KEYS):
    return _cached(_shift_rows, cipher, id(lookup(cipher)), n_keys)


@lru_cache(maxsize=128)
def _cached(fn, cipher: str, entry: int, n_keys: int):
    """``fn(cipher, n_keys)``, once per registry entry (a name registered anew is measured anew)."""
    return fn(cipher, n_keys)


def _search_limit(cipher: str, n_keys: int = TRAIL_KEYS) -> int:
    """How far the margin search may go: any round count, unless ShiftRows is derived per round from the key
    (its permutations exist for the cipher's own rounds only)."""
    perms = _shift_rows_cached(cipher, n_keys)
    if perms is not None and not all(len(set(p)) == 1 for p in perms):
        return min(MARGIN_SEARCH_ROUNDS, _own_rounds(cipher))
    return MARGIN_SEARCH_ROUNDS


def _rounds_needed(cipher: str, key: str, limit: int, n_keys: int = TRAIL_KEYS) -> "int | None":
    for r in range(1, limit + 1):
        if _bounds(cipher, r, n_keys)[0][key] < -SECURITY_BITS:
            return r
    return None


def margin_table(cipher: str, n_keys: int = TRAIL_KEYS) -> pd.DataFrame:
    """One row: the rounds after which both trail bounds are below ``2^-128`` and the margin to the own round count.

    The search runs to :data:`MARGIN_SEARCH_ROUNDS` rounds; an affine S-box
    (``bound_meaningful`` false) is not searched: no round count is enough.
    """
    props, sb = layer_properties(cipher), _measures(cipher, n_keys)
    own = _own_rounds(cipher)
    limit = _search_limit(cipher, n_keys)
    meaningful = sb["log2_max_dp"] < 0 and sb["log2_max_lp"] < 0
    need_d = need_l = None
    if meaningful:
        need_d = _rounds_needed(cipher, "log2_differential_trail_bound", limit, n_keys)
        need_l = _rounds_needed(cipher, "log2_linear_trail_bound", limit, n_keys)
    need = max(need_d, need_l) if need_d is not None and need_l is not None else None
    if not meaningful:
        note = ("the S-box is affine (differential uniformity 256, nonlinearity 0): every trail has probability 1, "
                "so counting active S-boxes bounds nothing")
    elif need is None:
        note = f"not below 2^-{SECURITY_BITS} within {limit} rounds"
    else:
        note = f"both trail bounds below 2^-{SECURITY_BITS} from {need} rounds on; {own} rounds leave {own - need}"
    row = {"cipher": cipher, "own_rounds": own, **sb,
           "differential_branch_number": props["differential_branch_number"],
           "linear_branch_number": props["linear_branch_number"],
           "active_sboxes_4_rounds": _bounds(cipher, 4, n_keys)[0]["active_sboxes_differential"],
           "rounds_needed_differential": need_d, "rounds_needed_linear": need_l, "rounds_needed": need,
           "margin_rounds": None if need is None else own - need, "bound_meaningful": bool(meaningful), "note": note}
    df = pd.DataFrame([row])[list(MARGIN_COLUMNS)]
    for col in ("rounds_needed_differential", "rounds_needed_linear", "rounds_needed", "margin_rounds"):
        df[col] = df[col].astype("Int64")
    return df

