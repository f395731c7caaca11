"""Unit tests of cipherlab.analysis.reasons: a note's first sentence is cut at a sentence end, never at an
abbreviation, a decimal or an initial."""
from __future__ import annotations

import pytest

from cipherlab.analysis.reasons import _first_sentence


@pytest.mark.parametrize("abbr", ["Fig.", "Figs.", "Sec.", "Eq.", "Tab.", "et al.", "vs.", "cf.", "approx.", "No."])
def test_first_sentence_keeps_abbreviation_before_capital(abbr):
    text = f"Table 5 disagrees with {abbr} Nine of the paper. Second sentence."
    assert _first_sentence(text) == f"Table 5 disagrees with {abbr} Nine of the paper"


def test_first_sentence_keeps_the_figs_of_003_t5():
    note = ("Table 5's rejection time comes from repeated forgery trials (Sec. 4.2) and Figs. 9-10's 95-100 MB/s "
            "from one cold call per file: the two disagree. A cold call's fixed cost does not explain it")
    assert _first_sentence(note).endswith("the two disagree")


def test_first_sentence_keeps_decimal_and_initial():
    assert _first_sentence("It costs 3.1 times more, see J. Daemen. Next.") == "It costs 3.1 times more, see J. Daemen"


def test_first_sentence_full_stop_before_lowercase_does_not_end():
    assert _first_sentence("The size is approx. three times. Then more") == "The size is approx. three times"
    assert _first_sentence("ends with x.y then. Z") == "ends with x.y then"


def test_first_sentence_ends_at_end_of_text_and_semicolon():
    assert _first_sentence("One whole sentence.") == "One whole sentence"
    assert _first_sentence("A clause; and the rest. More") == "A clause"
    assert _first_sentence("No stop at all") == "No stop at all"


def test_first_sentence_ignores_stops_inside_parentheses():
    assert _first_sentence("Read (see Sec. 2. Then x) as stated. Next") == "Read (see Sec. 2. Then x) as stated"


def test_first_sentence_ends_before_a_quoted_capital():
    assert _first_sentence('It is stated. "Quoted" next') == "It is stated"


def test_log2_values_read_as_powers_of_two():
    from cipherlab.analysis.reasons import ours_text, with_unit
    assert with_unit("-128", "log2") == "2^-128"
    assert with_unit("41", "%") == "41 %"
    assert with_unit("3", "") == "3"
    assert ours_text({"estimate": -128.0, "low": -130.0, "high": -126.0, "unit": "log2"}) == "2^-128 [2^-130, 2^-126]"


def test_the_published_figure_is_the_claims_value_or_the_gap_the_deciding_evidence_read():
    """A claim's own printed value with its unit; where the claim prints none (an order read from a table), the gap
    the deciding evidence read from the paper ('278 % here against 148 % printed', never '— printed')."""
    from cipherlab.analysis.reasons import published_text
    assert published_text({"published": "109.79", "unit": "%"}, {"stated": 5.0, "unit": "%"}) == "109.79 %"
    assert published_text({"published": "", "unit": ""}, {"stated": 148.37, "unit": "%"}) == "148 %"
    assert published_text({"published": "", "unit": ""}, {"stated": float("nan"), "unit": "%"}) == ""
    assert published_text({"published": "", "unit": ""}, None) == ""
