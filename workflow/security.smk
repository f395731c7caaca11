# Chapter: the security analysis the papers skipped (S-box properties,
# diffusion, a key-free attack, SP 800-22 randomness).  One notebook: the whole
# measurement takes about 20 s on the full profile, so there is nothing to
# save by splitting measuring from plotting.  No timing here.

SECURITY_TABLES = [
    "security_sbox_properties", "security_sbox_spread", "security_sbox_spread_summary",
    "security_dependency", "security_avalanche", "security_avalanche_summary",
    "security_rounds", "security_attack", "security_image_entropy", "security_randomness",
    "security_randomness_sequences", "security_summary",
    # the evidence for the claims registry: deterministic (no timing), so byte-identical between runs
    "evidence_security",
]
SECURITY_FIGURES = [
    "security_ddt_lat", "security_dependency", "security_avalanche", "security_sac",
    "security_rounds", "security_recovered_image", "security_randomness",
]


rule security:
    """S-box tables, dependency matrices, avalanche/SAC, rounds to full diffusion, the codebook attack (recovered-byte fractions in security_attack.csv), SP 800-22, evidence for the engine (findings, and 000/001's "slightly weakened")."""
    input:
        notebook="notebooks/security.ipynb",
        code=chapter_code("security") + [rel(paths.SRC_DIR / "experiments" / "table_layout.py")],
        selfcheck=SELFCHECK,
        paper=sorted(rel(p) for p in paths.PAPER_DATA_DIR.glob("00[012]_*.csv")) + [rel(paths.CLAIMS_FILE), rel(paths.VERDICT_RULES_FILE)],
    output:
        notebook=executed("security"),
        tables=[table(t) for t in SECURITY_TABLES],
        figures=figures(*SECURITY_FIGURES),
    params:
        section="security",
        values=lambda w: section_parameters("security"),
    log:
        log_path("security"),
    threads: 2
    shell:
        NOTEBOOK_SHELL
