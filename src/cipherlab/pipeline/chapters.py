"""The book's chapters: each declared once, by its own package.

A chapter is a package ``cipherlab.experiments.<name>`` with a module ``chapter.py`` that
declares ``CHAPTER`` (a :class:`Chapter`): its parameters (a ``Params`` dataclass,
:mod:`cipherlab.pipeline.params`), its outputs (raw files, tables, timing tables, figures),
the functions that measure and build them, and the findings it writes.  The variant
package declares ``VARIANTS`` (a :class:`Variants`) the same way.  :func:`load` finds the
declarations (the one place this layer looks up the packages above it, as a plugin
registry does) and checks what a declaration alone cannot: names unique across the book,
the notebooks present.

Everything else is derived from the declarations: the Snakemake rules
(``workflow/rules/chapters.smk``), the config schema's chapter sections
(:mod:`cipherlab.pipeline.config`), the notebooks' parameters, the book's table of
contents and the findings page.

A table is a *timing table* (it may differ between two runs of a profile) when and only
when its chapter lists it under ``timing_tables`` (:func:`is_timing_table`).
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from cipherlab.pipeline import paths
from cipherlab.pipeline import params as _params

#: Tables of the pipeline's own rules (workflow/rules/core.smk, workflow/rules/book.smk).
PIPELINE_TABLES: tuple[str, ...] = ("selfcheck",)
#: ... of which these follow the timings (the verdicts on speed; the comparison with the shipped runs' machines).
PIPELINE_TIMING_TABLES: tuple[str, ...] = ("verdicts", "machines")
#: Raw files of the pipeline's own rules (the size sweep of the Environment page, rule ``bench_sweep``).
PIPELINE_RAW: tuple[str, ...] = ("bench_sweep",)
#: Default resources of the generated rules (a chapter may set ``threads`` and ``mem_mb``).
CHAPTER_MEM_MB = 4000
#: The package whose subpackages are chapters (those with a ``chapter`` module).
PACKAGE = "cipherlab.experiments"
#: Names a chapter cannot take: the pipeline's own rules and pages.
RESERVED = frozenset({"all", "book", "verdicts", "findings", "environment", "selfcheck", "input_file",
                      "intro", "methods", "references", "report", "pdf", "bench_sweep", "variant", "machines",
                      "shipped_raw"})


class Lazy:
    """A function named ``"module:function"`` inside a chapter's package, imported when first called.

    A declaration names its functions this way, so that it imports nothing of its own package:
    it stays light (the Snakefile reads every declaration to make the rules) and every module
    of the package may read it (its ``Params``, its papers) without an import circle.
    """

    def __init__(self, package: str, ref: str) -> None:
        module, sep, name = ref.partition(":")
        if not (sep and module and name):
            raise ValueError(f"a chapter's function must be named 'module:function' inside its package, got {ref!r}")
        self.package, self.module, self.name = package, module, name
        self._function: "Callable[..., Any] | None" = None

    @property
    def function(self) -> "Callable[..., Any]":
        if self._function is None:
            module = importlib.import_module(f"{self.package}.{self.module}")
            function = getattr(module, self.name, None)
            if not callable(function):
                raise ValueError(f"{self.package}.{self.module} has no function {self.name!r}")
            self._function = function
        return self._function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Lazy({self.package}.{self.module}:{self.name})"


def _lazy(package: str, ref: Any) -> Any:
    return Lazy(package, ref) if isinstance(ref, str) else ref


@dataclass(frozen=True)
class Measure:
    """A chapter's timing run: what it is about, the raw files it writes, and ``run`` (``"module:function"``
    in the chapter's package, or a callable): ``run(run) -> {raw name: DataFrame or (DataFrame, extra
    provenance)}``; ``code`` are extra globs under src/cipherlab/ it reads (editing one re-runs it)."""

    about: str
    raw: tuple[str, ...]
    run: "Callable[..., Mapping[str, Any]] | str | None" = field(default=None, compare=False, repr=False)
    code: tuple[str, ...] = ()


@dataclass(frozen=True)
class FindingsFigure:
    """A figure (any chapter's, by name) that a chapter's findings show, with its caption (markdown)."""

    name: str
    caption: str = ""


@dataclass(frozen=True)
class Chapter:
    """One chapter.  ``name`` is its package, its config section, its rule and its page.

    Its functions (``build``, ``findings``, the measure's ``run``) are named ``"module:function"`` inside
    the package (:class:`Lazy`), or given as callables:

    - ``measure.run(run) -> {raw name: DataFrame or (DataFrame, extra provenance)}``;
    - ``build(run, raw) -> {table or figure name: DataFrame or matplotlib Figure}``, every declared name;
    - ``findings(tables) -> [markdown paragraph or FindingsFigure]``, the section of ``papers`` on the
      findings page, from the tables named in ``findings_tables``.
    """

    name: str
    about: str
    params: type
    tables: tuple[str, ...]
    timing_tables: tuple[str, ...]
    figures: tuple[str, ...]
    order: int = 100
    measure: "Measure | None" = None
    build: "Callable[..., Mapping[str, Any]] | str | None" = field(default=None, compare=False, repr=False)
    code: tuple[str, ...] = ()
    paper: tuple[str, ...] = ()
    #: Globs of files under config/ (besides the profiles) that the chapter reads.
    config: tuple[str, ...] = ()
    threads: int = 1
    mem_mb: int = CHAPTER_MEM_MB
    #: The papers whose section of the findings page this chapter writes: ``findings(tables)`` returns its
    #: paragraphs (markdown), under the heading ``title``.
    papers: tuple[str, ...] = ()
    title: str = ""
    findings: "Callable[..., list] | str | None" = field(default=None, compare=False, repr=False)
    #: The tables ``findings`` reads (any chapter's, and ``verdicts``): name -> columns read.
    findings_tables: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    #: The figures (any chapter's) its findings may show (:class:`FindingsFigure`): inputs of the page.
    findings_figures: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        package = f"{PACKAGE}.{self.name}"
        object.__setattr__(self, "build", _lazy(package, self.build))
        object.__setattr__(self, "findings", _lazy(package, self.findings))
        if self.measure is not None and isinstance(self.measure.run, str):
            object.__setattr__(self, "measure", replace(self.measure, run=Lazy(package, self.measure.run)))

    @property
    def section(self) -> str:
        """The config section of the profiles that overrides the chapter's parameters."""
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
    def outputs(self) -> tuple[str, ...]:
        """Every name ``build`` returns: the tables, the timing tables, the figures."""
        return self.tables + self.timing_tables + self.figures

    @property
    def evidence(self) -> "str | None":
        """``evidence_<name>`` when the chapter writes evidence for the verdict page, else None."""
        name = f"evidence_{self.name}"
        return name if name in self.all_tables else None

    @property
    def pages(self) -> tuple[str, ...]:
        """The book pages: the chapter, then its measuring notebook (in the appendix)."""
        return (self.name,) + ((self.measure_name,) if self.measure else ())

    def make_params(self, values: "Mapping[str, Any] | None" = None, where: "str | None" = None,
                    schema_checked: bool = False) -> Any:
        """The chapter's ``Params``: defaults, replaced by ``values``; checked (``ValueError`` naming the key;
        ``schema_checked``: against the schema by the caller already, :func:`cipherlab.pipeline.params.make`)."""
        return _params.make(self.params, values, where=where or self.section, schema_checked=schema_checked)

    def run(self, profile: str = "quick", overrides: "Mapping[str, Any] | None" = None) -> _params.Run:
        """What a notebook runs with (:class:`cipherlab.pipeline.params.Run`): the profile, its seed and
        the parameters (defaults, the profile's section, then ``overrides``), checked once, here."""
        return _params.run_for(self.params, self.section, profile, overrides)


#: Where variant descriptions live: ``config/variants/<variant>.yaml`` (:mod:`cipherlab.ciphers.variant_files`).
VARIANTS_DIR = paths.VARIANTS_DIR
#: A variant's name: the stem of its file, and part of its rule, page and file names.
VARIANT_NAME = r"[a-z0-9][a-z0-9-]*"


@dataclass(frozen=True)
class Variants:
    """The variant chapters: one notebook, ``notebooks/variant.ipynb``, run once per variant.

    Declared by ``cipherlab.experiments.variant.chapter.VARIANTS``.  Every name below is a
    suffix: the files of variant ``v`` are ``variant_<v>_<suffix>`` (raw files, tables,
    figures) and its page is ``variant_<v>``.  The config section is ``variant`` (battery
    parameters, and ``names``: the variants a full run builds).
    """

    about: str
    params: type
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

    def make_params(self, values: "Mapping[str, Any] | None" = None, where: "str | None" = None,
                    schema_checked: bool = False) -> Any:
        return _params.make(self.params, values, where=where or self.section, schema_checked=schema_checked)

    def run(self, profile: str = "quick", overrides: "Mapping[str, Any] | None" = None) -> _params.Run:
        """As :meth:`Chapter.run`, for the variant chapters' section."""
        return _params.run_for(self.params, self.section, profile, overrides)


def variant_names(root: "Path | None" = None) -> tuple[str, ...]:
    """Every variant described in ``config/variants/`` (file stems, sorted)."""
    folder = Path(root) / "config" / "variants" if root else VARIANTS_DIR
    return tuple(sorted(p.stem for p in folder.glob("*.yaml"))) if folder.is_dir() else ()


#: A variant whose file comes with this one beside it (``config/variants/<name>.claims.csv``) is a paper of the
#: book: its claims are decided in its chapter (:mod:`cipherlab.experiments.variant.claims`), every run builds it,
#: and the verdict page and the front page list it apart from the four papers.
VARIANT_CLAIMS_SUFFIX = ".claims.csv"


def variant_papers(root: "Path | None" = None) -> tuple[str, ...]:
    """The variants that come with their paper's claims (sorted)."""
    folder = Path(root) / "config" / "variants" if root else VARIANTS_DIR
    return tuple(v for v in variant_names(root) if (folder / f"{v}{VARIANT_CLAIMS_SUFFIX}").is_file())


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
    """Every chapter of the book in reading order, the pipeline's own tables, the variant chapters."""

    chapters: tuple[Chapter, ...]
    pipeline_tables: tuple[str, ...] = PIPELINE_TABLES
    pipeline_timing_tables: tuple[str, ...] = PIPELINE_TIMING_TABLES
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
    def sections(self) -> dict[str, "Chapter | Variants"]:
        """Config section -> its declaration (the chapters, then ``variant``)."""
        out: dict[str, Chapter | Variants] = {c.section: c for c in self.chapters}
        if self.variants:
            out[self.variants.section] = self.variants
        return out

    @property
    def timing_tables(self) -> frozenset[str]:
        return frozenset(self.pipeline_timing_tables).union(*(c.timing_tables for c in self.chapters))

    @property
    def tables(self) -> frozenset[str]:
        """Every declared table, timing or not."""
        return self.timing_tables.union(self.pipeline_tables, *(c.tables for c in self.chapters))


def _once(kind: str, owners: dict[str, list[str]]) -> list[str]:
    return [f"{kind} {name!r} is declared {len(who)} times ({', '.join(who)})"
            for name, who in owners.items() if len(who) > 1]


def check(manifest: Manifest, root: "Path | None" = None) -> None:
    """What a declaration alone cannot say: each name once across the book, notebooks present,
    parameters with defaults; ``ValueError`` listing every problem."""
    root = Path(root or paths.ROOT)
    problems: list[str] = []
    tables: dict[str, list[str]] = {}
    for t in manifest.pipeline_tables + manifest.pipeline_timing_tables:
        tables.setdefault(t, []).append("pipeline")
    raws: dict[str, list[str]] = {}
    figures: dict[str, list[str]] = {}
    chapters: dict[str, list[str]] = {}
    for c in manifest.chapters:
        chapters.setdefault(c.name, []).append(c.name)
        if c.name in RESERVED:
            problems.append(f"chapter {c.name!r}: the name is taken by the pipeline's own rules or pages")
        if c.build is None:
            problems.append(f"chapter {c.name!r}: declares no build function")
        for f in (c.build, c.findings, c.measure.run if c.measure else None):
            if isinstance(f, Lazy) and importlib.util.find_spec(f"{f.package}.{f.module}") is None:
                problems.append(f"chapter {c.name!r}: names {f.module}:{f.name}, but its package has no "
                                f"module {f.module!r}")
        if c.measure and c.measure.run is None:
            problems.append(f"chapter {c.name!r}: its measure declares no run function")
        if c.papers and c.findings is None:
            problems.append(f"chapter {c.name!r}: writes the findings of papers {list(c.papers)} "
                            "but declares no findings function")
        try:
            _params.section_schema(c.params)
            c.make_params()
        except (TypeError, ValueError) as exc:
            problems.append(f"chapter {c.name!r}: its Params: {exc}")
        for t in c.all_tables:
            tables.setdefault(t, []).append(c.name)
        for r in c.raw:
            raws.setdefault(r, []).append(c.name)
        for f in c.figures:
            figures.setdefault(f, []).append(c.name)
        both = sorted(set(c.all_tables) & set(c.figures))
        if both:
            problems.append(f"chapter {c.name!r}: {both} named both a table and a figure (build returns one "
                            "object per name: call the figure <name>_figure)")
        notebooks = [c.notebook] + ([c.measure_notebook] if c.measure else [])
        for nb in notebooks:
            nb = root / nb.relative_to(paths.ROOT)
            if not nb.is_file():
                problems.append(f"chapter {c.name!r}: notebook {nb.relative_to(root)} does not exist")
        orphan = root / "notebooks" / f"{c.name}_measure.ipynb"
        if not c.measure and orphan.is_file():
            problems.append(f"chapter {c.name!r}: {orphan.relative_to(root)} exists but the chapter declares "
                            "no `measure` (declare its raw files there)")
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
        raise ValueError("chapter declarations: " + "; ".join(problems))


def _package_dirs() -> list[Path]:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"package {PACKAGE} not found")
    return [Path(p) for p in spec.submodule_search_locations]


def declared_packages() -> tuple[str, ...]:
    """The subpackages of ``cipherlab.experiments`` that declare a chapter (have ``chapter.py``)."""
    found = {p.parent.name for d in _package_dirs() for p in d.glob("*/chapter.py")
             if (p.parent / "__init__.py").is_file() and not p.parent.name.startswith("_")}
    return tuple(sorted(found))


def declaration_files() -> list[Path]:
    """The declaration module of every chapter (``experiments/<name>/chapter.py``)."""
    return sorted(p for d in _package_dirs() for p in d.glob("*/chapter.py")
                  if p.parent.name in declared_packages())


@lru_cache(maxsize=1)
def load() -> Manifest:
    """Every chapter this installation declares, in reading order (``order``, then name), with the
    variant chapters; checked (:func:`check`).  Cached: the declarations are code."""
    chapters: list[Chapter] = []
    variants: "Variants | None" = None
    for name in declared_packages():
        module = importlib.import_module(f"{PACKAGE}.{name}.chapter")
        chapter = getattr(module, "CHAPTER", None)
        declared = getattr(module, "VARIANTS", None)
        if isinstance(chapter, Chapter):
            if chapter.name != name:
                raise ValueError(f"{PACKAGE}.{name}.chapter: CHAPTER.name is {chapter.name!r}; it must be "
                                 f"the package's name {name!r}")
            chapters.append(chapter)
        elif isinstance(declared, Variants):
            variants = declared
        else:
            raise ValueError(f"{PACKAGE}.{name}.chapter declares neither CHAPTER (a Chapter) nor VARIANTS")
    manifest = Manifest(chapters=tuple(sorted(chapters, key=lambda c: (c.order, c.name))), variants=variants)
    check(manifest)
    return manifest


def names() -> tuple[str, ...]:
    """The chapters, in reading order."""
    return load().names


def evidence_chapters() -> tuple[str, ...]:
    """The chapters whose evidence (``evidence_<name>``) the verdict page reads."""
    return tuple(c.name for c in load().chapters if c.evidence)


def table_owner(name: str) -> str:
    """The chapter that writes table ``name`` (``book`` for the verdicts)."""
    if name in PIPELINE_TABLES + PIPELINE_TIMING_TABLES:
        return "book"
    for c in load().chapters:
        if name in c.all_tables:
            return c.name
    raise ValueError(f"table {name!r} is declared by no chapter")


def findings_tables(built, verdict_columns: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """The tables the findings page reads when the chapters ``built`` were built (name -> columns read):
    the verdicts, and what the chapters writing a section declare, where the owning chapter was built."""
    out: dict[str, tuple[str, ...]] = {"verdicts": tuple(verdict_columns)}
    for c in load().chapters:
        if not (c.papers and c.name in built):
            continue
        for name, cols in c.findings_tables.items():
            if name == "verdicts" or table_owner(name) in built:
                out[name] = tuple(dict.fromkeys(out.get(name, ()) + tuple(cols)))
    return out


def findings_figures(built) -> list[str]:
    """The figures the findings page shows when the chapters ``built`` were built."""
    made = {f for c in load().chapters if c.name in built for f in c.figures}
    return [f for c in load().chapters if c.papers and c.name in built for f in c.findings_figures if f in made]


def is_timing_table(name: str) -> bool:
    """Whether table ``name`` may differ between two runs: its chapter lists it under ``timing_tables``.

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
        raise ValueError(f"table {name!r} is not declared by any chapter "
                         "(under its tables or timing_tables) nor by the pipeline")
    return name in manifest.timing_tables
