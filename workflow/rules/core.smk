# The pipeline's first steps: the seeded input files, and the self-check every timing waits for.


rule input_file:
    """Generate one declared input file from the profile seed."""
    output:
        rel(P.inputs / "{name}"),
    params:
        spec=lambda w: INPUTS[w.name],
        seed=CFG["seed"],   # the file is generated from it: another seed re-generates it
    wildcard_constraints:
        name="|".join(sorted(map(lambda n: n.replace(".", r"\."), INPUTS))) or "NO_INPUTS",
    log:
        rel(P.logs / "inputs" / "{name}.log"),
    threads: 1
    resources:
        mem_mb=2000,
    shell:
        PYTHON + " -m cipherlab.pipeline.inputs " + PROFILE + " {wildcards.name} {output} > {log} 2>&1"


# The cipher core: every file of src/cipherlab/ciphers/ (kernels, schedules, modes, registry, known-answer
# vectors, the variant schema), the shared checks and the selfcheck itself, and the papers' cipher descriptions
# it checks against the registered ciphers (config/ciphers/*.yaml, read by their schema).  Editing any of it
# re-runs the selfcheck, and so every timing after it.
CIPHER_CORE = (package_files("ciphers") + [rel(paths.SRC_DIR / f"{m}.py") for m in ("_checks", "selfcheck")]
               + config_inputs(["ciphers/*.yaml"]))


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
