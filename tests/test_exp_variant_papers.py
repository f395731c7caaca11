"""The two example variant papers after their audit (issue 36): a title crediting a modification of the S-box with an
additional key byte, decided under both of its open readings; what carries over from AES to a cipher that is AES's
round function under offset round keys; the report's own findings with the paper's findings rows; the paper's printed
times against their rounding, said as what they are; what was read, beside the recommendation."""
from __future__ import annotations

import csv

import pytest
import yaml

from cipherlab.experiments.variant import card, claims, driver, measures, report
from cipherlab.experiments.variant.equivalence import NONE_FOUND

from variant_toys import CLAIMS_FILE_COLUMNS, PAPER_SMALL

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")

SMALL = PAPER_SMALL
COLUMNS = CLAIMS_FILE_COLUMNS
DOC = {"name": "toy-byte", "summary": "S(x) ^ 0x5A, a toy paper", "key_bytes": 16,
       "paper": {"citation": "A. Toy, 2026", "url": "https://example.org/toy", "passages": "toy-byte.passages.txt",
                 "stand_in": "how the byte is drawn: a fixed byte"},
       "sbox": {"kind": "derived", "steps": [{"xor": {"value": 0x5A}}]}, "linear": {"kind": "mixcolumns"}}
PASSAGES = ("The passages read.\n\nSource: https://example.org/toy, a stored copy. Only the abstract\ncould be read. "
            "The body was not read.\n\n--- passage 1: abstract ---\n\nOnly this is a passage, not the account.\n")


def _claim(**values) -> dict:
    values = {"carries": "size", "quantity": f"the toy's {values['claim_id'].rsplit('-', 1)[-1]}",
              "paper": "toy-byte", "where": "Abstract", "scope": "claim", "tier": "supporting", **values}
    return {c: values.get(c, "") for c in COLUMNS}


ROWS = [
    _claim(claim_id="toy-byte-title", quote="enhancing security by modifying the S-box with a byte", kind="structural",
           rule="holds", tier="headline", readings="open", measure="additional-key-or-sbox"),
    *[_claim(claim_id=f"toy-byte-t{n}", quote=f"{t} ms", kind="value", published=t, unit="ms", rule="not_testable",
             condition=f"size={n} B", note="the paper's machine", carries="nothing")
      for n, t in ((16, "0.18"), (32, "0.31"), (64, "0.46"))],
    _claim(claim_id="toy-byte-series", quote="the times", kind="structural", scope="extension", rule="holds",
           tier="", measure="published-times-off-line"),
]


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("toy-byte")
    path = folder / "toy-byte.yaml"
    path.write_text(yaml.safe_dump(DOC), encoding="utf-8")
    (folder / "toy-byte.passages.txt").write_text(PASSAGES, encoding="utf-8")
    with open(folder / "toy-byte.claims.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(ROWS)
    return driver.run_battery(path, seed=5, **SMALL)


def _title(results) -> dict:
    claim = results["paper_claims"].set_index("claim_id").loc["toy-byte-title"].rename("toy-byte-title")
    return {r.reading: r for r in measures.evidence_for(results, claim.to_dict() | {"claim_id": "toy-byte-title"})}


def test_a_title_crediting_the_sbox_change_and_a_key_byte_has_both_readings(toy):
    """The key space grows (a secret byte's 8 bits) while the S-box change adds nothing (AES with transformed round
    keys): the readings disagree, and the title is inconclusive, its reason naming both."""
    secret = {**toy, "key_bits": {16: 136}}
    ev = _title(secret)
    assert set(ev) == {"the key space the additional byte adds", "the S-box modification itself"}
    assert ev["the key space the additional byte adds"].holds is True
    assert ev["the S-box modification itself"].holds is False
    assert "2^8 times the work" in ev["the S-box modification itself"].detail
    frame = claims.evidence_frame([*ev.values()]).assign(chapter="variant_toy-byte")
    for col in ("size", "style", "mode", "profile", "unit", "detail", "section", "reading"):
        frame[col] = frame[col].fillna("")
    title = toy["paper_claims"][toy["paper_claims"]["claim_id"] == "toy-byte-title"]
    row = claims.decide_readings(title, frame).set_index("claim_id").loc["toy-byte-title"]
    assert (row["verdict"], row["outcome"]) == ("inconclusive", "readings_disagree")
    assert "the key space the additional byte adds: reproduced" in row["reason"]
    assert "the S-box modification itself: contradicted" in row["reason"]


def test_without_an_added_key_both_readings_fail_and_without_the_equivalence_both_hold(toy):
    """The readings' boundaries: no key material added (a fixed byte) and AES up to its round keys, every reading
    against the title (the mildest stands); a cipher that is not AES with transformed round keys and adds a key, both
    hold (which shows only that it differs from AES)."""
    row = toy["verdicts"].set_index("claim_id").loc["toy-byte-title"]
    assert row["verdict"] == "contradicted" and row["outcome"] == "statement_false"
    none = toy["equivalence"].assign(equivalent_to=NONE_FOUND, confirmed=False)
    ev = _title({**toy, "key_bits": {16: 136}, "equivalence": none})
    assert all(e.holds is True for e in ev.values())
    assert ev["the S-box modification itself"].detail.startswith("not AES with transformed round keys")


def test_what_carries_over_from_aes_says_key_schedule_attacks_cost_a_guess_of_a_secret_byte(toy):
    secret = measures.carries_over({**toy, "key_bits": {16: 136, 24: 200}})
    assert "round keys 1 to the last XORed with the additional key byte, round key 0 unchanged" in secret
    assert "an attack on AES's round function carries over to it as it is" in secret
    assert "at the cost of guessing that byte, 2^8 times the work" in secret
    fixed = measures.carries_over(toy)        # a constant of the design: nothing secret to guess
    assert "every attack on AES carries over to it with those offsets applied" in fixed and "guess" not in fixed
    for text in (card.STANDINGS["as-aes"], card.equivalence_line(toy), report.findings_markdown(toy),
                 " ".join(report.own_findings(toy)["reason"])):
        assert "exactly as strong as AES" not in text and "every attack on AES applies" not in text
        assert "AES's distribution" not in text


def test_the_report_lists_the_papers_findings_rows_among_its_own_findings(toy):
    found = report.own_findings(toy)
    assert "toy-byte-series" in set(found["claim_id"])     # the paper's finding row, beside the battery's
    assert not {"toy-byte-title", "toy-byte-t16"} & set(found["claim_id"])   # claims are no findings
    series = found.set_index("claim_id").loc["toy-byte-series"]
    assert series["verdict"] == "finding" and series["reason"]
    none = report.own_findings({**toy, "verdicts": toy["verdicts"].iloc[:0]})
    assert "toy-byte-series" not in set(none["claim_id"])


def test_the_printed_times_off_a_line_are_said_as_a_miss_beyond_their_rounding(toy):
    """0.18, 0.31, 0.46 ms at 1, 2, 4 blocks miss the least-squares line by more than 0.005 ms: the finding holds,
    and says that the rounding is its only tolerance; on a line (0.57 at 4 blocks) it does not hold."""
    row = toy["verdicts"].set_index("claim_id").loc["toy-byte-series"]
    assert (row["verdict"], row["outcome"]) == ("finding", "established")
    assert "no timing noise is allowed for" in row["reason"]
    claim = toy["paper_claims"].set_index("claim_id").loc["toy-byte-series"].to_dict() | {"claim_id": "toy-byte-series"}
    lined = toy["paper_claims"].copy()
    lined.loc[lined["claim_id"] == "toy-byte-t64", "published"] = "0.57"
    assert measures.evidence_for({**toy, "paper_claims": lined}, claim)[0].holds is False
    lined.loc[lined["claim_id"] == "toy-byte-t64", "published"] = "0.45"   # 0.01 off the line 0.18 + 0.13 per block
    off = measures.evidence_for({**toy, "paper_claims": lined}, claim)[0]
    assert off.holds is True


def test_what_was_read_is_said_beside_the_recommendation(toy):
    text = report.read_markdown(toy)
    assert text.startswith("**Only part of the paper was read.**")
    assert "only the abstract could be read. The body was not read." in text
    assert "Only this is a passage" not in text                 # the passages file's account, not a passage
    assert ("stand-in" in text) == report.stand_in_only(toy)
    assert report.read_markdown({**toy, "variant_file": None}) == ""
