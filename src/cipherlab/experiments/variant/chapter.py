"""The variant chapters: referee an AES variant, one chapter per ``config/variants/<name>.yaml``.

The declaration only (:data:`VARIANTS`, :class:`Params`); the battery is in
:mod:`cipherlab.experiments.variant.driver`.  ``notebooks/variant.ipynb`` runs once
per variant (``workflow/rules/variants.smk``); every output name below is a suffix:
variant ``v`` writes ``variant_<v>_<suffix>`` and its page is ``variant_<v>``.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherlab.pipeline.chapters import VARIANT_NAME, Variants, check_variant_names
from cipherlab.pipeline.params import PROCESSES, param


@dataclass(frozen=True)
class Params:
    """The battery's parameters (config section ``variant``); the defaults are the full profile's."""

    names: tuple[str, ...] = param(
        ("aes-affine-sbox", "aes-random-sbox", "aes-4-rounds", "aes-circulant-matrix"),
        "the variants `make reproduce` builds, each a file config/variants/<name>.yaml "
        "(`make variant VARIANT=<name>` builds any described one)",
        uniqueItems=True, items={"type": "string", "pattern": f"^{VARIANT_NAME}$"})
    correctness_messages: int = param(4, "seeded messages per key size, mode and style (round trips, style "
                                         "agreement)", minimum=1)
    correctness_bytes: int = param(4096, "bytes of each correctness message", minimum=1)
    dependency_keys: int = param(4, "byte-dependency matrix by round: random keys (x plaintexts)", minimum=1)
    dependency_plaintexts: int = param(64, "byte-dependency matrix by round: plaintexts per key", minimum=1)
    avalanche_keys: int = param(4, "avalanche / SAC: keys (x plaintexts, all 128 bit flips each)", minimum=1)
    avalanche_plaintexts: int = param(64, "avalanche / SAC: plaintexts per key", minimum=1)
    affinity_triples: int = param(256, "random (a, b, c): E(a)^E(b)^E(c) == E(a^b^c)?", minimum=1)
    rounds_triples: int = param(16, "the same test at each round count 1..Nr", minimum=1)
    lambda_sets: int = param(4, "Λ-sets (256 chosen plaintexts each): the integral property by round, and the "
                                "square attack", minimum=1)
    image_stride: int = param(1, "the attacked test image (600x512), every stride-th pixel", minimum=1)
    keystream_bytes: int = param(1048576, "SP 800-22 on the CTR keystream and on the encrypted image: bytes",
                                 minimum=1024)
    n_sequences: int = param(16, "SP 800-22: sequences each input is cut into", minimum=1)
    block_size: int = param(128, "SP 800-22: block length of the block frequency test (bits)", minimum=2)
    apen_m: int = param(8, "SP 800-22 approximate entropy: m", minimum=1)
    serial_m: int = param(10, "SP 800-22 serial: m", minimum=2)
    speed_bytes: int = param(65536, "ECB encryption of this many bytes (whole blocks), AES / AES (A/A control) / "
                                    "the variant", minimum=16, multipleOf=16)
    speed_processes: int = param(3, "fresh processes, one after another (cipherlab.analysis.timing)", PROCESSES)
    speed_trials: int = param(30, "trials per case in all processes (batched to min_trial_seconds)", minimum=2)
    trail_rounds: int = param(10, "active-S-box bounds (MILP) and trail bounds for 1..trail_rounds rounds",
                              minimum=1, maximum=20)
    trail_keys: int = param(4, "a variant whose S-box or ShiftRows depends on the key: keys whose S-boxes and "
                                  "ShiftRows enter the trail bounds, the weakest counting (each costs a MILP per round)",
                            minimum=1)
    sbox_keys: int = param(64, "keys whose S-boxes are measured when the S-box depends on the key (a fixed S-box is "
                               "measured once): the distribution of nonlinearity, differential uniformity, SAC, BIC",
                           minimum=1)
    equivalence_keys: int = param(8, "structural equivalence to AES: keys decided and confirmed by encrypting",
                                  minimum=1)
    equivalence_blocks: int = param(256, "structural equivalence to AES: blocks encrypted per key to confirm it",
                                    minimum=1)

    def check(self) -> None:
        """Each listed variant has its file ``config/variants/<name>.yaml``."""
        check_variant_names(self.names, where="variant.names")


VARIANTS = Variants(
    about="Referee an AES variant: correctness, byte maps and S-box tables, branch numbers and active-S-box "
          "bounds (MILP) with the design margin, diffusion, the codebook, GF(2)-affinity and square attacks run "
          "for real, SP 800-22, speed against AES with an A/A control, and a summary card.",
    params=Params,
    raw=("speed",),
    tables=("correctness", "byte_maps", "dependency", "rounds", "property_rounds", "avalanche", "avalanche_summary",
            "affinity_test", "affinity_attack", "codebook", "square_attack", "randomness", "randomness_sequences",
            "sbox_tables", "sbox_spectra", "linear_layer", "trail_bounds", "margin", "sbox_samples",
            "sbox_key_summary", "equivalence", "image_entropy"),
    # their bytes depend on measured times (milp_times always, the others when the battery measures speed; a
    # paper's evidence and verdicts, when it has claims, may rest on the speed measured)
    timing_tables=("speed", "compile", "milp_times", "evidence", "verdicts"),
    figures=("dependency", "rounds", "avalanche", "affinity_attack", "trail_bounds", "sbox_keys"),
    # the battery reuses the security chapter's measures and attacks, and attacks the test photograph; a paper's
    # report reuses the referee's report sections
    code=("experiments/security/*.py", "data/grace_hopper.jpg", "report/referee.py", "report/tiers.py",
          "report/verdict_page.py"),
)
