# Shared helpers of the rule files (workflow/rules/*.smk).
#
# Chapter rules are not written by hand: workflow/rules/chapters.smk makes them from the
# chapters' declarations (src/cipherlab/experiments/<name>/chapter.py) with the helpers below.  Paths come from
# cipherlab.pipeline.paths only, relative to the tree the Snakefile is in.
import os
import shlex
import sys

from cipherlab.pipeline import paths
from cipherlab.pipeline.config import input_specs, notebook_parameters, resolved_section


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


def pipeline_table(name):
    """A table of the pipeline's own rules; it must be declared in cipherlab.pipeline.chapters (PIPELINE_TABLES)."""
    if name not in MANIFEST.pipeline_tables + MANIFEST.pipeline_timing_tables:
        raise ValueError(f"table {name!r} is not a pipeline table of cipherlab.pipeline.chapters")
    return table(name)


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
    """The generated input files a chapter reads (its parameter ``inputs``)."""
    return [input_path(n) for n in sorted((CFG.get(section) or {}).get("inputs", {}))]


# Library modules every chapter's numbers pass through: editing one re-runs the chapters.
def package_files(package):
    """Every file of the subpackage ``src/cipherlab/<package>/`` (code and data), repository-relative."""
    return sorted(rel(p) for p in (paths.SRC_DIR / package).rglob("*") if p.is_file() and "__pycache__" not in p.parts)


# Library code every chapter's numbers pass through: editing it re-runs the chapters.  The analysis
# layer (timing, statistics, claims, verdicts, published values) and the pipeline
# modules whose output a chapter reads (results, inputs) or that resolve its parameters.
# (analysis/machines.py is not one: only the verdict, Machines and report rules read it, which name it themselves.)
SHARED_ANALYSIS_CODE = [f for f in package_files("analysis") if f != rel(paths.SRC_DIR / "analysis" / "machines.py")]
# ... and the presentation layer every chapter renders through (tables, numbers, figures, page text, verdict rows).
SHARED_ANALYSIS_CODE += package_files("present")
SHARED_ANALYSIS_CODE += [rel(paths.SRC_DIR / "pipeline" / f"{m}.py")
                         for m in ("results", "inputs", "params", "chapters", "config")]
# ... and the modules every chapter package shares (cipherlab/experiments/*.py: the chapter files'
# helpers, the findings sentences).
SHARED_ANALYSIS_CODE += sorted(rel(p) for p in (paths.SRC_DIR / "experiments").glob("*.py"))


def chapter_code(section, extra=()):
    """The chapter's library code (src/cipherlab/experiments/<section>.py or its package), the
    files matching the globs ``extra`` (relative to src/cipherlab), the shared analysis modules
    and the verdict rules, so that editing any of them re-runs the chapter."""
    base = paths.SRC_DIR / "experiments"
    files = [base / f"{section}.py"] if (base / f"{section}.py").exists() else sorted(
        p for p in (base / section).rglob("*.py") if "__pycache__" not in p.parts)
    for pattern in extra:
        found = sorted(paths.SRC_DIR.glob(pattern))
        if not found:
            raise ValueError(f"chapter {section!r}: code {pattern!r} matches no file under src/cipherlab")
        files += [p for p in found if p not in files]
    files.append(paths.VERDICT_RULES_FILE)   # the speed protocol (statistic, batching) every chapter follows
    out = [rel(p) for p in files]
    return out + [f for f in SHARED_ANALYSIS_CODE if f not in out]


def config_inputs(patterns):
    """Files under config/ a chapter reads besides the profiles (globs, e.g. ciphers/*.yaml)."""
    files = []
    for pattern in patterns:
        found = sorted(paths.CONFIG_DIR.glob(pattern))
        if not found:
            raise ValueError(f"config {pattern!r} matches no file under config")
        files += [rel(p) for p in found if rel(p) not in files]
    return files


def paper_inputs(patterns):
    """Published values (globs under data/paper/), the claims and the verdict rules."""
    files = []
    for pattern in patterns:
        found = sorted(paths.PAPER_DATA_DIR.glob(pattern))
        if not found:
            raise ValueError(f"paper {pattern!r} matches no file under data/paper")
        files += [rel(p) for p in found if rel(p) not in files]
    return files + [rel(paths.CLAIMS_FILE), rel(paths.VERDICT_RULES_FILE)]


def declared_outputs(exclude=()):
    """Every output file of every rule without wildcards, except the rules in ``exclude``.

    Evaluated when the DAG is built (input functions), when every rule is defined.
    """
    return sorted({str(f) for r in workflow.rules if r.name not in exclude and not r.has_wildcards()
                   for f in r.output})


def section_parameters(section):
    """The chapter's complete parameters in this profile: a change of any value re-runs its rules."""
    return resolved_section(CFG, section)


def parameters_of(section):
    """A params function: the section's values, so that changing one re-runs the rule."""
    return lambda wildcards: section_parameters(section)


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
    PYTHON + " -m cipherlab.report.notebook {input.notebook} {output.notebook} "
    "--profile " + PROFILE + " --section {params.section} > {log} 2>&1"
)
# A timing job holds the machine lock exclusively (cipherlab.pipeline.machine_lock): no other job of any
# pipeline on this machine runs beside it, whatever the scheduler decides.
TIMING_NOTEBOOK_SHELL = NOTEBOOK_SHELL.replace(" > {log}", " --timing > {log}")
