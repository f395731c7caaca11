"""Paper 003's words against the library and its own tables (cipherlab.experiments.aead.statements)."""
from __future__ import annotations

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
    choice = rows["003-abstract-reference-choice"]
    assert choice.holds is False and choice.estimate == 64 and "Blowfish 64 bits" in choice.detail
    assert rows["003-t3-three-algorithms"].holds is False and "9 of its 9 cells" in rows["003-t3-three-algorithms"].detail
    own = rows["003-t5-fig9-consistent"]
    assert own.holds is False and 3.0 < own.estimate < 3.5      # 311 MB/s against about 95
