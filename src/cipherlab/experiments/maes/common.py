"""Constants, input checks and published-value look-ups shared by the MAES chapter's modules."""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from cipherlab._checks import check_choice
from cipherlab.analysis.paper import published
from cipherlab.ciphers.cpu import aesni_status
from cipherlab.ciphers.modes import available_impls
from cipherlab.ciphers.registry import cipher_names, lookup
from cipherlab.experiments.maes.chapter import PAPER, Params
from cipherlab.names import SOFTWARE_STYLES

#: AES and the registered MAES variants (the paper's approaches 1 and 2), from the cipher
#: registry, in the order the paper's tables list them.
CIPHERS = ("aes",) + tuple(n for n in cipher_names() if lookup(n).family == "maes")
#: Styles used when a caller names none (the config's ``impls`` is what the chapter uses).
DEFAULT_IMPLS = SOFTWARE_STYLES
#: Roles of a timed case: the measured cipher, the A/A control (a second, identical
#: AES instance, or a second copy of the same stage), the one-state dispatch probe of Table II.
ROLES = ("main", "control", "dispatch")

#: Row labels of the paper's tables, per cipher, as printed (keys of ``data/paper``).
TABLE1_ROWS = {
    "aes": "AES (original algorithm)",
    "maes-1": "Approach 1: One IV vector generation for all rounds",
    "maes-2": "Approach 2: One IV vector generation for each round",
}
TABLE1_COLUMNS = {"sha3": "Time (sha3)", "keyexp": "Time (key expansion)"}
TABLE2_ROWS = {
    "aes": "Original AES",
    "maes-1": "Approach 1: One IV vector generation for all round",
    "maes-2": "Approach 2: One IV vectors generation for each round",
}
#: Table III rows: AES per paper label ("original" / "optimized"), the approaches in one style only.
TABLE3_ROWS = {
    ("aes", "original"): "Original AES",
    ("aes", "optimized"): "Original AES (optimized implementation)",
    ("maes-1", None): "Approach 1: One IV vector generation for all round",
    ("maes-2", None): "Approach 2: One IV vectors generation for each round",
}
TABLE4_ROWS = {
    "aes": "Original AES (Original implementation)",
    "maes-1": "Approach 1: One IV vector generation for all round",
    "maes-2": "Approach 2: One IV vectors generation for each round",
}
OPERATION_COLUMNS = {"encrypt": "Encryption", "decrypt": "Decryption"}

SECURITY_WARNING = (
    "MAES is not a secure cipher: without MixColumns each ciphertext byte depends on a single "
    "plaintext byte, so MAES-ECB is a table lookup per byte position. Research use only."
)


#: What the chapter says of a style this machine cannot run (the hardware style on a CPU without AES-NI).
NOT_MEASURED_NO_AESNI = "not measured: this CPU has no AES-NI"


def measured_impls(impls: Iterable) -> "tuple[tuple, dict[str, str]]":
    """The styles of ``impls`` this machine times, and ``{style: why not}`` for the others.

    On a host without AES-NI (an ARM laptop, ``NUMBA_CPU_NAME=generic``) the
    hardware style ``aesni`` is *not measured* (:data:`NOT_MEASURED_NO_AESNI`,
    with the core's reason), never a crash; the other styles, and the verdicts
    they decide, are unchanged.  ``impls`` is the chapter's checked parameter.
    """
    styles = tuple(impls)
    runnable = available_impls()
    skipped = {s: f"{NOT_MEASURED_NO_AESNI} ({aesni_status()})" for s in styles if s not in runnable}
    return tuple(s for s in styles if s in runnable), skipped


def check_paper_styles(original_style: str, optimized_style: str, impls: Sequence[str]) -> None:
    """The paper's "original" and "optimized" AES must be styles the chapter times (on this machine)."""
    for name, value in (("original_style", original_style), ("optimized_style", optimized_style)):
        check_choice(name, value, tuple(impls))


def maes_options(params: "Params | None" = None) -> dict:
    """The MAES options every experiment passes to :func:`cipherlab.new`: the chapter's ``iv_source``,
    ``sha3`` and ``sha3_chain`` (``params``, checked at the door; by default the declaration's)."""
    p = Params() if params is None else params
    return {"iv_source": p.iv_source, "sha3": p.sha3, "sha3_chain": p.sha3_chain}


def published_map(table: str) -> dict[tuple[str, str], float]:
    """``(row, column) -> number`` of one of the paper's transcribed tables."""
    df = published(PAPER, table)
    return {(r, c): n for r, c, n in zip(df["row"], df["column"], df["number"])}


def published_number(table: str, row: str, column: str) -> float:
    """One transcribed number of paper 002 (NaN when the cell is not numeric)."""
    return float(published_map(table).get((row, column), np.nan))
