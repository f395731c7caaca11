"""environment.yml (conda users) and pyproject.toml (pip) list the same dependencies: the conda
environment is the project with every optional extra (test, cluster, lab)."""
from __future__ import annotations

import re
import tomllib

import pytest
import yaml

from cipherlab.pipeline.paths import ROOT


def _normalise(req: str) -> tuple[str, str]:
    req = req.split("#", 1)[0].strip()
    m = re.match(r"^([A-Za-z0-9_.\-\[\]]+)\s*(.*)$", req)
    assert m, f"cannot parse requirement {req!r}"
    name = re.sub(r"[-_.]+", "-", m.group(1).lower())
    spec = ",".join(sorted(s.strip() for s in m.group(2).replace(" ", "").split(",") if s.strip()))
    return name, spec


def pyproject_groups() -> dict[str, list[str]]:
    """``{"": dependencies, extra: its requirements}`` for every optional extra of pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {"": list(data["project"]["dependencies"]), **data["project"]["optional-dependencies"]}


def merged(groups: dict[str, list[str]]) -> dict[str, str]:
    """One spec per package over all groups; a package two groups give different specs is an error."""
    out: dict[str, str] = {}
    for group, reqs in groups.items():
        for name, spec in map(_normalise, reqs):
            assert out.get(name, spec) == spec, \
                f"{name}: extra {group!r} asks {spec!r}, another group {out[name]!r}"
            out[name] = spec
    return out


def pyproject_requirements() -> dict[str, str]:
    """The dependencies and every optional extra (the conda environment has them all)."""
    return merged(pyproject_groups())


def environment_requirements() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip = [d for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(pip) == 1, "environment.yml must have one pip: section"
    reqs = [r for r in pip[0]["pip"] if not r.startswith("-e")]
    return dict(map(_normalise, reqs))


def test_same_dependencies_and_versions():
    py, env = pyproject_requirements(), environment_requirements()
    only_py = sorted(set(py) - set(env))
    only_env = sorted(set(env) - set(py))
    assert not only_py and not only_env, f"only in pyproject.toml: {only_py}; only in environment.yml: {only_env}"
    differ = {k: (py[k], env[k]) for k in py if py[k] != env[k]}
    assert not differ, f"version specs differ (pyproject, environment.yml): {differ}"


def test_environment_installs_the_project_and_python_311():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert "python=3.11" in env["dependencies"]
    pip = next(d for d in env["dependencies"] if isinstance(d, dict))["pip"]
    assert "-e ." in pip


def test_jupyter_book_stays_below_2():
    # jupyter-book 2 downloads its theme at build time and fails offline.
    assert pyproject_requirements()["jupyter-book"] == "<2,>=1.0.4"


def test_normalise():
    assert _normalise("Jupyter_Book >=1.0.4, <2") == ("jupyter-book", "<2,>=1.0.4")


def test_every_extra_is_in_the_environment():
    env = environment_requirements()
    for group, reqs in pyproject_groups().items():
        missing = sorted(n for n, _ in map(_normalise, reqs) if n not in env)
        assert not missing, f"extra {group or '(dependencies)'!r}: {missing} missing from environment.yml"


def test_jupyterlab_is_the_lab_extra_only():
    # `make lab` installs it; `make venv` (the dependencies and the test extra) stays without it.
    groups = pyproject_groups()
    assert [_normalise(r) for r in groups["lab"]] == [("jupyterlab", "<5,>=4")]
    assert all(_normalise(r)[0] != "jupyterlab" for g in ("", "test") for r in groups[g])


def test_two_extras_asking_different_versions_are_an_error():
    assert merged({"a": ["x>=1"], "b": ["X >= 1"]}) == {"x": ">=1"}
    with pytest.raises(AssertionError, match="extra 'b' asks '>=2'"):
        merged({"a": ["x>=1"], "b": ["x>=2"]})


def test_installed_numba_is_inside_the_pinned_range():
    """The hardware style relies on Numba behaviour tested at both ends of the pinned range (CONTRIBUTING,
    "Numba"): the range has an upper bound and the installed Numba lies inside it."""
    from importlib.metadata import version

    from packaging.specifiers import SpecifierSet

    spec = pyproject_requirements()["numba"]
    assert any(s.operator == "<" for s in SpecifierSet(spec)), f"numba {spec!r} needs an upper bound"
    assert version("numba") in SpecifierSet(spec), (version("numba"), spec)
