"""A chapter's files (cipherlab.experiments.outputs): exactly the declared names are written, with
provenance; a missing or undeclared name, or an object of the wrong kind, stops the chapter."""
from __future__ import annotations

import dataclasses
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from cipherlab.experiments import outputs  # noqa: E402
from cipherlab.pipeline import paths  # noqa: E402
from cipherlab.pipeline.chapters import Chapter, Measure  # noqa: E402
from cipherlab.pipeline.params import Run  # noqa: E402
from cipherlab.pipeline.params import param  # noqa: E402


@dataclasses.dataclass(frozen=True)
class Params:
    n: int = param(3, "how many rows", minimum=1)


TOY = Chapter(name="toy", about="a toy", params=Params, tables=("toy_rows",), timing_tables=("toy_times",),
              figures=("toy_figure",), measure=Measure("time it", ("toy_raw",), run=lambda run: {}),
              build=lambda run, raw: {})


@pytest.fixture
def run(tmp_path, monkeypatch):
    prof = paths.Profile("quick")
    for attr, sub in (("raw", "raw"), ("tables", "tables"), ("figures", "figures")):
        monkeypatch.setattr(type(prof), attr, property(lambda self, s=sub: tmp_path / s))
    return Run(profile=prof, seed=7, params=Params(n=5), section="toy")


def test_save_raw_writes_every_declared_file_with_the_parameters_that_ran(run):
    frame = pd.DataFrame({"trial": [0, 1], "seconds": [0.1, 0.2]})
    out = outputs.save_raw(TOY, run, {"toy_raw": (frame, {"trials": 2, "run_id": "r1"})})
    assert list(out) == ["toy_raw"]
    meta = json.loads(run.profile.raw_meta("toy_raw").read_text())
    assert meta["config"] == {"n": 5} and meta["seed"] == 7 and meta["trials"] == 2 and meta["run_id"] == "r1"
    assert outputs.read_raw(TOY, run)["toy_raw"].equals(frame)


@pytest.mark.parametrize("measured, message", [
    ({}, r"raw files: missing \['toy_raw'\]"),
    ({"toy_raw": pd.DataFrame(), "toy_extra": pd.DataFrame()}, r"not declared \['toy_extra'\]"),
    ({"toy_raw": [1, 2]}, "raw file 'toy_raw' must be a DataFrame, got list"),
])
def test_save_raw_refuses_a_missing_an_undeclared_or_a_wrong_object(run, measured, message):
    with pytest.raises(ValueError, match=message):
        outputs.save_raw(TOY, run, measured)
    assert not run.profile.raw_csv("toy_raw").exists()


def test_save_writes_tables_and_figures_and_refuses_what_is_not_declared(run):
    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    built = {"toy_rows": pd.DataFrame({"x": [1]}), "toy_times": pd.DataFrame({"s": [0.5]}), "toy_figure": fig}
    assert outputs.save(TOY, run, built) is built
    assert run.profile.table("toy_rows").read_text() == "x\n1\n"
    assert run.profile.figure("toy_figure", "png").is_file() and run.profile.figure("toy_figure", "svg").is_file()
    with pytest.raises(ValueError, match=r"outputs: missing \['toy_figure'\]"):
        outputs.save(TOY, run, {k: v for k, v in built.items() if k != "toy_figure"})
    with pytest.raises(ValueError, match="table 'toy_rows' must be a DataFrame, got Figure"):
        outputs.save(TOY, run, {**built, "toy_rows": fig})
    with pytest.raises(ValueError, match="figure 'toy_figure' must be a matplotlib Figure, got DataFrame"):
        outputs.save(TOY, run, {**built, "toy_figure": built["toy_rows"]})
    plt.close(fig)


def test_params_table_shows_each_value_with_its_meaning_and_the_seed(run):
    html = outputs.params_table(run)._repr_html_()
    assert "how many rows" in html and ">5<" in html and "seed 7" in html


def test_read_raw_refuses_raw_data_measured_with_other_parameters_or_seed(run):
    """A chapter never builds on raw data another run's parameters produced (issue 33, item 4)."""
    outputs.save_raw(TOY, run, {"toy_raw": pd.DataFrame({"trial": [0], "seconds": [0.1]})})
    other = dataclasses.replace(run, params=Params(n=6))
    with pytest.raises(ValueError, match=r"toy_raw.csv: measured with other parameters than this run's "
                                         r"\(config.n: recorded 5, this run 6\)"):
        outputs.read_raw(TOY, other)
    with pytest.raises(ValueError, match=r"seed: recorded 7, this run 8"):
        outputs.read_raw(TOY, dataclasses.replace(run, seed=8))
    assert len(outputs.read_raw(TOY, run)["toy_raw"]) == 1
