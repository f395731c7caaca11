"""``make lab``: JupyterLab from the project's venv on ``notebooks/``, installed by the target.

Starting JupyterLab needs it installed, which needs the network, so the test reads the
plan (``make -n -B``: every command, none run): the venv, then the ``lab`` extra into it,
then ``jupyter lab`` from ``.venv`` with ``LAB_ARGS`` on ``notebooks/``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tomllib

import pytest

from pipeline_tree import CHECKOUT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="no make on PATH")

#: Jupyter refuses to run as root without it; the target adds it then (containers, CI machines).
AS_ROOT = ["--allow-root"] if os.geteuid() == 0 else []


def plan(*args: str) -> list[str]:
    # Under `make test` the suite runs inside make: the plan must not take the outer make's flags or level.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    proc = subprocess.run(["make", "--no-print-directory", "-n", "-B", *args], cwd=CHECKOUT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def _index(lines: list[str], needle: str) -> int:
    found = [i for i, line in enumerate(lines) if needle in line]
    assert found, f"no command with {needle!r} in:\n" + "\n".join(lines)
    return found[0]


def test_make_lab_installs_the_lab_extra_into_the_venv_then_runs_jupyter_lab_from_it():
    lines = plan("lab", "LAB_ARGS=--no-browser --port=8890")
    venv = _index(lines, "-m venv .venv")
    install = _index(lines, ".venv/bin/python -m pip install --quiet -e '.[test,lab]'")
    run = lines[-1]
    assert venv < install < len(lines) - 1
    assert run.split() == [f"{CHECKOUT}/.venv/bin/jupyter", "lab", *AS_ROOT, "--no-browser", "--port=8890", "notebooks/"], run


def test_lab_args_default_to_none():
    assert plan("lab")[-1].split() == [f"{CHECKOUT}/.venv/bin/jupyter", "lab", *AS_ROOT, "notebooks/"]


def test_the_extra_the_target_installs_holds_jupyterlab_and_the_default_targets_do_not_install_it():
    extras = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(r.startswith("jupyterlab") for r in extras["lab"])
    for target in ("venv", "test"):
        assert not any("lab]" in line or "jupyter lab" in line for line in plan(target)), target
