"""The maes chapter (paper 002): MAES, AES with MixColumns replaced by an XOR, beside the published
Tables I-IV, Figure 8 and key-space argument, with the evidence for each claim.

The declaration only (imported by the Snakefile to build the rules): the work is in
:mod:`.driver` and the modules it calls.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherlab import names
from cipherlab.experiments.security.chapter import ATTACK_FINDINGS_COLUMNS
from cipherlab.pipeline.chapters import Chapter, Measure
from cipherlab.pipeline.params import (BLOCK_HEX, FILE_NAME, IMPL, IMPLS, INPUTS, KEY_HEX, MODES, PROBABILITY,
                                       PROCESSES, param)

PAPER = "002"


@dataclass(frozen=True)
class Params:
    """Parameters of the chapter; the defaults are the full profile's (``config/quick.yaml`` shrinks the
    trials and the bulk file).  Key and CBC IV are the SP 800-38A example values (the paper gives none).
    KiB/MiB = 1024/2**20 bytes; sizes are in bytes."""

    key_hex: str = param("2b7e151628aed2a6abf7158809cf4f3c", "AES-128 / MAES-128 key", KEY_HEX)
    iv_hex: str = param("000102030405060708090a0b0c0d0e0f", "CBC IV of the image experiment and bulk CBC",
                        BLOCK_HEX)
    iv_source: str = param("sha3", "MAES IV source: sha3 | keyexp (Table I times both)",
                           enum=list(names.MAES_IV_SOURCES))
    sha3: str = param("sha3_256", "SHA-3 variant; IVs are the first 16 bytes of each digest",
                      enum=list(names.SHA3_VARIANTS))
    sha3_chain: str = param("iv", "approach 2 hashes the previous 16-byte IV (Figure 7)", enum=list(names.SHA3_CHAINS))
    impls: tuple[str, ...] = param(names.OWN_STYLES,
                                   "implementation styles timed (Tables II-III, bulk); a new style is added here alone",
                                   IMPLS)
    processes: int = param(12, "fresh interpreters the trials are spread over, one after another "
                              "(timing.measure_groups_in_processes); the intervals resample them, so a disturbed "
                              "process does not set their width", PROCESSES)
    original_style: str = param("reference", "the paper's \"original AES\": byte-oriented, one function per "
                                             "FIPS-197 step", IMPL)
    optimized_style: str = param("table", "the paper's \"optimized AES\": T-tables, MixColumns folded into the "
                                          "lookups", IMPL)
    # Trials are batched: a trial of a short operation is k calls lasting >= min_trial_seconds
    # (config/verdicts.yaml), and its time is per call.
    trials_keyexp: int = param(400, "Table I: trials of each key expansion / IV generation (batched)", minimum=2)
    trials_stage: int = param(300, "Table II: trials of each step over stage_blocks states", minimum=2)
    stage_blocks: int = param(32768, "states per call: dispatch share under 1 %, trials short enough to dodge "
                                     "preemption", minimum=1)
    trials_steps: int = param(200, "the four steps of an AES round, each timed alone (steps.py): trials of each step "
                                   "and of the whole round, byte-oriented style", minimum=2)
    steps_states: int = param(4096, "states each step-timing call runs through its step 9 times (a call of about a "
                                    "millisecond for the whole round)", minimum=1)
    trials_block: int = param(1000, "Table III: trials of one-block encrypt/decrypt per case (16 cases x >= 1 ms "
                                    "each)", minimum=2)
    trials_bulk: int = param(120, "bulk throughput: passes over the bulk file per case, one call each; on a shared "
                                  "machine an interrupt slows some of them, and enough passes keep the median off "
                                  "those (Table III's one-block claims are decided on this per-block cost)", minimum=2)
    bulk_modes: tuple[str, ...] = param(("ecb",), "modes of the bulk throughput test", MODES)
    warmup: int = param(20, "untimed calls of each case before its trials", minimum=0)
    image_modes: tuple[str, ...] = param(names.MODES, "Figure 8 / Table IV: the paper does not say "
                                                                "which mode; each is a reading", MODES)
    image_impl: str = param("table", "style the image is encrypted in (reference and table agree bit for bit)",
                            IMPL)
    alpha: float = param(0.01, "chi-square uniformity level of the tables (the verdict uses the claim's alpha)",
                         PROBABILITY)
    dependency_blocks: int = param(1024, "blocks per position in the one-byte-change diffusion count", minimum=1)
    keys_per_second: float = param(1.0e12, "brute-force rate assumed for the key-space years column",
                                   exclusiveMinimum=0)
    inputs: dict = param({"maes_image.npy": {"kind": "image"},
                          "maes_bulk_1048576.bin": {"kind": "random", "bytes": 1048576}},
                         "generated inputs {file: {kind, bytes}}; the bulk file is 1 MiB", INPUTS)
    bulk_file: str = param("maes_bulk_1048576.bin", "the bulk throughput file (declared in inputs)", FILE_NAME)
    image_file: str = param("maes_image.npy", "the Figure 8 image (declared in inputs, kind image)", FILE_NAME)

    def check(self) -> None:
        """Cross-field rules: the files are declared inputs of the right kind; the paper's two AES are styles
        the chapter times."""
        if self.bulk_file not in self.inputs:
            raise ValueError(f"maes.bulk_file: {self.bulk_file!r} is not declared in maes.inputs "
                             f"{sorted(self.inputs)}")
        if self.inputs[self.bulk_file].get("kind") == "image":
            raise ValueError(f"maes.bulk_file: {self.bulk_file!r} must be a byte file, not an image")
        if self.image_file not in self.inputs or self.inputs[self.image_file].get("kind") != "image":
            raise ValueError(f"maes.image_file: {self.image_file!r} must be declared in maes.inputs with kind "
                             f"image; inputs: {sorted(self.inputs)}")
        for name in ("original_style", "optimized_style"):
            if getattr(self, name) not in self.impls:
                raise ValueError(f"maes.{name}: {getattr(self, name)!r} must be one of maes.impls "
                                 f"{list(self.impls)}")



CHAPTER = Chapter(
    name="maes", order=20,
    about="The MAES chapter: tables beside the published values, Figure 8, Table IV, key space, evidence.",
    params=Params,
    measure=Measure(
        about="Tables I-III, bulk throughput and the steps of a round: interleaved, batched in-process timings "
              "with A/A controls.",
        raw=("maes_keyexp", "maes_stage", "maes_block", "maes_bulk", "maes_steps", "maes_compile", "maes_overhead"),
        run="driver:measure"),
    build="driver:build",
    tables=("maes_entropy", "maes_entropy_vs_aes", "maes_histograms", "maes_dependency", "maes_keyspace",
            "maes_leaks"),
    timing_tables=("maes_table1", "maes_table2", "maes_table3", "maes_speedups_block", "maes_throughput", "maes_steps",
                   "maes_speedups_bulk", "maes_compile_times", "evidence_maes"),
    # The speed-up figures carry a suffix: their tables have the plain names, and ``build`` returns
    # one object per name.
    figures=("maes_fig8_images", "maes_fig8_repeats", "maes_fig8_histograms", "maes_speedups_block_figure",
             "maes_speedups_bulk_figure"),
    paper=("002_*.csv", "002_comparisons.yaml"),
    papers=(PAPER,),
    title="MAES",
    findings="findings:paragraphs",
    findings_tables={
        "security_attack": ATTACK_FINDINGS_COLUMNS,
        "verdicts": ("claim_id", "paper", "kind", "verdict", "shown", "reason", "tier", "concern"),
    },
)
