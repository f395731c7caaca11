"""Paper 003's words against the library and its own tables (cipherlab.experiments.aead.statements)."""
from __future__ import annotations

import math

import pytest
from Crypto.Cipher import AES

from cipherlab.experiments.aead import statements as S


def test_eax_is_ctr_and_omac_as_its_designers_define_it():
    same, tried = S.eax_composition_check(n_messages=16, seed=3)
    assert same == tried == 16
    # a wrong composition (CTR from the raw nonce) does not match: the check can fail
    key, nonce = bytes(16), bytes(range(16))
    lib = AES.new(key, AES.MODE_EAX, nonce=nonce)
    lib.update(b"h")
    ct, _ = lib.encrypt_and_digest(b"a message of some length")
    wrong = AES.new(key, AES.MODE_CTR, nonce=b"", initial_value=nonce).encrypt(b"a message of some length")
    assert wrong != ct and S.eax_from_ctr_and_omac(key, nonce, b"h", b"a message of some length")[0] == ct


def test_the_statements_say_what_the_library_and_the_tables_show():
    rows = {e.claim_id: e for e in S.statement_evidence(profile="quick")}
    assert rows["003-s126-eax-ecbc-emac"].holds is False and "CTR + OMAC" in rows["003-s126-eax-ecbc-emac"].detail
    blocks = rows["003-x-64bit-blocks"]                        # a finding: the ciphers offered have 64-bit blocks
    assert blocks.holds is True and blocks.estimate == 64 and "Blowfish 64 bits" in blocks.detail
    tags = rows["003-x-eax-64bit-tags"]                        # phase 2's EAX tags are one 64-bit block
    assert tags.holds is True and tags.estimate == 64 and "blowfish 64 bits" in tags.detail
    assert "003-abstract-reference-choice" not in rows         # a proposed use, not testable: no refutation of it
    eq1 = {e.reading: e for e in S.statement_evidence(profile="quick") if e.claim_id == "003-s3-eq1-any-tag-length"}
    assert sorted(eq1) == sorted((S.EQ1_NARROW, S.EQ1_GENERAL))
    # the paper's model (a guess of an unchanged ciphertext's tag: 2^-t, every mode, every tag length) holds
    narrow = eq1[S.EQ1_NARROW]
    assert narrow.holds is True and narrow.estimate is None and narrow.mode == "gcm, ccm, eax"   # a statement
    # the cited works' reading, a forgery of any ciphertext, fails for GCM: 5 MB, 312500 blocks, 312501 / 2^32,
    # 2^18.25 times 2^-32
    general = eq1[S.EQ1_GENERAL]
    assert general.holds is False and general.size == narrow.size and general.mode == narrow.mode
    assert f"2^{math.log2(312501):.1f} times" in general.detail and "SP 800-38D" in general.detail
    s127 = {e.reading: e for e in S.statement_evidence(profile="quick") if e.claim_id == "003-s127-ccm-mac-before-decrypt"}
    ccm = s127[S.S127_LITERAL]                                  # the MAC is over the plaintext: after decryption
    assert ccm.holds is False and ccm.n == 8 and "on 8 of 8" in ccm.detail and "ciphertext gives its tag on 0" in ccm.detail
    assert s127[S.S127_RELEASE].holds is True and "returns no plaintext" in s127[S.S127_RELEASE].detail
    assert rows["003-t3-three-algorithms"].holds is False and "9 of its 9 cells" in rows["003-t3-three-algorithms"].detail
    assert "003-t5-fig9-consistent" not in rows       # needs our cold calls: consistency.protocol_bound_evidence


def test_ccm_is_ctr_and_a_cbc_mac_over_the_plaintext():
    """SP 800-38C's CCM rebuilt from AES-ECB equals PyCryptodome's (ciphertext and tag) over tag lengths, nonce
    lengths and headers; a CBC-MAC over the ciphertext never gives the tag, so the check can fail."""
    same, over_ct, tried = S.ccm_composition_check(n_messages=12, seed=5)
    assert same == tried == 12 and over_ct == 0
    for nonce_len, tag_len, header, msg in ((7, 4, b"", b"x"), (13, 10, b"ad" * 30, bytes(range(64))),
                                            (11, 16, b"h", b"")):
        key, nonce = bytes(range(16)), bytes(range(nonce_len))
        lib = AES.new(key, AES.MODE_CCM, nonce=nonce, mac_len=tag_len)
        lib.update(header)
        assert lib.encrypt_and_digest(msg) == S.ccm_from_ctr_and_cbc_mac(key, nonce, header, msg, tag_len)
    with pytest.raises(ValueError, match="mac_over"):
        S.ccm_from_ctr_and_cbc_mac(bytes(16), bytes(11), b"", b"x", mac_over="both")


def test_a_tag_guess_matches_one_value_at_every_length_the_library_accepts():
    from cipherlab.experiments.aead.measure import library_tag_bytes
    got = S.tag_guess_check(seed=2)
    assert got == {m: library_tag_bytes(m) for m in ("gcm", "ccm", "eax")} and 4 in got["gcm"] and 16 in got["ccm"]


def test_gcm_tag_is_rebuilt_from_the_ciphertext_and_ccm_tag_is_not():
    """GCM's tag from GHASH over the ciphertext equals the library's (and one changed ciphertext byte changes it),
    EAX's OMAC is over the ciphertext, CCM's CBC-MAC is over the plaintext: the check can fail either way."""
    key, nonce, header, msg = bytes(range(16)), bytes(range(12)), b"hdr", b"a message of some length, 37 bytes!"
    ct, tag = AES.new(key, AES.MODE_GCM, nonce=nonce).update(header).encrypt_and_digest(msg)
    assert S.gcm_from_ghash(key, nonce, header, ct) == tag
    assert S.gcm_from_ghash(key, nonce, header, bytes([ct[0] ^ 1]) + ct[1:]) != tag
    assert S.gcm_from_ghash(key, nonce, header, msg) != tag            # over the plaintext it is not the tag
    over = S.tags_over_ciphertext(n_messages=4, seed=1)
    assert over == {"gcm": (4, 4), "eax": (4, 4), "ccm": (0, 4)}


def test_encrypt_and_digest_holds_under_both_readings_and_verification_rejects_what_it_should():
    evs = S.digest_evidence(profile="quick", seed=1)
    digest = {e.reading: e for e in evs if e.claim_id == "003-s3-digest-over-ciphertext"}
    # GCM's tag is computed from the ciphertext; in every mode the tag refuses a changed ciphertext, CCM's too,
    # though it is a MAC of the plaintext (the detail says so)
    assert digest[S.DIGEST_GCM].holds is True and digest[S.DIGEST_EVERY].holds is True
    assert "CCM: 0 of 8" in digest[S.DIGEST_EVERY].detail and "CCM (refused)" in digest[S.DIGEST_EVERY].detail
    verify = next(e for e in evs if e.claim_id == "003-s3-verify-rejects")
    assert verify.holds is True
    got = S.verify_rejects(seed=1)
    assert all(all(d.values()) for d in got.values()) and set(got) == {"gcm", "ccm", "eax"}
