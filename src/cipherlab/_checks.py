"""The one home of the one-value argument checks used across cipherlab.

Every check raises ``ValueError`` naming the parameter and, where there is a
list, the allowed values, and returns the value it accepted so that a call
reads ``mode = check_choice("mode", mode, MODES)``.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

__all__ = ["check_choice", "check_choices", "check_bytes", "check_hex"]


def check_choice(name: str, value: Any, allowed: Sequence[Any]) -> Any:
    """``value`` if it is one of ``allowed``, else ``ValueError`` naming ``name`` and the allowed values.

    A ``bool`` is never taken for the integers 0 and 1 (``True in (1, 2)`` is
    true in Python, ``approach=True`` is still a mistake).
    """
    allowed = tuple(allowed)
    if isinstance(value, (bool, np.bool_)) and not any(isinstance(a, (bool, np.bool_)) for a in allowed):
        ok = False
    else:
        try:
            ok = value in allowed
        except (TypeError, ValueError):  # e.g. an array compared element-wise
            ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def check_choices(name: str, values: Iterable[Any], allowed: Sequence[Any]) -> tuple:
    """``values`` as a tuple: non-empty, each one of ``allowed``, none repeated.

    A string is refused (``"aes"`` is not the list ``["aes"]``).
    """
    allowed = tuple(allowed)
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a list of {allowed}, got the string {values!r}")
    try:
        values = tuple(values)
    except TypeError:
        raise ValueError(f"{name} must be a list of {allowed}, got {values!r}") from None
    if not values:
        raise ValueError(f"{name} must hold at least one of {allowed}")
    for v in values:
        check_choice(name, v, allowed)
    if len(set(values)) != len(values):
        raise ValueError(f"{name} must not repeat a value, got {list(values)}")
    return values


def check_bytes(name: str, value: Any, what: str) -> bytes:
    """``value`` as ``bytes``; ``ValueError`` naming ``name`` unless it is bytes-like or a 1-D uint8 array."""
    if isinstance(value, np.ndarray):
        if value.dtype != np.uint8 or value.ndim != 1:
            raise ValueError(f"{name} must be {what}, got an array of dtype {value.dtype} and shape {value.shape}")
        return value.tobytes()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise ValueError(f"{name} must be {what}, got {type(value).__name__}")


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _from_hex(name: str, text: str) -> bytes:
    """``text`` (hex digits only) as bytes; the message says what is wrong without repeating ``text``: a key
    mistyped must not reach a terminal's scroll-back or a log."""
    bad = next((i for i, c in enumerate(text) if c not in _HEX_DIGITS), None)
    if bad is not None:
        raise ValueError(f"{name} must be a hex string (digits 0-9, a-f): character {bad + 1} of {len(text)} is not "
                         "a hex digit")
    if len(text) % 2:
        raise ValueError(f"{name} must be a hex string of an even number of digits (two per byte), got {len(text)}")
    return bytes.fromhex(text)


def check_hex(name: str, value: Any, sizes: "Sequence[int] | None" = None) -> bytes:
    """``value`` as ``bytes``: a hex string (a config key, an IV) or bytes-like, of one of ``sizes`` bytes.

    The one key/IV parser of cipherlab. ``sizes=None`` accepts any length.
    ``ValueError`` naming ``name`` when a string is not hex (the position of the first
    character that is not a digit, or an odd number of digits; the value itself is never
    repeated, a key stays out of logs), when the value is neither a string nor bytes-like,
    or when its length is not one of ``sizes``.
    """
    if isinstance(value, str):
        raw = _from_hex(name, value)
    elif isinstance(value, (bytes, bytearray, memoryview, np.ndarray)):
        raw = check_bytes(name, value, "a hex string or bytes")
    else:
        raise ValueError(f"{name} must be a hex string or bytes, got {type(value).__name__}")
    if sizes is not None and len(raw) not in tuple(sizes):
        raise ValueError(f"{name} must be {' or '.join(map(str, sizes))} bytes, got {len(raw)} bytes")
    return raw
