# The pipeline's first steps: the seeded input files, and the self-check every timing waits for.


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
