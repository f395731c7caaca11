"""The sentence helpers the chapters' findings paragraphs share (cipherlab.experiments._sentences)."""
from __future__ import annotations

import pytest

from cipherlab.experiments import _sentences as S

from findings_tables import ATTACK


@pytest.mark.parametrize("x, digits, expected", [
    (12.345, 3, "+12.3 %"), (-3, 3, "−3 %"), (0, 3, "0 %"), (float("nan"), 3, "—"), (None, 3, "—"),
    (22.986, 5, "+22.986 %")])
def test_pct_signs_and_missing(x, digits, expected):
    assert S.pct(x, digits) == expected


def test_num_join_span_interval():
    assert S.num(1300) == "1300" and S.num(float("nan")) == "—"
    assert [S.join(x) for x in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == ["", "a", "a and b", "a, b and c"]
    assert S.span([257, 257], S.num) == "257" and S.span([3, 1, 2], S.num) == "1 to 3" and S.span([]) == "—"
    assert S.interval(0.4, 6.3) == "[0.4, 6.3]" and S.interval(None, 1) == "—"
    assert S.within_noise(0, 1, 0.5, 2) and not S.within_noise(3, 4, 0, 1) and not S.within_noise(0, 1, None, 1)
    assert S.not_built("security") == "*(The security chapter was not built in this run.)*"


def test_attack_sentence_counts_bytes_and_queries():
    text = S.attack_sentence(ATTACK, ("aes-2sbox",), "AES-2SBox")
    assert "**AES-2SBox is byte-local.**" in text
    # the attacker model as the security chapter states it, the CBC IV clause included (a mode of these rows)
    assert ("who has an encryption oracle for 257 chosen blocks under the key, and no key; in CBC, the IV the "
            "oracle uses known in advance") in text
    assert "1300 of 1300 bytes (100 %)" in text
    # against AES: the verdict rows' statistic, matches among the decoded bytes, beside chance
    assert "image and text in CBC and ECB" in text
    assert "at most 0.41 % of the bytes it decoded were right (chance 0.391 %)" in text
    assert "**MAES are byte-local.**" in S.attack_sentence(ATTACK, ("maes-1", "maes-2"), "MAES")
    leaky = ATTACK.assign(byte_local=[False, True, False, True])
    assert "not byte-local" in S.attack_sentence(leaky, ("aes-2sbox",), "AES-2SBox")
    assert S.attack_sentence(None, ("aes-2sbox",), "AES-2SBox") == S.not_built("security")
    with pytest.raises(ValueError, match="no row"):
        S.attack_sentence(ATTACK, ("serpent",), "Serpent")
