"""The findings page's paragraphs for paper 002 (cipherlab.experiments.maes.findings), on small synthetic tables."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from cipherlab.experiments import _sentences as S
from cipherlab.experiments.maes import findings as MF

ATTACK = pd.DataFrame({
    "cipher": ["aes", "maes-1", "maes-2"], "mode": ["ecb", "ecb", "cbc"], "target": ["image", "image", "text"],
    "queries": [257, 257, 257], "bytes": [1000, 1000, 300], "bytes_recovered": [3, 1000, 300],
    "byte_local": [False, True, True]})

BLOCK = pd.DataFrame({
    "impl": ["reference", "reference", "table", "table"], "operation": ["encrypt", "decrypt"] * 2,
    "cipher": ["maes-1"] * 4, "bytes": [16] * 4, "speedup_pct": [2.26, 6.69, 0.98, -0.06],
    "low_pct": [0.4, -9.7, -0.4, -2.9], "high_pct": [6.3, 14.4, 6.0, 1.7],
    "control_low_pct": [-14.9, -2.1, -0.8, -2.6], "control_high_pct": [1.7, 8.9, 5.3, 1.5],
    "published_speedup_pct": [138.7, 716.1, 9.68, 61.3]})


def rows_of(html: str) -> list[list[str]]:
    """The cells of each row of the HTML tables in ``html``."""
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", html)]


def test_maes_speed_is_a_small_table_without_spreads():
    text = MF.speed_sentence(BLOCK, None)
    assert text.startswith("**Speed.** Paper 002 claims MAES (approaches 1 and 2) faster than AES on one block (16 B)")
    rows = rows_of(text)
    assert ["reference", "maes-1", "encryption", "+139 %", "+2.26 %", "[0.4, 6.3]"] in rows
    assert ["table", "maes-1", "decryption", "+61.3 %", "−0.06 %", "[-2.9, 1.7]"] in rows
    assert " to " not in text and "claimed —" not in text
    unclaimed = BLOCK.assign(published_speedup_pct=[None, 716.1, 9.68, 61.3])
    assert rows_of(MF.speed_sentence(unclaimed, None))[1][:4] == ["reference", "maes-1", "encryption",
                                                                 "not claimed"]
    bulk = BLOCK.drop(columns="published_speedup_pct").assign(bytes=65536, speedup_pct=[31.3, 65.9, 0.01, 1.7])
    rows = rows_of(MF.speed_sentence(BLOCK, bulk))
    assert rows[0][-1] == "ours, 65536 B (bulk)" and rows[1][-3:] == ["+2.26 %", "[0.4, 6.3]", "+31.3 %"]
    assert rows_of(MF.speed_sentence(BLOCK, bulk.iloc[:2]))[3][-1] == "not measured"


def test_paragraphs_attack_then_speed_and_unbuilt_chapters_said():
    tables = {"security_attack": ATTACK, "maes_speedups_block": BLOCK}
    attack, speed = MF.paragraphs(tables, "002")
    assert attack.startswith("**MAES (approaches 1 and 2) are byte-local.**")
    assert "1300 of 1300 bytes (100 %) of the image and text in CBC and ECB" in attack
    assert "at most 0.3 % of the bytes" in attack and speed.startswith("**Speed.**")
    # the security chapter was not built: said, not invented
    assert MF.paragraphs({"maes_speedups_block": BLOCK})[0] == S.not_built("security")
    assert MF.paragraphs({})[1] == "*(The maes chapter was not built in this run.)*"
    with pytest.raises(ValueError, match="paper must be '002'"):
        MF.paragraphs(tables, "003")


def test_the_chapter_declares_the_columns_its_paragraphs_read():
    from cipherlab.experiments.maes.chapter import CHAPTER
    assert CHAPTER.papers == ("002",) and CHAPTER.findings is not None
    for name, frame in (("security_attack", ATTACK), ("maes_speedups_block", BLOCK)):
        declared = CHAPTER.findings_tables[name]
        assert set(declared) <= set(frame.columns)
        MF.paragraphs({name: frame[list(declared)]})   # the declared columns are enough
    bulk = BLOCK.drop(columns="published_speedup_pct")
    MF.speed_sentence(BLOCK[list(CHAPTER.findings_tables["maes_speedups_block"])],
                      bulk[list(CHAPTER.findings_tables["maes_speedups_bulk"])])
    assert CHAPTER.findings({"maes_speedups_block": BLOCK}) == MF.paragraphs({"maes_speedups_block": BLOCK})
