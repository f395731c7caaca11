"""Executing a parameterised notebook with papermill, for the pipeline.

``python -m cipherlab.report.notebook SRC DST --profile P --section S`` runs SRC with
the parameters of section S of profile P's config and writes the executed copy
to DST only when every cell ran without error.  A failed run is kept beside it
as ``DST.failed.ipynb`` for reading, and never under DST's name, so Snakemake
never takes a half-run notebook as complete.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from pathlib import Path
from typing import Any

import nbformat
import papermill as pm
from jupyter_client import AsyncKernelManager

from cipherlab.pipeline.config import book_parameters, chapter_sections, notebook_parameters, read_config
from cipherlab.pipeline.machine_lock import machine_lock
from cipherlab.pipeline.results import atomic_path

#: jupyter-book removes a cell with this tag from the page.
REMOVE_TAG = "remove-cell"


def error_cells(nb) -> list[int]:
    """Indices of code cells with an error output."""
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
            and any(o.get("output_type") == "error" for o in c.get("outputs", []))]


def _parent_bound_kernel_manager():
    """An AsyncKernelManager whose kernels run under :mod:`cipherlab.pipeline.parent_bound_kernel` (they die with us)."""
    class ParentBoundKernelManager(AsyncKernelManager):
        def format_kernel_cmd(self, extra_arguments=None):
            cmd = super().format_kernel_cmd(extra_arguments)
            if "ipykernel_launcher" in cmd:
                i = cmd.index("ipykernel_launcher")
                cmd[i:i + 1] = ["cipherlab.pipeline.parent_bound_kernel", "--parent", str(os.getpid())]
            return cmd

    return ParentBoundKernelManager


def declared_parameters(nb) -> list[str]:
    """Names the notebook's ``parameters`` cell assigns (its defaults for a person running by hand)."""
    names: list[str] = []
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            try:
                tree = ast.parse(cell.source)
            except SyntaxError as exc:
                raise ValueError(f"the parameters cell does not parse: {exc}") from None
            for node in tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else (
                    [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name) and n.id not in names:
                            names.append(n.id)
    return names


def check_parameters(nb, parameters: dict[str, Any], src: "str | os.PathLike[str]") -> None:
    """Every parameter the notebook declares must be injected: the pipeline never runs on a
    notebook's built-in defaults (they are the quick profile's, for a person running by hand)."""
    missing = [n for n in declared_parameters(nb) if n not in parameters]
    if missing:
        raise ValueError(f"{src}: parameter(s) {missing} of the 'parameters' cell are not given "
                         f"(add them to the notebook's config section); given: {sorted(parameters)}")


#: The parameters cell stays on the page, folded (jupyter-book's toggle), showing the values that ran.
HIDE_TAG = "hide-input"


def tidy_for_book(nb) -> None:
    """Make the executed copy show the values that ran (in place).

    The ``parameters`` cell's source becomes that of papermill's
    ``injected-parameters`` cell, which is then dropped: a page never shows a
    default (``seed = 0``) beside results of another seed.  The cell stays
    folded (``hide-input``).  Without an injected cell (no parameters given)
    the defaults did run, and the cell keeps them.
    """
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    for cell in nb.cells:
        tags = cell.metadata.setdefault("tags", [])
        if "parameters" in tags:
            if injected:
                cell.source = "\n".join(line for line in injected[-1].source.splitlines()
                                        if line.strip() != "# Parameters")
            for old in ("hide-cell", REMOVE_TAG):
                if old in tags:
                    tags.remove(old)
            if HIDE_TAG not in tags:
                tags.append(HIDE_TAG)
    nb.cells = [c for c in nb.cells if not any(c is i for i in injected)]


def _tidy_for_book(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    tidy_for_book(nb)
    nbformat.write(nb, path)


#: How often a kernel that never started is started again.  Two jobs starting kernels at once can pick the
#: same free TCP port (jupyter_client chooses ports before the kernel binds them); the loser's kernel dies
#: with "Address already in use" before it runs a cell, so starting it again is safe and runs nothing twice.
KERNEL_START_ATTEMPTS = 3
#: jupyter_client's messages for a kernel that never answered its first request (nothing ran in it).
_NOT_STARTED = ("Kernel didn't respond in", "Kernel died before replying to kernel_info")


def _execute(src: Path, tmp: Path, parameters: dict[str, Any], *, cwd, progress: bool) -> None:
    """papermill's execution of ``src`` into ``tmp``, with a kernel that never started started again."""
    for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
        try:
            pm.execute_notebook(str(src), str(tmp), parameters=parameters, cwd=str(cwd),
                                progress_bar=progress, log_output=True, kernel_name="python3",
                                kernel_manager_class=_parent_bound_kernel_manager())
            return
        except RuntimeError as exc:
            if attempt == KERNEL_START_ATTEMPTS or not str(exc).startswith(_NOT_STARTED):
                raise
            print(f"{src}: the kernel did not start ({exc}); starting it again "
                  f"({attempt + 1} of {KERNEL_START_ATTEMPTS})", file=sys.stderr)


def run_notebook(src: "str | os.PathLike[str]", dst: "str | os.PathLike[str]", parameters: dict[str, Any],
                 *, cwd: "str | os.PathLike[str] | None" = None, progress: bool = False,
                 require_all: bool = True) -> Path:
    """Execute ``src`` with ``parameters`` into ``dst`` (atomically).

    With ``require_all`` (the default, what the pipeline uses) every name the
    ``parameters`` cell assigns must be in ``parameters``; a missing one is a
    ``ValueError`` before the kernel starts.

    Raises
    ------
    RuntimeError
        If a cell raised; the executed copy is kept as ``<dst>.failed.ipynb``.
    """
    src, dst = Path(src), Path(dst)
    if not src.is_file():
        raise ValueError(f"notebook {src} does not exist")
    nb = nbformat.read(src, as_version=4)
    if not any("parameters" in c.metadata.get("tags", []) for c in nb.cells):
        raise ValueError(f"{src} has no cell tagged 'parameters'")
    if require_all:
        check_parameters(nb, parameters, src)
    failed = dst.with_suffix(".failed.ipynb")
    with atomic_path(dst, parents=True) as tmp:
        try:
            _execute(src, tmp, parameters, cwd=cwd or src.parent, progress=progress)
        except pm.PapermillExecutionError as exc:
            tmp.replace(failed)
            raise RuntimeError(f"{src} failed in cell {exc.cell_index}: {exc.ename}: {exc.evalue}; "
                               f"executed copy kept at {failed}") from None
        bad = error_cells(nbformat.read(tmp, as_version=4))
        if bad:
            tmp.replace(failed)
            raise RuntimeError(f"{src}: error output in cells {bad}; executed copy kept at {failed}")
        _tidy_for_book(tmp)
    if failed.exists():
        failed.unlink()
    return dst


def parse_command(argv=None) -> "tuple[argparse.Namespace, dict[str, Any]]":
    """The arguments of ``python -m cipherlab.report.notebook ...`` and the parameters they give the notebook.

    The tests read the pipeline's commands (``snakemake -n -p``) through it to
    compare each notebook's defaults with what the quick profile runs it with.
    """
    p = argparse.ArgumentParser(prog="python -m cipherlab.report.notebook", description=__doc__.splitlines()[0])
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--profile", required=True, choices=("full", "quick"))
    p.add_argument("--section", required=True, choices=chapter_sections() + ("book",))
    p.add_argument("--set", action="append", default=[], metavar="KEY=JSON",
                   help="extra parameter (value parsed as JSON), may repeat")
    p.add_argument("--timing", action="store_true",
                   help="a timing job: hold the machine lock exclusively (cipherlab.pipeline.machine_lock), so that no "
                        "other pipeline job runs beside it; every other job holds it shared")
    a = p.parse_args(argv)
    # The profile as its file states it: the Snakefile checked it before any job, and the notebook's first
    # call (CHAPTER.run) checks what the job runs with, once; the runner only passes it on.
    cfg = read_config(a.profile)
    if a.section == "book":
        params = book_parameters(cfg)
    else:
        params = notebook_parameters(cfg, a.section)
    for item in a.set:
        key, _, value = item.partition("=")
        if not key or not _:
            p.error(f"--set takes KEY=JSON, got {item!r}")
        params[key] = json.loads(value)
    return a, params


def main(argv=None) -> int:
    a, params = parse_command(argv)
    print(f"running {a.src} -> {a.dst} with {json.dumps(params, sort_keys=True)}", flush=True)
    try:
        with machine_lock(exclusive=a.timing):
            run_notebook(a.src, a.dst, params, cwd=Path(a.src).resolve().parent, progress=False)
    except (RuntimeError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
