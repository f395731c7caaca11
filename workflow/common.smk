# Shared helpers for the chapter rule files (workflow/<chapter>.smk).
#
# A chapter rule that runs a notebook looks like:
#
#   rule aes2sbox_measure:
#       input:
#           notebook="notebooks/aes2sbox_measure.ipynb",
#           selfcheck=SELFCHECK,
#           inputs=chapter_inputs("aes2sbox"),
#           code=chapter_code("aes2sbox"),   # editing the experiment's library code re-runs it
#       output:
#           notebook=executed("aes2sbox_measure"),
#           raw=raw("aes2sbox_speed"),
#       params:
#           section="aes2sbox",
#           values=lambda w: section_parameters("aes2sbox"),   # re-runs the rule when they change
#       log: log_path("aes2sbox_measure")
#       threads: TIMING_THREADS        # timing jobs get the whole machine
#       shell: NOTEBOOK_SHELL
import os
import shlex
import sys

from cipherlab import paths
from cipherlab.config import input_specs, notebook_parameters


def rel(path):
    """Paths relative to the repository, so `snakemake -n` reads well."""
    return os.path.relpath(path, paths.ROOT)


def executed(name):
    return rel(P.executed_notebook(name))


def raw(experiment):
    """A raw CSV; its `.meta.json` provenance record is declared with raw_meta()."""
    return rel(P.raw_csv(experiment))


def raw_meta(experiment):
    return rel(P.raw_meta(experiment))


def table(name):
    return rel(P.table(name))


#: Tables derived from timings, declared by the chapters with timing_table(); with the
#: naming/column convention of cipherlab.results.is_timing_table they are the only
#: tables allowed to differ between two runs (tests/test_pipeline.py checks the rest).
TIMING_TABLES = set()


def timing_table(name):
    """A table computed from timings (speedups, rankings by speed, verdicts on speed ...).

    Use it instead of table() in a rule's output for every table whose bytes
    may change from run to run because they depend on measured times.
    """
    path = table(name)
    TIMING_TABLES.add(path)
    return path


def figure(name, ext="png"):
    return rel(P.figure(name, ext))


def figures(*names):
    """PNG and SVG of each figure name."""
    return [figure(n, ext) for n in names for ext in ("png", "svg")]


def log_path(name):
    return rel(P.logs / f"{name}.log")


def input_path(name):
    return rel(P.input_file(name))


def chapter_inputs(section):
    """The generated input files a chapter declares in its config section."""
    return [input_path(n) for n in sorted((CFG.get(section) or {}).get("inputs", {}))]


# Library modules every chapter's numbers pass through: editing one re-runs the chapters.
SHARED_ANALYSIS_CODE = ("timing", "stats", "plotting", "paper", "claims", "verdicts", "display", "results", "inputs")


def chapter_code(section):
    """The chapter's library code (src/cipherlab/experiments/<section>.py or its package),
    the shared analysis modules and the verdict rules, so that editing any of them re-runs the chapter."""
    base = paths.SRC_DIR / "experiments"
    files = [base / f"{section}.py"] if (base / f"{section}.py").exists() else sorted(
        p for p in (base / section).rglob("*.py") if "__pycache__" not in p.parts)
    files += [paths.SRC_DIR / f"{m}.py" for m in SHARED_ANALYSIS_CODE]
    files.append(paths.VERDICT_RULES_FILE)   # the speed protocol (statistic, batching) every chapter follows
    return [rel(p) for p in files]


def declared_outputs(exclude=()):
    """Every output file of every rule without wildcards, except the rules in ``exclude``.

    Evaluated when the DAG is built (input functions), when every rule is defined.
    """
    return sorted({str(f) for r in workflow.rules if r.name not in exclude and not r.has_wildcards()
                   for f in r.output})


def section_parameters(section):
    return notebook_parameters(CFG, section)


# Timing jobs take every core so that no other job runs beside them.  Without
# --cores (e.g. `snakemake --summary`) fall back to this machine's core count;
# Snakemake caps a rule's threads at --cores anyway.
try:
    TIMING_THREADS = int(workflow.cores)
except Exception:
    TIMING_THREADS = os.cpu_count() or 1

# Rules call the interpreter running Snakemake (on a cluster node too: the Slurm job
# runs this same interpreter), never the first `python` on a PATH that may lack the venv.
PYTHON = shlex.quote(sys.executable).replace("{", "{{").replace("}", "}}")

NOTEBOOK_SHELL = (
    PYTHON + " -m cipherlab.notebook {input.notebook} {output.notebook} "
    "--profile " + PROFILE + " --section {params.section} > {log} 2>&1"
)
# A timing job holds the machine lock exclusively (cipherlab.machine_lock): no other job of any
# pipeline on this machine runs beside it, whatever the scheduler decides.
TIMING_NOTEBOOK_SHELL = NOTEBOOK_SHELL.replace(" > {log}", " --timing > {log}")
