"""Tests of cipherlab.experiments.aes2sbox.audit."""
from __future__ import annotations

import math

import pytest

from cipherlab.analysis import paper
from cipherlab.experiments.aes2sbox import audit

from aes2sbox_synthetic import naive_bits

pytestmark = pytest.mark.filterwarnings("ignore::cipherlab.InsecureCipherWarning")


# --- the papers' statistics ---------------------------------------------------

def test_audit_reproduces_t_computed_by_hand_from_published_numbers():
    t3 = paper.published("000", "Table 3").set_index(["row", "column"])["number"]
    m1, m2 = t3[("Mean", "AES-Rijndael")], t3[("Mean", "AES-2SBox")]
    v1, v2 = t3[("Variance", "AES-Rijndael")], t3[("Variance", "AES-2SBox")]
    n1, n2 = t3[("Observations", "AES-Rijndael")], t3[("Observations", "AES-2SBox")]
    t_hand = (m1 - m2) / math.sqrt(v1 / n1 + v2 / n2)
    df_hand = (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    a = audit.audit_published_stats(["000"])
    sel = a[(a["table"] == "Table 3")]
    assert sel.loc[sel["quantity"] == "t Stat", "recomputed"].item() == pytest.approx(t_hand, rel=1e-12)
    dfs = sel.loc[sel["quantity"] == "df", "recomputed"].to_numpy()
    assert sorted(dfs) == pytest.approx(sorted([df_hand, round(df_hand)]))


def test_audit_flags_what_does_not_agree():
    a = audit.audit_published_stats(["000"])
    bits = a[(a["table"] == "Table 6") & (a["quantity"] == "pair 1 changed bits")].iloc[0]
    ct = paper.published("000", "Table 6")
    ca = ct[(ct["row"] == "1") & (ct["column"] == "Ciphertext")]["value"].item()
    cb = ct[(ct["row"] == "2") & (ct["column"] == "Ciphertext")]["value"].item()
    assert bits["recomputed"] == naive_bits(bytes.fromhex(ca), bytes.fromhex(cb))
    assert bool(bits["consistent"]) == (int(bits["published"]) == bits["recomputed"])


@pytest.mark.parametrize("printed,value,ok", [
    ("171.75", 171.75, True), ("6.121727783", 6.1217277829, True), ("6.121727783", 6.1217278, False),
    ("2.66968E-07", 2.6696805e-07, True), ("2.66968E-07", 2.7485e-07, False), ("35", 34.74, True), ("35", 33.9, False),
    ("not a number", 1.0, False),
])
def test_agrees_as_printed(printed, value, ok):
    assert audit.agrees_as_printed(printed, value) is ok
