# The book's own pages (verdicts, findings, environment) and the book itself.  The chapters'
# pages come from workflow/rules/chapters.smk; cipherlab.report.book stages the table of contents
# from book/_toc.yml and the chapters' declarations.

# Pages of the book: the findings (front page), the verdicts, the environment, each chapter,
# and in an appendix each chapter's measuring notebook.
BOOK_NOTEBOOKS = ["findings", "verdicts", "machines", "environment"] + [p for ch in MANIFEST.chapters for p in ch.pages]
# A referee's report per paper (notebooks/report.ipynb run once per paper), the first page of its part.
REPORT_PAPERS = [p for ch in MANIFEST.chapters for p in ch.papers]   # the papers the chapters declare
WRITERS = {ch.name for ch in MANIFEST.chapters if ch.papers}           # the chapters writing the findings page
BOOK_NOTEBOOKS += [f"report_{p}" for p in REPORT_PAPERS]


def book_values(wildcards):
    """The book pages' parameters (profile, seed, the chapters with evidence): a change re-runs them."""
    return book_parameters(CFG)


def environment_values(wildcards):
    """The Environment page's parameters: the book's and the command line's overrides, which it shows."""
    return {**book_parameters(CFG), "overrides": OVERRIDES}


def shipped_evidence(wildcards):
    """The card and evidence of every shipped run of this profile (but the one this book is built from): the
    verdict page shows each one's verdicts beside this run's, so a run contributed re-renders it."""
    out = []
    for r in shipped.shipped_runs(PROFILE, exclude=[RUN or ""]):
        out += [rel(r.path / shipped.CARD)] + [rel(r.evidence_file(ch)) for ch in r.evidence_chapters]
    return out


rule verdicts:
    """The book's verdict page: the decision engine applies the declared rules to every claim and its evidence,
    and to every shipped run's evidence (the verdicts across machines, table machines)."""
    input:
        notebook="notebooks/verdicts.ipynb",
        claims=rel(paths.CLAIMS_FILE),
        rules=rel(paths.VERDICT_RULES_FILE),
        code=[rel(paths.SRC_DIR / "analysis" / f"{m}.py") for m in ("verdicts", "claims", "compare", "evidence",
                                                                     "reasons", "machines")]
             + [rel(paths.SRC_DIR / "report" / f"{m}.py") for m in ("verdict_page", "tiers", "glossary", "methods_text")]
             + [rel(paths.SRC_DIR / "present" / f"{m}.py") for m in ("verdict_table", "page_text")]
             + [rel(paths.BOOK_DIR / "glossary.yml")]   # the page's key and the rules in words
             + [rel(paths.SRC_DIR / "experiments" / "variant" / "claims.py")]   # the variant papers' rows
             + [rel(paths.SRC_DIR / "pipeline" / "runs.py")],   # the shipped runs' evidence, read and checked
        evidence=[table(ch.evidence) for ch in MANIFEST.chapters if ch.evidence],
        variant_papers=lambda w: paper_verdict_tables(),   # decided in their chapters (variants.smk)
        shipped=shipped_evidence,
    output:
        notebook=executed("verdicts"),
        table=pipeline_table("verdicts"),
        machines=pipeline_table("machines"),
    params:
        section="book",
        values=book_values,
    log:
        log_path("verdicts"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL


rule machines:
    """The Machines page: every speed claim's estimate on each machine (this run and every shipped run), the
    ratios between them, every claim whose verdict differs between machines, and each machine's card."""
    input:
        notebook="notebooks/machines.ipynb",
        verdicts=pipeline_table("verdicts"),
        machines=pipeline_table("machines"),
        code=[rel(paths.SRC_DIR / "report" / "machines.py"), rel(paths.SRC_DIR / "analysis" / "machines.py"),
              rel(paths.SRC_DIR / "pipeline" / "runs.py")],
        shipped=shipped_evidence,
    output:
        notebook=executed("machines"),
    params:
        section="book",
        values=book_values,
    log:
        log_path("machines"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL


rule report:
    """A referee's report on one paper (cipherlab.report.referee), from the verdicts and the evidence, with its figure."""
    input:
        notebook="notebooks/report.ipynb",
        verdicts=pipeline_table("verdicts"),
        claims=rel(paths.CLAIMS_FILE),
        protocols=rel(paths.PAPER_DATA_DIR / "protocols.csv"),   # the Methodology section's protocol table
        code=[rel(paths.SRC_DIR / "report" / f"{m}.py") for m in ("referee", "template", "forest", "tiers",
                                                                   "verdict_page", "glossary")]
             + [rel(paths.SRC_DIR / "analysis" / "machines.py")]   # the report's section across machines
             + [rel(paths.SRC_DIR / "present" / "page_text.py"), rel(paths.BOOK_DIR / "glossary.yml")],
        evidence=[table(ch.evidence) for ch in MANIFEST.chapters if ch.evidence],
    output:
        notebook=executed("report_{paper}"),
        figure=figures("report_{paper}_claims"),
    wildcard_constraints:
        paper="|".join(REPORT_PAPERS),
    params:
        section="book",
        values=book_values,
    log:
        log_path("report_{paper}"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL.replace(" > {log}", " --set paper='\"{wildcards.paper}\"' > {log}")


rule findings:
    """The front page: what this run found per paper, written from the run's tables (cipherlab.report.findings)."""
    input:
        notebook="notebooks/findings.ipynb",
        code=[rel(paths.SRC_DIR / "report" / f"{m}.py") for m in ("findings", "tiers", "verdict_page")]
             + [rel(paths.SRC_DIR / "present" / "display.py")]
             # the paragraphs each chapter that declares papers writes: its declaration, its findings
             # module, the shared sentences (a chapter without papers adds nothing to the page)
             + [rel(p) for p in chapters.declaration_files() if p.parent.name in WRITERS]
             + sorted(rel(p) for p in (paths.SRC_DIR / "experiments").glob("*/findings.py")
                      if p.parent.name in WRITERS)
             + [rel(paths.SRC_DIR / "experiments" / "_sentences.py")]
             + [rel(paths.SRC_DIR / "experiments" / "variant" / "claims.py")],   # the variant papers' section
        coverage=rel(paths.PAPER_DATA_DIR / "coverage.csv"),
        tables=[table(n) for n in chapters.findings_tables(CHAPTERS)],
        figures=[figure(f) for f in chapters.findings_figures(CHAPTERS)],
        variant_papers=lambda w: paper_verdict_tables(),   # decided in their chapters (variants.smk)
    output:
        notebook=executed("findings"),
    params:
        section="book",
        values=book_values,
    log:
        log_path("findings"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        NOTEBOOK_SHELL


def bench_files(wildcards):
    """The hand-run benchmark CSV the Environment page shows (``cipherlab bench --out``), where it exists:
    a new run re-renders the page; its absence is said on the page."""
    bench = paths.DATA_DIR / "bench" / "bench.csv"
    return [rel(bench)] if bench.is_file() else []


SWEEP = raw("bench_sweep")


# A timing job; not in the book of a shipped run, whose own sweep is unpacked (workflow/rules/runs.smk).
if not SHIPPED:
    rule bench_sweep:
        """The size sweep of the Environment page (cipherlab bench --sizes): AES-128 by message size, one
        thread, a fresh and a reused object, PyCryptodome and openssl speed beside; a timing job."""
        input:
            SELFCHECK,
            code=package_files("ciphers") + [rel(paths.SRC_DIR / f) for f in ("bench.py", "bench_timing.py")],
        output:
            csv=SWEEP,
            meta=raw_meta("bench_sweep"),
        params:
            repeats=CFG["bench_sweep_repeats"],
        log:
            log_path("bench_sweep"),
        threads: TIMING_THREADS   # a timing job: the whole machine, and the machine lock, exclusively
        resources:
            mem_mb=2000,
            runtime=MEASURE_RUNTIME,
            slurm_extra="--exclusive",
        shell:
            # written through the one raw writer as the profile's raw file bench_sweep (its record: experiment,
            # profile, parameters, rows and SHA-256), read back by the Environment page through the one raw reader
            PYTHON + " -m cipherlab.bench --sizes --repeats {params.repeats} --machine-lock --profile " + PROFILE
            + " > {log} 2>&1"


rule environment:
    """The Environment page: the machine, software and config this run used, the size sweep and the load
    around each timing job."""
    input:
        notebook="notebooks/environment.ipynb",
        config=rel(paths.config_file(PROFILE)),
        code=rel(paths.SRC_DIR / "report" / "environment.py"),
        bench=bench_files,
        sweep=SWEEP,
    output:
        notebook=executed("environment"),
    params:
        section="book",
        values=environment_values,
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
        declarations=[rel(p) for p in chapters.declaration_files()],   # the chapters' entries of the table of contents
        code=[rel(paths.SRC_DIR / "report" / f"{m}.py") for m in ("book", "glossary", "template")]   # staging, the terms
             + [rel(paths.SRC_DIR / "report" / "methods_text.py")],   # marked, the Methods page's rules
        notebooks=[executed(n) for n in BOOK_NOTEBOOKS],
        rules=rel(paths.VERDICT_RULES_FILE),   # the Methods page states them, and the reports' recommendation rule
        # everything the pages show: every other rule's outputs (tables, figures, raw files)
        shown=lambda w: declared_outputs(exclude=("all", "book", "pdf")),   # the PDFs are printed from the book
        variants=lambda w: [f for v in LISTED_VARIANTS for f in variant_outputs(v)],   # their chapters
    output:
        rel(P.html / "index.html"),
    log:
        log_path("book"),
    threads: 1
    resources:
        mem_mb=4000,
    shell:
        PYTHON + " -m cipherlab.report.book " + PROFILE + " > {log} 2>&1"


rule pdf:
    """The PDFs (make pdf): each referee's report and the whole book, printed from the built HTML by
    headless Chromium (cipherlab.report.pdf).  Not part of `all`: the HTML book is the pipeline's product."""
    input:
        rel(P.html / "index.html"),
        code=[rel(paths.SRC_DIR / "report" / f"{m}.py") for m in ("pdf", "printable")],
    output:
        reports=[rel(P.build / "pdf" / f"report-{p}.pdf") for p in REPORT_PAPERS],
        book=rel(P.build / "pdf" / "cipherlab-book.pdf"),
    log:
        log_path("pdf"),
    threads: 1
    resources:
        mem_mb=3000,
    shell:
        PYTHON + " -m cipherlab.report.pdf " + PROFILE + " > {log} 2>&1"
