# The variant chapters, made from their declaration (VARIANTS in
# src/cipherlab/experiments/variant/chapter.py): one notebook, notebooks/variant.ipynb, run once per variant
# described in config/variants/<variant>.yaml.
#
#   variant_chapter   the wildcard rule: runs the battery on {variant} (it times, so it
#                     holds the machine lock exclusively) and writes the chapter's raw
#                     file, tables and figures, all named variant_<variant>_<suffix>;
#   variant_<name>    one target per file in config/variants/: builds that chapter, then
#                     the book with it (`snakemake --cores all variant_<name>`).
#
# `snakemake` (rule all) and the book build the variants listed under `variant: names:`
# in the profile's config, and every variant that comes with its paper's claims
# (config/variants/<name>.claims.csv): those are papers of the book, on its verdict page and
# front page, counted apart from the four papers.

if MANIFEST.variants:
    VARIANTS = MANIFEST.variants
    VARIANT_FILES = chapters.variant_names()
    # the variants that come with their paper's claims (config/variants/<name>.claims.csv) are papers of the
    # book: every run builds them, beside those variant.names lists
    PAPER_VARIANTS = list(chapters.variant_papers())
    LISTED_VARIANTS = list(built_variants(CFG))

    def paper_files(wildcards):
        """A variant's paper, where it has one: its claims and the passages read (editing them re-runs it)."""
        folder = chapters.VARIANTS_DIR
        return [rel(p) for p in (folder / f"{wildcards.variant}{chapters.VARIANT_CLAIMS_SUFFIX}",
                                 folder / f"{wildcards.variant}.passages.txt") if p.is_file()]

    def paper_verdict_tables(wildcards=None):
        """The verdicts (and the equivalence finding) of every variant paper: the verdict page and the front page
        list them."""
        return [table(VARIANTS.stem(v, t)) for v in PAPER_VARIANTS for t in ("verdicts", "equivalence")]

    def variant_outputs(variant):
        """Every declared output of one variant's chapter (the executed notebook first)."""
        stem = lambda suffix: VARIANTS.stem(variant, suffix)
        return ([executed(VARIANTS.page(variant))]
                + [raw(stem(x)) for x in VARIANTS.raw] + [raw_meta(stem(x)) for x in VARIANTS.raw]
                + [table(stem(x)) for x in VARIANTS.tables + VARIANTS.timing_tables]
                + figures(*(stem(x) for x in VARIANTS.figures)))

    # In the book of a shipped run the speed trials are the run's (an input, unpacked by shipped_raw) and
    # nothing is timed; otherwise the rule measures them (an output) holding the machine lock.
    _VARIANT_RAW = [raw(VARIANTS.stem("{variant}", x)) for x in VARIANTS.raw]
    _VARIANT_META = [raw_meta(VARIANTS.stem("{variant}", x)) for x in VARIANTS.raw]

    rule variant_chapter:
        input:
            notebook=rel(VARIANTS.notebook),
            description=rel(chapters.VARIANTS_DIR) + "/{variant}.yaml",
            paper=paper_files,
            claims_registry=rel(paths.CLAIMS_FILE),   # the claims a variant's `tests:` names
            code=chapter_code(VARIANTS.section, VARIANTS.code) + package_files("ciphers"),
            selfcheck=SELFCHECK,
            inputs=chapter_inputs(VARIANTS.section),
            shipped=(_VARIANT_RAW + _VARIANT_META) if SHIPPED else [],
        output:
            notebook=executed(VARIANTS.page("{variant}")),
            raw=[] if SHIPPED else _VARIANT_RAW,
            meta=[] if SHIPPED else _VARIANT_META,
            tables=[table(VARIANTS.stem("{variant}", x)) for x in VARIANTS.tables],
            timing_tables=[table(VARIANTS.stem("{variant}", x)) for x in VARIANTS.timing_tables],
            figures=figures(*(VARIANTS.stem("{variant}", x) for x in VARIANTS.figures)),
        wildcard_constraints:
            variant=chapters.VARIANT_NAME,
        params:
            section=VARIANTS.section,
            values=parameters_of(VARIANTS.section),
            seed=CFG["seed"],
        log:
            log_path(VARIANTS.page("{variant}")),
        # it times AES against the variant: the whole machine, and the lock (not in the book of a shipped run)
        threads: VARIANTS.threads if SHIPPED else TIMING_THREADS
        resources:
            mem_mb=VARIANTS.mem_mb,
            runtime=MEASURE_RUNTIME,
            slurm_extra="" if SHIPPED else "--exclusive",
        shell:
            # the description is checked before the notebook takes the machine lock (its reason in the log)
            PYTHON + " -m cipherlab._variant_check {wildcards.variant} > {log} 2>&1 && "
            + (NOTEBOOK_SHELL if SHIPPED else TIMING_NOTEBOOK_SHELL).replace(
                " > {log}", " --set variant='\"{wildcards.variant}\"' > {log}")
    workflow.get_rule("variant_chapter").docstring = VARIANTS.about

    def _variant_target(name):
        rule:
            name: f"variant_{name}"
            input:
                variant_outputs(name),
                # the book holds the listed variants' chapters too: build them, or a fresh tree stops there
                listed=[f for v in LISTED_VARIANTS if v != name for f in variant_outputs(v)],
                book_pages=[executed(n) for n in BOOK_NOTEBOOKS],
            log:
                log_path(f"book_variant_{name}"),
            localrule: True
            shell:
                PYTHON + " -m cipherlab.report.book " + PROFILE + " > {log} 2>&1"
        workflow.get_rule(f"variant_{name}").docstring = (
            f"The chapter of variant {name} (config/variants/{name}.yaml), then the book with it.")

    for _name in VARIANT_FILES:
        _variant_target(_name)
else:
    LISTED_VARIANTS = []
    PAPER_VARIANTS = []

    def paper_verdict_tables(wildcards=None):
        return []

    def variant_outputs(variant):
        return []
