# MAES chapter (paper 002): timings, then the chapter (tables, Figure 8, evidence for its claims).
# Measuring and the chapter are separate jobs so re-drawing never re-times.

MAES_RAW = ["maes_keyexp", "maes_stage", "maes_block", "maes_bulk", "maes_compile", "maes_overhead"]
# Tables whose bytes depend on measured times (may differ run to run) ...
MAES_TIMING_TABLES = [
    "maes_table1", "maes_table2", "maes_table3", "maes_speedups_block", "maes_throughput",
    "maes_speedups_bulk", "maes_compile_times", "evidence_maes",
]
# ... and tables that must be byte-identical between runs.
MAES_TABLES = ["maes_entropy", "maes_entropy_vs_aes", "maes_histograms", "maes_dependency", "maes_keyspace", "maes_leaks"]
MAES_FIGURES = ["maes_fig8_images", "maes_fig8_repeats", "maes_fig8_histograms", "maes_speedups_block", "maes_speedups_bulk"]


rule maes_measure:
    """Tables I-III and bulk throughput: interleaved, batched in-process timings with A/A controls."""
    input:
        notebook="notebooks/maes_measure.ipynb",
        code=chapter_code("maes"),
        selfcheck=SELFCHECK,
        inputs=chapter_inputs("maes"),
    output:
        notebook=executed("maes_measure"),
        raw=[raw(x) for x in MAES_RAW],
        meta=[raw_meta(x) for x in MAES_RAW],
    params:
        section="maes",
        values=lambda w: section_parameters("maes"),
    log:
        log_path("maes_measure"),
    threads: TIMING_THREADS
    shell:
        TIMING_NOTEBOOK_SHELL


rule maes:
    """The MAES chapter: tables beside the published values, Figure 8, Table IV, key space, evidence."""
    input:
        notebook="notebooks/maes.ipynb",
        code=chapter_code("maes"),
        raw=[raw(x) for x in MAES_RAW],
        inputs=chapter_inputs("maes"),
    output:
        notebook=executed("maes"),
        timing_tables=[timing_table(x) for x in MAES_TIMING_TABLES],
        tables=[table(x) for x in MAES_TABLES],
        figures=figures(*MAES_FIGURES),
    params:
        section="maes",
        values=lambda w: section_parameters("maes"),
    log:
        log_path("maes"),
    threads: 1
    shell:
        NOTEBOOK_SHELL
