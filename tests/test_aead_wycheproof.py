"""Project Wycheproof's AEAD vectors through PyCryptodome (aead.wycheproof)."""
import json

import pytest

from cipherlab.experiments.aead import measure, wycheproof

from aead_synthetic import MSG, AAD


@pytest.mark.parametrize("mode", measure.MODES)
def test_wycheproof_loader_counts_cases(mode):
    doc = json.loads(wycheproof.wycheproof_path(mode).read_text())
    cases = wycheproof.load_wycheproof(mode)
    assert len(cases) == doc["numberOfTests"] > 100
    assert cases["tc_id"].is_unique
    assert (cases["result"] == "invalid").sum() > 50


def test_wycheproof_every_invalid_rejected_every_valid_accepted():
    res = wycheproof.run_wycheproof(progress=False)
    assert not (res["status"] == "FAIL").any()
    invalid = res[res["result"] == "invalid"]
    assert set(invalid["outcome"]) <= {"rejected", "unsupported parameters"}
    assert (invalid["outcome"] == "rejected").sum() >= 3 * 81  # the modified-tag cases of each mode
    valid = res[res["result"] == "valid"]
    assert set(valid["outcome"]) <= {"accepted", "unsupported parameters"}
    # unsupported only where PyCryptodome refuses the parameters: empty nonces, CCM nonces
    # outside 7..13 bytes, and odd or short CCM tags
    uns = res[res["outcome"] == "unsupported parameters"]
    ok = ((uns["iv_bits"] == 0) |
          ((uns["mode"] == "ccm") & (~uns["iv_bits"].between(56, 104) | ~uns["tag_bits"].isin(
              [8 * t for t in measure.STANDARD_TAG_BYTES["ccm"]]))))
    assert ok.all()
    s = wycheproof.wycheproof_summary(res)
    assert s["cases"].sum() == len(res)


def test_wycheproof_case_outcomes():
    key, nonce = bytes(16), bytes(12)
    c = measure.new_aead("aes", "gcm", key, nonce)
    c.update(AAD)
    ct, tag = c.encrypt_and_digest(MSG)
    assert wycheproof.run_wycheproof_case("gcm", key, nonce, AAD, MSG, ct, tag, 16) == "accepted"
    bad = bytes([tag[0] ^ 1]) + tag[1:]
    assert wycheproof.run_wycheproof_case("gcm", key, nonce, AAD, MSG, ct, bad, 16) == "rejected"
    assert wycheproof.run_wycheproof_case("gcm", key, b"", AAD, MSG, ct, tag, 16) == "unsupported parameters"
