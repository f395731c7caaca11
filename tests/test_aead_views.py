"""The chapter's tables as the page shows them (aead.views): they fit the page and hide nothing."""
import pandas as pd

from cipherlab.analysis import paper
from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import bitflip, chapter, forgery, measure, views
from cipherlab.experiments.aead import tables as aead_tables

from aead_synthetic import MSG, AAD, SIZES, PAPER_ORDER, synthetic_raw, synthetic_evidence, decide_synthetic


def test_a_section_shows_its_own_claims_linked_to_their_rows_on_the_verdict_page():
    decided = V.chapter_verdicts("aead", V.evidence_frame(synthetic_evidence()))
    markup = views.claims(decided, "aead-absolute").data
    own = decided.loc[decided["section"] == "aead-absolute", "claim_id"]
    assert len(own) and all(c in markup for c in own)
    assert not any(c in markup for c in decided.loc[decided["section"] != "aead-absolute", "claim_id"])
    assert ".html#" in markup


def _header_counts(markup: str) -> list[int]:
    """Columns of each table, the folded ones (inside <details>) marked negative."""
    import re

    out, folded = [], markup.split("<details>")
    for i, part in enumerate(folded):
        for t in re.findall(r"<thead>(.*?)</thead>", part):
            out.append(t.count("<th") * (-1 if i else 1))
    return out


def test_every_view_fits_the_page_and_shows_no_nan_or_truncation(tmp_path):
    inputs = {1000: tmp_path / chapter.input_name(1000)}
    inputs[1000].write_bytes(b"a" * 1000)
    s1 = measure.throughput_summary(synthetic_raw(1, PAPER_ORDER), 1e6)
    s2 = measure.throughput_summary(synthetic_raw(2, PAPER_ORDER), 1e6)
    outcomes = forgery.forgery_outcomes({n: b"a" * n for n in SIZES}, n_tags=3, aad=AAD, seed=1)
    ftab = forgery.forgery_table(synthetic_raw("forgery", PAPER_ORDER), outcomes)
    pub_forgery = pd.concat([paper.published("003", f"Table {i}") for i in (5, 6, 7)], ignore_index=True)
    beside = forgery.forgery_beside_paper(ftab, pub_forgery, dict(zip(("Table 5", "Table 6", "Table 7"), SIZES)))
    prose = pd.concat([paper.published("003", f"Figure {i} (prose)") for i in (5, 7, 8, 9, 10)])
    ranking = aead_tables.ranking_beside_paper(
        pd.concat([aead_tables.ranking_table(s1, "mode"), aead_tables.ranking_table(s2, "cipher")], ignore_index=True),
        pd.concat([paper.published("003", f"Table {i}") for i in (1, 2, 3, 4)], ignore_index=True))
    decided = decide_synthetic(synthetic_evidence()).reset_index()
    bound = forgery.forgery_bound_table(log2_q_max=40)
    flips = pd.concat([bitflip.bitflip_aead(MSG, AAD, seed=1), bitflip.bitflip_unauthenticated(MSG, seed=1)])
    v = views
    tables = {
        "summary": v.summary_table(s1, "mode"), "ratios": v.ratios_table(aead_tables.throughput_ratios(s1, s2)),
        "ranking": v.ranking_table(ranking, decided), "prose": v.prose_table(aead_tables.prose_comparison(s1, s2, prose)),
        "beside": v.forgery_beside_table(beside), "times": v.forgery_times_table(ftab),
        "bound": v.bound_table(bound), "observe": v.trials_table(forgery.trials_to_observe([32, 128], 450)),
        "accept": v.acceptance_table(bitflip.acceptance_table(flips)),
        "rewrite": v.rewrite_table(bitflip.ctr_field_rewrite(MSG, b"amount=0100", b"amount=9999", seed=1)),
        "verdicts": v.verdicts(decided).data, "inputs": v.inputs_table(inputs),
    }
    for name, t in tables.items():
        markup = str(t).split("<table", 2)[1] if name == "verdicts" else str(t)   # the counts, not the rows
        shown = [n for n in _header_counts(markup) if n > 0]
        assert shown and max(shown) <= 8, (name, shown)
        for bad in (">nan<", ">NaN<", ">None<", "...<", "e+", "PosixPath"):
            assert bad not in markup, (name, bad)
    # the bound prints powers of two, the beside-paper table both numbers of each pair
    assert "2^−128" in str(tables["bound"]) and ">1<" in str(tables["bound"])
    assert "321.2 / " in str(tables["beside"])
    # every ranking cell names its claim's verdict, or a dash where no claim tests it
    assert str(tables["ranking"]).count("</tr>") == len(ranking) + 1
