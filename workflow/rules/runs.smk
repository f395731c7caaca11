# A book built from a shipped run (--config run=<name>, make from-run): the run's raw files and measuring
# notebooks, unpacked.
#
#   shipped_raw        one raw file of data/runs/<run>/raw/ (gzip) and its record into this book's own tree
#                      (build/runs/<run>/<profile>/raw/), checked by the one raw reader: whole, of its experiment
#                      and profile, measured with this code's parameters (python -m cipherlab.shipped unpack);
#   shipped_notebook   each measuring notebook as the run executed it (the book's appendix), checked against the
#                      run's card.
#
# In such a tree no timing rule exists (chapters.smk, book.smk and variants.smk leave them out), so the
# chapters read the run's trials and compute everything else.

import re

if SHIPPED:
    SHIPPED_RUN = shipped.load_run(RUN)
    SHIPPED_RAW = sorted(shipped.raw_files(CFG, MANIFEST))

    rule shipped_raw:
        """One raw file of the shipped run and its record, checked, into this book's tree."""
        input:
            gz=rel(SHIPPED_RUN.path / shipped.RAW_DIR) + "/{experiment}.csv.gz",
            meta=rel(SHIPPED_RUN.path / shipped.RAW_DIR) + "/{experiment}.meta.json",
            code=[rel(paths.SRC_DIR / "pipeline" / "runs.py"), rel(paths.SRC_DIR / "shipped.py")],
        output:
            csv=rel(P.raw_csv("{experiment}")),
            meta=rel(P.raw_meta("{experiment}")),
        wildcard_constraints:
            experiment="|".join(re.escape(x) for x in SHIPPED_RAW) or "NO_RAW",
        log:
            rel(P.logs / "shipped_raw" / "{experiment}.log"),
        threads: 1
        resources:
            mem_mb=2000,
        shell:
            PYTHON + " -m cipherlab.shipped unpack " + RUN + " {wildcards.experiment} --profile " + PROFILE
            + " > {log} 2>&1 || {{ cat {log} >&2; exit 1; }}"

    rule shipped_notebook:
        """A measuring notebook as the shipped run executed it (the book's appendix), checked, into this book's tree."""
        input:
            gz=rel(SHIPPED_RUN.path / shipped.NOTEBOOK_DIR) + "/{notebook}.ipynb.gz",
            code=[rel(paths.SRC_DIR / "pipeline" / "runs.py"), rel(paths.SRC_DIR / "shipped.py")],
        output:
            executed("{notebook}"),
        wildcard_constraints:
            notebook="|".join(re.escape(ch.measure_name) for ch in MANIFEST.chapters if ch.measure) or "NO_NOTEBOOK",
        log:
            rel(P.logs / "shipped_notebook" / "{notebook}.log"),
        threads: 1
        resources:
            mem_mb=2000,
        shell:
            PYTHON + " -m cipherlab.shipped unpack " + RUN + " {wildcards.notebook} --profile " + PROFILE
            + " > {log} 2>&1 || {{ cat {log} >&2; exit 1; }}"
