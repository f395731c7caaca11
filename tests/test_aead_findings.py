"""Paper 003's paragraphs of the findings page (cipherlab.experiments.aead.findings), from this run's tables."""
import pandas as pd
import pytest

from cipherlab.experiments.aead import findings as F
from cipherlab.experiments.aead.chapter import CHAPTER

BITFLIP = pd.DataFrame({
    "family": ["aead", "aead", "unauthenticated", "unauthenticated"], "mode": ["gcm", "ccm", "ctr", "cbc"],
    "location": ["tag", "ciphertext", "ciphertext", "ciphertext"], "flips": [128, 384, 384, 384],
    "accepted": [0, 0, 384, 384]})

RANKING = pd.DataFrame({
    "table": ["Table 1", "Table 1", "Table 1"], "row": ["Fastest Mode", "Fastest Mode", "Slowest Mode"],
    "column": ["Encryption", "Decryption", "Encryption"],
    "published": ["GCM mode in both cases", "GCM mode in both cases", "Always EAX mode"],
    "ours": ["CCM at 2 of 3 sizes", "CCM at 2 of 3 sizes", "EAX at every size"],
    "claim_id": ["003-fast-enc", "003-fast-dec", "003-slow"]})

VERDICTS = pd.DataFrame({"claim_id": ["003-fast-enc", "003-fast-dec", "003-slow", "003-other"],
                         "paper": "003", "kind": ["ordering", "ordering", "ordering", "value"],
                         "verdict": ["contradicted", "contradicted", "reproduced", "contradicted"],
                         "section": "s"})


def test_ranking_sentence_names_the_contradicted_rows():
    text = F.ranking_sentence(VERDICTS, RANKING)
    assert "Of the paper's 3 claims ranking" in text and "1 reproduced and 2 contradicted" in text
    assert ("Table 1, Fastest Mode (encryption and decryption): the paper *GCM mode in both cases*, "
            "we *CCM at 2 of 3 sizes*") in text
    assert "Slowest" not in text
    assert F.ranking_sentence(VERDICTS.assign(kind="value"), RANKING) == \
        "No ranking claim of paper 003 was decided in this run."


def test_bitflip_sentence():
    text = F.bitflip_sentence(BITFLIP)
    assert "CCM and GCM accepted 0 of 512 single-bit flips of ciphertext and tag" in text
    assert "accepted CBC 100 % and CTR 100 % of them" in text
    with pytest.raises(ValueError, match="families"):
        F.bitflip_sentence(BITFLIP[BITFLIP["family"] == "aead"])


def test_paragraphs_read_only_the_declared_columns():
    tables = {name: df[list(CHAPTER.findings_tables[name])] for name, df in
              (("verdicts", VERDICTS), ("aead_ranking_vs_paper", RANKING), ("aead_bitflip_acceptance", BITFLIP))}
    ranking, bitflip = CHAPTER.findings(tables)
    assert ranking == F.ranking_sentence(VERDICTS, RANKING) and bitflip == F.bitflip_sentence(BITFLIP)
    # a table of the chapter missing from the run: said, not invented
    assert F.paragraphs({"verdicts": VERDICTS}, "003")[1] == F.NOT_BUILT
