"""The aes2sbox chapter: papers 000 and 001 (AES-2SBox), every published table rebuilt beside ours."""
from __future__ import annotations

from dataclasses import dataclass

from cipherlab.names import OWN_STYLES
from cipherlab.experiments.security.chapter import ATTACK_FINDINGS_COLUMNS
from cipherlab.pipeline.chapters import Chapter, Measure
from cipherlab.pipeline.params import BYTE, FILE_NAME, IMPL, IMPLS, INPUTS, KEY_HEX, MODE, PROBABILITY, PROCESSES, param

#: The papers of the chapter: 000 (2015) and 001 (its extended version).
PAPERS = ("000", "001")

# KB = 1024 bytes (the papers ran Windows, whose Explorer shows sizes in units of 1024 bytes); sizes are in
# bytes. The papers name no file content: 000 says "a text file", 001 "a file"; both protocols use generated
# English-like ASCII text. The papers ran 20 (000) and 50 (001) trials; we run 400 interleaved trials of each
# case (about 20 s in all), so that the intervals and the A/A band are narrow enough to decide: with 200, a 16 %
# speed-up moved by 6 points between two runs.
_PROTOCOLS = {"000": {"file": "aes2sbox_000_text_60416.txt", "trials": 400, "warmup": 5},   # 59 KB text file
              "001": {"file": "aes2sbox_001_text_51200.txt", "trials": 400, "warmup": 5}}   # 50 KB file
_INPUTS = {"aes2sbox_000_text_60416.txt": {"kind": "text", "bytes": 60416},   # 59 KB
           "aes2sbox_001_text_51200.txt": {"kind": "text", "bytes": 51200}}   # 50 KB
_PROTOCOL = {"type": "object", "required": ["file", "trials", "warmup"], "additionalProperties": False,
             "properties": {"file": FILE_NAME, "trials": {"type": "integer", "minimum": 2},
                            "warmup": {"type": "integer", "minimum": 0}}}


@dataclass(frozen=True)
class Params:
    """Parameters of the chapter; the defaults are the full profile's (the papers' protocols)."""
    key_hex: str = param("2b7e151628aed2a6abf7158809cf4f3c",
                         "FIPS-197 Appendix B example key, for the speed trials and the avalanche pairs "
                         "(the papers give none)", KEY_HEX)
    xor_byte: int = param(127, "0x7F, the papers' Key[i] of the second S-box", BYTE)
    construction: str = param("xor-index", "the reading of the construction that reproduces the printed tables",
                              enum=["xor-index", "xor-sbox"])
    mode: str = param("ecb", "Java's default \"AES\" transformation is AES/ECB/PKCS5Padding", MODE)
    threads: int = param(1, "threads of the timed calls (the papers name none: one)", minimum=1)
    impls: tuple[str, ...] = param(OWN_STYLES,
                                   "every style is timed; a (cipher, style) pair that cannot be built is listed "
                                   "as not timed", IMPLS)
    processes: int = param(12, "fresh interpreters the trials are spread over, one after another "
                              "(timing.measure_groups_in_processes); the intervals resample them, so a disturbed "
                              "process does not set their width", PROCESSES)
    protocols: dict = param(_PROTOCOLS, "each paper's protocol {paper: {file, trials, warmup}}: the file timed "
                                        "(one of inputs), interleaved trials per case, warm-up calls",
                            minProperties=1, propertyNames={"enum": list(PAPERS)}, additionalProperties=_PROTOCOL)
    alpha: float = param(0.05, "the papers' significance level, for their Welch tables (shown, not deciding)",
                         PROBABILITY)
    avalanche_plaintexts: int = param(2000, "random plaintexts per key, each with all 128 single-bit flips",
                                      minimum=1)
    avalanche_keys: int = param(4, "the key above plus random keys", minimum=1)
    avalanche_impl: str = param("table", "the style that encrypts the avalanche plaintexts", IMPL)
    inputs: dict = param(_INPUTS, "generated inputs {file: {kind, bytes}}", INPUTS)

    def check(self) -> None:
        """Every protocol times a file the chapter declares in ``inputs`` (so the pipeline generates it)."""
        for paper, spec in sorted(self.protocols.items()):
            if spec["file"] not in self.inputs:
                raise ValueError(f"aes2sbox.protocols: paper {paper} times {spec['file']!r}, which is not one of "
                                 f"aes2sbox.inputs {sorted(self.inputs)}")


CHAPTER = Chapter(
    name="aes2sbox", order=10, title="AES-2SBox",
    about="The AES-2SBox chapter: published tables beside ours, the papers' stats audit, avalanche, evidence for "
          "the engine.",
    params=Params,
    measure=Measure(about="Tables 3-5: both published protocols, every cipher x style x operation plus the A/A "
                          "control, interleaved, batched trials.", raw=("aes2sbox_speed",), run="driver:measure"),
    build="driver:build",
    tables=("aes2sbox_construction", "aes2sbox_sbox_diff", "aes2sbox_table1", "aes2sbox_table2", "aes2sbox_audit",
            "aes2sbox_avalanche_pairs", "aes2sbox_avalanche_summary", "aes2sbox_avalanche_by_position",
            "aes2sbox_avalanche_histogram"),
    timing_tables=("aes2sbox_welch", "aes2sbox_speedup", "evidence_aes2sbox"),
    figures=("aes2sbox_speed_trials", "aes2sbox_avalanche"),
    paper=("00[01]_*.csv",),
    papers=PAPERS,
    findings="findings:paragraphs",
    findings_tables={
        "aes2sbox_speedup": ("paper", "operation", "style", "size", "published_pct", "ours_pct", "low_pct",
                             "high_pct", "aa_low_pct", "aa_high_pct"),
        "security_sbox_properties": ("sbox", "nonlinearity", "differential_uniformity", "algebraic_degree"),
        "security_attack": ATTACK_FINDINGS_COLUMNS,
        "verdicts": ("claim_id", "paper", "kind", "verdict", "shown", "reason", "tier", "concern"),
    },
    findings_figures=("security_recovered_image",),
)
