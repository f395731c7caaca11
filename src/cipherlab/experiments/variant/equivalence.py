"""Is the variant AES in disguise? Structural equivalence to AES, decided from the structure, confirmed by encrypting.

The strongest finding a referee can give a paper whose cipher is AES with a
cosmetic change: it *is* AES, or AES under a transformation of its round keys,
so every property of the whole cipher that does not rest on the key schedule is AES's, and no claimed
improvement in one can be real (a property of the S-box table alone, such as its fixed points, can differ).

**Decided from the structure.** Round ``r`` of a variant applies its S-box
``S_r``, its ShiftRows permutation ``P_r``, its linear layer and its round key.
When the linear layer is AES's MixColumns, every ``P_r`` is AES's ShiftRows and
every ``S_r`` is Rijndael's S-box up to an XOR on its input, its output or both,
``S_r(x) = S(x ^ d_r) ^ c_r``, the XORs move into the round keys:

- ``c_r`` is added to every byte after SubBytes; ShiftRows carries a constant
  state to itself and so does MixColumns, since each row of its matrix
  ``(2, 3, 1, 1)`` sums to 1 in GF(2^8) (a column ``(c, c, c, c)`` maps to
  itself); so ``c_r`` joins round key ``r`` (the last round has no MixColumns,
  and ShiftRows alone keeps the constant);
- ``d_r`` is added to every byte before SubBytes of round ``r``: it joins
  round key ``r - 1``.

So the variant is AES with the round keys ``k'_0 = k_0 ^ d_1``,
``k'_r = k_r ^ c_r ^ d_(r+1)`` and ``k'_R = k_R ^ c_R`` (each constant
repeated in all 16 bytes): *AES* when every constant is 0, else *AES with
transformed round keys*, whose transformation depends on the key when the
constants do (a key-derived S-box).  Fewer rounds than AES's Nr make it
round-reduced AES.  Anything else (another linear layer or ShiftRows, an S-box
that is not Rijndael's up to those XORs) is not recognised: "none found".

**Confirmed by encrypting.** For seeded keys (and additional key bytes), the
variant's encryption of seeded blocks is compared with AES's rounds run with
the transformed round keys (:func:`cipherlab.ciphers.variant_files.encrypt_with_round_keys`);
the table counts the blocks that agree.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from cipherlab.ciphers.variant_files import encrypt_with_round_keys, variant_linear_layer
from cipherlab.ciphers.keyed import AES_SHIFT_ROWS
from cipherlab.ciphers.registry import AES_ROUNDS, lookup
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security.quiet import new_quiet

__all__ = ["translation", "structure_of_key", "equivalence_table", "short_transformation", "COLUMNS", "AES_NAME", "DISGUISED", "NONE_FOUND"]

AES_NAME = "AES"
DISGUISED = "AES with transformed round keys"
NONE_FOUND = "none found"
COLUMNS = ("cipher", "equivalent_to", "rounds", "aes_rounds", "key_sizes", "transformation", "key_dependent",
           "sbox_xor", "decided_from", "keys_confirmed", "blocks_confirmed", "blocks_equal", "confirmed")
_S = rijndael_sbox().astype(np.int64)


def translation(sbox) -> "tuple[int, int] | None":
    """``(d, c)`` with ``sbox[x] == S(x ^ d) ^ c`` for every ``x`` (``S`` Rijndael's), or None.

    Tries every ``d``; ``c`` then follows from ``x = 0``. The smallest ``d`` that
    works is returned (Rijndael's S-box has one for each table it matches).
    """
    s = np.asarray(sbox, dtype=np.int64)
    x = np.arange(256)
    for d in range(256):
        c = int(s[0] ^ _S[d])
        if np.array_equal(s, _S[x ^ d] ^ c):
            return d, c
    return None


def structure_of_key(cipher: str, key: bytes, **options) -> dict:
    """The structural decision for one key: the constants ``(d_r, c_r)`` of each round, or why there are none.

    ``{"ok": bool, "reason": str, "d": [d_1..d_R], "c": [c_1..c_R], "rounds": R}``.
    """
    info = lookup(cipher)
    kind, _ = variant_linear_layer(cipher)
    sboxes, perms = info.round_tables(key, **options) if hasattr(info, "round_tables") else _aes_tables(info, key)
    rounds = sboxes.shape[0]
    out = {"ok": False, "reason": "", "d": [], "c": [], "rounds": rounds}
    if kind != "mixcolumns":
        out["reason"] = f"its linear layer is {kind}, not AES's MixColumns"
        return out
    bad = [r + 1 for r in range(rounds) if tuple(int(v) for v in perms[r]) != AES_SHIFT_ROWS]
    if bad:
        out["reason"] = f"its ShiftRows is not AES's in round(s) {_rounds_text(bad)}"
        return out
    for r in range(rounds):
        t = translation(sboxes[r])
        if t is None:
            out["reason"] = (f"the S-box of round {r + 1} is not Rijndael's up to an XOR on its input and its output"
                             if rounds > 1 else "its S-box is not Rijndael's up to an XOR on its input and its output")
            return out
        out["d"].append(t[0])
        out["c"].append(t[1])
    out["ok"] = True
    return out


def _aes_tables(info, key):
    spec = info.make(bytes(key), info.check_options({}, len(key)))
    rounds = spec.round_keys.shape[0] - 1
    return (np.broadcast_to(rijndael_sbox(), (rounds, 256)).copy(),
            np.broadcast_to(np.array(AES_SHIFT_ROWS, dtype=np.uint8), (rounds, 16)).copy())


def _rounds_text(rounds: list[int]) -> str:
    """Every round named, consecutive ones as a range: ``1-10`` or ``2, 4, 6-9`` (nothing left out)."""
    runs: list[list[int]] = []
    for r in rounds:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return ", ".join(str(g[0]) if len(g) == 1 else f"{g[0]}-{g[-1]}" for g in runs)


def transformed_round_keys(round_keys: np.ndarray, d: list[int], c: list[int]) -> np.ndarray:
    """AES's round keys ``k_0 .. k_R`` with the constants moved in: ``k'_(r-1) ^= d_r``, ``k'_r ^= c_r``."""
    out = np.array(round_keys, dtype=np.uint8, copy=True)
    for r in range(1, out.shape[0]):
        out[r - 1] ^= np.uint8(d[r - 1])
        out[r] ^= np.uint8(c[r - 1])
    return out


def _transformation_text(d_all: list[list[int]], c_all: list[list[int]], key_dependent: bool,
                         additional: bool = False) -> str:
    """The round-key transformation in words, from the constants of the keys decided. ``additional``: the variant
    has an additional key byte (drawn with each key) and c is exactly that byte, not a function of the AES key."""
    d, c = d_all[0], c_all[0]
    lengths = sorted({len(cs) for cs in c_all})
    rounds = lengths[0] if len(lengths) == 1 else "R (R = " + ", ".join(str(n) for n in lengths) + " by key size)"
    output_only = not any(v for ds in d_all for v in ds) and all(len(set(cs)) == 1 for cs in c_all)
    if output_only and not key_dependent:
        return f"k'_0 = k_0, and k'_r = k_r ^ 0x{c[0]:02X} in every byte for r = 1..{rounds}"
    if output_only:
        seen = ", ".join(f"0x{cs[0]:02X}" for cs in c_all)
        if additional:
            return (f"k'_0 = k_0, and k'_r = k_r ^ c in every byte for r = 1..{rounds}, with c the additional key "
                    f"byte itself (the byte drawn with each key decided: c = {seen})")
        return (f"k'_0 = k_0, and k'_r = k_r ^ c in every byte for r = 1..{rounds}, with a byte c that depends on the "
                f"key (the keys decided: c = {seen})")
    text = ("k'_(r-1) = k_(r-1) ^ d_r and k'_r = k_r ^ c_r in every byte, d = " + _bytes_text(d) + ", c = "
            + _bytes_text(c))
    return text + (" for the first key decided; the constants depend on the key" if key_dependent else "")


def _bytes_text(values: list[int]) -> str:
    return "(" + ", ".join(f"0x{v:02X}" for v in values) + ")"


def _samples(cipher: str, n_keys: int, seed: int):
    """Seeded ``(key, options)`` pairs, ``n_keys`` for each key size the variant has, and a drawn additional key byte
    where the variant has one."""
    info = lookup(cipher)
    rng = np.random.default_rng(seed)
    out = []
    for size in info.key_sizes:
        for _ in range(n_keys):
            key = rng.integers(0, 256, size, dtype=np.uint8).tobytes()
            opts = {"additional_key": int(rng.integers(256))} if "additional_key" in info.options else {}
            out.append((key, opts))
    return out


def xor_sides(d_all: list[list[int]], c_all: list[list[int]]) -> str:
    """Where the decided S-boxes carry their XOR: "its output", "its input", "its input and output", or "" (none)."""
    on_input = any(v for ds in d_all for v in ds)
    on_output = any(v for cs in c_all for v in cs)
    return ("its input and output" if on_input and on_output else "its input" if on_input else
            "its output" if on_output else "")


def equivalence_table(cipher: str, *, n_keys: int = 4, n_blocks: int = 64, seed: int = 0) -> pd.DataFrame:
    """One row: what the variant is equivalent to (see the module's docstring), decided and confirmed for ``n_keys``
    keys of every key size the variant has (``rounds`` and ``aes_rounds``: one number per key size, in the order of
    ``key_sizes``, e.g. ``"10, 12, 14"``)."""
    info = lookup(cipher)
    samples = _samples(cipher, n_keys, seed)
    decided = [structure_of_key(cipher, key, **opts) for key, opts in samples]
    sizes = ", ".join(str(k) for k in info.key_sizes) + " B"
    own = {len(k): int(d["rounds"]) for d, (k, _) in zip(decided, samples)}   # every size has its own rounds
    row = {"cipher": cipher, "rounds": ", ".join(str(own[k]) for k in info.key_sizes),
           "aes_rounds": ", ".join(str(AES_ROUNDS[k]) for k in info.key_sizes),
           "key_sizes": sizes, "keys_confirmed": 0, "blocks_confirmed": 0, "blocks_equal": 0, "confirmed": False,
           "key_dependent": False, "transformation": "", "sbox_xor": ""}
    failed = next((d for d in decided if not d["ok"]), None)
    if failed is not None:
        return pd.DataFrame([{**row, "equivalent_to": NONE_FOUND, "decided_from": failed["reason"]}])[list(COLUMNS)]
    ds, cs = [d["d"] for d in decided], [d["c"] for d in decided]
    key_dependent = _differ(ds) or _differ(cs)
    trivial = not key_dependent and not any(v for x in ds + cs for v in x)
    rng = np.random.default_rng(seed + 1)
    equal = total = 0
    for (key, opts), d in zip(samples, decided):
        blocks = rng.integers(0, 256, (n_blocks, 16), dtype=np.uint8)
        ours = np.frombuffer(new_quiet(key, cipher, "ecb", impl=_style(info), **opts).encrypt(blocks.tobytes()),
                             dtype=np.uint8).reshape(-1, 16)
        round_keys = lookup("aes").make(key, None).round_keys[: int(d["rounds"]) + 1]
        aes = encrypt_with_round_keys(transformed_round_keys(round_keys, d["d"], d["c"]), blocks)
        equal += int((ours == aes).all(axis=1).sum())
        total += n_blocks
    reduced = sorted({(int(d["rounds"]), AES_ROUNDS[len(k)]) for d, (k, _) in zip(decided, samples)
                      if int(d["rounds"]) < AES_ROUNDS[len(k)]})
    what = (AES_NAME if trivial else DISGUISED) + (
        " reduced to " + ", ".join(f"{own} of its {nr} rounds" for own, nr in reduced) if reduced else "")
    sides = xor_sides(ds, cs)
    reason = ("the linear layer is MixColumns, every round's ShiftRows is AES's and every round's S-box is "
              "Rijndael's" + ("" if trivial else f" up to an XOR on {sides}, which ShiftRows and "
                              "MixColumns (each row of its matrix sums to 1) carry into the round keys"))
    return pd.DataFrame([{**row, "equivalent_to": what, "decided_from": reason, "sbox_xor": sides,
                          "transformation": "" if trivial else _transformation_text(
                              ds, cs, key_dependent, additional=_is_additional_byte(samples, cs)),
                          "key_dependent": bool(key_dependent), "keys_confirmed": len(samples),
                          "blocks_confirmed": total, "blocks_equal": equal,
                          "confirmed": bool(equal == total)}])[list(COLUMNS)]


def short_transformation(text: str) -> str:
    """A transformation of :func:`equivalence_table` without its list of the additional bytes decided (the table
    gives the list once; every other text names the transformation without repeating it)."""
    return re.sub(r" \(the byte drawn with each key decided: c = [^)]*\)", "", str(text))


def _differ(values: list[list[int]]) -> bool:
    """Whether the per-round constants differ between the keys decided (over the rounds every key size has)."""
    m = min(len(v) for v in values)
    return any(v[:m] != values[0][:m] for v in values)


def _is_additional_byte(samples: list, cs: list[list[int]]) -> bool:
    """Whether every key's constant c is, in every round, exactly the additional key byte drawn with that key."""
    return all("additional_key" in opts and set(c) == {opts["additional_key"]} for (_, opts), c in zip(samples, cs))


def _style(info) -> str:
    return "table" if "table" in info.styles else "reference"
