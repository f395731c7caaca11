"""Paper 003's paragraphs of the findings page (cipherlab.experiments.aead.findings), from this run's tables."""
import pandas as pd
import pytest

from cipherlab.experiments.aead import findings as F
from cipherlab.experiments.aead.chapter import CHAPTER

BITFLIP = pd.DataFrame({
    "family": ["aead", "aead", "unauthenticated", "unauthenticated"], "mode": ["gcm", "ccm", "ctr", "cbc"],
    "location": ["tag", "ciphertext", "ciphertext", "ciphertext"], "flips": [128, 384, 384, 384],
    "accepted": [0, 0, 384, 384]})

VERDICTS = pd.DataFrame({"claim_id": ["003-fast-enc", "003-fast-dec", "003-slow", "003-other", "003-eax"],
                         "paper": "003", "kind": ["ordering", "ordering", "ordering", "value", "structural"],
                         "verdict": ["contradicted", "contradicted", "reproduced", "contradicted", "contradicted"],
                         "shown": ["contradicted", "contradicted", "reproduced", "contradicted", "contradicted"],
                         "reason": ["AES-GCM's encryption speed-up is -2 % [-4, 0] (5 MB), the opposite of the claim.",
                                    "AES-GCM's decryption speed-up is -3 %.", "fine.", "other.",
                                    "Whether EAX combines ECBC and EMAC: it does not hold."],
                         "tier": "headline", "concern": ["", "", "", "", "overclaim"], "section": "s"})


def test_ranking_sentence_names_what_did_not_hold_in_its_verdicts_words():
    """The findings page takes its sentences from the verdicts (never 'contradicted: the paper X, we X')."""
    text = F.ranking_sentence(VERDICTS)
    assert "Of the paper's 3 claims ranking" in text and "1 reproduced and 2 contradicted" in text
    # the reason as text: its brackets are character references, shown as written, never a link
    assert ("- *contradicted*: AES-GCM's encryption speed-up is -2 % &#91;-4, 0&#93; (5 MB), the opposite of the "
            "claim.") in text
    assert "verdicts.html#claim-003-fast-dec" in text and "003-slow" not in text
    assert F.ranking_sentence(VERDICTS.assign(kind="value")) == "No ranking claim of paper 003 was decided in this run."


def test_concern_sentence_lists_overclaims_and_defects_from_their_rows():
    text = F.concern_sentence(VERDICTS)
    assert "Whether EAX combines ECBC and EMAC: it does not hold." in text and "003-fast-enc" not in text
    assert F.concern_sentence(VERDICTS.assign(concern="")) == ""


def test_bitflip_sentence():
    text = F.bitflip_sentence(BITFLIP)
    assert "CCM and GCM accepted 0 of 512 single-bit flips of ciphertext and tag" in text
    assert "accepted CBC 100 % and CTR 100 % of them" in text
    with pytest.raises(ValueError, match="families"):
        F.bitflip_sentence(BITFLIP[BITFLIP["family"] == "aead"])


def test_paragraphs_read_only_the_declared_columns():
    tables = {name: df[list(CHAPTER.findings_tables[name])] for name, df in
              (("verdicts", VERDICTS), ("aead_bitflip_acceptance", BITFLIP))}
    ranking, concern, bitflip = CHAPTER.findings(tables)
    assert ranking == F.ranking_sentence(VERDICTS) and bitflip == F.bitflip_sentence(BITFLIP)
    assert concern == F.concern_sentence(VERDICTS)
    # a table of the chapter missing from the run: said, not invented
    assert F.paragraphs({"verdicts": VERDICTS}, "003")[-1] == F.NOT_BUILT
