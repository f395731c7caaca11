"""The integral (square) property by round, and the square attack on the last round.

A *Λ-set* is 256 plaintexts that take every value in one byte (the active
byte, here byte 0) and agree on the other fifteen.  For AES the XOR of the 256
states is zero in every byte after three rounds (Daemen, Knudsen and Rijmen,
"The block cipher Square", FSE 1997); the argument needs only that SubBytes
is a permutation, so it holds for every variant with AES's round shape,
whatever its S-box.  A cipher is *balanced after r rounds* here when every
byte of the r-round ciphertexts XORs to zero over each of ``n_sets`` seeded
Λ-sets (a random cipher passes one set with probability 2^-128).

**The square attack.**  When a cipher of ``Nr`` rounds is balanced after
``Nr - 1`` and its last round is AES's (SubBytes, ShiftRows, AddRoundKey: no
linear layer), each byte ``j`` of the last round key is found alone: for the
right guess ``k``, ``XOR_t S^-1(c_t[j] ^ k) = 0`` over every Λ-set; a wrong
guess survives one set with probability 1/256.  The last round key then gives
the AES-128 key by running the key schedule backwards
(:func:`cipherlab.ciphers.aes.key_from_round_key`; every described variant
keeps AES's schedule).  The attack queries ``256 * n_sets`` chosen plaintexts,
checks the key on one more block, and decrypts the target with it.

When the S-box is affine the right and wrong guesses cannot be told apart (every
guess survives); the attack then reports the candidates it is left with and
recovers nothing, which the table says.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.ciphers.aes import AES, key_from_round_key
from cipherlab.ciphers.variant_files import VariantInfo
from cipherlab.ciphers.registry import lookup
from cipherlab.experiments.security.quiet import BLOCK, new_quiet

from cipherlab.experiments.variant.affinity import cipher_oracle
from cipherlab.experiments.variant.bytemaps import byte_maps

#: The linear layers whose cipher ends with AES's last round (SubBytes, ShiftRows, AddRoundKey): the last round
#: has no linear layer, whichever matrix the other rounds use.
AES_LAST_ROUND = ("mixcolumns", "none", "matrix")
COLUMNS = ("cipher", "mode", "target", "ran", "reason", "rounds", "lambda_sets", "queries",
           "key_candidates_log2", "key_recovered", "bytes", "bytes_recovered", "match_fraction", "exact")


def _check_sets(n_sets) -> int:
    if isinstance(n_sets, bool) or not isinstance(n_sets, (int, np.integer)) or n_sets < 1:
        raise ValueError(f"n_sets must be a positive integer, got {n_sets!r}")
    return int(n_sets)


def lambda_sets(n_sets: int, seed: int = 0) -> np.ndarray:
    """``uint8[n_sets * 256, 16]``: Λ-set ``s`` is rows ``256 s .. 256 s + 255``, byte 0 active."""
    n_sets = _check_sets(n_sets)
    rng = np.random.default_rng(seed)
    blocks = np.repeat(rng.integers(0, 256, (n_sets, 1, BLOCK), dtype=np.uint8), 256, axis=1)
    blocks[:, :, 0] = np.arange(256, dtype=np.uint8)
    return blocks.reshape(-1, BLOCK)


def byte_sums(ciphertexts, n_sets: int) -> np.ndarray:
    """``uint8[n_sets, 16]``: the XOR of each byte over each Λ-set's 256 ciphertexts."""
    c = np.asarray(ciphertexts, dtype=np.uint8).reshape(_check_sets(n_sets), 256, BLOCK)
    return np.bitwise_xor.reduce(c, axis=1)


def is_balanced(encrypt_blocks, *, n_sets: int = 2, seed: int = 0) -> bool:
    """True when every ciphertext byte XORs to zero over each of ``n_sets`` seeded Λ-sets."""
    return not byte_sums(encrypt_blocks(lambda_sets(n_sets, seed)), n_sets).any()


def last_round_key_candidates(ciphertexts, inverse_sbox, n_sets: int) -> list[np.ndarray]:
    """Per byte position, the last-round key bytes ``k`` with ``XOR S^-1(c ^ k) == 0`` over every Λ-set."""
    c = np.asarray(ciphertexts, dtype=np.uint8).reshape(_check_sets(n_sets), 256, BLOCK)
    inv = np.asarray(inverse_sbox, dtype=np.uint8)
    guesses = np.arange(256, dtype=np.uint8)
    out = []
    for j in range(BLOCK):
        # [guess, set, text] -> XOR over the texts of each set
        sums = np.bitwise_xor.reduce(inv[c[None, :, :, j] ^ guesses[:, None, None]], axis=2)
        out.append(guesses[~sums.any(axis=1)])
    return out


def _ends_with_aes_last_round(info) -> bool:
    """AES itself, or a description whose linear layer leaves AES's last round as it is."""
    if isinstance(info, VariantInfo) and info.description is not None:
        return info.description.custom is None and info.description.linear in AES_LAST_ROUND
    return info.build is AES


def applicability(cipher: str, rounds_table: pd.DataFrame) -> "str | None":
    """None when the square attack applies to ``cipher``, else the reason it does not."""
    info = lookup(cipher)
    nr = int(rounds_table["rounds"].max())
    if not _ends_with_aes_last_round(info):
        return "the last round is not known to be AES's (SubBytes, ShiftRows, AddRoundKey)"
    if nr < 2:
        return "one round: no round before the last to be balanced"
    # the balance first: it is what the attack needs, and what the full-round cipher lacks, whatever its S-box
    balanced = rounds_table.set_index("rounds")["balanced"].astype(bool)
    if not bool(balanced.get(nr - 1, False)):
        held = [int(r) for r, b in balanced.items() if b]
        last = max(held) if held else 0
        return (f"not balanced after {nr - 1} of {nr} rounds (balanced through round {last} only): the attack needs "
                f"a balanced state after round {nr - 1}")
    desc = getattr(info, "description", None)
    if desc is not None and desc.sbox_plan is not None and desc.sbox_plan.key_dependent:
        return "its last round's S-box depends on the key: the attack inverts a known S-box"
    if 16 not in info.key_sizes:
        return "the key schedule is run backwards for AES-128 keys only"
    return None


def square_attack_table(cipher: str, targets: dict, rounds_table: pd.DataFrame, *, n_sets: int = 3,
                        seed: int = 0) -> tuple[pd.DataFrame, dict, dict]:
    """Run the square attack on ``cipher`` where :func:`applicability` allows; a row saying why not otherwise.

    The victim encrypts each target (ECB, PKCS#7) under a seeded AES-128 key;
    the attacker has the ciphertexts and a chosen-plaintext oracle under that key.

    Returns ``(table, recovered, ciphertexts)``: one row per target (columns
    :data:`COLUMNS`), and ``(mode, target) -> uint8 array`` for the recovered
    plaintexts and the attacked ciphertexts.
    """
    n_sets = _check_sets(n_sets)
    nr = int(rounds_table["rounds"].max())
    why_not = applicability(cipher, rounds_table)
    rows, recovered, attacked = [], {}, {}
    base = {"cipher": cipher, "mode": "ecb", "rounds": nr, "lambda_sets": n_sets}
    if why_not is not None:
        for name, data in targets.items():
            rows.append({**base, "target": name, "ran": False, "reason": why_not, "queries": 0,
                         "key_candidates_log2": float("nan"), "key_recovered": False, "bytes": int(np.asarray(data).size),
                         "bytes_recovered": 0, "match_fraction": 0.0, "exact": False})
        return pd.DataFrame(rows, columns=list(COLUMNS)), recovered, attacked
    rng = np.random.default_rng(seed)
    key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
    oracle = cipher_oracle(cipher, key)
    cts = oracle(lambda_sets(n_sets, seed + 1))
    info = lookup(cipher)   # the last round's S-box (a variant's may change by round)
    sbox = info.round_tables(key)[0][-1] if hasattr(info, "round_tables") else byte_maps(cipher)["sbox"]
    candidates = last_round_key_candidates(cts, np.argsort(sbox).astype(np.uint8), n_sets)
    sizes = [len(c) for c in candidates]
    found = None
    if sizes == [1] * BLOCK:
        guess = key_from_round_key(bytes(int(c[0]) for c in candidates), nr)
        check = rng.integers(0, 256, (1, BLOCK), dtype=np.uint8)
        mine = np.asarray(new_quiet(guess, cipher, "ecb").encrypt(check.reshape(-1)), dtype=np.uint8)
        if np.array_equal(oracle(check).reshape(-1), mine):
            found = guess
    # the number of last-round keys that fit, as log2 (an affine S-box leaves all 2^128)
    log2 = float(sum(np.log2(n) for n in sizes)) if min(sizes) else float("nan")
    reason = ("key recovered" if found is not None else
              "no last-round key fits every Λ-set" if not min(sizes) else
              f"2^{log2:.0f} last-round keys fit every Λ-set" if log2 > 0 else
              "the one last-round key that fits does not give the key")
    for name, data in targets.items():
        plain = np.ascontiguousarray(np.asarray(data, dtype=np.uint8).reshape(-1))
        ct = np.asarray(new_quiet(key, cipher, "ecb", padding=True).encrypt(plain), dtype=np.uint8)
        attacked[("ecb", name)] = ct
        got = (np.asarray(new_quiet(found, cipher, "ecb", padding=True).decrypt(ct), dtype=np.uint8)
               if found is not None else np.zeros_like(plain))
        recovered[("ecb", name)] = got
        match = int((got == plain).sum()) if found is not None and got.size == plain.size else 0
        rows.append({**base, "target": name, "ran": True, "reason": reason, "queries": oracle.queries,
                     "key_candidates_log2": log2, "key_recovered": found is not None,
                     "bytes": int(plain.size), "bytes_recovered": match,
                     "match_fraction": match / plain.size if plain.size else 1.0,
                     "exact": found is not None and match == plain.size})
    return pd.DataFrame(rows, columns=list(COLUMNS)), recovered, attacked
