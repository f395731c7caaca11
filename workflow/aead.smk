# Chapter: AEAD modes (paper 003).  Measuring (expensive) and the chapter
# (tables, figures, evidence; cheap) are separate rules, so editing the
# chapter notebook does not re-time anything.  The chapter writes evidence only;
# cipherlab.verdicts decides (the book's verdict page).

# aead_forgery_outcomes is not a timing (which seeded tags were rejected, the same
# in every run) but comes from the forgery timing run, so it lives beside it.
AEAD_RAW = ["aead_phase1", "aead_phase2", "aead_forgery", "aead_forgery_outcomes"]
# Tables whose bytes depend on measured times (CONTRIBUTING.md, "Timing tables").
AEAD_TIMING_TABLES = [
    "aead_phase1_summary", "aead_phase2_summary", "aead_ratios",
    "aead_ranking_ours", "aead_ranking_vs_paper", "aead_prose_vs_paper",
    "aead_forgery_times", "aead_forgery_vs_paper", "evidence_aead",
]
# Deterministic tables: byte-identical run to run (seeded keys, nonces and forged tags).
AEAD_TABLES = [
    "aead_machine", "aead_forgery_outcomes", "aead_wycheproof", "aead_forgery_bound",
    "aead_trials_to_observe", "aead_bitflip_acceptance", "aead_ctr_rewrite",
]
AEAD_FIGURES = [
    "aead_fig03_enc_time", "aead_fig04_dec_time", "aead_fig05_enc_tp", "aead_fig06_dec_tp",
    "aead_fig07_enc_time", "aead_fig08_dec_time", "aead_fig09_enc_tp", "aead_fig10_dec_tp",
    "aead_fig11_forgery", "aead_fig12_forgery", "aead_fig13_forgery", "aead_forgery_bound",
]


rule aead_measure:
    """Time PyCryptodome's GCM/CCM/EAX (phase 1), EAX x AES/Blowfish/CAST (phase 2) and forged-tag checks,
    each with an A/A control; record which forged tags are rejected."""
    input:
        notebook="notebooks/aead_measure.ipynb",
        code=chapter_code("aead"),
        selfcheck=SELFCHECK,
        inputs=chapter_inputs("aead"),
    output:
        notebook=executed("aead_measure"),
        raw=[raw(e) for e in AEAD_RAW],
        meta=[raw_meta(e) for e in AEAD_RAW],
    params:
        section="aead",
        values=lambda w: section_parameters("aead"),
    log:
        log_path("aead_measure"),
    threads: TIMING_THREADS
    shell:
        TIMING_NOTEBOOK_SHELL


rule aead:
    """The chapter: figures 3-13, tables 1-7 beside the paper, forgery bound, Wycheproof, bit flipping, and
    the evidence for every claim of paper 003 in data/paper/claims.csv."""
    input:
        notebook="notebooks/aead.ipynb",
        code=chapter_code("aead"),
        raw=[raw(e) for e in AEAD_RAW],
        meta=[raw_meta(e) for e in AEAD_RAW],
        paper=sorted(rel(p) for p in paths.PAPER_DATA_DIR.glob("003_*.csv")),
        claims=rel(paths.CLAIMS_FILE),
        rules=rel(paths.VERDICT_RULES_FILE),
    output:
        notebook=executed("aead"),
        tables=[table(t) for t in AEAD_TABLES],
        timing_tables=[timing_table(t) for t in AEAD_TIMING_TABLES],
        figures=figures(*AEAD_FIGURES),
    params:
        section="aead",
        values=lambda w: section_parameters("aead"),
    log:
        log_path("aead"),
    threads: 1
    shell:
        NOTEBOOK_SHELL
