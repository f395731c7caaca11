"""Tests of the variant battery: every style of a variant agrees in every mode (experiments.variant.correctness)."""

from __future__ import annotations

import pytest

from cipherlab.experiments.variant import correctness

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")


def test_correctness_all_styles_agree():
    t = correctness.correctness_table("aes-2sbox", n_messages=1, message_bytes=33)
    assert t["ok"].all()
    assert set(t["mode"]) == {"ecb", "cbc", "ctr"}
    assert set(t["style"]) == set(correctness.styles_here("aes-2sbox"))
