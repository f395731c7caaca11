"""The notebook runner (cipherlab.report.notebook): a kernel that never started is started again, and
nothing else is retried; a parameter the notebook declares and the pipeline does not give is an error."""
from __future__ import annotations

import nbformat
import pytest

from cipherlab.report import notebook


def _notebook(path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("y = x + 1")]
    nbformat.write(nb, path)
    return path


def _fake_papermill(monkeypatch, failures):
    """papermill's execute_notebook raising each of ``failures`` in turn, then copying the notebook."""
    calls = []

    def execute(src, out, **kwargs):
        calls.append(out)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        nbformat.write(nbformat.read(src, as_version=4), out)
    monkeypatch.setattr(notebook.pm, "execute_notebook", execute)
    return calls


@pytest.mark.parametrize("message", ["Kernel didn't respond in 60 seconds",
                                     "Kernel died before replying to kernel_info"])
def test_a_kernel_that_never_started_is_started_again(tmp_path, monkeypatch, capsys, message):
    calls = _fake_papermill(monkeypatch, [RuntimeError(message)])
    dst = notebook.run_notebook(_notebook(tmp_path / "a.ipynb"), tmp_path / "out.ipynb", {"x": 2})
    assert len(calls) == 2 and dst.is_file()
    assert "the kernel did not start" in capsys.readouterr().err


def test_a_kernel_that_never_starts_fails_after_the_last_attempt(tmp_path, monkeypatch):
    failures = [RuntimeError("Kernel didn't respond in 60 seconds")] * notebook.KERNEL_START_ATTEMPTS
    calls = _fake_papermill(monkeypatch, failures)
    with pytest.raises(RuntimeError, match="didn't respond"):
        notebook.run_notebook(_notebook(tmp_path / "a.ipynb"), tmp_path / "out.ipynb", {"x": 2})
    assert len(calls) == notebook.KERNEL_START_ATTEMPTS
    assert not (tmp_path / "out.ipynb").exists()


def test_any_other_failure_is_not_retried(tmp_path, monkeypatch):
    calls = _fake_papermill(monkeypatch, [RuntimeError("something else")])
    with pytest.raises(RuntimeError, match="something else"):
        notebook.run_notebook(_notebook(tmp_path / "a.ipynb"), tmp_path / "out.ipynb", {"x": 2})
    assert len(calls) == 1


def _tiny_notebook(path):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("profile = 'quick'\ntrials: int = 3\na, b = 1, 2")
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [cell, nbformat.v4.new_code_cell("print(trials)")]
    nbformat.write(nb, path)
    return nb


def test_a_missing_notebook_parameter_is_an_error(tmp_path):
    src = tmp_path / "nb.ipynb"
    nb = _tiny_notebook(src)
    assert notebook.declared_parameters(nb) == ["profile", "trials", "a", "b"]
    with pytest.raises(ValueError, match=r"\['trials'\] of the 'parameters' cell are not given"):
        notebook.run_notebook(src, tmp_path / "out.ipynb", {"profile": "quick", "a": 1, "b": 2})
    assert not (tmp_path / "out.ipynb").exists()
