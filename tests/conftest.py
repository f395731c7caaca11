"""Shared fixtures of the test suite.

Each block below belongs to one part of the project; keep them apart.
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import pandas as pd
import pytest

import cipherlab
import pipeline_tree
from cipherlab import names
from cipherlab.ciphers.modes import available_impls
from cipherlab.ciphers.registry import InsecureCipherWarning, cipher_names, lookup
from cipherlab.experiments.maes import common, dependency, entropy, evidence, keyspace, measure
from cipherlab.experiments.maes import image as figure8
from cipherlab.names import MODES
from maes_synthetic import IV, KEY

# ============================================================================================
# Cipher core: fixtures parametrized over the cipher registry
# ============================================================================================
#
# A test that takes ``cipher`` runs once per registered name (``maes`` and its variants
# ``maes-1`` and ``maes-2`` included); one that takes ``cipher_style`` once per registered
# cipher x cipherlab style it has and this CPU runs (``aesni`` only with AES-NI). A cipher
# registered tomorrow is tested by every such test without editing it.

#: cipherlab's own kernels (PyCryptodome, the outside reference, is AES only).
OWN_STYLES = tuple(s for s in names.OWN_STYLES if s in available_impls())
#: Every style AES runs in here, PyCryptodome's included.
AES_STYLES = tuple(s for s in lookup("aes").styles if s in available_impls())
CIPHER_STYLES = [(c, s) for c in cipher_names(families=True) for s in lookup(c).styles if s in OWN_STYLES]


@pytest.fixture(params=cipher_names(families=True))
def cipher(request) -> str:
    """Every registered cipher name."""
    return request.param


@pytest.fixture(params=CIPHER_STYLES, ids=[f"{c}-{s}" for c, s in CIPHER_STYLES])
def cipher_style(request) -> tuple[str, str]:
    """Every registered cipher x each of cipherlab's styles it has (and this CPU runs)."""
    return request.param


@pytest.fixture
def quiet_research_warning():
    """Silence :class:`cipherlab.InsecureCipherWarning` (tests create research ciphers on purpose).

    Use it module-wide with ``pytestmark = pytest.mark.usefixtures("quiet_research_warning")``.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        yield


@pytest.fixture(scope="module")
def module_registry():
    """A copy of the cipher registry for one test module: the variants it registers are dropped after it.

    Use it module-wide with ``pytestmark = pytest.mark.usefixtures("module_registry", ...)``.
    """
    from cipherlab.ciphers import registry
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
        yield


# ============================================================================================
# MAES chapter: the test image and a short measurement, shared by tests/test_maes_*.py
# ============================================================================================
#
# Module-scoped as they were in the one file they came from: each test file that takes them builds them once.

@pytest.fixture(scope="module")
def image():
    return figure8.load_test_image()


@pytest.fixture(scope="module")
def short_run():
    """Every timing of the chapter, tiny and batched: the frames the chapter reads."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        return measure.measure_all(KEY, np.zeros(64, dtype=np.uint8), options=common.maes_options(), impls=names.SOFTWARE_STYLES,
                             trials_keyexp=3, trials_stage=3, trials_block=3, trials_bulk=3, warmup=1,
                             stage_blocks=16, iv=IV, min_trial_seconds=2e-4, progress=False, trials_steps=3,
                             steps_states=16)


@pytest.fixture(scope="module")
def small_frames(image, short_run):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        return _small_frames(image, short_run)


def _small_frames(image, short_run):
    small = np.ascontiguousarray(image[:64, :64])
    ims = figure8.image_ciphertexts(small, KEY, IV)
    ctrl = {("aes", md): figure8.encrypt_image(small, "aes", md, entropy.second_key(KEY), IV) for md in MODES}
    routes = {c: dependency.byte_routes(c, KEY) for c in common.CIPHERS}
    dep = pd.concat([dependency.byte_dependency(c, KEY, n_blocks=8) for c in common.CIPHERS])
    return evidence.Frames(short_run["maes_keyexp"], short_run["maes_stage"], short_run["maes_block"],
                    short_run["maes_bulk"], entropy.entropy_table(ims), entropy.entropy_comparison(ims, ctrl), dep,
                    keyspace.keyspace_table(), figure8.leak_table(ims, routes=routes), steps=short_run["maes_steps"])


# ============================================================================================
# Pipeline trees: the pipeline tests run in temporary copies of the tree (tests/pipeline_tree.py)
# ============================================================================================
#
# ``quick_tree`` is the quick pipeline run once per test run in a temporary copy of the tree,
# shared by every pytest-xdist worker; it is never changed: a test that changes a tree works on
# ``pipeline_tree.copy_tree(quick_tree, tmp_path)``.  ``make test`` never writes into the
# checkout's ``data/`` or ``build/``: the session guard below fails the run if a test did.


def _quick_folder(tmp_path_factory) -> "os.PathLike[str]":
    """Where the test run's quick tree is built: the run's temporary folder (the parent of each xdist worker's)."""
    base = tmp_path_factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "quick"


@pytest.fixture(scope="session")
def quick_tree(tmp_path_factory) -> pipeline_tree.Tree:
    """A temporary tree in which the whole quick profile has run: once per test run, built in the background
    from the end of the collection on (``pytest_collection_finish``), or by the first worker that asks for
    it; the others wait for it and reuse it."""
    return pipeline_tree.shared_quick_tree(_quick_folder(tmp_path_factory))


@pytest.fixture(scope="session", autouse=True)
def checkout_outputs_untouched():
    """No test writes, changes or deletes a file under the checkout's ``data/`` or ``build/``."""
    before = pipeline_tree.checkout_outputs()
    yield
    after = pipeline_tree.checkout_outputs()
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert not changed, f"the tests wrote into the checkout's data/ or build/: {changed[:20]}"


#: The test files that run the longest after the quick tree is built (``make test --durations``: forced
#: re-runs, other trees built from the quick one), longest first.  The run starts them first, so that the
#: two workers end together; the other files that read the quick tree follow, in their order.
LONG_AFTER_THE_TREE = ("test_pipeline.py", "test_shipped.py", "test_notebooks_run_all.py", "test_no_aesni.py",
                       "test_workflow.py", "test_book_browser.py", "test_book_pdf.py", "test_cluster.py")
#: The longest test of its file: it runs first in it (a worker is given its next file when two tests of the
#: current one are left, and that file would wait behind it).
LONG_FIRST_IN_FILE = ("test_two_quick_runs_give_byte_identical_non_timing_tables",)


def _uses_quick_tree(item) -> bool:
    return "quick_tree" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items):
    """A test that reads the quick pipeline run is a pipeline test (``-m "not pipeline"``, ``make test-unit``,
    leaves it out), whether or not its module says so.

    The order (kept by ``make test``'s ``--no-loadscope-reorder``): first every file that does not read the
    quick tree (they run while it builds in the background), then those that do, the longest first."""
    tree_files = set()
    for item in items:
        if _uses_quick_tree(item):
            tree_files.add(item.path)
            if not item.get_closest_marker("pipeline"):
                item.add_marker(pytest.mark.pipeline)

    def order(item):
        if item.path not in tree_files:
            return (0, 0, 0)
        name = item.path.name
        rank = LONG_AFTER_THE_TREE.index(name) if name in LONG_AFTER_THE_TREE else len(LONG_AFTER_THE_TREE)
        return (1, rank, 0 if getattr(item, "originalname", "") in LONG_FIRST_IN_FILE else 1)

    items.sort(key=order)   # stable: the files keep their order within each rank, the tests theirs


def pytest_collection_finish(session):
    """Start building the quick tree as soon as the tests are known, if one of them reads it: it builds
    while the tests that do not need it run."""
    if session.config.option.collectonly or not any(_uses_quick_tree(i) for i in session.items):
        return
    pipeline_tree.start_quick_tree(_quick_folder(session.config._tmp_path_factory))


def pytest_sessionfinish(session):
    """The test run is over (the controller of the xdist workers, or the only process): end a background
    build of the quick tree that still runs (an interrupted run, or one stopped before a test needed it)."""
    if not hasattr(session.config, "workerinput"):
        pipeline_tree.stop_quick_tree(_quick_folder(session.config._tmp_path_factory))
