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


@pytest.mark.parametrize("tree", ["runs/amd-epyc-2026-11-28", "machines/no-aes"])
def test_a_tree_of_its_own_never_shares_a_path_with_the_users_trees(tree):
    for name in paths.PROFILES:
        own, other = paths.Profile(name, tree=""), paths.Profile(name, tree=tree)
        assert other.base == paths.ROOT / "build" / tree / name
        for attr in ("inputs", "raw", "tables", "figures", "notebooks", "book_src", "html", "logs"):
            mine, theirs = getattr(own, attr), getattr(other, attr)
            assert theirs.is_relative_to(other.base), attr
            assert not theirs.is_relative_to(mine) and not mine.is_relative_to(theirs), attr
    assert paths.Profile("full", tree=tree).raw != paths.Profile("quick", tree=tree).raw


def test_the_tree_comes_from_the_environment_the_snakefile_sets(monkeypatch):
    monkeypatch.setenv(paths.TREE_ENV, "runs/r1")
    prof = paths.as_profile("quick")
    assert prof.tree == "runs/r1" and prof.shipped_run == "r1" and prof.machine is None
    monkeypatch.setenv(paths.TREE_ENV, "machines/no-aes")
    assert paths.Profile("full").machine == "no-aes" and paths.Profile("full").shipped_run is None
    monkeypatch.delenv(paths.TREE_ENV)
    assert paths.Profile("full").tree == "" and paths.Profile("full").base is None


@pytest.mark.parametrize("tree", ["runs", "runs/", "elsewhere/x", "runs/../x", "runs/a/b", "runs/Upper", "/abs"])
def test_a_bad_tree_is_refused_naming_it(tree):
    with pytest.raises(ValueError, match="tree must be"):
        paths.Profile("quick", tree=tree)


def test_a_run_folder_is_data_runs_name_and_bad_names_are_refused():
    assert paths.run_dir("amd-epyc-2026-11-28") == paths.ROOT / "data" / "runs" / "amd-epyc-2026-11-28"
    for bad in ("", "../x", "a/b", "A", ".hidden", "x" * 81):
        with pytest.raises(ValueError, match="run must be a name"):
            paths.run_dir(bad)
