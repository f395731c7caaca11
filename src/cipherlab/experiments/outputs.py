"""A chapter's files: read its raw measurements, write what it measured and what it built.

The chapter's declaration (``experiments/<name>/chapter.py``, :class:`cipherlab.pipeline.chapters.Chapter`)
names every raw file, table and figure; these functions read and write exactly those names,
so a notebook never types one.  A name that is missing or not declared stops the run with a
message naming it: the pipeline never takes a half-written chapter as complete.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

import pandas as pd

from cipherlab.analysis import plotting
from cipherlab.analysis.display import Table, show_table
from cipherlab.pipeline import params as _params
from cipherlab.pipeline.chapters import Chapter
from cipherlab.pipeline.params import Run
from cipherlab.pipeline.provenance import new_run_id, run_metadata
from cipherlab.pipeline.results import read_raw as _read_raw, save_raw as _save_raw, save_table


def _check_names(kind: str, chapter: Chapter, given: Mapping[str, Any], declared: tuple[str, ...]) -> None:
    missing = [n for n in declared if n not in given]
    extra = [n for n in given if n not in declared]
    if missing or extra:
        parts = ([f"missing {missing}"] if missing else []) + ([f"not declared {extra}"] if extra else [])
        raise ValueError(f"chapter {chapter.name!r}: {kind}: {'; '.join(parts)} "
                         f"(declared in cipherlab.experiments.{chapter.name}.chapter: {list(declared)})")


def read_raw(chapter: Chapter, run: Run) -> dict[str, pd.DataFrame]:
    """Every raw file the chapter declares, checked against its provenance record: whole, of this
    chapter's experiment and profile, and measured with this run's seed and parameters (a raw file
    measured with others stops the chapter, in one line naming each parameter that differs)."""
    return {name: _read_raw(name, run.profile, expected=raw_expected(run)) for name in chapter.raw}


def raw_expected(run: Run) -> dict[str, Any]:
    """What a raw file of ``run`` must have recorded (:func:`save_raw` writes it): the seed and the
    chapter's resolved parameters."""
    return {"seed": run.seed, "config": run.config}


def save_raw(chapter: Chapter, run: Run, measured: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """Write each raw file with its provenance: ``measured`` maps every declared raw name to a
    DataFrame, or to ``(DataFrame, extra)`` whose ``extra`` (trials, warm-up, ...) joins the record.
    Returns the frames by name."""
    _check_names("raw files", chapter, measured, chapter.raw)
    frames: dict[str, pd.DataFrame] = {}
    for name in chapter.raw:
        value = measured[name]
        df, extra = value if isinstance(value, tuple) else (value, {})
        if not isinstance(df, pd.DataFrame):
            raise ValueError(f"chapter {chapter.name!r}: raw file {name!r} must be a DataFrame, got {type(df).__name__}")
        extra = dict(extra)
        run_id = extra.pop("run_id", None) or new_run_id()
        _save_raw(df, name, run.profile, meta=run_metadata(profile=run.profile.name, seed=run.seed,
                                                           config=run.config, run_id=run_id, **extra))
        frames[name] = df
    return frames


def save(chapter: Chapter, run: Run, built: Mapping[str, Any]) -> Mapping[str, Any]:
    """Write every table (CSV) and figure (PNG and SVG) the chapter declares, from ``built``
    (name -> DataFrame or matplotlib Figure); the figures stay open for display. Returns ``built``."""
    _check_names("outputs", chapter, built, chapter.outputs)
    for name in chapter.all_tables:
        if not isinstance(built[name], pd.DataFrame):
            raise ValueError(f"chapter {chapter.name!r}: table {name!r} must be a DataFrame, "
                             f"got {type(built[name]).__name__}")
        save_table(built[name], name, run.profile)
    for name in chapter.figures:
        if not hasattr(built[name], "savefig"):
            raise ValueError(f"chapter {chapter.name!r}: figure {name!r} must be a matplotlib Figure, "
                             f"got {type(built[name]).__name__}")
        plotting.save_figure(built[name], name, run.profile)
    return built


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
