# cipherlab pipeline: generate inputs -> self-check the kernels -> measure ->
# tables and figures -> book.
#
#   snakemake --cores all                          # full profile (config/config.yaml)
#   snakemake --cores all --config profile=quick   # quick profile (config/quick.yaml)
#   snakemake -n --config profile=quick            # show the plan
#
# Each profile writes to its own trees (see src/cipherlab/paths.py), so quick
# results can never reach the full book.  Paths come from cipherlab.paths only.
#
# Every rule declares threads and mem_mb so that the same file runs on a
# cluster through an executor plugin (README: "Running on a cluster").
import json
import os

from snakemake.utils import validate

from cipherlab import paths
from cipherlab.config import CONFIG_SCHEMA, input_specs, load_config, read_config
from cipherlab.findings import FIGURE as FINDINGS_FIGURE, tables_for as findings_tables
from cipherlab.results import remove_stale_parts

PROFILE = config.get("profile", "full")
# Every section and value of the profile is checked before any job (the schema
# names the bad key); load_config applies the same schema for library users.
validate(read_config(PROFILE), str(CONFIG_SCHEMA))
CFG = load_config(PROFILE)
P = paths.Profile(PROFILE)
INPUTS = input_specs(CFG)

workdir: paths.ROOT


include: "workflow/common.smk"


SELFCHECK = table("selfcheck")

# Book chapters, in reading order.  Each chapter's rule file defines a rule whose
# output is executed("<chapter>").
CHAPTERS = [c for c in ("aes2sbox", "maes", "aead", "security")
            if os.path.exists(os.path.join(paths.WORKFLOW_DIR, f"{c}.smk"))]
for _chapter in CHAPTERS:
    include: f"workflow/{_chapter}.smk"


# Pages of the book: the findings (front page), the verdicts, the chapters, the environment, and in
# an appendix each chapter's measuring notebook (<chapter>_measure) when it has one.
BOOK_NOTEBOOKS = ["findings", "verdicts", "environment", *CHAPTERS] + [
    f"{c}_measure" for c in CHAPTERS if (paths.NOTEBOOKS_DIR / f"{c}_measure.ipynb").exists()
]

localrules: all


# The default run asks for every declared output of every rule (generated inputs,
# raw files, their provenance, tables, figures, executed notebooks, the book), so a
# file that goes missing is rebuilt together with what depends on it.
rule all:
    input:
        lambda w: declared_outputs(exclude=("all",)),
        [rel(P.input_file(n)) for n in sorted(INPUTS)],  # the generated inputs (a wildcard rule)


# A killed run (SIGKILL) can leave `.part` files of atomic writes behind: remove them.
onstart:
    remove_stale_parts(P)


rule input_file:
    """Generate one declared input file from the profile seed."""
    output:
        rel(P.inputs / "{name}"),
    params:
        spec=lambda w: INPUTS[w.name],
    wildcard_constraints:
        name="|".join(sorted(map(lambda n: n.replace(".", r"\."), INPUTS))) or "NO_INPUTS",
    log:
        rel(P.logs / "inputs" / "{name}.log"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        PYTHON + " -m cipherlab.inputs " + PROFILE + " {wildcards.name} {output} > {log} 2>&1"


# The cipher core: editing any of it re-runs the selfcheck, and so every timing after it.
CORE_MODULES = ("_numba", "_checks", "registry", "sboxes", "_kernels", "_schedule", "_aesni_kernels", "_aesni", "cpu",
                "aes", "aes_2sbox", "maes", "modes", "selfcheck")
CIPHER_CORE = [
    rel(paths.SRC_DIR / f"{m}.py") for m in CORE_MODULES if (paths.SRC_DIR / f"{m}.py").exists()
] + sorted(rel(p) for p in (paths.SRC_DIR / "vectors").rglob("*") if p.is_file() and "__pycache__" not in p.parts)


rule selfcheck:
    """Known-answer and round-trip checks of every cipher; timing rules depend on it."""
    input:
        CIPHER_CORE,
    output:
        SELFCHECK,
    log:
        log_path("selfcheck"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        # A missing or failing selfcheck stops every timing rule; say why on the console.
        PYTHON + " -m cipherlab.selfcheck --out {output} > {log} 2>&1"
        " || {{ echo 'selfcheck FAILED (see {log}):' >&2; tail -n 15 {log} >&2; exit 1; }}"


rule verdicts:
    """The book's verdict page: the decision engine applies the declared rules to every claim and its evidence."""
    input:
        notebook="notebooks/verdicts.ipynb",
        claims=rel(paths.CLAIMS_FILE),
        rules=rel(paths.VERDICT_RULES_FILE),
        code=[rel(paths.SRC_DIR / "verdicts.py"), rel(paths.SRC_DIR / "claims.py")],
        evidence=[table(f"evidence_{c}") for c in CHAPTERS],
    output:
        notebook=executed("verdicts"),
        table=table("verdicts"),
    params:
        section="book",
    log:
        log_path("verdicts"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL


rule findings:
    """The front page: what this run found per paper, written from the run's tables (cipherlab.findings)."""
    input:
        notebook="notebooks/findings.ipynb",
        code=[rel(paths.SRC_DIR / f"{m}.py") for m in ("findings", "display")],
        coverage=rel(paths.PAPER_DATA_DIR / "coverage.csv"),
        tables=[table(n) for n in findings_tables(CHAPTERS)],
        figure=[figure(FINDINGS_FIGURE[1])] if FINDINGS_FIGURE[0] in CHAPTERS else [],
    output:
        notebook=executed("findings"),
    params:
        section="book",
    log:
        log_path("findings"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL


rule environment:
    """The Environment page: the machine, software and config this run used."""
    input:
        notebook="notebooks/environment.ipynb",
        config=rel(paths.config_file(PROFILE)),
    output:
        notebook=executed("environment"),
    params:
        section="book",
    log:
        log_path("environment"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL


rule book:
    """Stage the book sources with the executed notebooks and build the HTML."""
    input:
        sources=sorted(str(p.relative_to(paths.ROOT)) for p in paths.BOOK_DIR.rglob("*")
                       if p.is_file() and "_build" not in p.parts),
        notebooks=[executed(n) for n in BOOK_NOTEBOOKS],
        rules=rel(paths.VERDICT_RULES_FILE),   # the Methods page states them
        # everything the pages show: every other rule's outputs (tables, figures, raw files)
        shown=lambda w: declared_outputs(exclude=("all", "book")),
    output:
        rel(P.html / "index.html"),
    log:
        log_path("book"),
    threads: 1
    resources:
        mem_mb=4000,
    shell:
        PYTHON + " -m cipherlab.book " + PROFILE + " > {log} 2>&1"


# The pipeline test asks which tables are timing tables (declared with timing_table()).
if os.environ.get("CIPHERLAB_TIMING_TABLES_OUT"):
    with open(os.environ["CIPHERLAB_TIMING_TABLES_OUT"], "w", encoding="utf-8") as _fh:
        json.dump(sorted(TIMING_TABLES), _fh)
