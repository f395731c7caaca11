# AES-2SBox chapter (papers 000 and 001): timings, then the chapter (Tables 1-6,
# the papers' statistics recomputed, avalanche, verdicts).  Measuring and the
# chapter are separate jobs so re-drawing never re-times.

AES2SBOX_RAW = ["aes2sbox_speed"]
AES2SBOX_TABLES = [
    "aes2sbox_construction", "aes2sbox_sbox_diff", "aes2sbox_table1", "aes2sbox_table2",
    "aes2sbox_welch", "aes2sbox_speedup", "aes2sbox_audit", "aes2sbox_avalanche_pairs",
    "aes2sbox_avalanche_summary", "aes2sbox_avalanche_by_position", "aes2sbox_avalanche_histogram",
    "verdicts_aes2sbox",
]
AES2SBOX_FIGURES = ["aes2sbox_speed_trials", "aes2sbox_avalanche"]


rule aes2sbox_measure:
    """Tables 3-5: both published protocols, every cipher x style x operation, interleaved trials."""
    input:
        notebook="notebooks/aes2sbox_measure.ipynb",
        code=chapter_code("aes2sbox"),
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
        NOTEBOOK_SHELL


rule aes2sbox:
    """The AES-2SBox chapter: published tables beside ours, the papers' stats audit, avalanche, verdicts."""
    input:
        notebook="notebooks/aes2sbox.ipynb",
        code=chapter_code("aes2sbox"),
        raw=[raw(x) for x in AES2SBOX_RAW],
        meta=[raw_meta(x) for x in AES2SBOX_RAW],
        paper=[rel(p) for p in sorted(paths.PAPER_DATA_DIR.glob("00[01]_*.csv"))],
    output:
        notebook=executed("aes2sbox"),
        tables=[table(x) for x in AES2SBOX_TABLES],
        figures=figures(*AES2SBOX_FIGURES),
    params:
        section="aes2sbox",
        values=lambda w: section_parameters("aes2sbox"),
    log:
        log_path("aes2sbox"),
    threads: 1
    shell:
        NOTEBOOK_SHELL
