"""A paper refereed through its variant (cipherlab.experiments.variant.claims, .measures, .report; the card's
standing where the report reads it): the claims file beside the variant, the evidence the battery measures for each
claim, the engine's verdicts, the page's header and report parts; the two example papers' files; and, on a toy with
an additional key byte, the example papers after their audit (issue 36): a title crediting a modification of the
S-box with an additional key byte, decided under both of its open readings; what carries over from AES to a cipher
that is AES's round function under offset round keys; the report's own findings with the paper's findings rows; the
paper's printed times against their rounding, said as what they are; what was read, beside the recommendation."""
from __future__ import annotations

import csv

import pandas as pd
import pytest
import yaml

from cipherlab.ciphers.variant_files import load_variant
from cipherlab.experiments.variant import card, claims, driver, measures, report
from cipherlab.experiments.variant.equivalence import NONE_FOUND
from cipherlab.pipeline import chapters
from cipherlab.pipeline.paths import VARIANTS_DIR

from variant_toys import CLAIMS_FILE_COLUMNS, PAPER_SMALL

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")

SMALL = PAPER_SMALL
COLUMNS = CLAIMS_FILE_COLUMNS
TOY = {"name": "toy-paper", "summary": "S(x) ^ 0x5A, a toy paper", "key_bytes": 16,
       "about": "A toy <script>alert(1)</script> with `code`.",
       "paper": {"citation": "A. Toy, \"On <b>XOR</b>\", 2026", "url": "https://example.org/toy"},
       "sbox": {"kind": "derived", "steps": [{"xor": {"value": 0x5A}}]}, "linear": {"kind": "mixcolumns"}}


def _claim(**values) -> dict:
    values = {"carries": "size", "quantity": f"the toy's {values['claim_id'].rsplit('-', 1)[-1]}", **values}
    return {c: values.get(c, "") for c in COLUMNS}


TOY_CLAIMS = [
    _claim(claim_id="toy-paper-sac", paper="toy-paper", where="Abstract", quote="the S-box's SAC is improved",
           kind="ordering", scope="claim", null="0", rule="ordering", tier="headline", measure="sbox-sac-mean-vs-aes",
           note="read as a larger mean SAC than AES's S-box"),
    _claim(claim_id="toy-paper-nl", paper="toy-paper", where="Table 1", quote="nonlinearity 112", kind="value",
           scope="claim", published="112", rule="within_margin", margin="0.01", tier="supporting",
           measure="sbox-nonlinearity"),
    _claim(claim_id="toy-paper-same", paper="toy-paper", where="Section 4", quote="a new cipher, not AES",
           kind="structural", scope="claim", rule="holds", tier="headline", measure="unbroken"),
    _claim(claim_id="toy-paper-aes", paper="toy-paper", where="Section 4", quote="it is AES in disguise",
           kind="structural", scope="claim", rule="holds", tier="supporting", measure="equivalent-to-aes"),
    _claim(claim_id="toy-paper-fast", paper="toy-paper", where="Section 5", quote="fast", kind="qualitative",
           scope="claim", rule="not_testable", tier="supporting", note="no condition named"),
    _claim(claim_id="toy-paper-sac2", paper="toy-paper", where="Abstract", quote="SAC increased", kind="ordering",
           scope="claim", null="0", rule="ordering", tier="headline", measure="sac-vs-aes",
           note="the S-box's or the cipher's SAC"),
    _claim(claim_id="toy-paper-sac3", paper="toy-paper", where="Abstract", quote="the S-box's SAC increased",
           kind="ordering", scope="claim", null="0", rule="ordering", tier="headline", measure="sac-sbox-vs-aes",
           note="the SAC read as the S-box criterion"),
    _claim(claim_id="toy-paper-premise", paper="toy-paper", where="Abstract", quote="AES needs the key in SubBytes",
           kind="structural", scope="claim", rule="holds", tier="supporting",
           measure="key-avalanche-aes-short-of-ideal"),
    _claim(claim_id="toy-paper-more", paper="toy-paper", where="Title", quote="a more secure AES", kind="structural",
           scope="claim", rule="holds", tier="headline", measure="beyond-aes-key", concern="overclaim"),
    *[_claim(claim_id=f"toy-paper-t{n}", paper="toy-paper", where="Table 2", quote=f"{t} ms", kind="value",
             scope="claim", published=t, unit="ms", rule="not_testable", tier="supporting", condition=f"size={n} B",
             note="the paper's machine", carries="nothing") for n, t in ((16, "0.18"), (32, "0.31"), (64, "0.46"))],
    _claim(claim_id="toy-paper-series", paper="toy-paper", where="Table 2", quote="the times", kind="structural",
           scope="claim", rule="holds", tier="supporting", measure="published-times-linear", concern="defect"),
]


def _write_paper(folder, rows=TOY_CLAIMS, doc=TOY):
    path = folder / f"{doc['name']}.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    with open(folder / f"{doc['name']}.claims.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return path


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    path = _write_paper(tmp_path_factory.mktemp("toy"))
    return driver.run_battery(path, seed=5, **SMALL)


def test_a_toy_paper_is_decided_by_the_engine(toy):
    v = toy["verdicts"].set_index("claim_id")
    assert v.loc["toy-paper-sac", "verdict"] == "contradicted"      # no XOR constant changes an S-box's SAC
    assert v.loc["toy-paper-nl", "verdict"] == "reproduced"
    assert v.loc["toy-paper-aes", "verdict"] == "reproduced"        # S(x) ^ c is AES with transformed round keys
    assert v.loc["toy-paper-same", "verdict"] == "reproduced"       # none of the battery's attacks breaks AES
    assert v.loc["toy-paper-fast", "verdict"] == "not testable"
    assert "no condition named" in v.loc["toy-paper-fast", "reason"]
    assert set(toy["evidence"]["chapter"]) == {"variant_toy-paper"}
    assert set(toy["evidence"]["claim_id"]) == set(v[v["rule"] != "not_testable"].index)
    assert (v["chapter"].isin(["variant_toy-paper", ""])).all()


def test_the_page_header_escapes_every_text_from_the_files(toy):
    text = report.header_html(toy)
    assert "<script>" not in text and "&lt;script&gt;" in text and "<code>code</code>" in text
    assert "&lt;b&gt;XOR&lt;/b&gt;" in text and 'href="https://example.org/toy"' in text
    assert f"{len(TOY_CLAIMS)} claims</b> are decided below" in text


def test_the_page_header_counts_a_finding_about_the_papers_numbers_apart_from_its_claims(toy):
    own = toy["paper_claims"]
    scope = ["extension" if cid == "toy-paper-series" else "claim" for cid in own["claim_id"]]
    text = report.header_html({**toy, "paper_claims": own.assign(scope=scope)})
    assert f"{len(own) - 1} claims</b> are decided below" in text
    assert "1 finding of ours about the paper's own text or numbers" in text


def test_the_report_parts_say_what_the_equivalence_means(toy):
    from cipherlab.report import template, tiers

    rows = tiers.with_tier(toy["verdicts"])
    extra = (template.Section("structure", "What the structure means", report.findings_markdown(toy)),)
    sections = template.report_sections(report.paper(toy), rows, report.break_findings(toy), extra=extra)
    keys = [s.key for s in sections]
    assert keys == [*template.SECTION_KEYS[:-1], "structure", "recommendation"]
    assert sections[0].body.startswith("Paper toy-paper (") and report.break_findings(toy).empty
    found = report.findings_markdown(toy)
    assert "**The cipher is AES with transformed round keys**" in found and "key space" in found
    assert "config/variants/toy-paper.claims.csv" in report.methodology_markdown(toy)
    assert ("rest on them alone" in report.methodology_markdown(toy)) == bool(report.paper_of(toy).get("passages"))


def test_a_reading_an_exact_identity_settles_is_decided_as_a_statement(toy):
    """The S-box's SAC of a cipher whose S-boxes are Rijndael's up to XOR constants is AES's by an identity: that
    reading is decided as a statement (not as a measured size 'the paper states'), the cipher's reading by its
    measurement, and the least favourable decides, the row saying under which reading and what each gave."""
    row = toy["verdicts"].set_index("claim_id").loc["toy-paper-sac2"]
    assert row["verdict"] == "contradicted" and row["reading"] == "the S-box's SAC"
    assert row["outcome"] == "statement_false" and "states a clear effect" not in row["reason"]
    # the toy XORs the S-box's output only: the reason names that side, and the identity for either side
    assert "it does not hold (every S-box is Rijndael's up to an XOR on its output (" in row["reason"]
    assert "no XOR on an S-box's input or output changes its SAC" in row["reason"]
    assert "(under the S-box's SAC, the least favourable of 2 readings; each reading: the S-box's SAC: does not " \
           "hold, contradicted; the cipher's SAC: " in row["reason"]
    # both readings' figures in the row: the cipher's as the variant's SAC against AES's, in the reason
    assert "mean deviation of an entry of the 128 x 128 SAC matrix from 1/2, AES's minus the variant's: the " \
           "variant's " in row["reason"]
    assert " against AES's " in row["reason"]
    assert row["rule"] == "ordering" and "the cipher's SAC: " in row["other"]   # the registry's rule, as declared
    assert "decided the S-box's SAC as a statement (an exact identity), the cipher's SAC by the rule" in row["basis"]
    ev = toy["evidence"][toy["evidence"]["claim_id"] == "toy-paper-sac2"].set_index("reading").loc["the S-box's SAC"]
    assert ev["holds"] == False  # noqa: E712 (a numpy bool)


def test_a_claim_read_as_the_sboxs_sac_alone_rests_on_the_identity(toy):
    """The S-box's reading alone (the row's one stated reading): the verdict and its reason rest on the identity
    SAC(S(x ^ a) ^ c) = SAC(S) and the equivalence to AES, with no other reading named."""
    row = toy["verdicts"].set_index("claim_id").loc["toy-paper-sac3"]
    assert row["verdict"] == "contradicted" and row["reading"] == "the S-box's SAC"
    assert "SAC(S(x ^ a) ^ c) = SAC(S)" in row["reason"] and "confirmed by encrypting" in row["reason"]
    assert "readings" not in row["reason"] and "cipher's SAC" not in row["reason"] and not row["other"]
    assert row["rule"] == "ordering"   # the rule the claims file declares, whatever decided the reading
    assert list(toy["evidence"].loc[toy["evidence"]["claim_id"] == "toy-paper-sac3", "reading"]) == ["the S-box's SAC"]


def test_a_premise_that_aes_falls_short_of_the_ideal_key_avalanche_is_decided_on_aess_interval(toy):
    """AES's key avalanche is an ideal cipher's 50 % within its interval: the premise fails, its reason giving the
    interval; an interval wholly below 50 % (a synthetic histogram) holds."""
    import numpy as np

    row = toy["verdicts"].set_index("claim_id").loc["toy-paper-premise"]
    assert row["verdict"] == "contradicted" and "an ideal cipher's 50 %" in row["reason"]
    hist = np.zeros(129)
    hist[60] = 1000   # every flip changes 60 of 128 bits: 46.9 %
    short = measures._rows({**toy, "key_avalanche": {**toy["key_avalanche"], "aes": hist}},
                           "key-avalanche-aes-short-of-ideal", None)
    assert short[0]["holds"] is True


def test_an_avalanche_gain_over_aes_needs_aes_short_of_the_ideal_in_both_readings(toy):
    """A larger avalanche than AES's is a gain only while AES's lies below 50 %: AES meets the ideal, so the premise
    fails for a flipped plaintext bit and a flipped key bit, the detail saying a larger one is a bias; a plaintext
    histogram wholly below 50 % (synthetic) holds in that reading alone."""
    import numpy as np

    rows = measures._rows(toy, "avalanche-aes-short-of-ideal", None)
    assert [r["reading"] for r in rows] == ["a flipped plaintext bit", "a flipped key bit"]
    assert all(r["holds"] is False and "a move away from the ideal" in r["detail"] for r in rows)
    hist = np.zeros(129)
    hist[60] = 1000
    low = measures._rows({**toy, "controls": {**toy["controls"], "avalanche": pd.DataFrame(
        {"bits_flipped": range(129), "count": hist})}}, "avalanche-aes-short-of-ideal", None)
    assert [r["holds"] for r in low] == [True, False] and "toward the ideal" in low[0]["detail"]


def test_a_claim_beyond_the_key_fails_on_a_cipher_equivalent_to_aes(toy):
    row = toy["verdicts"].set_index("claim_id").loc["toy-paper-more"]
    assert row["verdict"] == "contradicted" and row["concern"] == "overclaim"
    assert "the cipher is AES with transformed round keys" in row["reason"] and "confirmed by encrypting" in row["reason"]


def test_the_papers_own_times_are_checked_for_growing_with_the_length(toy):
    """Three printed times (0.18, 0.31, 0.46 ms at 1, 2, 4 blocks) miss every straight line by more than their
    rounding: a defect of the paper's own numbers; a series on a line within its rounding holds."""
    row = toy["verdicts"].set_index("claim_id").loc["toy-paper-series"]
    assert row["verdict"] == "contradicted" and row["concern"] == "defect"
    assert "the least-squares line in the length misses them by up to" in row["reason"]
    assert "against the printed values' rounding of ±0.005 ms (the rounding only" in row["reason"]
    assert "no timing noise is allowed for" in row["reason"] and "0.13, 0.075 ms" in row["reason"]
    lined = toy["paper_claims"].copy()
    lined.loc[lined["claim_id"] == "toy-paper-t64", "published"] = "0.57"   # 0.18 + 0.13 per block: a line
    assert measures._published_times({"paper_claims": lined})["holds"]
    with pytest.raises(ValueError, match="needs at least 3 claims of the paper with a published time"):
        measures._published_times({"paper_claims": lined.iloc[:4]})


def test_the_reports_own_findings_carry_the_equivalence_and_a_weaker_design(toy):
    found = report.own_findings(toy)
    # AES's round function under offset round keys: never a security concern against the design; the S-box change
    # adds nothing but the key material
    assert list(found["concern"][found["claim_id"] == "variant_toy-paper"]) == ["ineffective"]
    assert found["outcome"].eq("established").all() and found["verdict"].eq("finding").all()
    assert found["reason"].iloc[0].startswith("The modification of the S-box adds nothing to AES's round function "
                                              "and takes nothing from it: the cipher is AES with transformed round keys")
    assert "every attack on AES carries over to it with those offsets applied" in found["reason"].iloc[0]
    assert "cannot exist" not in found["reason"].iloc[0]
    # a fixed constant adds no key material: no finding of a key space, which is AES's
    assert not found["reason"].str.startswith("The additional key").any()
    secret = report.own_findings({**toy, "key_bits": {16: 136}})["reason"]
    assert "up to a guess of" not in secret.iloc[0] and "at the cost of guessing that byte, 2^8 times" in secret.iloc[0]
    assert "the only gain is the key material the modification adds, when kept secret with the key: 2^136 keys " \
           "against AES's 2^128, an exhaustive key search 2^8 times as long" in secret.iloc[1]
    assert "2^136 keys against AES's 2^128" in report.findings_markdown({**toy, "key_bits": {16: 136}})
    weaker = {**toy, "margin": toy["margin"].assign(margin_rounds=[0, 6], active_sboxes_4_rounds=[10, 25])}
    assert "design is weaker than AES's, measured by the same battery: a design margin of 0 round(s) against " \
           "trails (AES 6); at least 10 active S-boxes in 4 rounds (AES 25)" in report.own_findings(weaker)["reason"].iloc[1]
    assert "**Its design is weaker than AES's**" in report.findings_markdown(weaker)
    assert list(report.own_findings(weaker)["concern"])[:2] == ["ineffective", "security"]
    assert report.paper(toy).subject == "S(x) ^ 0x5A, a toy paper"   # the file's summary, not the registry label


def test_a_cipher_as_strong_as_aes_is_no_security_concern_and_labelled_so(toy):
    """The equivalence makes the cipher AES's round function under offset round keys: no main concern of kind security, no "security
    finding" lead, and the page's label says so; a weaker design or an attack labels it NOT secure (one rule)."""
    from cipherlab.experiments.variant import card
    from cipherlab.report import template, tiers

    concerns = template.concern_rows(tiers.with_tier(toy["verdicts"]), report.own_findings(toy))
    assert "security" not in {k for k, _ in concerns} and {k for k, _ in concerns} >= {"ineffective", "contradicted"}
    # no weakness, but the S-box change adds nothing but key material: a major revision even were every claim undecided
    undecided = tiers.with_tier(toy["verdicts"]).assign(verdict="inconclusive")
    assert template.recommendation(undecided, report.own_findings(toy))[0] == "major revision"
    assert template.recommendation(undecided, report.own_findings(toy).iloc[:0])[0] != "major revision"
    assert card.standing(toy) == "as-aes"
    title = report.title_html(toy)
    assert "AES&#x27;s round function under AES&#x27;s round keys offset" in title and "NOT secure" not in title
    assert "exactly as strong" not in title
    weaker = {**toy, "margin": toy["margin"].assign(margin_rounds=[0, 6], active_sboxes_4_rounds=[10, 25])}
    assert card.standing(weaker) == "weaker" and "NOT secure" in report.title_html(weaker)
    none = toy["equivalence"].assign(equivalent_to=NONE_FOUND, confirmed=False)
    assert card.standing({**toy, "equivalence": none}) == "unproven"
    kinds = {k for k, _ in template.concern_rows(tiers.with_tier(toy["verdicts"]), report.own_findings(weaker))}
    assert "security" in kinds


def test_a_stand_ins_card_comes_after_the_claims_labelled(toy, monkeypatch):
    """The summary card tops the page for the paper's cipher; a stand-in's (no equivalence deciding for every
    reading) comes after the claims, labelled as an illustration that decides nothing."""
    assert report.card_markdown(toy, after_claims=False).startswith("### Summary card")
    assert report.card_markdown(toy, after_claims=True) == ""
    none = toy["equivalence"].assign(equivalent_to=NONE_FOUND, confirmed=False)
    monkeypatch.setattr(report, "paper_of", lambda results: {"citation": "x", "stand_in": "how the byte is drawn"})
    assert report.card_markdown(toy, after_claims=False).startswith("### Summary card")   # equivalent: it decides
    stand = {**toy, "equivalence": none}
    assert report.card_markdown(stand, after_claims=False) == ""
    after = report.card_markdown(stand, after_claims=True)
    assert after.startswith("### Our stand-in's summary card (an illustration: it decides nothing)")
    assert after.endswith(toy["card"])


def test_a_stand_ins_weaknesses_are_no_finding_of_the_report(toy, monkeypatch):
    """A stand-in's weaker design or attack says nothing of the paper's cipher (other fair readings keep AES's
    bounds): neither among the report's findings nor in its structure section, which says in one sentence that the
    chapter measures a stand-in; the paper's own construction keeps them."""
    none = toy["equivalence"].assign(equivalent_to=NONE_FOUND, confirmed=False)
    weaker = {**toy, "equivalence": none,
              "margin": toy["margin"].assign(margin_rounds=[0, 6], active_sboxes_4_rounds=[10, 25])}
    own = report.own_findings(weaker)
    assert list(own["concern"]) == ["security"]                 # the paper's own construction: a security finding
    assert "**Its design is weaker than AES's**" in report.findings_markdown(weaker)
    monkeypatch.setattr(report, "paper_of", lambda results: {"citation": "x", "stand_in": "how the byte is drawn"})
    assert report.own_findings(weaker).empty
    text = report.findings_markdown(weaker)
    assert "weaker" not in text and "design margin" not in text
    assert "stand-in" in text and "decides nothing" in text
    # what holds whatever the construction: AES's own key avalanche, from this run's numbers
    key = measures.short_of_ideal(toy["key_avalanche"]["aes"], "key")
    assert f"in this run, {key['detail']}." in text
    assert ("nothing to gain on AES" in text) == (not key["holds"])


def test_the_card_puts_the_equivalence_first(toy):
    first = toy["card"].splitlines()[0]
    assert first.startswith("**toy-paper**: **equivalent to AES with transformed round keys**")
    assert "k'_r = k_r ^ 0x5A" in first and "confirmed by encrypting" in first
    assert "SAC mean 0.5049 (AES 0.5049)" in toy["card"] and "BIC nonlinearity 112 (AES 112)" in toy["card"]
    assert "(AES, same settings:" in toy["card"] and "a random source passes each test" in toy["card"]


@pytest.mark.parametrize("change, message", [
    (lambda rows: [{k: v for k, v in r.items() if k != "measure"} for r in rows], "needs the column 'measure'"),
    (lambda rows: [{**rows[0], "measure": ""}], "column 'measure' is empty"),
    (lambda rows: [{**rows[0], "measure": "magic"}], r"measure must be one of"),
    (lambda rows: [{**rows[1], "unit": "%"}], r"measure 'sbox-nonlinearity' is in 'no unit'; the claim's unit is '%'"),
    (lambda rows: [{**rows[0], "section": "x-y"}], "'source' and 'section' stay empty"),
    (lambda rows: [{**rows[0], "paper": "000"}], r"paper must be one of \('toy-paper',\)"),
])
def test_a_bad_claims_file_names_the_file_the_claim_and_the_column(tmp_path, change, message):
    path = _write_paper(tmp_path, change([dict(r) for r in TOY_CLAIMS]))
    with pytest.raises(ValueError, match=message) as err:
        claims.load_paper_claims("toy-paper", path)
    assert "toy-paper.claims.csv" in str(err.value) and "\n" not in str(err.value)


def test_a_variant_without_claims_has_empty_tables_with_their_columns():
    ev, v = claims.paper_verdicts({}, None)
    assert ev.empty and v.empty and "claim_id" in v.columns and "claim_id" in ev.columns


def test_every_measure_has_a_unit_and_a_section():
    for name, (unit, what) in measures.MEASURES.items():
        assert unit in ("", "%", "pp", "bits", "rounds") and what
        assert measures._section(name)


# --- the two example papers ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["al-mamun-2017", "abikoye-2019"])
def test_the_example_papers_are_variant_papers_with_their_passages(name):
    assert name in chapters.variant_papers()
    desc = load_variant(VARIANTS_DIR / f"{name}.yaml")
    paper = dict(desc.paper)
    assert paper["citation"] and paper["url"].startswith("https://") and paper["stand_in"]
    passages = (VARIANTS_DIR / paper["passages"]).read_text(encoding="utf-8")
    assert paper["url"] in passages
    rows = claims.load_paper_claims(name)
    assert len(rows) >= 4 and set(rows["paper"]) == {name}
    # every claim quotes the passages read, word for word (the passages wrap lines; '[...]' marks a cut)
    flat = " ".join(passages.split())
    for quote in rows["quote"]:
        for part in quote.split("[...]"):
            part = " ".join(part.split()).strip(" .")
            if "(" in part:   # a row's own gloss, e.g. "(0.18 ms for 16 bytes)"
                part = part.split(" (")[0]
            assert part in flat, (name, part)
    assert (rows.loc[rows["rule"] == "not_testable", "note"] != "").all()


@pytest.mark.parametrize("name", ["al-mamun-2017", "abikoye-2019"])
def test_one_fact_decides_one_row_of_an_example_paper(name):
    """No two decided rows of a paper rest on the same measurement: a fact counted twice would decide two rows;
    except a title decided on the facts of the sentence it summarises, each row naming the other."""
    rows = claims.load_paper_claims(name).set_index("claim_id")
    decided = rows[rows["rule"] != "not_testable"]
    for measure, group in decided.groupby("measure"):
        if len(group) > 1:
            assert (group["where"] == "Title").sum() == 1, (measure, list(group.index))
            title = group.index[group["where"] == "Title"][0]
            for other in group.index.drop(title):
                assert other in group.loc[title, "note"] and title in group.loc[other, "note"]


def test_al_mamun_secret_key_reading_and_the_sac_readings():
    rows = claims.load_paper_claims("al-mamun-2017").set_index("claim_id")
    # the random key: a key is secret, the text's own reading; the title credits the S-box change or the key
    # space, two open readings; the Time Security is undefined in the text read
    key = rows.loc["al-mamun-2017-random-key"]
    assert (key["rule"], key["measure"], key["readings"]) == ("holds", "additional-key-secret", "")
    title = rows.loc["al-mamun-2017-title"]
    assert (title["rule"], title["measure"], title["readings"]) == ("holds", "additional-key-or-sbox", "open")
    assert title["tier"] == "headline" and "Structural equivalence to AES" in title["note"]
    time = rows.loc["al-mamun-2017-time-security"]
    assert (time["rule"], time["measure"]) == ("not_testable", "") and "does not define 'Time Security'" in time["note"]
    assert "'a random additional key" in rows.loc["al-mamun-2017-construction", "note"]
    assert "the secret reading is the text's own" in rows.loc["al-mamun-2017-construction", "note"]
    for summarised in ("al-mamun-2017-sac", "al-mamun-2017-time-security", "al-mamun-2017-random-key"):
        assert summarised in title["note"]
    # the SAC: the S-box's and the whole cipher's, both fair, on the deviation from 1/2
    sac = rows.loc["al-mamun-2017-sac"]
    assert (sac["rule"], sac["measure"], sac["readings"]) == ("ordering", "sac-vs-aes", "open")
    assert "SAC(S ^ c) = SAC(S)" in sac["note"] and "nearer 1/2" in sac["note"]
    assert sac["concern"] == "" and "never separated" not in sac["note"]   # no concern resting on text not read
    assert "secret with the AES key" in key["note"] and "trivially" in key["note"]
    # what varies with the byte is measured, not denied
    assert "the fixed points" in rows.loc["al-mamun-2017-fluctuates", "note"]
    assert "nothing in the S-box can" not in rows.loc["al-mamun-2017-fluctuates", "note"]


def test_open_readings_that_disagree_are_inconclusive(toy):
    """A claim whose open readings disagree (the S-box's SAC false by the identity, the cipher's within the noise)
    is inconclusive, readings_disagree, whichever reading is decided as a statement; all against: the mildest."""
    from cipherlab.analysis.verdicts import load_rules

    own = toy["paper_claims"]
    opened = own.assign(readings=["open" if c == "toy-paper-sac2" else r
                                  for c, r in zip(own["claim_id"], own["readings"])])
    row = claims.decide_readings(opened, toy["evidence"]).set_index("claim_id").loc["toy-paper-sac2"]
    cipher = toy["evidence"].set_index(["claim_id", "reading"]).loc[("toy-paper-sac2", "the cipher's SAC")]
    assert cipher["low"] < 0 < cipher["high"]           # the toy's cipher is AES up to its round keys: noise
    assert (row["verdict"], row["outcome"]) == ("inconclusive", "readings_disagree")
    assert "the S-box's SAC: contradicted, the cipher's SAC: inconclusive" in row["reason"]
    assert "SAC(S(x ^ a) ^ c) = SAC(S)" in row["reason"]     # the statement's detail, in the reason
    # every reading's figure, not one reading's beside "inconclusive"
    assert row["ours"].startswith("the S-box's SAC: ") and "; the cipher's SAC: " in row["ours"]
    rules = load_rules()
    parts = [pd.Series({"reading": "a", "verdict": v, "ours": "x", "reason": "r.", "basis": "b", "rule": "holds",
                        "other": ""}) for v in ("contradicted", "not reproduced")]
    both = claims._combined(opened.set_index("claim_id").loc["toy-paper-sac2"].rename("toy-paper-sac2")
                            .reindex(list(opened.columns)).fillna(""), parts, rules)
    assert both.iloc[0]["verdict"] == "not reproduced"   # every reading against the claim: the mildest stands


def test_the_additional_key_is_decided_on_the_key_space_and_says_trivially(toy):
    secret = measures._additional_key({**toy, "key_bits": {16: 136, 24: 200}})
    assert secret["holds"] is True and "2^8 times as long" in secret["detail"]
    assert "trivially, by the 8 key bits" in secret["detail"]
    assert "2^136, 2^200 keys against AES's 2^128, 2^192" in secret["detail"]
    assert "adds nothing else" in secret["detail"]          # the toy is AES with transformed round keys
    plain = measures._additional_key(toy)              # no key material added: it fails
    assert plain["holds"] is False and "trivially" not in plain["detail"]
    none = toy["equivalence"].assign(equivalent_to=NONE_FOUND, confirmed=False)
    other = measures._additional_key({**toy, "key_bits": {16: 136}, "equivalence": none})
    assert other["holds"] is True and "adds nothing else" not in other["detail"]


def test_the_ideal_sac_deviation_is_the_noise_floor_of_the_trials(toy):
    import math

    trials = int(toy["avalanche"]["count"].sum()) // 128
    floor = f"with {trials} trials per entry an ideal cipher's entries deviate from 1/2 by " \
            f"{measures.ideal_sac_deviation(trials):.4g} on average"
    assert floor in measures._sac_cipher(toy)["detail"]
    at = measures._against_floor({"the variant's": (0.0250, 0.0003), "AES's": (0.0248, 0.0003)}, 0.0249)
    assert at.startswith("both figures lie at this noise floor")
    off = measures._against_floor({"the variant's": (0.0300, 0.0003), "AES's": (0.0248, 0.0003)}, 0.0249)
    assert off == "AES's at it within its interval; the variant's above it"

    assert measures.ideal_sac_deviation(1) == 0.5
    assert measures.ideal_sac_deviation(2) == pytest.approx(0.25)      # |0-1/2|/4 + 0 + |1-1/2|/4
    n = 256
    assert measures.ideal_sac_deviation(n) == pytest.approx(math.sqrt(0.25 / n) * math.sqrt(2 / math.pi), rel=2e-3)
    with pytest.raises(ValueError):
        measures.ideal_sac_deviation(0)


def test_the_sac_deviation_is_the_entries_distance_from_one_half():
    import numpy as np

    m = np.full((4, 4), 0.5)
    m[0, 0], m[1, 1] = 0.75, 0.25
    dev, half = measures.sac_deviation(m)
    assert dev == pytest.approx(0.5 / 16) and half > 0
    assert measures.sac_deviation(np.full((4, 4), 0.5)) == (0.0, 0.0)


def test_abikoye_marks_as_overclaim_only_the_sentence_that_claims_more_than_its_evaluation():
    rows = claims.load_paper_claims("abikoye-2019").set_index("claim_id")
    # one sentence, one row: the aim's sentence gives no premise about AES, and its row says why
    assert "abikoye-2019-aes-key-premise" not in rows.index
    aim = rows.loc["abikoye-2019-key-bit-change"]
    assert aim["rule"] == "not_testable" and "no premise about AES" in aim["note"]
    assert "AES's own key avalanche" in aim["note"] and "a bias, not a gain" in aim["note"]
    assert list(rows.index[rows["concern"] == "overclaim"]) == ["abikoye-2019-enhanced"]
    assert "abikoye-2019-enhanced" in rows.loc["abikoye-2019-avalanche-gain", "note"]   # counted there, once
    # the sentence compares two printed avalanches: the modified AES's construction is not given, so the comparison
    # is not testable; that an avalanche above 50 % is a bias, not a gain, is the paper's method's concern
    gain = rows.loc["abikoye-2019-avalanche-gain"]
    assert (gain["rule"], gain["measure"], gain["concern"]) == ("not_testable", "", "method")
    assert "a bias rather than a gain" in gain["note"] and "how many pairs were averaged" in gain["note"]
    assert "either way the figures were obtained" in gain["note"]   # single pairs or averages: not stated
    evaluated = rows.loc["abikoye-2019-evaluated"]   # the method sentence has its row
    assert evaluated["rule"] == "not_testable" and "abikoye-2019-avalanche-gain" in evaluated["note"]
    # conventional AES's printed avalanche: one pair's count, bit flipped not said, so no like-for-like comparison
    aes = rows.loc["abikoye-2019-avalanche-aes"]
    assert (aes["rule"], aes["measure"]) == ("not_testable", "") and "like for like" in aes["note"]
    assert rows.loc["abikoye-2019-title", "rule"] == "not_testable"


def test_the_method_section_says_the_verdicts_rest_on_the_passages_read(toy, monkeypatch):
    assert "rest on them alone" not in report.methodology_markdown(toy)      # no passages file: nothing to say
    monkeypatch.setattr(report, "paper_of", lambda results: {"citation": "x", "passages": "toy.passages.txt"})
    text = report.methodology_markdown(toy)
    assert "`config/variants/toy.passages.txt`" in text and "not the whole paper" in text


# --- the example papers after their audit (issue 36), on a toy with an additional key byte -------------

BYTE_DOC = {"name": "toy-byte", "summary": "S(x) ^ 0x5A, a toy paper", "key_bytes": 16,
            "paper": {"citation": "A. Toy, 2026", "url": "https://example.org/toy",
                      "passages": "toy-byte.passages.txt", "stand_in": "how the byte is drawn: a fixed byte"},
            "sbox": {"kind": "derived", "steps": [{"xor": {"value": 0x5A}}]}, "linear": {"kind": "mixcolumns"}}
BYTE_PASSAGES = ("The passages read.\n\nSource: https://example.org/toy, a stored copy. Only the abstract\n"
                 "could be read. The body was not read.\n\n--- passage 1: abstract ---\n\n"
                 "Only this is a passage, not the account.\n")


def _byte_claim(**values) -> dict:
    values = {"carries": "size", "quantity": f"the toy's {values['claim_id'].rsplit('-', 1)[-1]}",
              "paper": "toy-byte", "where": "Abstract", "scope": "claim", "tier": "supporting", **values}
    return {c: values.get(c, "") for c in COLUMNS}


BYTE_ROWS = [
    _byte_claim(claim_id="toy-byte-title", quote="enhancing security by modifying the S-box with a byte",
                kind="structural", rule="holds", tier="headline", readings="open", measure="additional-key-or-sbox"),
    *[_byte_claim(claim_id=f"toy-byte-t{n}", quote=f"{t} ms", kind="value", published=t, unit="ms",
                  rule="not_testable", condition=f"size={n} B", note="the paper's machine", carries="nothing")
      for n, t in ((16, "0.18"), (32, "0.31"), (64, "0.46"))],
    _byte_claim(claim_id="toy-byte-series", quote="the times", kind="structural", scope="extension", rule="holds",
                tier="", measure="published-times-off-line"),
]


@pytest.fixture(scope="module")
def toy_byte(tmp_path_factory):
    folder = tmp_path_factory.mktemp("toy-byte")
    path = folder / "toy-byte.yaml"
    path.write_text(yaml.safe_dump(BYTE_DOC), encoding="utf-8")
    (folder / "toy-byte.passages.txt").write_text(BYTE_PASSAGES, encoding="utf-8")
    with open(folder / "toy-byte.claims.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(BYTE_ROWS)
    return driver.run_battery(path, seed=5, **SMALL)


def _byte_title(results) -> dict:
    claim = results["paper_claims"].set_index("claim_id").loc["toy-byte-title"].rename("toy-byte-title")
    return {r.reading: r for r in measures.evidence_for(results, claim.to_dict() | {"claim_id": "toy-byte-title"})}


def test_a_title_crediting_the_sbox_change_and_a_key_byte_has_both_readings(toy_byte):
    """The key space grows (a secret byte's 8 bits) while the S-box change adds nothing (AES with transformed round
    keys): the readings disagree, and the title is inconclusive, its reason naming both."""
    secret = {**toy_byte, "key_bits": {16: 136}}
    ev = _byte_title(secret)
    assert set(ev) == {"the key space the additional byte adds", "the S-box modification itself"}
    assert ev["the key space the additional byte adds"].holds is True
    assert ev["the S-box modification itself"].holds is False
    assert "2^8 times the work" in ev["the S-box modification itself"].detail
    frame = claims.evidence_frame([*ev.values()]).assign(chapter="variant_toy-byte")
    for col in ("size", "style", "mode", "profile", "unit", "detail", "section", "reading"):
        frame[col] = frame[col].fillna("")
    title = toy_byte["paper_claims"][toy_byte["paper_claims"]["claim_id"] == "toy-byte-title"]
    row = claims.decide_readings(title, frame).set_index("claim_id").loc["toy-byte-title"]
    assert (row["verdict"], row["outcome"]) == ("inconclusive", "readings_disagree")
    assert "the key space the additional byte adds: reproduced" in row["reason"]
    assert "the S-box modification itself: contradicted" in row["reason"]


def test_without_an_added_key_both_readings_fail_and_without_the_equivalence_both_hold(toy_byte):
    """The readings' boundaries: no key material added (a fixed byte) and AES up to its round keys, every reading
    against the title (the mildest stands); a cipher that is not AES with transformed round keys and adds a key, both
    hold (which shows only that it differs from AES)."""
    row = toy_byte["verdicts"].set_index("claim_id").loc["toy-byte-title"]
    assert row["verdict"] == "contradicted" and row["outcome"] == "statement_false"
    none = toy_byte["equivalence"].assign(equivalent_to=NONE_FOUND, confirmed=False)
    ev = _byte_title({**toy_byte, "key_bits": {16: 136}, "equivalence": none})
    assert all(e.holds is True for e in ev.values())
    assert ev["the S-box modification itself"].detail.startswith("not AES with transformed round keys")


def test_what_carries_over_from_aes_says_key_schedule_attacks_cost_a_guess_of_a_secret_byte(toy_byte):
    secret = measures.carries_over({**toy_byte, "key_bits": {16: 136, 24: 200}})
    assert "round keys 1 to the last XORed with the additional key byte, round key 0 unchanged" in secret
    assert "an attack on AES's round function carries over to it as it is" in secret
    assert "at the cost of guessing that byte, 2^8 times the work" in secret
    fixed = measures.carries_over(toy_byte)        # a constant of the design: nothing secret to guess
    assert "every attack on AES carries over to it with those offsets applied" in fixed and "guess" not in fixed
    for text in (card.STANDINGS["as-aes"], card.equivalence_line(toy_byte), report.findings_markdown(toy_byte),
                 " ".join(report.own_findings(toy_byte)["reason"])):
        assert "exactly as strong as AES" not in text and "every attack on AES applies" not in text
        assert "AES's distribution" not in text


def test_the_report_lists_the_papers_findings_rows_among_its_own_findings(toy_byte):
    found = report.own_findings(toy_byte)
    assert "toy-byte-series" in set(found["claim_id"])     # the paper's finding row, beside the battery's
    assert not {"toy-byte-title", "toy-byte-t16"} & set(found["claim_id"])   # claims are no findings
    series = found.set_index("claim_id").loc["toy-byte-series"]
    assert series["verdict"] == "finding" and series["reason"]
    none = report.own_findings({**toy_byte, "verdicts": toy_byte["verdicts"].iloc[:0]})
    assert "toy-byte-series" not in set(none["claim_id"])


def test_the_printed_times_off_a_line_are_said_as_a_miss_beyond_their_rounding(toy_byte):
    """0.18, 0.31, 0.46 ms at 1, 2, 4 blocks miss the least-squares line by more than 0.005 ms: the finding holds,
    and says that the rounding is its only tolerance; on a line (0.57 at 4 blocks) it does not hold."""
    row = toy_byte["verdicts"].set_index("claim_id").loc["toy-byte-series"]
    assert (row["verdict"], row["outcome"]) == ("finding", "established")
    assert "no timing noise is allowed for" in row["reason"]
    claim = (toy_byte["paper_claims"].set_index("claim_id").loc["toy-byte-series"].to_dict()
             | {"claim_id": "toy-byte-series"})
    lined = toy_byte["paper_claims"].copy()
    lined.loc[lined["claim_id"] == "toy-byte-t64", "published"] = "0.57"
    assert measures.evidence_for({**toy_byte, "paper_claims": lined}, claim)[0].holds is False
    lined.loc[lined["claim_id"] == "toy-byte-t64", "published"] = "0.45"   # 0.01 off the line 0.18 + 0.13 per block
    off = measures.evidence_for({**toy_byte, "paper_claims": lined}, claim)[0]
    assert off.holds is True


def test_what_was_read_is_said_beside_the_recommendation(toy_byte):
    text = report.read_markdown(toy_byte)
    assert text.startswith("**Only part of the paper was read.**")
    assert "only the abstract could be read. The body was not read." in text
    assert "Only this is a passage" not in text                 # the passages file's account, not a passage
    assert ("stand-in" in text) == report.stand_in_only(toy_byte)
    assert report.read_markdown({**toy_byte, "variant_file": None}) == ""
