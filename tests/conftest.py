"""Shared fixtures of the test suite.

Each block below belongs to one part of the project; keep them apart.
"""
from __future__ import annotations

import pytest

import pipeline_tree

# ============================================================================================
# Pipeline trees: the pipeline tests run in temporary copies of the tree (tests/pipeline_tree.py)
# ============================================================================================
#
# ``quick_tree`` is the quick pipeline run once per session in a temporary copy of the tree;
# a test that changes a tree works on ``pipeline_tree.copy_tree(quick_tree, tmp_path)``.
# ``make test`` never writes into the checkout's ``data/`` or ``build/``: the session guard
# below fails the run if a test did.


@pytest.fixture(scope="session")
def quick_tree(tmp_path_factory) -> pipeline_tree.Tree:
    """A temporary tree in which the whole quick profile has run (once per session)."""
    return pipeline_tree.build_quick_tree(tmp_path_factory.mktemp("quick") / "tree")


@pytest.fixture(scope="session", autouse=True)
def checkout_outputs_untouched():
    """No test writes, changes or deletes a file under the checkout's ``data/`` or ``build/``."""
    before = pipeline_tree.checkout_outputs()
    yield
    after = pipeline_tree.checkout_outputs()
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"the tests wrote into the checkout's data/ or build/: {changed[:20]}"
