"""Evidence for paper 002 computed from its published values alone (no measurement): its tables read against
each other and against what its own method can resolve. Exact arithmetic on the transcription (data/paper/002_*),
its documented misprints read as corrected."""
from __future__ import annotations

import hashlib
import math

import numpy as np

from cipherlab.analysis import paper as _paper
from cipherlab.analysis.evidence import Evidence
from cipherlab.ciphers.aes import mix_columns_blocks
from cipherlab.experiments.maes.common import PAPER
from cipherlab.names import SHA3_VARIANTS

AES = "Original AES"
APPROACHES = ("Approach 1: One IV vector generation for all round",
              "Approach 2: One IV vectors generation for each round")
#: Rounds of AES-128 that have the MixColumns stage (the last round has none).
MIX_ROUNDS = 9
#: Two-sided 95 % normal quantile: a difference resolves when it lies beyond this many standard deviations.
Z95 = 1.959963984540054


def _cells(table: str):
    return _paper.corrected(PAPER, table).set_index(["row", "column"])["number"]


def tables_consistency_evidence(profile: str) -> Evidence:
    """002-t2-t3-consistent: can the paper's Table II savings per round, over the nine rounds that have the stage,
    account for the one-block gaps its Table III prints?"""
    t2, t3 = _cells("Table II"), _cells("Table III")
    parts, holds = [], True
    for op in ("Encryption", "Decryption"):
        for a in APPROACHES:
            saving = MIX_ROUNDS * (float(t2[(AES, op)]) - float(t2[(a, op)]))
            gap = float(t3[(AES, op)]) - float(t3[(a, op)])
            holds &= saving >= gap
            parts.append(f"{op.lower()}, {a.split(':')[0].lower()}: {MIX_ROUNDS} x ({t2[(AES, op)]:g} - "
                         f"{t2[(a, op)]:g}) = {saving:.2f} us saved against a {gap:g} us gap")
    return Evidence("002-t2-t3-consistent", holds=bool(holds), style="exact arithmetic", profile=profile,
                    section="maes-table2", detail="; ".join(parts))


def mixcolumns_share_evidence(profile: str) -> Evidence:
    """002-s4b-most-of-time-own-tables: does the paper's own Table II MixColumns time, over the nine rounds that
    have the stage, make up most (over half) of the one-block AES time its Table III prints, in both operations?"""
    t2, t3 = _cells("Table II"), _cells("Table III")
    parts, holds = [], True
    for op in ("Encryption", "Decryption"):
        mix, block = MIX_ROUNDS * float(t2[(AES, op)]), float(t3[(AES, op)])
        holds &= mix / block > 0.5
        parts.append(f"{op.lower()}: {MIX_ROUNDS} x {t2[(AES, op)]:g} = {mix:.2f} us of {block:g} us, "
                     f"{mix / block * 100:.1f} %")
    return Evidence("002-s4b-most-of-time-own-tables", holds=bool(holds), style="exact arithmetic",
                    profile=profile, section="maes-steps", detail="; ".join(parts))


def implied_bytes(entropy_bits: float) -> float:
    """The sample size (bytes) at which the plug-in byte entropy of uniform bytes falls short of 8 bits by
    ``8 - entropy_bits`` on average: the bias 255 / (2 N ln 2)."""
    return 255.0 / (2.0 * math.log(2.0) * (8.0 - entropy_bits))


def entropy_sd(n_bytes: float) -> float:
    """Sampling SD (bits) of the plug-in byte entropy of ``n_bytes`` uniform bytes: 8 - H is about
    chi2_255 / (2 N ln 2), whose SD is sqrt(2 * 255) / (2 N ln 2)."""
    return math.sqrt(2.0 * 255.0) / (2.0 * n_bytes * math.log(2.0))


def entropy_power_evidence(profile: str) -> Evidence:
    """002-t4-method-power: can Table IV's own method resolve '16-IV scheme better than the original'?  The printed
    entropies imply the sample size (:func:`implied_bytes`, from the smaller of the two shortfalls: the larger
    sample, the smaller spread, the reading kindest to the paper); the difference of two independent plug-in
    entropies has SD sqrt(2) x :func:`entropy_sd`; holds if the printed difference lies beyond 1.96 SD."""
    t4 = _cells("Table IV")
    aes = float(t4[("Original AES (Original implementation)", "Entropy")])
    two = float(t4[(APPROACHES[1], "Entropy")])
    n = implied_bytes(max(aes, two))
    sd = math.sqrt(2.0) * entropy_sd(n)
    diff = two - aes
    return Evidence("002-t4-method-power", holds=bool(abs(diff) > Z95 * sd), estimate=diff, unit="bits",
                    style="exact arithmetic", profile=profile, section="maes-table4",
                    detail=(f"Table IV: approach 2 {two:g} minus AES {aes:g} = {diff:+.4f} bits; the printed entropies "
                            f"imply about {n:,.0f} bytes (8 - H = 255 / (2 N ln 2)), where the plug-in entropy's "
                            f"sampling SD is {entropy_sd(n):.1e} bits and a difference's {sd:.1e}: the printed "
                            f"difference is {abs(diff) / sd:.2f} SD, {'beyond' if abs(diff) > Z95 * sd else 'within'} "
                            f"the 95 % spread ({Z95 * sd:.1e} bits)"))


#: FIPS 202's extendable-output functions: any output length, 16 bytes among them.
SHAKE_VARIANTS = ("shake_128", "shake_256")


def iv_specification_evidence(profile: str, sha3: str) -> list[Evidence]:
    """002-fig6-7-iv-spec: is Figure 6's assignment of a SHA-3 output to its 16-byte IV well defined as written?
    The paper names no SHA-3 function, so two readings it leaves open: a fixed-length SHA-3 hash (FIPS 202's
    SHA3-224 to SHA3-512, as :mod:`hashlib` computes them), which holds only if one of them outputs the IV's
    printed size (otherwise a truncation the figures do not state is needed), and a SHAKE function (FIPS 202's
    extendable-output functions), asked for the IV's size, which holds. ``sha3`` is the variant the chapter
    picks (the first 16 bytes of its digest), named in the detail."""
    iv = int(_cell("Figure 6 (pseudocode)", "IV_VECTOR", "bytes"))
    sizes = {v: hashlib.new(v).digest_size for v in SHA3_VARIANTS}
    shake = {v: len(hashlib.new(v, b"").digest(iv)) for v in SHAKE_VARIANTS}
    cond = dict(style="the paper's text", profile=profile, section="maes-table1")
    return [Evidence("002-fig6-7-iv-spec", holds=bool(iv in sizes.values()), reading="SHA3 FUNCTION=a SHA-3 hash",
                     detail=(f"Figure 6 assigns a SHA-3 output to a {iv}-byte IV; the SHA-3 hashes output "
                             + ", ".join(f"{v} {n} bytes" for v, n in sizes.items())
                             + f": none is {iv} bytes and the figures state no truncation; this chapter takes the "
                               f"first {iv} bytes of {sha3} (its parameter sha3)"), **cond),
            Evidence("002-fig6-7-iv-spec", holds=bool(iv in shake.values()), reading="SHA3 FUNCTION=a SHAKE function",
                     detail=("FIPS 202's SHAKE functions output any length asked of them: "
                             + ", ".join(f"{v} gives {n} bytes" for v, n in shake.items())
                             + f" when asked for the {iv}-byte IV, with no truncation to state"), **cond)]


def _cell(table: str, row: str, column: str) -> float:
    """One published number of paper 002, exactly one cell."""
    df = _paper.published(PAPER)
    hit = df[(df["table"] == table) & (df["row"] == row) & (df["column"] == column)]
    if len(hit) != 1:
        raise ValueError(f"paper {PAPER}: {len(hit)} cells at {table!r} / {row!r} / {column!r}")
    return float(hit["number"].iloc[0])


def mixcolumns_polynomial_evidence(profile: str) -> Evidence:
    """002-s3b-mixcolumns-polynomial: Eq. (1)'s coefficients against MixColumns as our AES computes it (checked
    against FIPS-197's vectors): a unit column's image under MixColumns is the polynomial's coefficients, constant
    term first (the column times x^0 is the column itself)."""
    t = _paper.published(PAPER, "Section 3B (prose)")
    t = t[t["row"] == "MixColumns polynomial"].set_index("column")["value"]
    printed = [int(t[f"x^{k}"], 16) for k in range(4)]
    unit = np.zeros((1, 16), dtype=np.uint8)
    unit[0, 0] = 1
    ours = [int(b) for b in mix_columns_blocks(unit)[0, :4]]

    def poly(c) -> str:
        return " + ".join(f"{{{c[k]:02X}}}x^{k}" for k in range(3, -1, -1))
    return Evidence("002-s3b-mixcolumns-polynomial", holds=printed == ours, style="reference", profile=profile,
                    section="maes-table2",
                    detail=f"Eq. (1) prints {poly(printed)}; MixColumns of our FIPS-197 AES maps the unit column to "
                           f"{' '.join(f'{b:02X}' for b in ours)}, i.e. {poly(ours)} (mod x^4 + 1)")


def iv_source_consistency_evidence(profile: str) -> list[Evidence]:
    """002-s1-s4c-iv-source: does what Section 1 says of IVs drawn from "the key expansion process" agree with what
    Section 4C says of key-expansion IVs? Read on the transcription (``data/paper/002_prose_design.csv``, row
    ``key-expansion IVs``), under the two readings of Section 1's words the paper leaves open: the key-expansion IV
    source alone (the two sentences then say opposite things of one source), or the paper's whole IV set-up, which
    Table I ("key expansion time consumption") times under that name with both sources, SHA-3 included (Section 1
    then speaks of the design with either source, Section 4C of one of them)."""
    t = _paper.published(PAPER).query("row == 'key-expansion IVs'").set_index("table")["value"]
    s1, s4c = t["Section 1 (prose)"], t["Section 4C (prose)"]
    both = {"Time (sha3)", "Time (key expansion)"} <= set(_paper.published(PAPER, "Table I")["column"])
    cond = dict(style="the paper's text", profile=profile, section="maes-table1")
    return [Evidence("002-s1-s4c-iv-source", holds=s1 == s4c, reading="key expansion=the key-expansion IV source",
                     detail=f"of key-expansion IVs, Section 1 says the design '{s1}', Section 4C that they are "
                            f"'{s4c}'", **cond),
            Evidence("002-s1-s4c-iv-source", holds=bool(both), reading="key expansion=the whole IV set-up (Table I)",
                     detail=("Table I, 'key expansion time consumption', times the IVs from both sources under that "
                             "name (sha3 and key expansion): read so, Section 1's 'key expansion process' is the IV "
                             "set-up with either source, and Section 4C's 'not secure' speaks of one of them"
                             if both else "Table I does not time both IV sources under the name 'key expansion'"),
                     **cond)]
