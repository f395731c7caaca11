"""The aead chapter (paper 003): GCM, CCM and EAX, and EAX with AES, Blowfish and CAST-128, beside the paper."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from cipherlab.names import AES_KEY_BYTES
from cipherlab.pipeline.chapters import Chapter, Measure
from cipherlab.pipeline.params import PROCESSES, SIZES_MB, param

#: A megabyte as the paper's sizes read ("100kb ... 5MB", "[0.1, 0.5, 1, 3, 5] MB": decimal), and the binary one
#: a profile may take instead (``mb_bytes``).
MB, MIB = 10**6, 2**20
#: The AEAD modes of phase 1 (AES with each), and their nonce lengths when the caller gives none: PyCryptodome's
#: defaults, as the paper's code drew them (``AES.new(key, AES.MODE_EAX)``): 16 bytes for GCM and EAX, 11 for CCM.
MODES = ("gcm", "ccm", "eax")
DEFAULT_NONCE_BYTES = {"gcm": 16, "ccm": 11, "eax": 16}
#: The sizes of the forgery trials stand for the paper's Tables 5, 6 and 7, in order.
_FORGERY_TABLES = 3


def mb_to_bytes(sizes_mb: Iterable[float], mb_bytes: int = MB) -> list[int]:
    """File sizes in bytes from sizes in MB of ``mb_bytes`` bytes each: the chapter's one conversion."""
    return [int(round(float(mb) * mb_bytes)) for mb in sizes_mb]


def input_name(nbytes: int) -> str:
    """File name of the generated text of ``nbytes`` bytes (under ``Profile.inputs``)."""
    return f"aead_text_{int(nbytes)}.txt"


@dataclass(frozen=True)
class Params:
    """Parameters of the chapter; the defaults are the full profile's (the paper's protocol).

    MB = 10**6 bytes here (the paper's "100kb ... 5MB" and "[0.1, 0.5, 1, 3, 5] MB" read as
    decimal); throughput is MB/s of plaintext.
    """

    mb_bytes: int = param(MB, "bytes per MB: 10**6, as the paper's sizes read in decimal, or 2**20",
                          enum=[MB, MIB])
    sizes_mb: tuple[float, ...] = param((0.1, 0.5, 1, 3, 5), "file sizes of phases 1 and 2 (Figs. 3-10), MB",
                                        SIZES_MB)
    forgery_sizes_mb: tuple[float, ...] = param((0.1, 1, 5), "file sizes of the forgery trials (Tables 5-7, "
                                                "Figs. 11-13), MB; three, one per table", SIZES_MB)
    processes: int = param(12, "fresh interpreters the trials are spread over, one after another "
                           "(timing.measure_groups_in_processes); the intervals resample them, so a disturbed "
                           "process does not set their width; each also times every case once, cold, first (the "
                           "paper's protocol, protocol.py), so they are that sample's size too", PROCESSES)
    trials: int = param(120, "phase 1 trials per case in all processes; batched below 1 ms, with an A/A control",
                        minimum=2)
    phase2_trials: int = param(36, "phase 2 trials per case in all processes: Blowfish/CAST at 3-5 MB take tens "
                               "of ms per call and every trial lasts at least phase2_min_trial_seconds: 3 trials per "
                               "process",
                               minimum=2)
    phase2_min_trial_seconds: float = param(
        0.1, "each phase-2 trial lasts at least this long (s), so that a trial is the mean of several calls: at "
        "5 MB, AES-EAX calls alternate between reusing freed memory and faulting in fresh pages; at 0.1 MB a single "
        "interrupt can double one call",
        minimum=0, exclusiveMaximum=10)
    warmup: int = param(2, "warm-up rounds per case of phases 1 and 2: PyCryptodome is compiled C, no JIT to warm "
                        "(the paper: 10); batching adds 5 untimed probe calls per case", minimum=0)
    forgery_trials: int = param(240, "tags per mode, size and kind (the paper: 100); also the timed "
                                "rejections per case, which the fit of 003-s52-reject-linear resamples", minimum=2)
    forgery_warmup: int = param(1, "warm-up rounds per forgery case", minimum=0)
    aad: str = param("cipherlab paper 003 static AAD", "the static associated data")
    key_bytes: int = param(16, "key length: AES-128, and 128-bit Blowfish and CAST-128 keys", enum=list(AES_KEY_BYTES))
    nonce_bytes: dict = param(
        dict(DEFAULT_NONCE_BYTES), "nonce length per mode: PyCryptodome's defaults, as AES.new(key, mode) "
        "draws", required=list(MODES), additionalProperties=False,
        properties={"gcm": {"type": "integer", "minimum": 1, "maximum": 64},
                    "ccm": {"type": "integer", "minimum": 7, "maximum": 13},
                    "eax": {"type": "integer", "minimum": 1, "maximum": 64}})
    log2_q_max: int = param(40, "the forgery bound for q = 1 .. 2**log2_q_max attempts", minimum=1, maximum=128)
    message: str = param("from=alice&to=bob&amount=0100&memo=rent&id=0042&",
                         "the bit-flip demo's message (48 bytes: a whole number of AES blocks)", minLength=1)
    field_old: str = param("amount=0100", "the field of `message` the CTR rewrite changes", minLength=1)
    field_new: str = param("amount=9999", "what the CTR rewrite makes of it (as long as field_old)", minLength=1)

    @property
    def phase_bytes(self) -> list[int]:
        """The sizes of phases 1 and 2 in bytes."""
        return mb_to_bytes(self.sizes_mb, self.mb_bytes)

    @property
    def forgery_bytes(self) -> list[int]:
        """The sizes of the forgery trials in bytes (Tables 5, 6 and 7)."""
        return mb_to_bytes(self.forgery_sizes_mb, self.mb_bytes)

    def derived(self) -> dict:
        """What follows from the parameters alone: ``inputs``, one generated text file per size of either list
        (``aead_text_<bytes>.txt``), so a profile names each size once."""
        sizes = sorted(set(self.phase_bytes) | set(self.forgery_bytes))
        return {"inputs": {input_name(n): {"kind": "text", "bytes": n} for n in sizes}}

    def check(self) -> None:
        """What the schema alone cannot say: three forgery sizes, a message the bit-flip experiments can use."""
        if len(set(self.forgery_bytes)) != _FORGERY_TABLES:
            raise ValueError(f"aead.forgery_sizes_mb: give {_FORGERY_TABLES} different sizes (one per Table 5, 6 "
                             f"and 7), got {list(self.forgery_sizes_mb)}")
        msg, old, new = self.message.encode(), self.field_old.encode(), self.field_new.encode()
        if len(msg) % 16:
            raise ValueError(f"aead.message: must be a whole number of 16-byte blocks (bare CBC), got {len(msg)} bytes")
        if old not in msg:
            raise ValueError(f"aead.field_old: {self.field_old!r} does not occur in aead.message")
        if len(new) != len(old):
            raise ValueError(f"aead.field_new: must have as many bytes as aead.field_old ({len(old)}), got {len(new)}")


CHAPTER = Chapter(
    name="aead", order=30,
    about="The chapter: figures 3-13, tables 1-7 beside the paper, forgery bound, Wycheproof, bit flipping, and "
          "the evidence for every claim of paper 003 in data/paper/claims.csv.",
    params=Params,
    measure=Measure(
        about="Time PyCryptodome's GCM/CCM/EAX (phase 1), EAX x AES/Blowfish/CAST (phase 2) and forged-tag "
              "checks, each with an A/A control, and every case once more under the paper's protocol (one cold "
              "call per file and process); record which forged tags are rejected.",
        # aead_forgery_outcomes is not a timing (which seeded tags were rejected) but comes
        # from the forgery timing run, so it lives beside it.
        raw=("aead_cold", "aead_phase1", "aead_phase2", "aead_forgery", "aead_forgery_outcomes"),
        run="driver:measure"),
    build="driver:build",
    tables=("aead_machine", "aead_forgery_outcomes", "aead_wycheproof", "aead_wycheproof_unsupported",
            "aead_forgery_bound", "aead_trials_to_observe", "aead_bitflip_acceptance", "aead_ctr_rewrite"),
    timing_tables=("aead_phase1_summary", "aead_phase2_summary", "aead_protocols", "aead_ratios", "aead_ranking_ours",
                   "aead_ranking_vs_paper", "aead_prose_vs_paper", "aead_forgery_times", "aead_forgery_vs_paper",
                   "aead_linear_fit", "aead_stability", "evidence_aead"),
    figures=("aead_fig03_enc_time", "aead_fig04_dec_time", "aead_fig05_enc_tp", "aead_fig06_dec_tp",
             "aead_fig07_enc_time", "aead_fig08_dec_time", "aead_fig09_enc_tp", "aead_fig10_dec_tp",
             "aead_fig11_forgery", "aead_fig12_forgery", "aead_fig13_forgery", "aead_forgery_bound_figure"),
    paper=("003_*.csv", "003_comparisons.yaml"),
    papers=("003",), title="Block-cipher modes",
    findings="findings:paragraphs",
    findings_tables={"verdicts": ("claim_id", "paper", "kind", "verdict", "shown", "reason", "tier", "concern"),
                     "aead_bitflip_acceptance": ("family", "mode", "location", "flips", "accepted")},
)
