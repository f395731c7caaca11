"""Claims of paper 003 that a sentence-by-sentence re-reading found with no row, each decided where it can be.

* ``003-f7-f8-time-increases-gradually`` (Figs. 7-8): phase 2's time rises with the file size, every cipher, every
  step from one size to the next, both operations (the least favourable reading decides); ``003-f4-dec-time-rises``
  (Fig. 4) the same for phase 1's decryption, every mode;
* ``003-f10-blowfish-enc-dec-similar`` (Fig. 10): Blowfish-EAX decrypts at about the speed it encrypts, at every
  size, within the +-10 % the paper's other "similar" claims are read with;
* ``003-s128-gcm-block-tagged`` (Sec. 1.2.8): "each cipher text block is tagged uniquely": two fair readings (readings:
  open), a tag per block (GCM gives one tag for the whole message) and a unique counter per block (each keystream
  block distinct), both checked on the library;
* ``003-s43-valueerror-detects`` (Sec. 4.3): ``decrypt_and_verify()`` raises ValueError on a forged tag, checked on
  the library in every mode;
* ``003-s127-ccm-tag-lengths`` (Sec. 1.2.7): CCM's tag "between four bytes and 16 bytes", checked on the library;
* ``003-s52-2-5-times-tables`` and ``003-s52-almost-linear-tables`` (Sec. 5.2): the prose against the paper's own
  Tables 5-7, exact arithmetic on the transcription.
"""
from __future__ import annotations

import dataclasses
import re

import pandas as pd

from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead import comparisons as _comparisons
from cipherlab.experiments.aead.evidence import SECTIONS, _control, _size, _times, compare, published_cells_mean
from cipherlab.experiments.aead.forgery import _verify
from cipherlab.experiments.aead.linearity import fit_linear
from cipherlab.experiments.aead.measure import (DEFAULT_NONCE_BYTES, IMPL, LABELS, MODES, library_tag_bytes, new_aead)

#: "similar" (enc against dec), read as elsewhere in the chapter: within this many % (003-f8-enc-dec-similar).
SIMILAR_PCT = 10.0
#: "approximately" a printed factor: within this many % of it.
APPROX_PCT = 10.0
#: The chapter's tolerance of "linear" (Table 1's RankingRule.linear_tolerance, 003-s52-reject-linear's margin).
LINEAR_PCT = 20.0
CLAIMS = ("003-f7-f8-time-increases-gradually", "003-f4-dec-time-rises", "003-f10-blowfish-enc-dec-similar", "003-s128-gcm-block-tagged",
          "003-s127-ccm-tag-lengths", "003-s52-2-5-times-tables",
          "003-s52-almost-linear-tables", "003-s43-valueerror-detects")


#: Claims that a time rises with the file size (``time_rise`` of ``data/paper/003_comparisons.yaml``): claim -> (phase, its cases, (operation, figure) per reading).
TIME_RISE_CLAIMS = {cid: (e["phase"], tuple(e["cases"]), tuple(tuple(r) for r in e["readings"]))
                    for cid, e in _comparisons.section("time_rise").items()}


def gradual_rise_evidence(df: pd.DataFrame, *, profile: str, seed: int = 0,
                          claim: str = "003-f7-f8-time-increases-gradually") -> list[_v.Evidence]:
    """A time that rises with size (:data:`TIME_RISE_CLAIMS`): each case's time at each size over its time at the
    size before, minus 1 (%); one reading per operation and step, the case whose time rises least deciding."""
    from cipherlab.experiments.aead.evidence import weakest
    phase, names, ops = TIME_RISE_CLAIMS[claim]
    sizes = sorted(int(b) for b in df["bytes"].unique())
    out = []
    for op, fig in ops:
        for a, b in zip(sizes[:-1], sizes[1:]):
            evs = [compare(claim, df, phase, op, k, k, a, slow_bytes=b, profile=profile, section=SECTIONS[fig],
                           seed=seed, detail=f"{LABELS[k]}'s {op}ion time at {b} B over at {a} B")
                   for k in names]
            out.append(dataclasses.replace(weakest(evs, "cases"), reading=f"operation={op}, size={a} B to {b} B"))
    return out


def enc_dec_similar_evidence(p2: pd.DataFrame, *, profile: str, seed: int = 0, cipher: str = "blowfish"
                             ) -> list[_v.Evidence]:
    """Fig. 10: ``cipher``-EAX's decryption over encryption speed (%), one reading per size."""
    out = []
    for nb in sorted(int(b) for b in p2["bytes"].unique()):
        base = {"mode": "eax", "cipher": cipher, "bytes": nb, "instance": "main"}
        enc, dec = _times(p2, operation="encrypt", **base), _times(p2, operation="decrypt", **base)
        ctl = _control(2, "decrypt", nb)
        out.append(_v.speed_evidence("003-f10-blowfish-enc-dec-similar", enc, dec, _times(p2, instance="main", **ctl),
                                     _times(p2, instance="control", **ctl), seed=seed, size=_size(nb), style=IMPL,
                                     mode="eax", profile=profile, section=SECTIONS["fig10"], reading=f"size={nb} B",
                                     detail=f"{LABELS[cipher]}-EAX: decryption over encryption speed at {nb} B"))
    return out


def library_evidence(*, profile: str) -> list[_v.Evidence]:
    """What the library gives: GCM's tags per message, CCM's tag lengths, and the pairs the phases time."""
    key, nonce = bytes(range(16)), bytes(12)
    tags = {}
    for blocks in (1, 64):
        ct, tag = new_aead("aes", "gcm", key, nonce).encrypt_and_digest(bytes(16 * blocks))
        tags[blocks] = (len(ct), len(tag))
    per_block = tags[64][1] == 64 * tags[1][1] or tags[64][0] > 16 * 64
    # the other fair reading, a unique counter per block: a zero message's ciphertext is the keystream
    # E_K(counter_i), and a block cipher is a permutation, so distinct keystream blocks mean distinct counters
    stream = new_aead("aes", "gcm", key, nonce).encrypt_and_digest(bytes(16 * 64))[0]
    distinct = len({stream[i:i + 16] for i in range(0, len(stream), 16)})
    ccm = library_tag_bytes("ccm")
    # Sec. 4.3: decrypt_and_verify() raises ValueError on a forged tag, and returns the plaintext on the genuine one
    raised = {}
    for m in MODES:
        ct, tag = new_aead("aes", m, key, bytes(DEFAULT_NONCE_BYTES[m])).encrypt_and_digest(bytes(48))
        forged = bytes([tag[0] ^ 1]) + tag[1:]
        raised[m] = (_verify(key, m, bytes(DEFAULT_NONCE_BYTES[m]), b"", ct, forged),
                     _verify(key, m, bytes(DEFAULT_NONCE_BYTES[m]), b"", ct, tag))
    cond = dict(style=IMPL, profile=profile)
    return [
        _v.Evidence("003-s128-gcm-block-tagged", holds=bool(per_block), estimate=float(tags[64][1]), unit="B",
                    mode="gcm", section=SECTIONS["phase1"], reading="a tag per block", **cond,
                    detail=(f"AES-GCM gives a {tags[1][1]} B tag for a one-block message and a {tags[64][1]} B tag for "
                            f"a 64-block one, whose ciphertext is {tags[64][0]} B, the message's length: one tag "
                            "over the whole message (GHASH of all its blocks), no tag per block")),
        _v.Evidence("003-s128-gcm-block-tagged", holds=distinct == 64, estimate=float(distinct), unit="blocks",
                    mode="gcm", section=SECTIONS["phase1"], reading="a unique counter per block", **cond,
                    detail=(f"AES-GCM's keystream for a 64-block zero message has {distinct} distinct blocks of 64: "
                            "the block cipher is a permutation, so each block is encrypted under its own counter")),
        _v.Evidence("003-s43-valueerror-detects", holds=all(f and not g for f, g in raised.values()),
                    estimate=float(sum(f for f, _ in raised.values())), unit="modes", mode="gcm, ccm, eax",
                    section=SECTIONS["forgery"], **cond,
                    detail=("decrypt_and_verify() with a tag one bit off raises ValueError in "
                            + ", ".join(LABELS[m] for m, (f, _) in raised.items() if f)
                            + f" ({sum(f for f, _ in raised.values())} of {len(raised)} modes) and, with the genuine "
                              f"tag, raises nothing in {sum(not g for _, g in raised.values())} of {len(raised)}")),
        _v.Evidence("003-s127-ccm-tag-lengths", holds=bool(min(ccm) == 4 and max(ccm) == 16),
                    estimate=float(min(ccm)), unit="B", mode="ccm", section=SECTIONS["bound"], **cond,
                    detail=(f"AES-CCM accepts tags of {', '.join(map(str, ccm))} bytes (the even lengths of NIST "
                            "SP 800-38C); a t-bit tag is guessed with probability 2^-t, so a shorter one is weaker")),
    ]


def table_size_mb(table: pd.DataFrame) -> float:
    """The data size (MB) a table of Tables 5-7 prints its times at, from its notes ("data size 100kb", "1MB")."""
    found = {m for note in table["note"].dropna() for m in re.findall(r"data size\s*([\d.]+)\s*(kb|mb)", str(note),
                                                                        re.IGNORECASE)}
    if len(found) != 1:
        raise ValueError(f"a table of rejection times must state one data size in its notes, found {sorted(found)}")
    value, unit = found.pop()
    return float(value) / (1000.0 if unit.lower() == "kb" else 1.0)


def table_prose_evidence(*, profile: str) -> list[_v.Evidence]:
    """Sec. 5.2's '~2.5 times' and 'almost linearly' against the paper's own Tables 5-7 (the transcription)."""
    from cipherlab.analysis import paper as _paper
    from cipherlab.experiments.aead.measure import PAPER
    cell = lambda table, row: published_cells_mean([(table, row, "Fail Avg.")])      # noqa: E731  (us)
    t7 = {m: cell("Table 7", m) for m in ("GCM", "CCM", "EAX")}
    gaps = {m: (t7[m] / t7["GCM"] / 2.5 - 1) * 100 for m in ("CCM", "EAX")}
    worst = max(gaps, key=lambda k: abs(gaps[k]))
    tables = ("Table 5", "Table 6", "Table 7")
    sizes = [table_size_mb(_paper.published(PAPER, t)) for t in tables]
    misfit = {}
    for m in ("GCM", "CCM", "EAX"):
        times = [cell(t, m) for t in tables]
        misfit[m] = float(max(abs(fit_linear(sizes, times)[2])))
    bad = max(misfit, key=misfit.get)
    cond = dict(style="the transcription", profile=profile, section=SECTIONS["forgery"])
    return [
        _v.Evidence("003-s52-2-5-times-tables", holds=all(abs(g) <= APPROX_PCT for g in gaps.values()),
                    estimate=float(t7[worst] / t7["GCM"]), unit="x", **cond,
                    detail=("Table 7's Fail Avg. over GCM's: " + ", ".join(
                        f"{m} {t7[m] / t7['GCM']:.2f}x ({g:+.1f} % from 2.5)" for m, g in gaps.items())
                        + f"; 'approximately' read as within ±{APPROX_PCT:g} %")),
        _v.Evidence("003-s52-almost-linear-tables", holds=misfit[bad] <= LINEAR_PCT, estimate=misfit[bad], unit="%",
                    **cond,
                    detail=(f"the largest misfit of time = fixed + per MB x size through Tables 5-7's Fail Avg. at "
                            f"{', '.join(f'{s:g}' for s in sizes)} MB: " + ", ".join(
                                f"{m} {v:.1f} %" for m, v in misfit.items())
                            + f"; 'almost linearly' read as within the chapter's ±{LINEAR_PCT:g} %")),
    ]


def reread_evidence(p1: pd.DataFrame, p2: pd.DataFrame, *, profile: str, seed: int = 0) -> list[_v.Evidence]:
    """Evidence for every claim of :data:`CLAIMS`."""
    return (gradual_rise_evidence(p2, profile=profile, seed=seed)
            + gradual_rise_evidence(p1, profile=profile, seed=seed, claim="003-f4-dec-time-rises")
            + enc_dec_similar_evidence(p2, profile=profile, seed=seed)
            + library_evidence(profile=profile) + table_prose_evidence(profile=profile))
