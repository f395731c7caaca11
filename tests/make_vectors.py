"""Generate the frozen known-answer vectors of the research ciphers from ``tests/naive.py``.

    python tests/make_vectors.py            # (re)write src/cipherlab/ciphers/vectors/{aes_2sbox,maes_1,maes_2}.json
    python tests/make_vectors.py --check    # exit 1 if a frozen file differs from what naive.py gives

The vectors were generated once with this script; ``tests/test_vectors_research.py``
checks that regenerating them gives the committed files byte for byte and that
every style of the library agrees with them.  The naive implementation shares
no code with the kernels, so agreement is evidence.  Keys, IVs and messages are
derived from SHA-256 of the case name: regenerating is deterministic.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import naive  # noqa: E402  (the test helper module beside this script)

VECTORS_DIR = Path(__file__).resolve().parent.parent / "src" / "cipherlab" / "ciphers" / "vectors"
#: vector file stem -> cipher name
FILES = {"aes_2sbox": "aes-2sbox", "maes_1": "maes-1", "maes_2": "maes-2"}
KEY_SIZES = (16, 24, 32)
MODES = ("ecb", "cbc", "ctr")
#: message lengths: several blocks, padded (50 -> 4 blocks) and not (ctr: any length)
MESSAGE_BYTES = 50


def _bytes(label: str, n: int) -> bytes:
    out, i = b"", 0
    while len(out) < n:
        out += hashlib.sha256(f"cipherlab vectors {label} {i}".encode()).digest()
        i += 1
    return out[:n]


def _case(cipher: str, name: str, key_bytes: int, mode: str, options: dict, length: int = MESSAGE_BYTES,
          padding: bool = True, iv: "bytes | None" = None) -> dict:
    label = f"{cipher} {name}"
    key = _bytes(label + " key", key_bytes)
    iv = None if mode == "ecb" else (iv if iv is not None else _bytes(label + " iv", 16))
    pt = _bytes(label + " plaintext", length)
    ct = naive.encrypt(key, pt, cipher, mode, iv, padding, **options)
    assert naive.decrypt(key, ct, cipher, mode, iv, padding, **options) == pt
    return {"name": name, "key": key.hex(), "mode": mode, "iv": iv.hex() if iv else None, "padding": padding,
            "options": options, "plaintext": pt.hex(), "ciphertext": ct.hex()}


def cases(cipher: str) -> list[dict]:
    out = []
    for size in KEY_SIZES:
        for mode in MODES:
            out.append(_case(cipher, f"{8 * size}-bit key {mode}", size, mode, {}))
    # one block, no padding; a block-exact multi-block message without padding
    out.append(_case(cipher, "128-bit key ecb one block", 16, "ecb", {}, length=16, padding=False))
    out.append(_case(cipher, "256-bit key cbc 4 blocks unpadded", 32, "cbc", {}, length=64, padding=False))
    # CTR: the counter wraps modulo 2^128 inside the message
    out.append(_case(cipher, "128-bit key ctr counter wraps", 16, "ctr", {}, length=40, iv=b"\xff" * 15 + b"\xfe"))
    for size, rounds in ((16, 1), (16, 2), (16, 5), (16, 9), (24, 7), (32, 13)):
        for mode in ("ecb", "cbc"):
            out.append(_case(cipher, f"{8 * size}-bit key {mode} rounds={rounds}", size, mode, {"rounds": rounds}))
    if cipher == "aes-2sbox":
        for xor_byte in (0x00, 0x01, 0x63, 0x7F, 0xFF):
            for construction in ("xor-index", "xor-sbox"):
                for size in KEY_SIZES:
                    mode = MODES[(xor_byte + size) % 3]
                    out.append(_case(cipher, f"{8 * size}-bit key {mode} xor_byte=0x{xor_byte:02x} "
                                     f"construction={construction}", size, mode,
                                     {"xor_byte": xor_byte, "construction": construction}))
        out.append(_case(cipher, "192-bit key ctr xor_byte=0x63 construction=xor-sbox rounds=4", 24, "ctr",
                         {"xor_byte": 0x63, "construction": "xor-sbox", "rounds": 4}))
    else:
        for source in ("sha3", "keyexp"):
            for size in KEY_SIZES:
                for mode in MODES:
                    out.append(_case(cipher, f"{8 * size}-bit key {mode} iv_source={source}", size, mode,
                                     {"iv_source": source}))
        for sha3 in ("sha3_224", "sha3_256", "sha3_384", "sha3_512"):
            for chain in ("iv", "digest"):
                size = 32 if sha3 in ("sha3_384", "sha3_512") else 16
                out.append(_case(cipher, f"{8 * size}-bit key cbc sha3={sha3} sha3_chain={chain}", size, "cbc",
                                 {"iv_source": "sha3", "sha3": sha3, "sha3_chain": chain}))
        out.append(_case(cipher, "192-bit key ctr iv_source=keyexp rounds=6", 24, "ctr",
                         {"iv_source": "keyexp", "rounds": 6}))
    return out


def document(stem: str) -> dict:
    cipher = FILES[stem]
    return {
        "source": ("Generated once by tests/make_vectors.py from the naive byte-by-byte implementation "
                   "in tests/naive.py (written from papers 000/001 and 002, FIPS-197 and SP 800-38A; "
                   "it shares no code with the cipherlab kernels).  Keys, IVs and plaintexts are "
                   "SHA-256 of the case name.  Regenerate: python tests/make_vectors.py"),
        "cipher": cipher,
        "semantics": ("one complete message per case: cipherlab.new(key, cipher, mode, iv=iv, "
                      "padding=padding, **options).encrypt(plaintext) == ciphertext; ecb/cbc pad "
                      "with PKCS#7 when padding is true; ctr's iv is the initial 128-bit big-endian "
                      "counter block"),
        "cases": cases(cipher),
    }


def render(stem: str) -> str:
    return json.dumps(document(stem), indent=1) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="compare with the frozen files instead of writing")
    args = p.parse_args(argv)
    status = 0
    for stem in FILES:
        path = VECTORS_DIR / f"{stem}.json"
        text = render(stem)
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path} differs from what tests/naive.py gives", file=sys.stderr)
                status = 1
        else:
            path.write_text(text)
            print(f"wrote {path} ({len(json.loads(text)['cases'])} cases)")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
