"""Tests of cipherlab.experiments.maes.published: paper 002's tables read against each other and their power."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from cipherlab.analysis import verdicts as V
from cipherlab.experiments.maes import published as P


def _fake(monkeypatch, cells: dict):
    """Replace the transcription: {(table, row, column): number}."""
    def corrected(paper, table):
        rows = [{"row": r, "column": c, "number": v} for (t, r, c), v in cells.items() if t == table]
        return pd.DataFrame(rows)
    monkeypatch.setattr(P._paper, "corrected", corrected)


def test_implied_size_and_spread_of_the_plug_in_entropy():
    # 8 - H = 255 / (2 N ln 2): a shortfall of 0.0059 bits is about 31 kB; the spread sqrt(510) / (2 N ln 2)
    n = P.implied_bytes(7.9941)
    assert n == pytest.approx(255 / (2 * math.log(2) * 0.0059))
    assert 30_000 < n < 32_000
    assert P.entropy_sd(n) == pytest.approx(math.sqrt(510) / (2 * n * math.log(2)))
    assert 4e-4 < P.entropy_sd(n) < 6e-4


def test_table_iv_power_on_the_printed_values_and_at_its_boundary(monkeypatch):
    # the printed Table IV: +0.0005 bits, within the spread of a difference at the implied size: no power
    ev = P.entropy_power_evidence("quick")
    assert ev.claim_id == "002-t4-method-power" and ev.holds is False
    assert ev.estimate == pytest.approx(0.0005, abs=1e-9) and "within the 95 % spread" in ev.detail
    # synthetic: a difference just beyond and just within 1.96 SD at the size the larger entropy implies
    aes = 7.9941
    for factor, holds in ((1.01, True), (0.99, False)):
        lo = aes
        for _ in range(50):      # the implied size depends on the larger entropy: solve for the boundary
            sd = math.sqrt(2) * P.entropy_sd(P.implied_bytes(lo))
            hi = aes + factor * P.Z95 * sd
            lo = max(aes, hi)
        _fake(monkeypatch, {("Table IV", "Original AES (Original implementation)", "Entropy"): aes,
                            ("Table IV", P.APPROACHES[1], "Entropy"): hi})
        assert P.entropy_power_evidence("quick").holds is holds, factor


def test_mixcolumns_share_of_the_papers_own_block_time(monkeypatch):
    ev = P.mixcolumns_share_evidence("quick")
    assert ev.holds is False and "0.54 us of 74 us" in ev.detail
    cells = {("Table II", "Original AES", "Encryption"): 4.2, ("Table II", "Original AES", "Decryption"): 14.0,
             ("Table III", "Original AES", "Encryption"): 74.0, ("Table III", "Original AES", "Decryption"): 253.0}
    _fake(monkeypatch, cells)          # 9 x 4.2 = 37.8 of 74 (51 %), 9 x 14 = 126 of 253 (49.8 %): one fails
    assert P.mixcolumns_share_evidence("quick").holds is False
    _fake(monkeypatch, {**cells, ("Table II", "Original AES", "Decryption"): 14.2})   # 127.8 of 253: both above half
    assert P.mixcolumns_share_evidence("quick").holds is True


def test_table_ii_savings_against_table_iii_gaps_on_the_printed_values():
    ev = P.tables_consistency_evidence("quick")
    assert ev.holds is False and "0.27 us saved against a 43 us gap" in ev.detail


def test_the_iv_specification_reads_two_ways_the_paper_leaves_open(monkeypatch):
    """The paper names no SHA-3 function: a SHA-3 hash (no output is the printed 16 bytes, so a truncation the
    figures do not state is needed: fails) and a SHAKE function (asked for 16 bytes, gives them: holds)."""
    hashes, shake = P.iv_specification_evidence("quick", "sha3_256")
    assert {e.claim_id for e in (hashes, shake)} == {"002-fig6-7-iv-spec"}
    assert (hashes.reading, hashes.holds) == ("SHA3 FUNCTION=a SHA-3 hash", False)
    assert "first 16 bytes of sha3_256" in hashes.detail and "sha3_224 28 bytes" in hashes.detail
    assert (shake.reading, shake.holds) == ("SHA3 FUNCTION=a SHAKE function", True)
    assert "shake_128 gives 16 bytes" in shake.detail
    claims = V.load_claims()
    mine = claims[claims["claim_id"] == "002-fig6-7-iv-spec"]
    assert mine.iloc[0]["readings"] == "open"
    out = V.decide_all(mine, V.evidence_frame([hashes, shake]).assign(chapter="maes")).iloc[0]
    assert out["verdict"] == "inconclusive" and out["outcome"] == "readings_disagree", out["reason"]
    # synthetic: were the printed IV 32 bytes (SHA3-256's output), the hash reading would need no truncation
    real = P._paper.published

    def printed_32(paper, table=None):
        df = real(paper, table).copy()
        sel = (df["table"] == "Figure 6 (pseudocode)") & (df["row"] == "IV_VECTOR")
        df.loc[sel, "number"] = 32.0
        return df
    monkeypatch.setattr(P._paper, "published", printed_32)
    assert all(e.holds for e in P.iv_specification_evidence("quick", "sha3_256"))


def test_the_mixcolumns_polynomial_is_read_off_our_fips_197_mixcolumns(monkeypatch):
    ev = P.mixcolumns_polynomial_evidence("quick")
    assert ev.holds is True and "02 01 01 03" in ev.detail
    real = P._paper.published

    def swapped(paper, table=None):         # {02}x^3 + ... + {03}: the coefficients in the wrong order
        df = real(paper, table)
        swap = {"03": "02", "02": "03"}
        hit = df["row"] == "MixColumns polynomial"
        return df.assign(value=df["value"].where(~hit, df["value"].map(lambda v: swap.get(v, v))))
    monkeypatch.setattr(P._paper, "published", swapped)
    assert P.mixcolumns_polynomial_evidence("quick").holds is False


def test_section_1_and_section_4c_read_two_ways_the_paper_leaves_open(monkeypatch):
    """Section 1 says IVs from 'the key expansion process' keep MAES as complex as AES, Section 4C calls key-expansion
    IVs not secure: read as the key-expansion IV source, the two fail to agree; read as the whole IV set-up, which
    Table I times under the name 'key expansion' with both sources, they do not conflict. Disagreeing readings the
    paper leaves open: inconclusive; were both sections to say one thing (synthetic), both readings would hold."""
    source, setup = P.iv_source_consistency_evidence("quick")
    assert (source.holds, setup.holds) == (False, True)
    assert "complexity" in source.detail and "not secure" in source.detail and "Table I" in setup.detail
    claims = V.load_claims()
    mine = claims[claims["claim_id"] == "002-s1-s4c-iv-source"]
    out = V.decide_all(mine, V.evidence_frame([source, setup]).assign(chapter="maes")).iloc[0]
    assert out["verdict"] == "inconclusive" and out["outcome"] == "readings_disagree", out["reason"]
    real = P._paper.published

    def one_source(paper, table=None):
        df = real(paper, table)
        return df.assign(value=df["value"].where(df["row"] != "key-expansion IVs", "not secure"))
    monkeypatch.setattr(P._paper, "published", one_source)
    assert all(e.holds for e in P.iv_source_consistency_evidence("quick"))
