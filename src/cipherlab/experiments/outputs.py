"""A chapter's files: read its raw measurements, write what it measured and what it built.

The chapter's declaration (``experiments/<name>/chapter.py``, :class:`cipherlab.pipeline.chapters.Chapter`)
names every raw file, table and figure; these functions read and write exactly those names,
so a notebook never types one.  A name that is missing or not declared stops the run with a
message naming it: the pipeline never takes a half-written chapter as complete.  The variant
chapters (:class:`cipherlab.pipeline.chapters.Variants`) go through the same functions with the
variant's name: their names are suffixes of ``variant_<name>_``.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

import pandas as pd

from cipherlab.present import plotting
from cipherlab.present.display import Table, show_table
from cipherlab.pipeline import params as _params
from cipherlab.pipeline.chapters import Variants
from cipherlab.pipeline.params import Run
from cipherlab.pipeline.provenance import new_run_id, run_metadata
from cipherlab.pipeline.results import read_raw as _read_raw, save_raw as _save_raw, save_table


Declaration = "Chapter | Variants"


def _label(chapter: Declaration, variant: "str | None") -> str:
    return f"variant {variant!r}" if isinstance(chapter, Variants) else f"chapter {chapter.name!r}"


def _stem(chapter: Declaration, variant: "str | None", name: str) -> str:
    """The file stem of a declared name: itself, or ``variant_<variant>_<name>`` for the variant chapters."""
    if isinstance(chapter, Variants):
        if not variant:
            raise ValueError("variant: the variant chapters' files need the variant's name")
        return chapter.stem(variant, name)
    return name


def _check_names(kind: str, chapter: Declaration, given: Mapping[str, Any], declared: tuple[str, ...],
                 variant: "str | None" = None) -> None:
    missing = [n for n in declared if n not in given]
    extra = [n for n in given if n not in declared]
    if missing or extra:
        parts = ([f"missing {missing}"] if missing else []) + ([f"not declared {extra}"] if extra else [])
        module = "variant" if isinstance(chapter, Variants) else chapter.name
        raise ValueError(f"{_label(chapter, variant)}: {kind}: {'; '.join(parts)} "
                         f"(declared in cipherlab.experiments.{module}.chapter: {list(declared)})")


def read_raw(chapter: Declaration, run: Run, variant: "str | None" = None) -> dict[str, pd.DataFrame]:
    """Every raw file the chapter declares, checked against its provenance record: whole, of this
    chapter's experiment and profile, and measured with this run's seed and parameters (a raw file
    measured with others stops the chapter, in one line naming each parameter that differs).
    ``variant``: the variant chapter's name (its files' stems; the record must name it too)."""
    return {name: _read_raw(_stem(chapter, variant, name), run.profile, expected=raw_expected(run, variant))
            for name in chapter.raw}


def raw_expected(run: Run, variant: "str | None" = None) -> dict[str, Any]:
    """What a raw file of ``run`` must have recorded (:func:`save_raw` writes it): the seed and the
    chapter's resolved parameters, and a variant chapter's file the variant it measured."""
    return {"seed": run.seed, "config": run.config, **({"variant": variant} if variant else {})}


def save_raw(chapter: Declaration, run: Run, measured: Mapping[str, Any],
             variant: "str | None" = None) -> dict[str, pd.DataFrame]:
    """Write each raw file with its provenance: ``measured`` maps every declared raw name to a
    DataFrame, or to ``(DataFrame, extra)`` whose ``extra`` (trials, warm-up, ...) joins the record.
    Returns the frames by name.  ``variant``: the variant chapter's name (its files' stems)."""
    _check_names("raw files", chapter, measured, chapter.raw, variant)
    frames: dict[str, pd.DataFrame] = {}
    for name in chapter.raw:
        value = measured[name]
        df, extra = value if isinstance(value, tuple) else (value, {})
        if not isinstance(df, pd.DataFrame):
            raise ValueError(f"{_label(chapter, variant)}: raw file {name!r} must be a DataFrame, "
                             f"got {type(df).__name__}")
        extra = dict(extra)
        run_id = extra.pop("run_id", None) or new_run_id()
        _save_raw(df, _stem(chapter, variant, name), run.profile,
                  meta=run_metadata(profile=run.profile.name, seed=run.seed, config=run.config, run_id=run_id,
                                    **extra))
        frames[name] = df
    return frames


def save(chapter: Declaration, run: Run, built: Mapping[str, Any], *, figures: "Mapping[str, Any] | None" = None,
         variant: "str | None" = None) -> Mapping[str, Any]:
    """Write every table (CSV) and figure (PNG and SVG) the chapter declares, from ``built``
    (name -> DataFrame or matplotlib Figure); the figures stay open for display. Returns ``built``.

    The variant chapters name a table and its figure alike (``dependency``: a CSV and a PNG): they give
    the tables as ``built`` and the figures apart (``figures``), and ``variant``, the variant's name
    (their files' stems)."""
    tables = chapter.tables + chapter.timing_tables
    if figures is None:
        _check_names("outputs", chapter, built, tables + chapter.figures, variant)
        figures = built
    else:
        _check_names("tables", chapter, built, tables, variant)
        _check_names("figures", chapter, figures, chapter.figures, variant)
    for name in tables:
        if not isinstance(built[name], pd.DataFrame):
            raise ValueError(f"{_label(chapter, variant)}: table {name!r} must be a DataFrame, "
                             f"got {type(built[name]).__name__}")
        save_table(built[name], _stem(chapter, variant, name), run.profile)
    for name in chapter.figures:
        if not hasattr(figures[name], "savefig"):
            raise ValueError(f"{_label(chapter, variant)}: figure {name!r} must be a matplotlib Figure, "
                             f"got {type(figures[name]).__name__}")
        plotting.save_figure(figures[name], _stem(chapter, variant, name), run.profile)
    return built


def decided(chapter: Declaration, run: Run) -> pd.DataFrame:
    """The chapter's verdicts (:func:`cipherlab.analysis.verdicts.chapter_verdicts`) on the evidence the run saved:
    the file the verdicts page decides, so the chapter and that page cannot differ."""
    from cipherlab.analysis.evidence import load_evidence
    from cipherlab.analysis.verdicts import chapter_verdicts
    return chapter_verdicts(chapter.name, load_evidence(run.profile, [chapter.name]))


def show_figure(run: Run, name: str) -> None:
    """Display the saved PNG of figure ``name`` (so the book shows exactly the declared file)."""
    from IPython.display import Image, display
    display(Image(filename=str(run.profile.figure(name, "png"))))


def params_table(run: Run):
    """The parameters that ran (the chapter's defaults, the profile's values, the notebook's overrides), each
    with its meaning, captioned with the profile and its seed: the page states what produced it."""
    values = run.config
    rows = [(f.name, json.dumps(values[f.name]) if isinstance(values[f.name], (list, dict)) else str(values[f.name]),
             _params.doc_of(f)) for f in _params.fields(type(run.params))]
    table = show_table(pd.DataFrame(rows, columns=["parameter", "value", "meaning"]),
                       caption=f"profile {run.profile.name}, seed {run.seed}")
    # a value is shown whole: a long one without spaces (a message, a key) wraps in its cell (cl-params,
    # book/_static/cipherlab.css) instead of widening the page
    return Table(table.markup.replace('class="cipherlab-table"', 'class="cipherlab-table cl-params"', 1))
