"""The findings page's AES-2SBox paragraphs (cipherlab.experiments.aes2sbox.findings) and the shared sentence
helpers (cipherlab.experiments._sentences), on small synthetic tables."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from cipherlab.experiments import _sentences as S
from cipherlab.experiments.aes2sbox import findings as F

from findings_tables import ATTACK, SBOX, SPEED


def rows_of(html: str) -> list[list[str]]:
    """The cells of each row of the HTML tables in ``html``."""
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr) for tr in re.findall(r"<tr>(.*?)</tr>", html)]


def test_sbox_sentence_says_affine_from_the_table():
    text = F.sbox_sentence(SBOX)
    assert "**The second S-box is affine.**" in text
    assert "algebraic degree 1, nonlinearity 0 and differential uniformity 256" in text
    assert "Rijndael's has 7, 112 and 4" in text and "nonlinearity 104" in text
    nonaffine = SBOX.assign(algebraic_degree=[7, 3, 7])
    assert "of algebraic degree 3" in F.sbox_sentence(nonaffine) and "affine" not in F.sbox_sentence(nonaffine)
    with pytest.raises(ValueError, match="needs a 'rijndael' row"):
        F.sbox_sentence(SBOX.iloc[1:])


def test_speed_is_a_small_table_by_style():
    text = F.speed_sentence(SPEED, "000")
    assert "faster than AES by +22.986 % (encryption) and +109.79 % (decryption)" in text
    rows = rows_of(text)
    assert rows[0] == ["style", "operation", "size", "published", "ours", "ours: 95 % interval (%)",
                       "within A/A noise"]
    assert ["reference", "encryption", "2048 B", "+22.986 %", "+18.4 %", "[17.1, 20]", "no"] in rows
    # the table-style intervals overlap the A/A band; the reference ones do not
    assert ["table", "encryption", "2048 B", "+22.986 %", "+2.8 %", "[0.55, 6.7]", "yes"] in rows
    assert "Not timed in the aesni style." in text and "claimed" not in text
    timed = SPEED.copy()
    timed.loc[4, ["ours_pct", "low_pct", "high_pct"]] = [30.0, 28.0, 32.0]
    assert ["aesni", "encryption", "2048 B", "+22.986 %", "+30 %", "[28, 32]", "no"] \
        in rows_of(F.speed_sentence(timed, "000"))
    with pytest.raises(ValueError, match="no row for paper 001"):
        F.speed_sentence(SPEED, "001")


def test_paragraphs_give_the_section_of_both_papers_in_page_order():
    speed = pd.concat([SPEED, SPEED.assign(paper="001", published_pct=28.5)], ignore_index=True)
    tables = {"security_sbox_properties": SBOX, "security_attack": ATTACK, "aes2sbox_speedup": speed}
    parts = F.paragraphs(tables)
    assert parts[:4] == [F.sbox_sentence(SBOX), S.attack_sentence(ATTACK, ("aes-2sbox",), "AES-2SBox"),
                         F.speed_sentence(speed, "000"), F.speed_sentence(speed, "001")]
    figure = parts[4]
    assert len(parts) == 5 and figure.name == "security_recovered_image"
    assert figure.caption.startswith("*The key-free chosen-plaintext codebook attack (257 chosen blocks per key)")
    # the security chapter not built: said, not invented, and no figure
    alone = F.paragraphs({"aes2sbox_speedup": speed})
    assert alone[:2] == ["*(The security chapter was not built in this run.)*"] * 2 and len(alone) == 4
    with pytest.raises(ValueError, match="no row for paper 001"):
        F.paragraphs({"aes2sbox_speedup": SPEED})


def test_the_declaration_reads_what_the_paragraphs_read():
    from cipherlab.experiments.aes2sbox.chapter import CHAPTER
    speed = pd.concat([SPEED, SPEED.assign(paper="001")], ignore_index=True)
    ids = [f"{p}-t5-{op}-speedup" for p in ("000", "001") for op in ("enc", "dec")]
    verdicts = pd.DataFrame({"claim_id": ids, "paper": [i[:3] for i in ids], "kind": "ratio", "verdict": "reproduced",
                             "shown": "reproduced", "reason": "the reason.", "tier": "headline", "concern": ""})
    tables = {"security_sbox_properties": SBOX, "security_attack": ATTACK, "aes2sbox_speedup": speed,
              "verdicts": verdicts}
    declared = {name: tables[name][list(cols)] for name, cols in CHAPTER.findings_tables.items()}
    assert CHAPTER.findings(declared) == F.paragraphs(tables)      # the declared columns are enough
    assert CHAPTER.papers == F.PAPERS and CHAPTER.findings_figures == (F.RECOVERED_IMAGE,)
