"""Every path cipherlab reads or writes, in one place.

The repository root is found from ``CIPHERLAB_ROOT`` or by walking up from this
file to the directory holding ``pyproject.toml``.  Outputs are split by
*profile* (``full`` or ``quick``) so that results of one profile can never end
up in the book of another, and by *tree*: the user's own runs write to ``data/``
and ``build/``; a book built from a shipped run (``data/runs/<run>/``) and a run
of an emulated machine (a machine without AES instructions) write to a tree of
their own under ``build/`` (:class:`Profile`), so neither ever overwrites the
user's ``data/*/<profile>`` or ``build/<profile>``.

A profile's outputs in the user's tree (:class:`Profile`'s attributes): ``data/inputs/<profile>/`` (generated
inputs), ``data/raw/<profile>/`` (``<experiment>.csv`` and its record ``<experiment>.meta.json``,
:mod:`cipherlab.pipeline.results`), ``data/tables/<profile>/<name>.csv``, ``data/figures/<profile>/<name>.png``
and ``.svg``, ``build/<profile>/notebooks/`` (executed copies), ``build/<profile>/book/`` and its
``_build/html/``, ``logs/<profile>/``.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

PROFILES = ("full", "quick")
#: The environment variable naming the output tree (:class:`Profile`); the Snakefile sets it for every job.
TREE_ENV = "CIPHERLAB_TREE"
#: A run's or an emulated machine's name: lower-case letters, digits, ``.``, ``_`` and ``-``.
NAME_PATTERN = r"[a-z0-9][a-z0-9._-]{0,79}"
#: The kinds of output tree besides the user's own: a book built from a shipped run, an emulated machine's run.
TREE_KINDS = ("runs", "machines")


def _find_root() -> Path:
    env = os.environ.get("CIPHERLAB_ROOT")
    if env:
        return Path(env).resolve()
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file() and (parent / "src" / "cipherlab").is_dir():
            return parent
    # Installed without a checkout: work relative to the current directory.
    return Path.cwd().resolve()


ROOT = _find_root()
CONFIG_DIR = ROOT / "config"
NOTEBOOKS_DIR = ROOT / "notebooks"
BOOK_DIR = ROOT / "book"
WORKFLOW_DIR = ROOT / "workflow"
DATA_DIR = ROOT / "data"
PAPER_DATA_DIR = DATA_DIR / "paper"
#: Every claim of the four papers (and our extensions), one row each: the decision engine's input.
CLAIMS_FILE = PAPER_DATA_DIR / "claims.csv"
#: The declared verdict rules and their parameters, the same for every chapter and profile.
VERDICT_RULES_FILE = CONFIG_DIR / "verdicts.yaml"
PAPERS_TEXT_DIR = Path(os.environ.get("CIPHERLAB_PAPERS", ROOT.parent / "shared" / "papers"))
# The library's source in the checkout (what the pipeline tracks as code); the
# package's own directory when installed without a checkout.
SRC_DIR = ROOT / "src" / "cipherlab" if (ROOT / "src" / "cipherlab").is_dir() else Path(__file__).resolve().parents[1]
VECTORS_DIR = Path(__file__).resolve().parents[1] / "ciphers" / "vectors"
# Package data: installed with the package (pyproject.toml, package-data), found beside its code,
# never through the checkout, so that an installed wheel has them too.
#: The schema of a variant description (config/variants/<name>.yaml); the cipher core, which
#: imports nothing of cipherlab, reads the same file beside it (cipherlab.ciphers.variant_files.SCHEMA_FILE).
VARIANT_SCHEMA = Path(__file__).resolve().parents[1] / "ciphers" / "schemas" / "variant.schema.yaml"
#: The test photograph the security and MAES chapters encrypt (cipherlab.pipeline.inputs.test_image).
TEST_IMAGE = Path(__file__).resolve().parents[1] / "data" / "grace_hopper.jpg"
#: Variant descriptions (one YAML file each) and the papers' ciphers described the same way.
VARIANTS_DIR = CONFIG_DIR / "variants"
CIPHER_DESCRIPTIONS_DIR = CONFIG_DIR / "ciphers"
#: Shipped runs: one folder per run, ``data/runs/<machine>-<date>/`` (raw files, their records, the
#: run's evidence and its machine card; :mod:`cipherlab.pipeline.runs`).
RUNS_DIR = DATA_DIR / "runs"
#: The output trees of books built from shipped runs and of emulated machines' runs (``build/<kind>/<name>/``).
TREES_DIR = ROOT / "build"


def run_dir(name: str) -> Path:
    """The folder of the shipped run ``name``: ``data/runs/<name>/``."""
    return RUNS_DIR / check_name("run", name)


def check_name(what: str, name: str) -> str:
    """``name`` if it is a valid run or machine name (:data:`NAME_PATTERN`), else a ``ValueError`` naming ``what``."""
    if not isinstance(name, str) or not re.fullmatch(NAME_PATTERN, name):
        raise ValueError(f"{what} must be a name of lower-case letters, digits, '.', '_' and '-' "
                         f"(at most 80, starting with a letter or digit), got {name!r}")
    return name


def check_tree(tree: str) -> str:
    """``tree`` if it is ``""`` (the user's own) or ``<kind>/<name>`` with a kind of :data:`TREE_KINDS`."""
    if tree == "":
        return tree
    kind, _, name = str(tree).partition("/")
    if kind not in TREE_KINDS or not re.fullmatch(NAME_PATTERN, name):
        raise ValueError(f"tree must be empty (the user's own) or <kind>/<name> with kind one of {TREE_KINDS} "
                         f"and a name of lower-case letters, digits, '.', '_' and '-', got {tree!r}")
    return tree


def tree_from_env() -> str:
    """The output tree this process writes (:data:`TREE_ENV`, set by the Snakefile; ``""``: the user's own)."""
    return check_tree(os.environ.get(TREE_ENV, "").strip())


def variant_file(name: str) -> Path:
    """The description of variant ``name``: ``config/variants/<name>.yaml`` (``cipherlab.ciphers.variant_files``)."""
    return VARIANTS_DIR / f"{name}.yaml"


def config_file(profile: str) -> Path:
    """The config file of a profile: ``config/config.yaml`` or ``config/quick.yaml``."""
    check_profile(profile)
    return CONFIG_DIR / ("config.yaml" if profile == "full" else f"{profile}.yaml")


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    return profile


@dataclass(frozen=True)
class Profile:
    """Output locations of one profile, in one output tree.

    Parameters
    ----------
    name : {"full", "quick"}
        The profile.
    tree : str, optional
        ``""``: the user's own trees (``data/raw/<profile>/``, ..., ``build/<profile>/``, ``logs/<profile>/``);
        ``runs/<run>``: the book built from the shipped run ``data/runs/<run>/``; ``machines/<name>``: the
        runs of an emulated machine (``machines/no-aes``). Such a tree lives in ``build/<tree>/<profile>/``
        (``inputs``, ``raw``, ``tables``, ``figures``, ``notebooks``, ``book``, ``logs``). By default the tree
        this process was started in (:data:`TREE_ENV`, which the Snakefile sets for every job).
    """

    name: str
    tree: str = field(default_factory=tree_from_env)

    def __post_init__(self) -> None:
        check_profile(self.name)
        check_tree(self.tree)

    @property
    def base(self) -> "Path | None":
        """The root of this profile's outputs in a tree of its own (``build/<tree>/<profile>/``); None: the user's own."""
        return TREES_DIR / self.tree / self.name if self.tree else None

    @property
    def shipped_run(self) -> "str | None":
        """The shipped run this tree's book is built from (tree ``runs/<run>``), or None."""
        kind, _, name = self.tree.partition("/")
        return name if kind == "runs" else None

    @property
    def machine(self) -> "str | None":
        """The emulated machine this tree's runs belong to (tree ``machines/<name>``), or None."""
        kind, _, name = self.tree.partition("/")
        return name if kind == "machines" else None

    def _data(self, kind: str) -> Path:
        return self.base / kind if self.base else DATA_DIR / kind / self.name

    @property
    def inputs(self) -> Path:
        return self._data("inputs")

    @property
    def raw(self) -> Path:
        return self._data("raw")

    @property
    def tables(self) -> Path:
        return self._data("tables")

    @property
    def figures(self) -> Path:
        return self._data("figures")

    @property
    def build(self) -> Path:
        return self.base if self.base else ROOT / "build" / self.name

    @property
    def notebooks(self) -> Path:
        return self.build / "notebooks"

    @property
    def book_src(self) -> Path:
        return self.build / "book"

    @property
    def html(self) -> Path:
        return self.book_src / "_build" / "html"

    @property
    def logs(self) -> Path:
        return self.base / "logs" if self.base else ROOT / "logs" / self.name

    def raw_csv(self, experiment: str) -> Path:
        return self.raw / f"{experiment}.csv"

    def raw_meta(self, experiment: str) -> Path:
        return self.raw / f"{experiment}.meta.json"

    def table(self, name: str) -> Path:
        return self.tables / f"{name}.csv"

    def figure(self, name: str, ext: str = "png") -> Path:
        return self.figures / f"{name}.{ext}"

    def input_file(self, name: str) -> Path:
        return self.inputs / name

    def executed_notebook(self, name: str) -> Path:
        return self.notebooks / f"{name}.ipynb"


def as_profile(profile: "str | Profile") -> Profile:
    return profile if isinstance(profile, Profile) else Profile(profile)
