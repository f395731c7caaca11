"""Paper 003's words checked against the library and its own tables (structural evidence, exact).

* ``003-s126-eax-ecbc-emac``: "EAX is an AEAD scheme combining the ECBC and
  EMAC modes". EAX is composed here from AES-CTR and OMAC (CMAC) exactly as its
  designers define it (Bellare, Rogaway, Wagner, FSE 2004) and compared with
  PyCryptodome's EAX on seeded messages: equal outputs show EAX is CTR + OMAC,
  so the paper's description does not hold.
* ``003-x-64bit-blocks`` (our finding, a concern about the choice the paper
  offers as "a reference for choosing the appropriate algorithm-mode"): the
  block sizes of the ciphers the paper offers, read from the library (Blowfish
  and CAST-128 have 64-bit blocks).
* ``003-x-eax-64bit-tags`` (our finding): the tags EAX gives over Blowfish and
  CAST-128 in the paper's phase 2, read from the library (the block size, 64
  bits), against the 128-bit tags of the paper's 2^-128 statements.
* ``003-s3-eq1-any-tag-length``: "P_forgery <= 2^-t" for any tag length and
  mode, under the paper's model (a guess of the tag of an unchanged
  ciphertext): for every mode and every tag length the library accepts, the
  right tag verifies and a one-bit change of it is refused (a tag is one value
  compared whole), so a guess succeeds with exactly 2^-t. The caution: GCM's
  bound for a forgery of a *modified* ciphertext of ``n`` blocks is
  ``(n + 1) / 2^t`` (GHASH is a polynomial of degree ``n + 1`` in the hash key;
  NIST SP 800-38D, Appendix C; Ferguson 2005), exactly computed at the paper's
  largest file for a 32-bit tag (:func:`.forgery.gcm_forgery_bound`).
* ``003-s127-ccm-mac-before-decrypt``: "the MAC is calculated over the nonce,
  associated data, and the plaintext prior to decryption". CCM's tag is rebuilt
  from AES-ECB as NIST SP 800-38C defines it (CBC-MAC over the formatted nonce,
  associated data and *plaintext*, XOR the first counter block's keystream)
  and compared with PyCryptodome's CCM on seeded messages; the same CBC-MAC over
  the ciphertext is compared too. The MAC is over the plaintext, which the
  receiver has only after CTR decryption: the statement does not hold.
* ``003-t3-three-algorithms``: Table 3's caption names the three algorithms;
  its printed body is compared with Table 2's, cell by cell.
"""
from __future__ import annotations

import math
from fractions import Fraction

from Crypto.Cipher import AES, CAST, Blowfish
from Crypto.Hash import CMAC

from cipherlab.analysis import paper as _paper
from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead.chapter import mb_to_bytes
from cipherlab.experiments.aead.forgery import forgery_bound, gcm_forgery_bound
from cipherlab.experiments.aead.measure import IMPL, MODES, PAPER, library_tag_bytes, new_aead, seeded_bytes

#: MyST labels of the sections that show these checks.
SECTION = "aead-phase2"
#: The ciphers the paper offers for the choice, as the library names them, with their PyCryptodome modules.
CIPHER_MODULES = {"AES": AES, "Blowfish": Blowfish, "CAST": CAST}


def _omac(key: bytes, tweak: int, data: bytes) -> bytes:
    """OMAC^t_K(M) = CMAC_K([t]_128 || M), EAX's tweaked OMAC."""
    return CMAC.new(key, msg=tweak.to_bytes(16, "big") + data, ciphermod=AES).digest()


def eax_from_ctr_and_omac(key: bytes, nonce: bytes, header: bytes, message: bytes) -> tuple[bytes, bytes]:
    """EAX as its designers define it: N' = OMAC^0(N), H' = OMAC^1(H), C = CTR from N' over M, tag = N' ^ H' ^
    OMAC^2(C) (full 16-byte tag)."""
    n = _omac(key, 0, nonce)
    h = _omac(key, 1, header)
    ct = AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=n).encrypt(message)
    c = _omac(key, 2, ct)
    return ct, bytes(a ^ b ^ d for a, b, d in zip(n, h, c))


def eax_composition_check(n_messages: int = 64, seed: int = 0) -> tuple[int, int]:
    """(messages where our CTR + OMAC composition equals PyCryptodome's EAX, messages tried), seeded lengths
    0 .. 200 bytes with headers."""
    same = 0
    for i in range(n_messages):
        key = seeded_bytes(seed, "eax-key", i, n=16)
        nonce = seeded_bytes(seed, "eax-nonce", i, n=16)
        header = seeded_bytes(seed, "eax-header", i, n=i % 40)
        msg = seeded_bytes(seed, "eax-msg", i, n=(i * 37) % 201)
        lib = AES.new(key, AES.MODE_EAX, nonce=nonce)
        lib.update(header)
        got = lib.encrypt_and_digest(msg)
        same += got == eax_from_ctr_and_omac(key, nonce, header, msg)
    return same, n_messages


def _ccm_cbc_mac(ecb, nonce: bytes, header: bytes, payload: bytes, tag_len: int) -> bytes:
    """CBC-MAC of SP 800-38C, Appendix A: B0 (flags, nonce, payload length), the associated data with its
    length, the payload, each zero-padded to 16-byte blocks; the last chaining value."""
    q = 15 - len(nonce)
    b0 = bytes([64 * bool(header) + 8 * ((tag_len - 2) // 2) + (q - 1)]) + nonce + len(payload).to_bytes(q, "big")
    ad = len(header).to_bytes(2, "big") + header if header else b""   # headers under 2^16 - 2^8 bytes
    data = b0 + ad + bytes(-len(ad) % 16) + payload + bytes(-len(payload) % 16)
    y = bytes(16)
    for i in range(0, len(data), 16):
        y = ecb.encrypt(bytes(a ^ b for a, b in zip(y, data[i:i + 16])))
    return y


def ccm_from_ctr_and_cbc_mac(key: bytes, nonce: bytes, header: bytes, message: bytes, tag_len: int = 16,
                             mac_over: str = "plaintext") -> tuple[bytes, bytes]:
    """CCM as NIST SP 800-38C defines it, from AES-ECB: C = P XOR the keystream of counter blocks 1, 2, ...;
    tag = CBC-MAC(B0, associated data, payload) XOR E(counter block 0), cut to ``tag_len`` bytes. ``mac_over``
    is the payload the CBC-MAC covers: ``"plaintext"`` (the standard) or ``"ciphertext"`` (what a receiver
    has before decrypting)."""
    if mac_over not in ("plaintext", "ciphertext"):
        raise ValueError(f"mac_over must be 'plaintext' or 'ciphertext', got {mac_over!r}")
    ecb = AES.new(key, AES.MODE_ECB)
    q = 15 - len(nonce)
    ctr = [ecb.encrypt(bytes([q - 1]) + nonce + i.to_bytes(q, "big")) for i in range(-(-len(message) // 16) + 1)]
    stream = b"".join(ctr[1:])
    ct = bytes(a ^ b for a, b in zip(message, stream))
    mac = _ccm_cbc_mac(ecb, nonce, header, message if mac_over == "plaintext" else ct, tag_len)
    return ct, bytes(a ^ b for a, b in zip(mac, ctr[0]))[:tag_len]


def ccm_composition_check(n_messages: int = 8, seed: int = 0) -> tuple[int, int, int]:
    """(messages where CCM rebuilt with the CBC-MAC over the plaintext equals PyCryptodome's CCM, ciphertext
    and tag; messages where the CBC-MAC over the ciphertext gives its tag; messages tried): seeded keys, 11-byte
    nonces, headers and lengths 1 .. 99 bytes."""
    same = over_ct = 0
    for i in range(n_messages):
        key = seeded_bytes(seed, "ccm-key", i, n=16)
        nonce = seeded_bytes(seed, "ccm-nonce", i, n=11)
        header = seeded_bytes(seed, "ccm-header", i, n=i % 24)
        msg = seeded_bytes(seed, "ccm-msg", i, n=1 + (i * 37) % 99)
        lib = AES.new(key, AES.MODE_CCM, nonce=nonce, mac_len=16)
        lib.update(header)
        got = lib.encrypt_and_digest(msg)
        same += got == ccm_from_ctr_and_cbc_mac(key, nonce, header, msg)
        over_ct += got[1] == ccm_from_ctr_and_cbc_mac(key, nonce, header, msg, mac_over="ciphertext")[1]
    return same, over_ct, n_messages


def _gf_mult(x: int, y: int) -> int:
    """Multiplication in GF(2^128) as GCM defines it (bit-reflected, R = 0xE1 || 0^120; NIST SP 800-38D, 6.3)."""
    r, z, v = 0xE1 << 120, 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ r if v & 1 else v >> 1
    return z


def gcm_from_ghash(key: bytes, nonce: bytes, header: bytes, ciphertext: bytes) -> bytes:
    """GCM's 128-bit tag for a 96-bit nonce, computed as SP 800-38D defines it from the CIPHERTEXT: E_K(J0) XOR
    GHASH_H(A || C || len(A) || len(C)), H = E_K(0^128), J0 = nonce || 0^31 || 1."""
    ecb = AES.new(key, AES.MODE_ECB)
    h = int.from_bytes(ecb.encrypt(bytes(16)), "big")

    def blocks(b: bytes):
        b += bytes(-len(b) % 16)
        return [int.from_bytes(b[i:i + 16], "big") for i in range(0, len(b), 16)]
    y = 0
    for x in blocks(header) + blocks(ciphertext) + [((8 * len(header)) << 64) | (8 * len(ciphertext))]:
        y = _gf_mult(y ^ x, h)
    s0 = int.from_bytes(ecb.encrypt(nonce + b"\x00\x00\x00\x01"), "big")
    return (y ^ s0).to_bytes(16, "big")


def tags_over_ciphertext(n_messages: int = 8, seed: int = 0) -> dict[str, tuple[int, int]]:
    """For each mode, (messages whose library tag is a MAC of the ciphertext, messages tried): GCM's GHASH over
    the ciphertext (:func:`gcm_from_ghash`), EAX's OMAC over it (:func:`eax_from_ctr_and_omac`), and CCM's
    CBC-MAC over it (:func:`ccm_from_ctr_and_cbc_mac` with ``mac_over="ciphertext"``: its tag is over the
    plaintext, so this gives it on none)."""
    out = {}
    gcm = sum(
        (lambda k, n, h, m: (lambda c, t: t == gcm_from_ghash(k, n, h, c))(
            *AES.new(k, AES.MODE_GCM, nonce=n).update(h).encrypt_and_digest(m)))(
            seeded_bytes(seed, "gcm-key", i, n=16), seeded_bytes(seed, "gcm-nonce", i, n=12),
            seeded_bytes(seed, "gcm-header", i, n=i % 24), seeded_bytes(seed, "gcm-msg", i, n=1 + (i * 37) % 99))
        for i in range(n_messages))
    out["gcm"] = (int(gcm), n_messages)
    same, tried = eax_composition_check(n_messages=n_messages, seed=seed)
    out["eax"] = (same, tried)
    _, over_ct, tried = ccm_composition_check(n_messages=n_messages, seed=seed)
    out["ccm"] = (over_ct, tried)
    return out


def verify_rejects(seed: int = 0) -> dict[str, dict[str, bool]]:
    """For each mode, whether decrypt_and_verify accepts the genuine ciphertext and tag and refuses (ValueError)
    a modified ciphertext, a wrong key and a wrong nonce: what "if the tag matches ... the data has not been
    modified; the key and nonce are correct" needs."""
    out = {}
    for m in MODES:
        nlen = 11 if m == "ccm" else 16
        key, nonce = seeded_bytes(seed, "vr-key", m, n=16), seeded_bytes(seed, "vr-nonce", m, n=nlen)
        msg = seeded_bytes(seed, "vr-msg", m, n=64)
        ct, tag = new_aead("aes", m, key, nonce).encrypt_and_digest(msg)

        def refused(k, n, c):
            try:
                new_aead("aes", m, k, n).decrypt_and_verify(c, tag)
            except ValueError:
                return True
            return False
        out[m] = {"genuine accepted": not refused(key, nonce, ct),
                  "modified ciphertext refused": refused(key, nonce, bytes([ct[0] ^ 1]) + ct[1:]),
                  "wrong key refused": refused(bytes([key[0] ^ 1]) + key[1:], nonce, ct),
                  "wrong nonce refused": refused(key, bytes([nonce[0] ^ 1]) + nonce[1:], ct)}
    return out


#: The two readings of Sec. 3's "encrypt_and_digest(): Encrypts the data, then it calculates an authentication tag
#: that ensures the integrity of the ciphertext" that the paper leaves open: in the GCM function it is printed under,
#: a tag calculated from the ciphertext after encrypting; in every mode the general code of Sec. 3 applies to, a
#: tag that ensures the ciphertext's integrity (the sentence says what the tag ensures, not what it is computed
#: over: CCM's tag, over the plaintext, also refuses a changed ciphertext).
DIGEST_GCM = "the GCM function it is printed under"
DIGEST_EVERY = "every mode the general code applies to"


def digest_evidence(*, profile: str, seed: int = 0) -> list[_v.Evidence]:
    """Evidence of 003-s3-digest-over-ciphertext (two open readings) and 003-s3-verify-rejects."""
    over = tags_over_ciphertext(seed=seed)
    cond = dict(style=IMPL, profile=profile, section="aead-bound")
    each = "; ".join(f"{m.upper()}: {a} of {n}" for m, (a, n) in over.items())
    rej = verify_rejects(seed)
    fails = [f"{m.upper()} {what}" for m, d in rej.items() for what, ok in d.items() if not ok]
    return [
        _v.Evidence("003-s3-digest-over-ciphertext", holds=over["gcm"][0] == over["gcm"][1], reading=DIGEST_GCM,
                    mode="gcm", **cond,
                    detail=(f"GCM's tag rebuilt as GHASH over the ciphertext (SP 800-38D) equals the library's on "
                            f"{over['gcm'][0]} of {over['gcm'][1]} seeded messages: it is computed from the "
                            "ciphertext, after encrypting")),
        _v.Evidence("003-s3-digest-over-ciphertext", holds=all(d["modified ciphertext refused"] for d in rej.values()),
                    reading=DIGEST_EVERY, mode="gcm, ccm, eax", **cond,
                    detail=("a ciphertext with one bit changed is refused with the tag encrypt_and_digest returned in "
                            + ", ".join(f"{m.upper()} ({'refused' if d['modified ciphertext refused'] else 'accepted'})"
                                        for m, d in rej.items())
                            + f"; the tag is a MAC of the ciphertext itself on ({each}) seeded messages: CCM's is a "
                              "CBC-MAC over the plaintext (SP 800-38C), which ensures the ciphertext's integrity all "
                              "the same")),
        _v.Evidence("003-s3-verify-rejects", holds=not fails, n=len(rej) * 4, mode="gcm, ccm, eax", **cond,
                    detail=("in every mode decrypt_and_verify accepts the genuine ciphertext and tag and raises "
                            "ValueError for a modified ciphertext, a wrong key and a wrong nonce" if not fails else
                            "decrypt_and_verify fails to: " + ", ".join(fails))),
    ]


def tag_guess_check(seed: int = 0) -> dict[str, tuple[int, ...]]:
    """Per mode, the tag lengths (bytes) the library accepts at which the right tag of an unchanged ciphertext
    verifies and its first bit flipped is refused (a tag is one value compared whole: a guess matches with
    exactly 2^-t); a length where either fails is left out."""
    ok = {}
    for m in MODES:
        good = []
        for t in library_tag_bytes(m):
            key, nonce = seeded_bytes(seed, "guess-key", m, t, n=16), seeded_bytes(seed, "guess-nonce", m, t, n=11)
            ct, tag = new_aead("aes", m, key, nonce, mac_len=t).encrypt_and_digest(b"an unchanged ciphertext")
            wrong = bytes([tag[0] ^ 1]) + tag[1:]
            new_aead("aes", m, key, nonce, mac_len=t).decrypt_and_verify(ct, tag)   # raises if the right tag fails
            try:
                new_aead("aes", m, key, nonce, mac_len=t).decrypt_and_verify(ct, wrong)
            except ValueError:
                good.append(t)
        ok[m] = tuple(good)
    return ok


#: The two readings of eq. 1, "the probability of successfully forging a single tag is <= 2^-t", that the paper
#: leaves open: a guess of the tag of an unchanged ciphertext (its own model), or a forgery of any ciphertext.
EQ1_NARROW = "a guessed tag of an unchanged ciphertext"
EQ1_GENERAL = "a forgery of any ciphertext"


#: The two readings of Sec. 1.2.7's garbled "The MAC is calculated over the nonce, associated data, and the plaintext
#: prior to decryption to protect against decryption of a maliciously authenticated ciphertext" that the paper leaves
#: open: as written, the receiver computes the MAC before it decrypts (possible only over the ciphertext); or what the
#: purpose clause asks, the MAC over the plaintext checked before the decrypted plaintext is released.
S127_LITERAL = "the receiver computes the MAC before it decrypts"
S127_RELEASE = "the MAC is checked before the plaintext is released"


def statement_evidence(*, profile: str, seed: int = 0) -> list[_v.Evidence]:
    """Evidence of the checks above (one row each)."""
    same, tried = eax_composition_check(seed=seed)
    if same != tried:
        raise RuntimeError(f"EAX composed from CTR and OMAC matched PyCryptodome's EAX on {same} of {tried} messages: "
                           "the composition or the library is wrong, and the check cannot say what EAX is")
    blocks = {name: 8 * mod.block_size for name, mod in CIPHER_MODULES.items()}
    t2, t3 = (_paper.published(PAPER, t).set_index(["row", "column"])["value"] for t in ("Table 2", "Table 3"))
    equal = sum(t3.get(k) == v for k, v in t2.items())
    columns = sorted(set(t3.index.get_level_values("column")))
    named = [c for c in columns if any(a.lower() in c.lower() for a in CIPHER_MODULES)]
    cond = dict(style=IMPL, profile=profile, section=SECTION)
    rows_t5 = []      # 003-t5-fig9-consistent needs our cold calls: consistency.protocol_bound_evidence
    largest = max(_paper.published(PAPER, "Pseudocode 3 (setup)")["number"].tolist())      # MB
    nbytes = mb_to_bytes([largest])[0]
    blocks_gcm = math.ceil(nbytes / 16)      # GHASH adds the length block: a polynomial of degree blocks + 1 in H
    t_tag = 32          # GCM's shortest tag: where its length term weighs most (SP 800-38D, Appendix C)
    caution = gcm_forgery_bound(1, t_tag, nbytes) / Fraction(1, 2**t_tag)
    accepted = {m: library_tag_bytes(m) for m in MODES}
    guessed = tag_guess_check(seed)
    # the paper's model: one guess of the tag of an unchanged ciphertext matches with 2^-t, at every length the
    # library accepts, when the tag is one value compared whole (the right one verifies, a changed one does not)
    worst = max(forgery_bound(1, 8 * t) * 2 ** (8 * t) for m in guessed for t in guessed[m])
    eq1_cond = dict(mode="gcm, ccm, eax", size=f"{nbytes} B", style=IMPL, profile=profile, section="aead-bound")
    rows_t5.append(_v.Evidence(
        # a statement, shown as holds or not: the worst ratio of success to 2^-t over every mode and length is
        # 1 where it holds, and a "2^0" in the ours column would read as a forgery probability of 1
        "003-s3-eq1-any-tag-length", holds=bool(guessed == accepted and worst <= 1), reading=EQ1_NARROW, **eq1_cond,
        detail=("a guess of the tag of an unchanged ciphertext, at every tag length the library accepts ("
                + "; ".join(f"{m.upper()} {', '.join(map(str, v))} bytes" for m, v in accepted.items())
                + "): the right tag verifies and a one-bit change of it is refused (the tag is compared whole "
                  "with the one right t-bit value), so a uniform guess succeeds with exactly 2^-t")))
    # the general reading, a forgery of any ciphertext (the meaning of the GCM specification and McGrew-Fluhrer the
    # sentence cites): GCM's bound for one forgery of a modified ciphertext of n blocks is (n + 1) / 2^t
    rows_t5.append(_v.Evidence(
        "003-s3-eq1-any-tag-length", holds=bool(caution <= 1), reading=EQ1_GENERAL, **eq1_cond,
        detail=(f"one forgery of a modified GCM ciphertext succeeds with up to (blocks + 1) / 2^t: at a {t_tag}-bit "
                f"tag on the paper's largest file ({largest:g} MB, {blocks_gcm} blocks) {blocks_gcm + 1} / "
                f"2^{t_tag}, 2^{math.log2(caution):.1f} times eq. 1's 2^-{t_tag}, so eq. 1 "
                + ("holds" if caution <= 1 else "does not hold")
                + " for GCM at that tag length (NIST SP 800-38D, Appendix C; Ferguson 2005)")))
    tags = {c: 8 * len(new_aead(c, "eax", seeded_bytes(seed, "tag-key", c, n=16), bytes(16))
                       .encrypt_and_digest(b"")[1]) for c in ("aes", "blowfish", "cast")}
    rows_t5.append(_v.Evidence(
        "003-x-eax-64bit-tags", holds=tags["blowfish"] == tags["cast"] == 64, estimate=float(min(tags.values())),
        unit="bits", mode="eax", **cond,
        detail=("EAX tag lengths in the library (the default, the block size): "
                + ", ".join(f"{c} {b} bits" for c, b in tags.items())
                + "; a 64-bit tag is guessed with probability 2^-64 per attempt and a 64-bit block nears its "
                  "birthday bound at about 2^32 blocks; the paper's 2^-128 (Secs. 3, 5.2 and 6) is stated for "
                  "phase 1's AES modes, the only ones its forgery trials cover, and phase 2 states no tag length")))
    ccm_same, ccm_over_ct, ccm_tried = ccm_composition_check(seed=seed)
    if ccm_same != ccm_tried:
        raise RuntimeError(f"CCM rebuilt from CTR and CBC-MAC (SP 800-38C) matched PyCryptodome's CCM on {ccm_same} "
                           f"of {ccm_tried} messages: the composition or the library is wrong, and the check cannot "
                           "say what CCM's MAC covers")
    # the MAC could be computed before decryption only if it covered what the receiver holds, the ciphertext
    released = verify_rejects(seed)["ccm"]
    rows_t5.append(_v.Evidence(
        "003-s127-ccm-mac-before-decrypt", holds=released["modified ciphertext refused"] and released["genuine accepted"],
        mode="ccm", reading=S127_RELEASE, **{**cond, "section": "aead-forgery"},
        detail=("PyCryptodome's CCM decrypt_and_verify returns the plaintext of the genuine ciphertext and tag, and "
                "for a ciphertext with one bit changed raises ValueError and returns no plaintext: the MAC over the "
                "decrypted plaintext is checked before any plaintext is released (SP 800-38C, Sec. 6.2)")))
    rows_t5.append(_v.Evidence(
        "003-s127-ccm-mac-before-decrypt", holds=ccm_over_ct == ccm_tried, n=ccm_tried, mode="ccm",
        reading=S127_LITERAL,
        detail=(f"CCM rebuilt from AES-ECB as NIST SP 800-38C defines it, CBC-MAC over the formatted nonce, "
                f"associated data and plaintext XOR the keystream of counter block 0, equals PyCryptodome's CCM, "
                f"ciphertext and tag, on {ccm_same} of {ccm_tried} seeded messages; the same CBC-MAC over the "
                f"ciphertext gives its tag on {ccm_over_ct}: the MAC is over the plaintext, which the receiver has "
                "only after CTR decryption, so it is computed after decryption, not prior to it"),
        **{**cond, "section": "aead-forgery"}))
    return rows_t5 + digest_evidence(profile=profile, seed=seed) + [
        _v.Evidence("003-s126-eax-ecbc-emac", holds=False, n=tried, mode="eax",
                    detail=(f"EAX composed from AES-CTR (started at OMAC^0 of the nonce) and OMAC (CMAC, tweaks 0, "
                            f"1, 2) equals PyCryptodome's EAX, ciphertext and tag, on {same} of {tried} seeded "
                            "messages: EAX is CTR + OMAC, neither ECBC nor EMAC"), **cond),
        _v.Evidence("003-x-64bit-blocks", holds=any(b == 64 for b in blocks.values()),
                    estimate=float(min(blocks.values())), unit="bits", mode="eax",
                    detail=("block sizes in the library: " + ", ".join(f"{k} {v} bits" for k, v in blocks.items())
                            + f"; a 64-bit block reaches its birthday bound after about 2^32 blocks "
                              f"({2 ** 32 * 8 / 2 ** 30:.0f} GiB) under one key"), **cond),
        _v.Evidence("003-t3-three-algorithms", holds=bool(named), n=len(t3),
                    detail=(f"Table 3's columns are {', '.join(columns)}; {equal} of its {len(t3)} cells equal "
                            f"Table 2's ({len(t2)} cells): it repeats the modes table, not the three algorithms"),
                    style="the transcription", profile=profile, section=SECTION),
    ]
