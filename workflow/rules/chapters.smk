# The chapters' rules, made from the chapters' declarations (cipherlab.pipeline.chapters.load:
# CHAPTER in src/cipherlab/experiments/<name>/chapter.py): per chapter
#
#   <name>_measure  (when the chapter declares `measure`) runs notebooks/<name>_measure.ipynb after
#                   the selfcheck, on every core, and writes the raw files and their provenance;
#   <name>          runs notebooks/<name>.ipynb on the raw files, the paper's values and the
#                   claims, and writes the chapter's tables, timing tables and figures.
#
# Measuring and drawing are separate jobs, so re-drawing a figure never re-times.  In the book of a
# shipped run (--config run=<name>) there is no measuring rule: the raw files are the run's
# (workflow/rules/runs.smk).  Every
# rule also reads the chapter's library code (chapter_code) and its config section
# (params.values) and the profile's seed (params.seed), so editing either re-runs it; the files under config/ an entry lists
# (`config:`, e.g. the security chapter's cipher descriptions) are inputs too.


def _chapter_rules(ch):
    if ch.measure and not SHIPPED:   # a book built from a shipped run times nothing: shipped_raw unpacks its trials
        rule:
            name: ch.measure_name
            input:
                notebook=rel(ch.measure_notebook),
                code=chapter_code(ch.name, ch.measure.code),
                selfcheck=SELFCHECK,
                inputs=chapter_inputs(ch.section),
            output:
                notebook=executed(ch.measure_name),
                raw=[raw(x) for x in ch.raw],
                meta=[raw_meta(x) for x in ch.raw],
            params:
                section=ch.section,
                values=parameters_of(ch.section),
                seed=CFG["seed"],
            log:
                log_path(ch.measure_name),
            threads: TIMING_THREADS   # timing jobs get the whole machine ...
            resources:
                mem_mb=MEASURE_MEM_MB,
                runtime=MEASURE_RUNTIME,
                slurm_extra="--exclusive",   # ... and on a cluster a whole node (README, "Running on a cluster")
            shell:
                TIMING_NOTEBOOK_SHELL         # ... and the machine lock, exclusively (cipherlab.pipeline.machine_lock)
        workflow.get_rule(ch.measure_name).docstring = ch.measure.about

    rule:
        name: ch.name
        input:
            notebook=rel(ch.notebook),
            code=chapter_code(ch.name, ch.code),
            selfcheck=SELFCHECK,
            inputs=chapter_inputs(ch.section),
            raw=[raw(x) for x in ch.raw],
            meta=[raw_meta(x) for x in ch.raw],
            paper=paper_inputs(ch.paper),
            config=config_inputs(ch.config),
        output:
            notebook=executed(ch.name),
            tables=[table(x) for x in ch.tables],
            timing_tables=[table(x) for x in ch.timing_tables],
            figures=figures(*ch.figures),
        params:
            section=ch.section,
            values=parameters_of(ch.section),
            seed=CFG["seed"],
        log:
            log_path(ch.name),
        threads: ch.threads
        resources:
            mem_mb=ch.mem_mb,
        shell:
            NOTEBOOK_SHELL
    workflow.get_rule(ch.name).docstring = ch.about


for _ch in MANIFEST.chapters:
    _chapter_rules(_ch)
