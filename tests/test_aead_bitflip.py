"""Bit flipping, the paper's future work (aead.bitflip)."""
import pytest

from cipherlab.experiments.aead import bitflip, measure

from aead_synthetic import MSG, AAD


def test_aead_rejects_every_single_bit_flip():
    flips = bitflip.bitflip_aead(MSG, AAD, seed=7)
    assert not flips["accepted"].any()
    counts = flips.groupby(["mode", "location"]).size()
    for mode in measure.MODES:
        assert counts[(mode, "ciphertext")] == 8 * len(MSG)
        assert counts[(mode, "tag")] == 128
        assert counts[(mode, "aad")] == 8 * len(AAD)
        assert counts[(mode, "nonce")] == 8 * measure.DEFAULT_NONCE_BYTES[mode]


def test_unauthenticated_modes_accept_flips():
    flips = bitflip.bitflip_unauthenticated(MSG, seed=7)
    table = bitflip.acceptance_table(flips).set_index(["impl", "mode", "location"])
    for impl in ("pycryptodome", "cipherlab"):
        for mode in ("ctr", "cbc"):
            for loc in ("ciphertext", "iv"):
                assert table.loc[(impl, mode, loc), "acceptance_pct"] == 100.0
        # padding breaks for flips that reach the last block: a padding check, not integrity
        assert 0 < table.loc[(impl, "cbc-pkcs7", "ciphertext"), "acceptance_pct"] < 100
    ctr = flips[(flips["mode"] == "ctr") & (flips["location"] == "ciphertext")]
    assert (ctr["changed_bytes"] == 1).all()  # CTR: a flipped bit changes exactly one plaintext byte
    with pytest.raises(ValueError, match="multiple of 16"):
        bitflip.bitflip_unauthenticated(MSG[:40], seed=7, modes=("cbc",))


def test_ctr_field_rewrite_yields_exactly_the_target():
    r = bitflip.ctr_field_rewrite(MSG, b"amount=0100", b"amount=9999", seed=3, aad=AAD)
    target = MSG.replace(b"amount=0100", b"amount=9999").decode()
    ctr = r[r["mode"] == "ctr"]
    assert set(ctr["impl"]) == {"pycryptodome", "cipherlab"}
    assert (ctr["tampered"] == target).all() and ctr["equals_target"].all()
    authenticated = r[r["mode"].isin(measure.MODES)]
    assert len(authenticated) == 3 and not authenticated["accepted"].any()
    with pytest.raises(ValueError, match="same length"):
        bitflip.ctr_field_rewrite(MSG, b"amount=0100", b"amount=1", seed=3)
    with pytest.raises(ValueError, match="does not occur"):
        bitflip.ctr_field_rewrite(MSG, b"price=0100", b"price=9999", seed=3)


def test_cipherlab_ctr_and_cbc_agree_with_pycryptodome():
    key, iv = bytes(range(16)), bytes(range(16, 32))
    for mode in ("ctr", "cbc", "cbc-pkcs7"):
        enc_ref, _ = bitflip._unauth_pair("pycryptodome", mode, key, iv)
        enc_own, dec_own = bitflip._unauth_pair("cipherlab", mode, key, iv)
        assert enc_own(MSG) == enc_ref(MSG)
        assert dec_own(enc_own(MSG)) == MSG


@pytest.mark.parametrize("call, name", [
    (lambda: bitflip.bitflip_aead(MSG, AAD, seed=1, locations=("ciphertext", "key")), "locations"),
    (lambda: bitflip.bitflip_aead(MSG, AAD, seed=1, modes=("ocb",)), "modes"),
    (lambda: bitflip.bitflip_unauthenticated(MSG, seed=1, impls=("openssl",)), "impls"),
    (lambda: bitflip.bitflip_unauthenticated(MSG, seed=1, modes=("ecb",)), "modes"),
    (lambda: bitflip.bitflip_unauthenticated(MSG, seed=1, locations=("tag",)), "locations"),
])
def test_a_bad_choice_is_refused_at_the_public_call_before_any_work(call, name):
    with pytest.raises(ValueError, match=f"^{name} must be one of"):
        call()
