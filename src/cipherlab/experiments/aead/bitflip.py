"""Bit flipping, the paper's future work (our extension): AEAD against unauthenticated CTR and CBC."""
from __future__ import annotations

from typing import Sequence

import pandas as pd
from Crypto.Util.Padding import pad, unpad

from cipherlab._checks import check_choices
from cipherlab.ciphers import modes as _own_modes
from cipherlab.experiments.aead.measure import MODES, DEFAULT_NONCE_BYTES, IMPL, new_aead, seeded_bytes

# ---------------------------------------------------------------------------
# Bit flipping (the paper's future work)
# ---------------------------------------------------------------------------

AEAD_LOCATIONS = ("ciphertext", "tag", "nonce", "aad")
PLAIN_LOCATIONS = ("ciphertext", "iv")


def _flip(data: bytes, bit: int) -> bytes:
    b = bytearray(data)
    b[bit // 8] ^= 0x80 >> (bit % 8)
    return bytes(b)


def bitflip_aead(message: bytes, aad: bytes, *, seed: int, modes: Sequence[str] = MODES,
                 locations: Sequence[str] = AEAD_LOCATIONS) -> pd.DataFrame:
    """Flip every single bit of each location of an AEAD message and try to decrypt.

    Returns
    -------
    DataFrame
        One row per flip: ``family, impl, mode, location, bit, accepted,
        plaintext_ok`` (``plaintext_ok``: accepted and equal to the original).
    """
    if not message:
        raise ValueError("message must not be empty")
    modes = check_choices("modes", modes, MODES)
    locations = check_choices("locations", locations, AEAD_LOCATIONS)
    rows = []
    for mode in modes:
        key = seeded_bytes(seed, "bitflip-key", mode, n=16)
        nonce = seeded_bytes(seed, "bitflip-nonce", mode, n=DEFAULT_NONCE_BYTES[mode])
        enc = new_aead("aes", mode, key, nonce)
        enc.update(aad)
        ct, tag = enc.encrypt_and_digest(message)
        parts = {"ciphertext": ct, "tag": tag, "nonce": nonce, "aad": aad}
        for loc in locations:
            for bit in range(8 * len(parts[loc])):
                p = dict(parts)
                p[loc] = _flip(parts[loc], bit)
                c = new_aead("aes", mode, key, p["nonce"])
                c.update(p["aad"])
                try:
                    pt = c.decrypt_and_verify(p["ciphertext"], p["tag"])
                    accepted, same = True, pt == message
                except ValueError:
                    accepted, same = False, False
                rows.append(("aead", IMPL, mode, loc, bit, accepted, same))
    return pd.DataFrame(rows, columns=["family", "impl", "mode", "location", "bit", "accepted", "plaintext_ok"])


UNAUTH_MODES = ("ctr", "cbc", "cbc-pkcs7")
UNAUTH_IMPLS = ("pycryptodome", "cipherlab")


def _unauth_pair(impl: str, mode: str, key: bytes, iv: bytes):
    """(encrypt, decrypt) callables of AES-CTR / AES-CBC from PyCryptodome or cipherlab.

    ``cbc`` is the bare mode (block-aligned messages); ``cbc-pkcs7`` adds the
    PKCS#7 padding a real application would use, so a flip that breaks the
    padding raises on decryption: a padding check, not an integrity check.
    """
    padded = mode == "cbc-pkcs7"
    if impl == "pycryptodome":
        def mk():
            return _own_modes.pycryptodome_aes(key, mode[:3], iv)
        if padded:
            return (lambda m: mk().encrypt(pad(m, 16))), (lambda c: unpad(mk().decrypt(c), 16))
        return (lambda m: mk().encrypt(m)), (lambda c: mk().decrypt(c))


    def mk_own():
        # One thread: the messages are a few blocks, where starting parallel workers costs ~10x the work.
        return _own_modes.new(key, cipher="aes", mode=mode[:3], iv=iv, impl="table", padding=padded, threads=1)
    return (lambda m: bytes(mk_own().encrypt(m))), (lambda c: bytes(mk_own().decrypt(c)))


def bitflip_unauthenticated(message: bytes, *, seed: int, impls: Sequence[str] = UNAUTH_IMPLS,
                            modes: Sequence[str] = UNAUTH_MODES,
                            locations: Sequence[str] = PLAIN_LOCATIONS) -> pd.DataFrame:
    """Flip every single bit of the ciphertext and the IV/initial counter of AES-CTR and AES-CBC.

    Same columns as :func:`bitflip_aead` plus ``changed_bytes`` (plaintext
    bytes that differ from the original when accepted, -1 when rejected).
    ``cbc`` needs a message of whole 16-byte blocks.
    """
    impls = check_choices("impls", impls, UNAUTH_IMPLS)
    modes = check_choices("modes", modes, UNAUTH_MODES)
    locations = check_choices("locations", locations, PLAIN_LOCATIONS)
    if "cbc" in modes and len(message) % 16:
        raise ValueError(f"message must be a multiple of 16 bytes for mode 'cbc' (got {len(message)}); "
                         "use 'cbc-pkcs7' for other lengths")
    rows = []
    for impl in impls:
        for mode in modes:
            key = seeded_bytes(seed, "bitflip-key", mode, n=16)
            iv = seeded_bytes(seed, "bitflip-iv", mode, n=16)
            encrypt, _ = _unauth_pair(impl, mode, key, iv)
            ct = encrypt(message)
            for loc in locations:
                base = ct if loc == "ciphertext" else iv
                for bit in range(8 * len(base)):
                    c2, iv2 = (_flip(ct, bit), iv) if loc == "ciphertext" else (ct, _flip(iv, bit))
                    _, decrypt = _unauth_pair(impl, mode, key, iv2)
                    try:
                        pt = decrypt(c2)
                        accepted = True
                        n = min(len(pt), len(message))
                        changed = int(sum(a != b for a, b in zip(pt[:n], message[:n])) + abs(len(pt) - len(message)))
                    except ValueError:
                        accepted, changed = False, -1
                    rows.append(("unauthenticated", impl, mode, loc, bit, accepted, accepted and changed == 0,
                                 changed))
    return pd.DataFrame(rows, columns=["family", "impl", "mode", "location", "bit", "accepted", "plaintext_ok",
                                       "changed_bytes"])


def acceptance_table(flips: pd.DataFrame) -> pd.DataFrame:
    """Acceptance rate per family, implementation, mode and flipped location."""
    g = flips.groupby(["family", "impl", "mode", "location"], sort=True)
    out = pd.DataFrame({"flips": g.size(), "accepted": g["accepted"].sum().astype(int)}).reset_index()
    out["rejected"] = out["flips"] - out["accepted"]
    out["acceptance_pct"] = 100.0 * out["accepted"] / out["flips"]
    return out


def ctr_field_rewrite(message: bytes, old: bytes, new: bytes, *, seed: int,
                      impls: Sequence[str] = ("pycryptodome", "cipherlab"),
                      aead_modes: Sequence[str] = MODES, aad: bytes = b"") -> pd.DataFrame:
    """Rewrite a known field of a known message through the ciphertext alone.

    The attacker knows that ``message`` holds ``old`` and XORs
    ``old XOR new`` into the ciphertext at that offset.  In CTR the receiver
    decrypts exactly ``message`` with ``old`` replaced by ``new``; the same
    edit of an AEAD ciphertext is rejected.

    Returns
    -------
    DataFrame
        ``impl, mode, original, tampered, target, accepted, equals_target``.
    """
    if len(old) != len(new):
        raise ValueError(f"old and new must have the same length, got {len(old)} and {len(new)}")
    pos = message.find(old)
    if pos < 0:
        raise ValueError(f"old ({old!r}) does not occur in message")
    target = message[:pos] + new + message[pos + len(old):]
    delta = bytes(a ^ b for a, b in zip(old, new))

    def edit(ct: bytes) -> bytes:
        b = bytearray(ct)
        for i, d in enumerate(delta):
            b[pos + i] ^= d
        return bytes(b)
    rows = []
    for impl in impls:
        key = seeded_bytes(seed, "rewrite-key", "ctr", n=16)
        iv = seeded_bytes(seed, "rewrite-iv", "ctr", n=16)
        encrypt, decrypt = _unauth_pair(impl, "ctr", key, iv)
        out = decrypt(edit(encrypt(message)))
        rows.append((impl, "ctr", message.decode(errors="replace"), out.decode(errors="replace"),
                     target.decode(errors="replace"), True, out == target))
    for mode in aead_modes:
        key = seeded_bytes(seed, "rewrite-key", mode, n=16)
        nonce = seeded_bytes(seed, "rewrite-nonce", mode, n=DEFAULT_NONCE_BYTES[mode])
        enc = new_aead("aes", mode, key, nonce)
        enc.update(aad)
        ct, tag = enc.encrypt_and_digest(message)
        dec = new_aead("aes", mode, key, nonce)
        dec.update(aad)
        try:
            out = dec.decrypt_and_verify(edit(ct), tag)
            rows.append((IMPL, mode, message.decode(errors="replace"), out.decode(errors="replace"),
                         target.decode(errors="replace"), True, out == target))
        except ValueError:
            rows.append((IMPL, mode, message.decode(errors="replace"), "(rejected: MAC check failed)",
                         target.decode(errors="replace"), False, False))
    return pd.DataFrame(rows, columns=["impl", "mode", "original", "tampered", "target", "accepted",
                                       "equals_target"])


