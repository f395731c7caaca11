"""The security chapter: S-box tables, diffusion, the key-free codebook attack and SP 800-22, AES the control.

The declaration only (:data:`CHAPTER`, :class:`Params`); the work is in
:mod:`cipherlab.experiments.security.driver`, imported when the chapter is built.
"""
from __future__ import annotations

from dataclasses import dataclass

from cipherlab.pipeline.chapters import Chapter
from cipherlab.pipeline.params import BYTE, param

#: The columns of this chapter's ``security_attack`` table that the findings of the chapters whose ciphers it
#: attacks read (:func:`cipherlab.experiments._sentences.attack_sentence`): declared once, here, beside the table.
ATTACK_FINDINGS_COLUMNS = ("cipher", "mode", "target", "queries", "bytes", "bytes_recovered", "byte_local",
                           "match_fraction_decoded", "chance")


@dataclass(frozen=True)
class Params:
    """Parameters of the chapter; the defaults are the full profile's."""

    xor_byte: int = param(127, "S-box tables: the second S-box's xor byte (the papers use 7F)", BYTE)
    dependency_keys: int = param(16, "byte-dependency matrix: random keys (x plaintexts, each with 16 modified "
                                     "copies)", minimum=1)
    dependency_plaintexts: int = param(256, "byte-dependency matrix: random plaintexts per key", minimum=1)
    avalanche_keys: int = param(8, "avalanche / SAC: keys (x plaintexts, every one of the 128 bits flipped once)",
                                minimum=1)
    avalanche_plaintexts: int = param(128, "avalanche / SAC: plaintexts per key", minimum=1)
    rounds_keys: int = param(4, "rounds to full diffusion (round-reduced ciphers, rounds 1..Nr): keys", minimum=1)
    rounds_plaintexts: int = param(64, "rounds to full diffusion: plaintexts per key", minimum=1)
    image_stride: int = param(1, "attack target: every stride-th pixel row and column of the 600x512 test image "
                                 "(1: the whole image)", minimum=1)
    text_bytes: int = param(51200, "attack target: a text file of this many bytes", minimum=16)
    randomness_bytes: int = param(1048576, "SP 800-22: bytes of each low-entropy input (all-zero, text)",
                                  minimum=16)
    n_sequences: int = param(32, "SP 800-22: sequences each ciphertext is cut into", minimum=1)
    block_size: int = param(128, "SP 800-22: block length of the block frequency test (bits)", minimum=2)
    apen_m: int = param(10, "SP 800-22 approximate entropy: m < log2(n) - 5 (n bits per sequence)", minimum=1)
    serial_m: int = param(14, "SP 800-22 serial: m < log2(n) - 2 (n bits per sequence)", minimum=2)


CHAPTER = Chapter(
    name="security", order=40,
    about="S-box tables, dependency matrices, avalanche/SAC, rounds to full diffusion, the codebook attack "
          "(recovered-byte fractions in security_attack.csv), SP 800-22, evidence for the engine (findings, "
          "and 000/001's \"slightly weakened\").",
    params=Params,
    # one notebook: the whole analysis takes about 20 s on the full profile, nothing to save by
    # splitting it, and nothing is timed
    measure=None,
    build="driver:build",
    tables=("security_sbox_properties", "security_sbox_spread", "security_sbox_spread_summary",
            "security_dependency", "security_avalanche", "security_avalanche_summary", "security_rounds",
            "security_attack", "security_image_entropy", "security_randomness", "security_randomness_sequences",
            "security_summary", "security_recovered_text", "evidence_security"),
    timing_tables=(),
    # a figure's name is not a table's: the figures drawn from a table of the same topic end in _figure
    figures=("security_ddt_lat", "security_dependency_figure", "security_avalanche_figure", "security_sac",
             "security_rounds_figure", "security_recovered_image", "security_randomness_figure"),
    paper=("00[012]_*.csv",),
    # the ciphers it analyses, as described (cipherlab.experiments.security.driver.described_ciphers)
    config=("ciphers/*.yaml",),
    # the test photograph it attacks, read directly (cipherlab.pipeline.paths.TEST_IMAGE)
    code=("data/grace_hopper.jpg",),
    threads=2,
    # the findings page's security sentences are written by the aes2sbox and maes chapters from these tables
    papers=(),
    findings=None,
)
