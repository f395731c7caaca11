# cipherlab pipeline: generate inputs -> self-check the kernels -> measure ->
# tables and figures -> book.
#
#   snakemake --cores all                          # full profile (config/config.yaml)
#   snakemake --cores all --config profile=quick   # quick profile (config/quick.yaml)
#   snakemake -n --config profile=quick            # show the plan
#
# The chapters come from their packages (src/cipherlab/experiments/<name>/chapter.py declares
# each: parameters, outputs, functions); the rules from workflow/rules/ (core.smk: inputs and
# selfcheck, chapters.smk: two rules per chapter, made from the declarations, book.smk: the
# book's own pages and the book, variants.smk: one chapter per AES variant described in
# config/variants/).
#
# Each profile writes to its own trees (see src/cipherlab/pipeline/paths.py), so quick
# results can never reach the full book.  Paths come from cipherlab.pipeline.paths only.
#
#   snakemake --cores all --config profile=full run=<name>   # the book from the shipped run data/runs/<name>/
#   snakemake --cores all --config profile=full machine=no-aes   # a machine without AES instructions, emulated
#
# Every rule declares threads and mem_mb so that the same file runs on a
# cluster through an executor plugin (README: "Running on a cluster").
import os
import sys
from pathlib import Path

# This Snakefile's directory is the tree the run reads and writes, whatever the
# installed cipherlab points at: the library (cipherlab.pipeline.paths) finds it through
# CIPHERLAB_ROOT, and this tree's src/ comes first on the import path.  Jobs, their
# notebooks' kernels and Slurm jobs inherit both variables.
ROOT = Path(workflow.basedir).resolve()
os.environ["CIPHERLAB_ROOT"] = str(ROOT)
if (ROOT / "src" / "cipherlab").is_dir():
    sys.path.insert(0, str(ROOT / "src"))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

from cipherlab.pipeline import chapters, paths
from cipherlab.pipeline import runs as shipped
from cipherlab.pipeline.config import book_parameters, built_variants, input_specs, one_line, resolve_overrides
from cipherlab.pipeline.results import remove_stale_parts

if paths.ROOT != ROOT:
    raise WorkflowError(f"cipherlab was imported from {paths.ROOT} before this Snakefile set its root {ROOT}")

# The chapters declare themselves (src/cipherlab/experiments/<name>/chapter.py: parameters,
# outputs, functions), checked by cipherlab.pipeline.chapters.load.  The profile is checked
# before any job against the schema derived from those declarations, and so is every override
# of its values on the command line: `--config profile=quick seed=1 'maes={trials_block: 50}'`
# or `--configfile my.yaml` (cipherlab.pipeline.config.resolve_overrides).  A bad profile name,
# key or value stops the run in one line naming it; a valid override takes effect: it reaches
# every job (CIPHERLAB_OVERRIDES, cipherlab.pipeline.overrides), the rules' params depend on the
# resolved values (so what it changes re-runs) and every provenance record names it.
# Each job's notebook checks what it runs with once more, at its own door (CHAPTER.run), for a
# notebook is also run by hand.
MANIFEST = chapters.load()
# Two trees of their own besides the user's (cipherlab.pipeline.paths.Profile, CIPHERLAB_TREE for every job):
#   --config run=<name>      the book built from the shipped run data/runs/<name>/ (make from-run): its raw files
#                            are unpacked and checked, nothing is timed, everything else is computed;
#   --config machine=no-aes  a run of an emulated machine (make reproduce NO_AES=1): its jobs run in that
#                            machine's environment (cipherlab.pipeline.runs.MACHINES).
# Both are taken out of the config before the profile and its overrides are checked.
RUN, MACHINE = config.pop("run", None), config.pop("machine", None)
try:
    PROFILE, OVERRIDES, CFG = resolve_overrides(config)
    TREE = shipped.tree_of(run=RUN, machine=MACHINE, profile=PROFILE)
except ValueError as exc:
    raise SystemExit(f"cipherlab: {one_line(exc)}")
SHIPPED = RUN is not None
os.environ[paths.TREE_ENV] = TREE
if MACHINE:
    os.environ.update(shipped.MACHINES[MACHINE].env)
P = paths.Profile(PROFILE, tree=TREE)
INPUTS = input_specs(CFG)
CHAPTERS = list(MANIFEST.names)   # in reading order

# Resources of the measuring rules on a cluster (the chapter rules' come from their declarations).
MEASURE_MEM_MB = 8000
MEASURE_RUNTIME = 240   # minutes

workdir: ROOT


include: "workflow/rules/common.smk"


SELFCHECK = pipeline_table("selfcheck")


include: "workflow/rules/core.smk"
include: "workflow/rules/runs.smk"
include: "workflow/rules/chapters.smk"
include: "workflow/rules/book.smk"
include: "workflow/rules/variants.smk"


localrules: all


# The default run asks for every declared output of every rule (generated inputs,
# raw files, their provenance, tables, figures, executed notebooks, the book), so a
# file that goes missing is rebuilt together with what depends on it.
rule all:
    input:
        lambda w: declared_outputs(exclude=("all", "pdf")),   # make pdf prints the book on request
        lambda w: [f for v in LISTED_VARIANTS for f in variant_outputs(v)],   # variant.names of the config
        [rel(P.input_file(n)) for n in sorted(INPUTS)],  # the generated inputs (a wildcard rule)


# A killed run (SIGKILL) can leave `.part` files of atomic writes behind: remove them.
onstart:
    remove_stale_parts(P)
