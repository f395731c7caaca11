"""Tests of cipherlab.experiments.maes.common."""
from __future__ import annotations

import pytest

from cipherlab.experiments.maes import common, measure
from cipherlab.experiments.maes.chapter import CHAPTER

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


# --- timing cases and tables --------------------------------------------------


def test_maes_options_come_from_the_checked_parameters():
    assert common.maes_options() == {"iv_source": "sha3", "sha3": "sha3_256", "sha3_chain": "iv"}
    p = CHAPTER.make_params({"iv_source": "keyexp", "sha3": "sha3_512"})
    assert common.maes_options(p) == {"iv_source": "keyexp", "sha3": "sha3_512", "sha3_chain": "iv"}
    # a bad value stops at the door, the chapter's parameters, naming the key
    for bad, key in (({"iv_source": "rand"}, "iv_source"), ({"sha3": "md5"}, "sha3"), ({"sha3_chain": "x"}, "sha3_chain")):
        with pytest.raises(ValueError, match=f"maes.{key}"):
            CHAPTER.make_params(bad)


def test_styles_come_from_the_config_and_are_checked():
    for profile in ("full", "quick"):
        p = CHAPTER.run(profile).params
        styles, _ = common.measured_impls(p.impls)
        common.check_paper_styles(p.original_style, p.optimized_style, styles)
    # the styles are checked once, at the door (the chapter's parameters); the chapter's code trusts them
    assert CHAPTER.make_params({"impls": ["aesni", "table", "reference"]}).impls == ("aesni", "table", "reference")
    assert measure.stage_impls(("reference", "aesni")) == ("reference",)  # no separate MixColumns in hardware
    for bad in (["fast"], [], "table", ["table", "table"]):
        with pytest.raises(ValueError, match="maes.impls"):
            CHAPTER.make_params({"impls": bad})
    with pytest.raises(ValueError, match="optimized_style"):
        common.check_paper_styles("reference", "table", ("reference",))
    with pytest.raises(ValueError, match="impls"):
        measure.table2_cases(4, impls=("aesni",))
