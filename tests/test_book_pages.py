"""The book's own pages: the Environment page's tables and bench CSV, links to pages not built, the front page."""
from __future__ import annotations

import json

import nbformat
import pandas as pd
import yaml

from cipherlab.pipeline import paths

from cipherlab.report import book
def test_machine_table_names_the_run_and_the_machine():
    machine, versions = book.machine_table("quick", 7)
    names = dict(zip(machine["name"], machine["value"]))
    assert names["profile"] == "quick" and names["seed"] == "7"
    for key in ("date_utc", "cpu_model", "logical_cores", "python", "git_commit"):
        assert key in names
    assert list(versions.columns) == ["package", "version"] and "numba" in set(versions["package"])
    assert all(isinstance(v, str) for v in machine["value"])     # no raw reprs of dicts or paths


def test_config_html_is_folded_and_relative():
    text = book.config_html("quick")
    assert text.startswith("<details>") and "config/quick.yaml" in text
    assert str(paths.ROOT) not in text


def test_bench_results_absent_and_present(tmp_path):
    assert book.bench_results(tmp_path / "bench.csv") is None
    rows = pd.DataFrame({"cipher": ["aes"], "impl": ["table"], "mode": ["ecb"], "operation": ["encrypt"],
                         "threads": [1], "bytes": [8388608], "seconds": [0.03], "mb_per_s": [280.0],
                         "compile_seconds": [0.5], "run_id": ["r1"]})
    rows.to_csv(tmp_path / "bench.csv", index=False)
    got, prov = book.bench_results(tmp_path / "bench.csv")
    assert len(got) == 1 and prov.empty                      # no .meta.json: no provenance rows invented
    (tmp_path / "bench.csv.meta.json").write_text(json.dumps(
        {"run_id": "r1", "date_utc": "2026-11-23T15:00:00+00:00", "config": {"size": 8}, "other": 1}))
    got, prov = book.bench_results(tmp_path / "bench.csv")
    assert dict(zip(prov["name"], prov["value"])) == {"run_id": "r1", "date_utc": "2026-11-23T15:00:00+00:00",
                                                      "config": '{"size": 8}'}
    assert book.bench_short(got) == ["cipher", "impl", "mode", "operation", "threads", "mb_per_s"]
    assert book.bench_short(got.rename(columns=str.upper)) == list(got.rename(columns=str.upper).columns[:6])


def test_links_to_pages_not_built_become_text_in_notebooks_too(tmp_path):
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "verdicts.ipynb")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("see {doc}`verdicts` and {doc}`security`")]
    nbformat.write(nb, tmp_path / "findings.ipynb")
    (tmp_path / "intro.md").write_text("{doc}`maes` and {doc}`verdicts`")
    book._unlink_missing_pages(tmp_path)
    cell = nbformat.read(tmp_path / "findings.ipynb", as_version=4).cells[0].source
    assert cell == "see {doc}`verdicts` and *security* (not built in this run)"
    assert (tmp_path / "intro.md").read_text() == "*maes* (not built in this run) and {doc}`verdicts`"


def test_the_findings_page_is_the_front_page():
    toc = yaml.safe_load((paths.BOOK_DIR / "_toc.yml").read_text())
    assert toc["root"] == "findings"
    nb = nbformat.read(paths.NOTEBOOKS_DIR / "findings.ipynb", as_version=4)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and "hide-input" in params[0].metadata["tags"]
    text = "\n".join(c.source for c in nb.cells)
    assert "{include} _run.md" in text and "make reproduce" in text and "not secure" in text
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")   # committed without outputs


def _shipped_card(tmp_path, monkeypatch, emulated=None):
    from cipherlab.pipeline import runs
    monkeypatch.setattr(paths, "RUNS_DIR", tmp_path / "runs")
    folder = tmp_path / "runs" / "lab-box-2026-11-27"
    folder.mkdir(parents=True)
    card = {"format": runs.FORMAT, "profile": "quick", "machine": "lab-box", "commit": "a" * 40,
            "emulated": emulated, "dates": {"first": "2026-11-27T09:00:00+00:00", "last": "2026-11-27T10:00:00+00:00"},
            "cpu": {"model": "Lab <b>CPU</b>", "logical_cores": 8, "aes_instructions": emulated is None},
            "packages": {"numba": "0.68.1", "pycryptodome": "4.4.0"}, "python": "3.11.7", "files": {}}
    (folder / "card.json").write_text(json.dumps(card))
    return paths.Profile("quick", tree="runs/lab-box-2026-11-27")


def test_a_shipped_runs_book_shows_the_runs_machine_not_the_builders(tmp_path, monkeypatch):
    prof = _shipped_card(tmp_path, monkeypatch)
    monkeypatch.setenv(paths.TREE_ENV, prof.tree)
    machine, versions = book.machine_table("quick", 7)
    names = dict(zip(machine["name"], machine["value"]))
    assert names["shipped run"].startswith("data/runs/lab-box-2026-11-27/") and names["cpu_model"] == "Lab <b>CPU</b>"
    assert names["commit"] == "a" * 40 and dict(zip(versions["package"], versions["version"]))["numba"] == "0.68.1"
    line = book.measured_on("quick")
    assert line == ("Built without timing from the shipped run lab-box-2026-11-27 (data/runs/lab-box-2026-11-27/): "
                    "Lab <b>CPU</b>, 8 cores, measured 2026-11-27 at commit aaaaaaaaaaaa.")


def test_an_emulated_machines_book_says_so_on_every_page(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "TREES_DIR", tmp_path / "build")
    monkeypatch.setenv(paths.TREE_ENV, "machines/no-aes")
    raw = paths.Profile("quick").raw
    raw.mkdir(parents=True)
    from cipherlab.pipeline.provenance import run_metadata
    meta = run_metadata(profile="quick", jit_target={"cpu_name": "generic", "cpu_features": "host"})
    (raw / "x.meta.json").write_text(json.dumps(meta))
    line = book.measured_on("quick")
    assert line.startswith("Built from the run of the emulated machine no-aes: ")
    assert "without AES instructions (emulated)" in line
