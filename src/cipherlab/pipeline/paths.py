"""Every path cipherlab reads or writes, in one place.

The repository root is found from ``CIPHERLAB_ROOT`` or by walking up from this
file to the directory holding ``pyproject.toml``.  Outputs are split by
*profile* (``full`` or ``quick``) so that results of one profile can never end
up in the book of another.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROFILES = ("full", "quick")


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
#: imports nothing of cipherlab, reads the same file beside it (cipherlab.ciphers.described.SCHEMA_FILE).
VARIANT_SCHEMA = Path(__file__).resolve().parents[1] / "ciphers" / "schemas" / "variant.schema.yaml"
#: The test photograph the security and MAES chapters encrypt (cipherlab.pipeline.inputs.test_image).
TEST_IMAGE = Path(__file__).resolve().parents[1] / "data" / "grace_hopper.jpg"
#: Variant descriptions (one YAML file each) and the papers' ciphers described the same way.
VARIANTS_DIR = CONFIG_DIR / "variants"
CIPHER_DESCRIPTIONS_DIR = CONFIG_DIR / "ciphers"


def variant_file(name: str) -> Path:
    """The description of variant ``name``: ``config/variants/<name>.yaml`` (``cipherlab.ciphers.described``)."""
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
    """Output locations of one profile.

    Parameters
    ----------
    name : {"full", "quick"}
        The profile.
    """

    name: str

    def __post_init__(self) -> None:
        check_profile(self.name)

    @property
    def inputs(self) -> Path:
        return DATA_DIR / "inputs" / self.name

    @property
    def raw(self) -> Path:
        return DATA_DIR / "raw" / self.name

    @property
    def tables(self) -> Path:
        return DATA_DIR / "tables" / self.name

    @property
    def figures(self) -> Path:
        return DATA_DIR / "figures" / self.name

    @property
    def build(self) -> Path:
        return ROOT / "build" / self.name

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
        return ROOT / "logs" / self.name

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
