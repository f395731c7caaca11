"""cipherlab.pipeline.paths: profiles and their output trees."""
from __future__ import annotations

import pytest

from cipherlab.pipeline import paths
def test_profiles_never_share_an_output_path():
    full, quick = paths.Profile("full"), paths.Profile("quick")
    for attr in ("inputs", "raw", "tables", "figures", "notebooks", "book_src", "html", "logs"):
        assert getattr(full, attr) != getattr(quick, attr)
        assert "quick" in getattr(quick, attr).parts


def test_unknown_profile_is_rejected_with_the_allowed_values():
    with pytest.raises(ValueError, match="profile must be one of"):
        paths.Profile("fast")
    with pytest.raises(ValueError, match="full"):
        paths.config_file("nope")
