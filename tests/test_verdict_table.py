"""cipherlab.present.verdict_table: the one colour table of the verdicts and the one badge every page draws."""
from __future__ import annotations

import html

from cipherlab.analysis import verdicts as V
from cipherlab.present.verdict_table import MARKS, UNKNOWN_MARK, badge


def test_every_verdict_and_status_has_one_colour_mark_and_marker_and_they_differ():
    assert set(MARKS) == {*V.VERDICTS, *V.STATUSES, V.FINDING}
    assert len({m[0] for m in MARKS.values()}) == len(MARKS)   # told apart by colour
    assert len({m[2] for m in MARKS.values()}) == len(MARKS)   # and without colour, by the mark
    assert len({m[3] for m in MARKS.values()}) == len(MARKS)   # and in the figures, by the marker


def test_a_badge_shows_the_colour_the_mark_and_the_words_escaped():
    out = badge("contradicted", "covered by <x>")
    bg, fg, mark, _ = MARKS["contradicted"]
    assert f"background:{bg};color:{fg}" in out and mark in out and html.escape("covered by <x>") in out
    assert "<x>" not in out
    assert f"background:{UNKNOWN_MARK[0]}" in badge("no such verdict", "?")
