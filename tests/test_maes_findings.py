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
    "byte_local": [False, True, True], "match_fraction_decoded": [0.0041, 1.0, 1.0], "chance": [1 / 256] * 3})

VERDICTS = pd.DataFrame({
    "claim_id": list(MF.SPEED_CLAIMS), "paper": "002", "kind": "ratio", "verdict": "not reproduced",
    "shown": "not reproduced", "tier": "headline", "concern": "",
    "reason": [f"The speed-up of claim {c} is 42.7 % [34.4, 56.6] (per block of 1048576 B ECB calls, reference "
               "style, ecb (a proxy for 16 B: why)), far below the paper's 500 %." for c in MF.SPEED_CLAIMS]})


def rows_of(html: str) -> list[list[str]]:
    """The cells of each row of the HTML tables in ``html``."""
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", html)]


def test_maes_speed_takes_each_claims_figure_and_label_from_its_verdict_row():
    """One figure per claim: the findings page prints what the report and the verdict page print."""
    text = MF.speed_sentence(VERDICTS)
    assert text.startswith("**Speed.** Paper 002 claims MAES faster than AES for one block")
    for c in MF.SPEED_CLAIMS:
        assert f"verdicts.html#claim-{c}" in text
    assert text.count("a proxy for 16 B") == len(MF.SPEED_CLAIMS)
    assert MF.speed_sentence(None) == "*(The maes chapter was not built in this run.)*"


def test_paragraphs_attack_then_speed_and_unbuilt_chapters_said():
    tables = {"security_attack": ATTACK, "verdicts": VERDICTS}
    attack, speed = MF.paragraphs(tables, "002")
    assert attack.startswith("**MAES (approaches 1 and 2) are byte-local.**")
    assert "1300 of 1300 bytes (100 %) of the image and text in CBC and ECB" in attack
    assert "at most 0.41 % of the bytes it decoded were right (chance 0.391 %)" in attack and speed.startswith("**Speed.**")
    # the security chapter was not built: said, not invented
    assert MF.paragraphs({"verdicts": VERDICTS})[0] == S.not_built("security")
    assert MF.paragraphs({})[1] == "*(The maes chapter was not built in this run.)*"
    with pytest.raises(ValueError, match="paper must be '002'"):
        MF.paragraphs(tables, "003")


def test_the_chapter_declares_the_columns_its_paragraphs_read():
    from cipherlab.experiments.maes.chapter import CHAPTER
    assert CHAPTER.papers == ("002",) and CHAPTER.findings is not None
    tables = {"security_attack": ATTACK, "verdicts": VERDICTS}
    declared = {name: tables[name][list(cols)] for name, cols in CHAPTER.findings_tables.items()}
    assert CHAPTER.findings(declared) == MF.paragraphs(tables)   # the declared columns are enough
