"""Naive pure-Python implementations the tests (and the frozen vectors) check against.

Written byte by byte from the specifications (FIPS-197; papers 000/001 for
AES-2SBox, 002 for MAES; SP 800-38A for the modes; PKCS#7) and sharing **no
code** with ``cipherlab``: agreement is evidence, not tautology.  Slow on
purpose: clarity over speed.  ``tests/make_vectors.py`` generates the frozen
known-answer files in ``src/cipherlab/ciphers/vectors/`` from this module.

Also the loop-by-loop references of the S-box property tests (DDT, LAT,
algebraic degree), checked against the vectorised versions in
``cipherlab.experiments.security``.
"""
from __future__ import annotations

import hashlib
import math

# -- GF(2^8) ------------------------------------------------------------------


def gf_mul(a: int, b: int) -> int:
    """Multiply in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (0x11B), shift and add."""
    p = 0
    while b:
        if b & 1:
            p ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11B
        b >>= 1
    return p


def gf_inverse(a: int) -> int:
    """Multiplicative inverse by exhaustive search (0 maps to 0)."""
    if a == 0:
        return 0
    return next(b for b in range(1, 256) if gf_mul(a, b) == 1)


# -- S-boxes and the block ciphers ----------------------------------------------


def _bit(x, i):
    return (x >> (i % 8)) & 1


def _affine(b: int) -> int:
    out = 0
    for i in range(8):
        v = _bit(b, i) ^ _bit(b, i + 4) ^ _bit(b, i + 5) ^ _bit(b, i + 6) ^ _bit(b, i + 7) ^ _bit(0x63, i)
        out |= v << i
    return out


def _inv_affine(b: int) -> int:
    out = 0
    for i in range(8):
        v = _bit(b, i + 2) ^ _bit(b, i + 5) ^ _bit(b, i + 7) ^ _bit(0x05, i)
        out |= v << i
    return out


SBOX = [_affine(gf_inverse(x)) for x in range(256)]
INV_SBOX = [0] * 256
for _x in range(256):
    INV_SBOX[SBOX[_x]] = _x


def second_sbox(xor_byte=0x7F, construction="xor-index"):
    """Second S-box per papers 000/001, both readings, and its inverse."""
    fwd = [_affine((x if construction == "xor-index" else SBOX[x]) ^ xor_byte) for x in range(256)]
    inv = [0] * 256
    for x in range(256):
        inv[fwd[x]] = x
    return fwd, inv


NR = {16: 10, 24: 12, 32: 14}


def key_words(key: bytes, n_words: int) -> list[list[int]]:
    nk = len(key) // 4
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rcon = 1
    for i in range(nk, n_words):
        t = list(w[i - 1])
        if i % nk == 0:
            t = t[1:] + t[:1]
            t = [SBOX[b] for b in t]
            t[0] ^= rcon
            rcon = gf_mul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return w


def round_keys(key: bytes) -> list[list[int]]:
    nr = NR[len(key)]
    w = key_words(key, 4 * (nr + 1))
    return [sum(w[4 * r:4 * r + 4], []) for r in range(nr + 1)]


def _shift_rows(s, inverse=False):
    out = [0] * 16
    for r in range(4):
        for c in range(4):
            src = (c - r) % 4 if inverse else (c + r) % 4
            out[r + 4 * c] = s[r + 4 * src]
    return out


def _mix_columns(s, m=((2, 3, 1, 1), (1, 2, 3, 1), (1, 1, 2, 3), (3, 1, 1, 2))):
    out = [0] * 16
    for c in range(4):
        col = s[4 * c:4 * c + 4]
        for r in range(4):
            v = 0
            for k in range(4):
                v ^= gf_mul(m[r][k], col[k])
            out[r + 4 * c] = v
    return out


_INV_M = ((14, 11, 13, 9), (9, 14, 11, 13), (13, 9, 14, 11), (11, 13, 9, 14))


def maes_ivs(key: bytes, approach: int, iv_source="sha3", sha3="sha3_256", sha3_chain="iv"):
    nr = NR[len(key)]
    n = 1 if approach == 1 else nr
    if iv_source == "sha3":
        out, chain = [], key
        for _ in range(n):
            d = getattr(hashlib, sha3)(chain).digest()
            out.append(list(d[:16]))
            chain = d[:16] if sha3_chain == "iv" else d
        return out
    w = key_words(key, 4 * (nr + 1 + n))[4 * (nr + 1):]
    return [sum(w[4 * i:4 * i + 4], []) for i in range(n)]


#: The MAES names that fix the approach; plain "maes" takes it as an option (default 2).
MAES_APPROACH = {"maes-1": 1, "maes-2": 2}


def _middle(cipher, key, xor_byte, construction, approach_ivs):
    """The step that replaces MixColumns, as (forward, inverse) per round number."""
    if cipher == "aes":
        return (lambda s, r: _mix_columns(s)), (lambda s, r: _mix_columns(s, _INV_M))
    if cipher == "aes-2sbox":
        f, g = second_sbox(xor_byte, construction)
        return (lambda s, r: [f[b] for b in s]), (lambda s, r: [g[b] for b in s])
    ivs = approach_ivs

    def xor_iv(s, r):
        iv = ivs[0] if len(ivs) == 1 else ivs[r - 1]
        return [a ^ b for a, b in zip(s, iv)]
    return xor_iv, xor_iv


def encrypt_block(key: bytes, block: bytes, cipher="aes", rounds=None, xor_byte=0x7F,
                  construction="xor-index", iv_source="sha3", sha3="sha3_256", sha3_chain="iv", approach=2) -> bytes:
    ivs = (maes_ivs(key, MAES_APPROACH.get(cipher, approach), iv_source, sha3, sha3_chain)
           if cipher in ("maes",) + tuple(MAES_APPROACH) else None)
    fwd, _ = _middle(cipher, key, xor_byte, construction, ivs)
    rk = round_keys(key)
    R = rounds or NR[len(key)]
    s = [a ^ b for a, b in zip(block, rk[0])]
    for r in range(1, R + 1):
        s = _shift_rows([SBOX[b] for b in s])
        if r < R:
            s = fwd(s, r)
        s = [a ^ b for a, b in zip(s, rk[r])]
    return bytes(s)


def decrypt_block(key: bytes, block: bytes, cipher="aes", rounds=None, xor_byte=0x7F,
                  construction="xor-index", iv_source="sha3", sha3="sha3_256", sha3_chain="iv", approach=2) -> bytes:
    ivs = (maes_ivs(key, MAES_APPROACH.get(cipher, approach), iv_source, sha3, sha3_chain)
           if cipher in ("maes",) + tuple(MAES_APPROACH) else None)
    _, inv = _middle(cipher, key, xor_byte, construction, ivs)
    rk = round_keys(key)
    R = rounds or NR[len(key)]
    s = list(block)
    for r in range(R, 0, -1):
        s = [a ^ b for a, b in zip(s, rk[r])]
        if r < R:
            s = inv(s, r)
        s = [INV_SBOX[b] for b in _shift_rows(s, inverse=True)]
    return bytes(a ^ b for a, b in zip(s, rk[0]))


def aesavs_cbc_mct(encrypt_block_fn, decrypt_block_fn, key: bytes, iv: bytes, text: bytes, encrypt: bool):
    """AESAVS section 6.4.2 Monte Carlo test for CBC; returns the 100 (key, iv, in, out) records.

    ``encrypt_block_fn(key, block)`` / ``decrypt_block_fn(key, block)`` are the
    raw cipher under test.
    """
    records = []
    for _ in range(100):
        rec_key, rec_iv, rec_in = key, iv, text
        if encrypt:
            pt = text
            prev = iv
            outs = []
            for j in range(1000):
                ct = encrypt_block_fn(key, bytes(a ^ b for a, b in zip(pt, prev)))
                pt = iv if j == 0 else outs[j - 1]
                prev = ct
                outs.append(ct)
            last, before = outs[-1], outs[-2]
        else:
            ct = text
            prev = iv
            outs = []
            for j in range(1000):
                pt = bytes(a ^ b for a, b in zip(decrypt_block_fn(key, ct), prev))
                prev = ct
                ct = iv if j == 0 else outs[j - 1]
                outs.append(pt)
            last, before = outs[-1], outs[-2]
        records.append((rec_key, rec_iv, rec_in, last))
        n = len(key)
        if n == 16:
            key = bytes(a ^ b for a, b in zip(key, last))
        elif n == 24:
            key = bytes(a ^ b for a, b in zip(key, before[-8:] + last))
        else:
            key = bytes(a ^ b for a, b in zip(key, before + last))
        iv = last
        text = before
    return records


def rijndael_sbox_naive() -> list[int]:
    """FIPS-197 section 5.1.1: the inverse in GF(2^8), then the affine map with c = 0x63."""
    return list(SBOX)


# -- modes of operation (one complete message per call, as cipherlab.new) --------


def pkcs7_pad(data: bytes) -> bytes:
    n = 16 - len(data) % 16
    return bytes(data) + bytes([n]) * n


def _xor(a, b) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def _blocks(data: bytes):
    return [bytes(data[i:i + 16]) for i in range(0, len(data), 16)]


def encrypt(key: bytes, data: bytes, cipher="aes", mode="ecb", iv=None, padding=True, **options) -> bytes:
    """One message: ECB/CBC (PKCS#7 unless ``padding=False``) or CTR (``iv`` is the
    initial 128-bit big-endian counter block, wrapping modulo 2^128)."""
    if mode == "ctr":
        counter = int.from_bytes(iv, "big")
        out = b""
        for i in range(0, len(data), 16):
            pad = encrypt_block(key, counter.to_bytes(16, "big"), cipher, **options)
            out += _xor(data[i:i + 16], pad)
            counter = (counter + 1) % (1 << 128)
        return out
    if padding:
        data = pkcs7_pad(data)
    out, prev = b"", iv
    for block in _blocks(data):
        if mode == "cbc":
            block = _xor(block, prev)
        prev = encrypt_block(key, block, cipher, **options)
        out += prev
    return out


def decrypt(key: bytes, data: bytes, cipher="aes", mode="ecb", iv=None, padding=True, **options) -> bytes:
    """The inverse of :func:`encrypt`."""
    if mode == "ctr":
        return encrypt(key, data, cipher, mode, iv, padding, **options)
    out, prev = b"", iv
    for block in _blocks(data):
        plain = decrypt_block(key, block, cipher, **options)
        if mode == "cbc":
            plain, prev = _xor(plain, prev), block
        out += plain
    if padding:
        n = out[-1]
        if not 1 <= n <= 16 or out[-n:] != bytes([n]) * n:
            raise ValueError("bad padding")
        out = out[:-n]
    return out


# -- S-box properties, loop by loop (the security chapter's references) ----------


def dot(a: int, b: int) -> int:
    return bin(a & b).count("1") & 1


def ddt_naive(s):
    t = [[0] * 256 for _ in range(256)]
    for a in range(256):
        for x in range(256):
            t[a][s[x] ^ s[x ^ a]] += 1
    return t


def lat_entry_naive(s, a: int, b: int) -> int:
    return sum(1 for x in range(256) if dot(a, x) == dot(b, s[x])) - 128


def degree_naive(s) -> int:
    """Degree via the ANF computed monomial by monomial (subset sums)."""
    best = 0
    for j in range(8):
        for u in range(256):
            coef = 0
            for x in range(256):
                if x & ~u == 0:  # x is a subset of u
                    coef ^= (s[x] >> j) & 1
            if coef:
                best = max(best, bin(u).count("1"))
    return best


# -- GF(2) linear algebra, bit by bit (the affinity attack's reference) ----------


def gf2_inverse_naive(rows):
    """Inverse of an n x n 0/1 matrix (a list of lists) over GF(2), or None if singular.

    Gauss-Jordan on Python lists, one bit at a time: no NumPy, no packing.
    """
    n = len(rows)
    a = [list(r) + [1 if i == j else 0 for j in range(n)] for i, r in enumerate(rows)]
    for col in range(n):
        pivot = None
        for r in range(col, n):
            if a[r][col] == 1:
                pivot = r
                break
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] == 1:
                for k in range(2 * n):
                    a[r][k] ^= a[col][k]
    return [row[n:] for row in a]


def gf2_apply_naive(rows, vector):
    """``rows @ vector`` over GF(2), one product bit at a time."""
    out = []
    for row in rows:
        bit = 0
        for m, v in zip(row, vector):
            bit ^= m & v
        out.append(bit)
    return out


def bct_entry_naive(s, a: int, b: int) -> int:
    """``#{x : S^-1(S(x) ^ b) ^ S^-1(S(x ^ a) ^ b) == a}`` by the definition (Cid et al. 2018)."""
    inv = [0] * len(s)
    for x, y in enumerate(s):
        inv[y] = x
    return sum(1 for x in range(len(s)) if inv[s[x] ^ b] ^ inv[s[x ^ a] ^ b] == a)


def is_linear_structure_naive(s, a: int, b: int) -> bool:
    """Is ``x -> b . (S(x) ^ S(x ^ a))`` constant?"""
    return len({dot(b, s[x] ^ s[x ^ a]) for x in range(len(s))}) == 1


def cycles_naive(s) -> list:
    """The cycle lengths of a permutation, longest first, by walking each cycle."""
    seen, out = set(), []
    for start in range(len(s)):
        if start in seen:
            continue
        n, x = 0, start
        while x not in seen:
            seen.add(x)
            x = s[x]
            n += 1
        out.append(n)
    return sorted(out, reverse=True)



def gf_det_naive(m) -> int:
    """The determinant over GF(2^8) by Laplace expansion along the first row (signs vanish in characteristic 2)."""
    if len(m) == 1:
        return m[0][0]
    det = 0
    for j in range(len(m)):
        minor = [row[:j] + row[j + 1:] for row in m[1:]]
        det ^= gf_mul(m[0][j], gf_det_naive(minor))
    return det


def is_mds_naive(m) -> bool:
    """MDS iff every square submatrix is non-singular (MacWilliams and Sloane)."""
    from itertools import combinations
    n = len(m)
    for k in range(1, n + 1):
        for rows in combinations(range(n), k):
            for cols in combinations(range(n), k):
                if gf_det_naive([[m[r][c] for c in cols] for r in rows]) == 0:
                    return False
    return True


# ----------------------------------------------------------------------------- verdicts, the plain way
def ordering_word(lo, hi, h, stated=None, small=1.0, clear=2.0):
    """The verdict word of a claim "above 0" on an interval [lo, hi], with the noise band [-h, h] (no unit, so
    no floor and no scaling) and the effect the paper states (None: no size), by the table of meanings read
    plainly: a stated effect within small x h is small, beyond clear x h clearly beyond the band."""
    if stated is not None and abs(stated) <= small * h:            # a small claimed effect
        if -h <= lo and hi <= h:
            return "reproduced"
        if lo > h:
            return "not reproduced"
        if hi < -h:
            return "contradicted"
        return "inconclusive"
    if lo > h:
        return "reproduced"
    if hi < -h:
        return "contradicted"
    if hi <= h:                                                     # no effect beyond the noise
        return "contradicted" if (stated is not None and abs(stated) > clear * h) else "inconclusive"
    return "inconclusive"


def machine_bound_word(lo, hi, h, published, margin):
    """The word of a claim whose stated size (``published`` +- ``margin``, relative) belongs to the paper's
    machine: its direction (above 0) decides as any other; once it holds, the size is only a status."""
    if published > 2 * h and lo > h:
        return "machine-bound"
    return ordering_word(lo, hi, h, stated=published)


# -- the variant families (cipherlab.ciphers.keyed), step by step ---------------------------------
# Written from the variant file format's description (book/howto_variant.md), not from the library.


def ksa_shuffle_naive(table, key) -> list[int]:
    """RC4's key scheduling, started from ``table`` instead of the identity: its entries shuffled by ``key``."""
    t, j = list(table), 0
    for i in range(256):
        j = (j + t[i] + key[i % len(key)]) % 256
        t[i], t[j] = t[j], t[i]
    return t


def rotate_table_naive(table, b: int) -> list[int]:
    """``S'(x) = S((x + b) mod 256)``."""
    return [table[(x + b) % 256] for x in range(256)]


def rotl8_naive(v: int, k: int) -> int:
    k %= 8
    return ((v << k) | (v >> (8 - k))) & 0xFF if k else v


def gf2_rows_apply_naive(rows, y: int) -> int:
    """``M y`` over GF(2), ``M`` given by row bytes: bit ``i`` of the result is the parity of ``rows[i] & y``."""
    out = 0
    for i, row in enumerate(rows):
        if bin(row & y).count("1") % 2:
            out |= 1 << i
    return out


def affine_table_naive(table, rows=None, rotate=0, constant=0) -> list[int]:
    """``S'(x) = M S(x) ^ c``: ``M`` the row bytes ``rows``, or (``rows`` None) a left bit rotation by ``rotate``."""
    if rows is None:
        return [rotl8_naive(v, rotate) ^ constant for v in table]
    return [gf2_rows_apply_naive(rows, v) ^ constant for v in table]


def row_offsets_perm_naive(offsets) -> list[int]:
    """ShiftRows with row ``r`` rotated left by ``offsets[r]`` (mod 4), as ``out[i] = in[p[i]]``."""
    p = [0] * 16
    for r in range(4):
        for c in range(4):
            p[r + 4 * c] = r + 4 * ((c + offsets[r]) % 4)
    return p


def shuffle_perm_naive(key) -> list[int]:
    """A Fisher-Yates shuffle of the 16 state positions: ``j = key[i mod n] mod (i + 1)`` for ``i = 15..1``."""
    p = list(range(16))
    for i in range(15, 0, -1):
        j = key[i % len(key)] % (i + 1)
        p[i], p[j] = p[j], p[i]
    return p


AES_PERM = [(i + 4 * (i % 4)) % 16 for i in range(16)]


def _middle_step(s, middle, r, inverse):
    """The step between ShiftRows and AddRoundKey: ``("mixcolumns",)``, ``("matrix", M, M^-1)``, ``("none",)``
    or ``("byte-map", forward, inverse)``."""
    kind = middle[0]
    if kind == "mixcolumns":
        return _mix_columns(s, _INV_M) if inverse else _mix_columns(s)
    if kind == "matrix":
        return _mix_columns(s, middle[2] if inverse else middle[1])
    if kind == "byte-map":
        table = middle[2] if inverse else middle[1]
        return [table[b] for b in s]
    return list(s)


def encrypt_block_rounds(key: bytes, block: bytes, sboxes, perms, middle=("mixcolumns",)) -> bytes:
    """AES's rounds with round ``r``'s own S-box ``sboxes[r - 1]`` and ShiftRows permutation ``perms[r - 1]``
    (``out[i] = in[p[i]]``); AES-128/192/256's key schedule; ``len(sboxes)`` rounds."""
    rk = round_keys(key)
    s = [a ^ b for a, b in zip(block, rk[0])]
    rounds = len(sboxes)
    for r in range(1, rounds + 1):
        s = [sboxes[r - 1][b] for b in s]
        s = [s[perms[r - 1][i]] for i in range(16)]
        if r < rounds:
            s = _middle_step(s, middle, r, False)
        s = [a ^ b for a, b in zip(s, rk[r])]
    return bytes(s)


def decrypt_block_rounds(key: bytes, block: bytes, sboxes, perms, middle=("mixcolumns",)) -> bytes:
    """The inverse of :func:`encrypt_block_rounds`."""
    rk = round_keys(key)
    s = list(block)
    rounds = len(sboxes)
    for r in range(rounds, 0, -1):
        s = [a ^ b for a, b in zip(s, rk[r])]
        if r < rounds:
            s = _middle_step(s, middle, r, True)
        unperm = [0] * 16
        for i in range(16):
            unperm[perms[r - 1][i]] = s[i]
        inv = [0] * 256
        for x, v in enumerate(sboxes[r - 1]):
            inv[v] = x
        s = [inv[b] for b in unperm]
    return bytes(a ^ b for a, b in zip(s, rk[0]))


# -- what decides a speed verdict, the plain way: the two-level bootstrap and the noise band -------------
# Written from the docstrings of cipherlab.analysis.stats.speedup_ci and of the noise band, one resample and one
# process at a time. The random draws are taken in the order the real code documents (processes for every
# resample, then the old trials, then the new), so on small inputs both give the same interval.


def _percent(ratio) -> float:
    return (ratio - 1.0) * 100.0


def _stat_naive(name, values) -> float:
    import statistics
    v = sorted(values)
    if name == "median":
        return statistics.median(v)
    if name == "mean":
        return sum(v) / len(v)
    if name == "q25":                                    # linear interpolation between order statistics
        pos = 0.25 * (len(v) - 1)
        i = int(pos)
        return v[i] + (v[min(i + 1, len(v) - 1)] - v[i]) * (pos - i)
    raise ValueError(name)


def _percentile_naive(values, q) -> float:
    v = sorted(values)
    pos = q / 100 * (len(v) - 1)
    i = int(pos)
    return v[i] + (v[min(i + 1, len(v) - 1)] - v[i]) * (pos - i)


def two_level_speedup_naive(old, new, statistic="median", confidence=0.95, n_resamples=200, seed=0,
                            paired=False):
    """``(estimate, low, high)`` of the several-process speed-up: each process's ratio of statistics (paired:
    the statistic of its rounds' log ratios), their geometric mean over processes; each resample draws the
    processes with replacement, then the trials within each drawn process (paired: the rounds, pairs kept)."""
    import math

    import numpy as np
    procs = len(old)

    def combine(o_rows, n_rows):
        if paired:
            logs = [_stat_naive(statistic, [math.log(a / b) for a, b in zip(o, n)]) for o, n in zip(o_rows, n_rows)]
        else:
            logs = [math.log(_stat_naive(statistic, o) / _stat_naive(statistic, n)) for o, n in zip(o_rows, n_rows)]
        return _percent(math.exp(sum(logs) / len(logs)))

    rng = np.random.default_rng(seed)
    pick = rng.integers(0, procs, size=(n_resamples, procs, 1))
    if paired:
        rounds = len(old[0])
        ri = rng.integers(0, rounds, size=(n_resamples, procs, rounds))
    else:
        xi = rng.integers(0, len(old[0]), size=(n_resamples, procs, len(old[0])))
        yi = rng.integers(0, len(new[0]), size=(n_resamples, procs, len(new[0])))
    dist = []
    for r in range(n_resamples):
        o_rows, n_rows = [], []
        for p in range(procs):
            q = int(pick[r, p, 0])
            if paired:
                o_rows.append([old[q][int(t)] for t in ri[r, p]])
                n_rows.append([new[q][int(t)] for t in ri[r, p]])
            else:
                o_rows.append([old[q][int(t)] for t in xi[r, p]])
                n_rows.append([new[q][int(t)] for t in yi[r, p]])
        dist.append(combine(o_rows, n_rows))
    tail = (1 - confidence) / 2 * 100
    return combine(old, new), _percentile_naive(dist, tail), _percentile_naive(dist, 100 - tail)


def noise_band_naive(control_low, control_high, floor_pct, percent, at):
    """The A/A noise band of a comparison at ``at``: its half-width the control interval's largest excursion
    from 0, at least the floor where the unit is percent; a speed-up's band the ratio ``1 + at / 100`` divided
    and multiplied by ``1 + h / 100`` (in logarithms: ``log(1 + at / 100) -+ log(1 + h / 100)``)."""
    h = max(abs(control_low), abs(control_high), floor_pct if percent else 0.0)
    if percent and at > -100:
        centre, half = math.log1p(at / 100), math.log1p(h / 100)
        return 100 * math.expm1(centre - half), 100 * math.expm1(centre + half)
    return at - h, at + h
