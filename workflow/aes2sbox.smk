# AES-2SBox chapter (papers 000 and 001): timings (with the A/A control), then the
# chapter (Tables 1-6, the papers' statistics recomputed, avalanche, and the evidence
# the decision engine turns into verdicts).  Measuring and the chapter are separate
# jobs so re-drawing never re-times.

AES2SBOX_RAW = ["aes2sbox_speed"]
AES2SBOX_TABLES = [
    "aes2sbox_construction", "aes2sbox_sbox_diff", "aes2sbox_table1", "aes2sbox_table2",
    "aes2sbox_audit", "aes2sbox_avalanche_pairs",
    "aes2sbox_avalanche_summary", "aes2sbox_avalanche_by_position", "aes2sbox_avalanche_histogram",
]
#: Tables derived from timings (they may differ between runs).
AES2SBOX_TIMING_TABLES = ["aes2sbox_welch", "aes2sbox_speedup", "evidence_aes2sbox"]
#: The chapter's library code: the package experiments/aes2sbox/ (every module of it)
#: and the page layout of its tables.
AES2SBOX_CODE = chapter_code("aes2sbox") + [rel(paths.SRC_DIR / "experiments" / "table_layout.py")]
#: Measuring depends on the package's constants and timing modules only (and what they name),
#: so editing the tables, figures, evidence or views never re-times.
AES2SBOX_MEASURE_MODULES = ("__init__.py", "common.py", "measure.py")
AES2SBOX_PACKAGE = rel(paths.SRC_DIR / "experiments" / "aes2sbox")
AES2SBOX_MEASURE_CODE = [p for p in chapter_code("aes2sbox") if os.path.dirname(p) != AES2SBOX_PACKAGE
                         or os.path.basename(p) in AES2SBOX_MEASURE_MODULES] + [
    rel(paths.SRC_DIR / "experiments" / "table_layout.py")]   # the measure notebook's summary table
AES2SBOX_FIGURES = ["aes2sbox_speed_trials", "aes2sbox_avalanche"]


rule aes2sbox_measure:
    """Tables 3-5: both published protocols, every cipher x style x operation plus the A/A control, interleaved, batched trials."""
    input:
        notebook="notebooks/aes2sbox_measure.ipynb",
        code=AES2SBOX_MEASURE_CODE,
        selfcheck=SELFCHECK,
        inputs=chapter_inputs("aes2sbox"),
    output:
        notebook=executed("aes2sbox_measure"),
        raw=[raw(x) for x in AES2SBOX_RAW],
        meta=[raw_meta(x) for x in AES2SBOX_RAW],
    params:
        section="aes2sbox",
        values=lambda w: section_parameters("aes2sbox"),
    log:
        log_path("aes2sbox_measure"),
    threads: TIMING_THREADS
    shell:
        TIMING_NOTEBOOK_SHELL


rule aes2sbox:
    """The AES-2SBox chapter: published tables beside ours, the papers' stats audit, avalanche, evidence for the engine."""
    input:
        notebook="notebooks/aes2sbox.ipynb",
        code=AES2SBOX_CODE,
        raw=[raw(x) for x in AES2SBOX_RAW],
        meta=[raw_meta(x) for x in AES2SBOX_RAW],
        paper=[rel(p) for p in sorted(paths.PAPER_DATA_DIR.glob("00[01]_*.csv"))] + [rel(paths.CLAIMS_FILE), rel(paths.VERDICT_RULES_FILE)],
    output:
        notebook=executed("aes2sbox"),
        tables=[table(x) for x in AES2SBOX_TABLES],
        timing_tables=[timing_table(x) for x in AES2SBOX_TIMING_TABLES],
        figures=figures(*AES2SBOX_FIGURES),
    params:
        section="aes2sbox",
        values=lambda w: section_parameters("aes2sbox"),
    log:
        log_path("aes2sbox"),
    threads: 1
    shell:
        NOTEBOOK_SHELL
