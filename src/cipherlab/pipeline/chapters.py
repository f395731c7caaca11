"""The chapter manifest (``workflow/chapters.yaml``): the one list of the book's chapters.

The Snakefile builds each chapter's rules from it, and Python code (the config
loader, the notebook runner, the book, the tests) reads the same list through
:func:`load`.  The manifest is validated against
``workflow/schemas/chapters.schema.yaml`` (the schema the Snakefile passes to
Snakemake's ``validate()``), then checked for what a schema cannot say: every
name declared once, the notebooks and the chapter's code present, no measuring
notebook without its entry.

A table is a *timing table* (it may differ between two runs of a profile) when
and only when the manifest lists it under ``timing_tables``
(:func:`is_timing_table`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from cipherlab.pipeline import paths  #: The manifest and its schema.
MANIFEST = paths.WORKFLOW_DIR / "chapters.yaml"
MANIFEST_SCHEMA = paths.WORKFLOW_DIR / "schemas" / "chapters.schema.yaml"
#: Default resources of the generated rules (a manifest entry may set ``threads`` and ``mem_mb``).
CHAPTER_MEM_MB = 4000


@dataclass(frozen=True)
class Measure:
    """A chapter's measuring notebook: what it is about, the raw files it writes, extra code it reads."""

    about: str
    raw: tuple[str, ...]
    code: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chapter:
    """One manifest entry.  ``name`` is the chapter, its config section, its rule and its page."""

    name: str
    about: str
    tables: tuple[str, ...]
    timing_tables: tuple[str, ...]
    figures: tuple[str, ...]
    measure: "Measure | None" = None
    code: tuple[str, ...] = ()
    paper: tuple[str, ...] = ()
    #: Globs of files under config/ (besides the profiles) that the chapter reads.
    config: tuple[str, ...] = ()
    threads: int = 1
    mem_mb: int = CHAPTER_MEM_MB

    @property
    def section(self) -> str:
        """The config section of both profiles that holds the chapter's parameters."""
        return self.name

    @property
    def notebook(self) -> Path:
        return paths.NOTEBOOKS_DIR / f"{self.name}.ipynb"

    @property
    def measure_name(self) -> "str | None":
        """The measuring rule and page, ``<name>_measure``, or None."""
        return f"{self.name}_measure" if self.measure else None

    @property
    def measure_notebook(self) -> "Path | None":
        return paths.NOTEBOOKS_DIR / f"{self.measure_name}.ipynb" if self.measure else None

    @property
    def raw(self) -> tuple[str, ...]:
        return self.measure.raw if self.measure else ()

    @property
    def all_tables(self) -> tuple[str, ...]:
        return self.tables + self.timing_tables

    @property
    def evidence(self) -> "str | None":
        """``evidence_<name>`` when the chapter writes evidence for the verdict page, else None."""
        name = f"evidence_{self.name}"
        return name if name in self.all_tables else None

    @property
    def pages(self) -> tuple[str, ...]:
        """The book pages: the chapter, then its measuring notebook (in the appendix)."""
        return (self.name,) + ((self.measure_name,) if self.measure else ())


#: Where variant descriptions live: ``config/variants/<variant>.yaml`` (:mod:`cipherlab.ciphers.described`).
VARIANTS_DIR = paths.VARIANTS_DIR
#: A variant's name: the stem of its file, and part of its rule, page and file names.
VARIANT_NAME = r"[a-z0-9][a-z0-9-]*"


@dataclass(frozen=True)
class Variants:
    """The variant chapters: one notebook, ``notebooks/variant.ipynb``, run once per variant.

    Every name below is a suffix: the files of variant ``v`` are
    ``variant_<v>_<suffix>`` (raw files, tables, figures) and its page is
    ``variant_<v>``.  The config section is ``variant`` (battery parameters, and
    ``names``: the variants a full run builds).
    """

    about: str
    raw: tuple[str, ...]
    tables: tuple[str, ...]
    timing_tables: tuple[str, ...]
    figures: tuple[str, ...]
    code: tuple[str, ...] = ()
    threads: int = 1
    mem_mb: int = CHAPTER_MEM_MB
    section: str = "variant"

    @property
    def notebook(self) -> Path:
        return paths.NOTEBOOKS_DIR / f"{self.section}.ipynb"

    @staticmethod
    def page(variant: str) -> str:
        """The rule's executed notebook and the book page of ``variant``: ``variant_<variant>``."""
        return f"variant_{variant}"

    @staticmethod
    def stem(variant: str, suffix: str) -> str:
        """File stem of one raw file, table or figure of ``variant``."""
        return f"variant_{variant}_{suffix}"

    def timing_table_stems(self, variant: str) -> tuple[str, ...]:
        return tuple(self.stem(variant, t) for t in self.timing_tables)

    def table_stems(self, variant: str) -> tuple[str, ...]:
        return tuple(self.stem(variant, t) for t in self.tables + self.timing_tables)


def variant_names(root: "Path | None" = None) -> tuple[str, ...]:
    """Every variant described in ``config/variants/`` (file stems, sorted)."""
    folder = Path(root) / "config" / "variants" if root else VARIANTS_DIR
    return tuple(sorted(p.stem for p in folder.glob("*.yaml"))) if folder.is_dir() else ()


def check_variant_names(names, root: "Path | None" = None, where: str = "variant.names") -> tuple[str, ...]:
    """``names`` if each has its file ``config/variants/<name>.yaml``; else ``ValueError`` naming them."""
    available = variant_names(root)
    missing = [n for n in names if n not in available]
    if missing:
        raise ValueError(f"{where}: no file config/variants/<name>.yaml for {missing}; "
                         f"described variants: {list(available)}")
    return tuple(names)


@dataclass(frozen=True)
class Manifest:
    chapters: tuple[Chapter, ...]
    pipeline_tables: tuple[str, ...]
    pipeline_timing_tables: tuple[str, ...]
    variants: "Variants | None" = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.chapters)

    def chapter(self, name: str) -> Chapter:
        for c in self.chapters:
            if c.name == name:
                return c
        raise ValueError(f"chapter must be one of {self.names}, got {name!r}")

    @property
    def timing_tables(self) -> frozenset[str]:
        return frozenset(self.pipeline_timing_tables).union(*(c.timing_tables for c in self.chapters))

    @property
    def tables(self) -> frozenset[str]:
        """Every declared table, timing or not."""
        return self.timing_tables.union(self.pipeline_tables, *(c.tables for c in self.chapters))


def schema() -> dict[str, Any]:
    with open(MANIFEST_SCHEMA, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def read(path: "str | Path" = MANIFEST) -> dict[str, Any]:
    """The parsed manifest, not yet validated."""
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh) or {}


def validate(data: Any, where: str = "workflow/chapters.yaml") -> None:
    """Check the manifest against its schema; ``ValueError`` naming every bad key."""
    sch = schema()
    errors = sorted(jsonschema.validators.validator_for(sch)(sch).iter_errors(data),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        lines = [f"{'.'.join(map(str, e.absolute_path)) or '(top level)'}: {e.message}" for e in errors]
        raise ValueError(f"{where}: invalid chapter manifest ({len(errors)} problem(s)):\n  " + "\n  ".join(lines))


def _chapter(entry: dict[str, Any]) -> Chapter:
    m = entry.get("measure")
    measure = Measure(m["about"], tuple(m["raw"]), tuple(m.get("code", ()))) if m else None
    return Chapter(name=entry["name"], about=entry["about"], tables=tuple(entry["tables"]),
                   timing_tables=tuple(entry["timing_tables"]), figures=tuple(entry["figures"]),
                   measure=measure, code=tuple(entry.get("code", ())), paper=tuple(entry.get("paper", ())),
                   config=tuple(entry.get("config", ())),
                   threads=int(entry.get("threads", 1)), mem_mb=int(entry.get("mem_mb", CHAPTER_MEM_MB)))


def _once(kind: str, owners: dict[str, list[str]]) -> list[str]:
    return [f"{kind} {name!r} is declared {len(who)} times ({', '.join(who)})"
            for name, who in owners.items() if len(who) > 1]


def check(manifest: Manifest, root: "Path | None" = None) -> None:
    """What the schema cannot say: each name once, notebooks and code present; ``ValueError`` listing all."""
    root = Path(root or paths.ROOT)
    problems: list[str] = []
    tables: dict[str, list[str]] = {}
    for t in manifest.pipeline_tables + manifest.pipeline_timing_tables:
        tables.setdefault(t, []).append("pipeline")
    raws: dict[str, list[str]] = {}
    figures: dict[str, list[str]] = {}
    chapters: dict[str, list[str]] = {}
    reserved = {"all", "book", "verdicts", "findings", "environment", "selfcheck", "input_file",
                "intro", "methods", "references"}
    for c in manifest.chapters:
        chapters.setdefault(c.name, []).append(f"entry {len(chapters) + 1}")
        if c.name in reserved:
            problems.append(f"chapter {c.name!r}: the name is taken by the pipeline's own rules or pages")
        for t in c.all_tables:
            tables.setdefault(t, []).append(c.name)
        for r in c.raw:
            raws.setdefault(r, []).append(c.name)
        for f in c.figures:
            figures.setdefault(f, []).append(c.name)
        notebooks = [c.notebook] + ([c.measure_notebook] if c.measure else [])
        for nb in notebooks:
            nb = root / nb.relative_to(paths.ROOT)
            if not nb.is_file():
                problems.append(f"chapter {c.name!r}: notebook {nb.relative_to(root)} does not exist")
        orphan = root / "notebooks" / f"{c.name}_measure.ipynb"
        if not c.measure and orphan.is_file():
            problems.append(f"chapter {c.name!r}: {orphan.relative_to(root)} exists but the entry has no "
                            "`measure:` (declare its raw files there)")
        exp = root / "src" / "cipherlab" / "experiments"
        if (root / "src" / "cipherlab").is_dir() and not ((exp / f"{c.name}.py").is_file()
                                                           or (exp / c.name / "__init__.py").is_file()):
            problems.append(f"chapter {c.name!r}: no library code src/cipherlab/experiments/{c.name}.py "
                            f"or package experiments/{c.name}/")
    if manifest.variants:
        v = manifest.variants
        if v.section in chapters:
            problems.append(f"chapter {v.section!r}: the name is taken by the variant chapters' config section")
        nb = root / v.notebook.relative_to(paths.ROOT)
        if not nb.is_file():
            problems.append(f"variants: notebook {nb.relative_to(root)} does not exist")
        for kind, names in (("table", v.tables + v.timing_tables), ("raw file", v.raw), ("figure", v.figures)):
            problems += [f"variants: {kind} {n!r} is declared {names.count(n)} times" for n in sorted(set(names))
                         if names.count(n) > 1]
    problems += _once("chapter", chapters) + _once("table", tables) + _once("raw file", raws)
    problems += _once("figure", figures)
    if problems:
        raise ValueError("workflow/chapters.yaml: " + "; ".join(problems))


def from_data(data: dict[str, Any], root: "Path | None" = None) -> Manifest:
    """A validated and checked :class:`Manifest` from the parsed YAML."""
    validate(data)
    v = data.get("variants")
    variants = Variants(about=v["about"], raw=tuple(v["raw"]), tables=tuple(v["tables"]),
                        timing_tables=tuple(v["timing_tables"]), figures=tuple(v["figures"]),
                        code=tuple(v.get("code", ())), threads=int(v.get("threads", 1)),
                        mem_mb=int(v.get("mem_mb", CHAPTER_MEM_MB))) if v else None
    manifest = Manifest(chapters=tuple(_chapter(e) for e in data["chapters"]),
                        pipeline_tables=tuple(data["pipeline"]["tables"]),
                        pipeline_timing_tables=tuple(data["pipeline"]["timing_tables"]), variants=variants)
    check(manifest, root)
    return manifest


@lru_cache(maxsize=4)
def _load(path: str) -> Manifest:
    return from_data(read(path))


def load(path: "str | Path | None" = None) -> Manifest:
    """The manifest of this tree (``workflow/chapters.yaml``), validated; cached per path."""
    return _load(str(path or MANIFEST))


def names() -> tuple[str, ...]:
    """The chapters, in reading order."""
    return load().names


def evidence_chapters() -> tuple[str, ...]:
    """The chapters whose evidence (``evidence_<name>``) the verdict page reads."""
    return tuple(c.name for c in load().chapters if c.evidence)


def is_timing_table(name: str) -> bool:
    """Whether table ``name`` may differ between two runs: the manifest lists it under ``timing_tables``.

    Every other declared table must be byte-identical between two runs of a
    profile (``tests/test_pipeline.py`` checks it); an undeclared name is an error.
    A variant's table ``variant_<v>_<suffix>`` is a timing table when its suffix is.
    """
    manifest = load()
    if manifest.variants and name.startswith("variant_"):
        for suffix in manifest.variants.tables + manifest.variants.timing_tables:
            if name.endswith(f"_{suffix}") and len(name) > len(f"variant__{suffix}"):
                return suffix in manifest.variants.timing_tables
    if name not in manifest.tables:
        raise ValueError(f"table {name!r} is not declared in workflow/chapters.yaml "
                         "(under a chapter's tables or timing_tables, or pipeline)")
    return name in manifest.timing_tables
