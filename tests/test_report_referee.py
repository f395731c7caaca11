"""The referee's reports (cipherlab.report.referee): their protocol tables (data/paper/protocols.csv) name the
tests the code runs, and every field our side names is one the shipped run recorded."""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.analysis.verdicts import load_rules
from cipherlab.experiments.aes2sbox.evidence import process_level_p
from cipherlab.report.referee import PROTOCOLS_FILE


def _statistics(paper: str) -> str:
    df = pd.read_csv(PROTOCOLS_FILE, dtype=str, keep_default_na=False)
    row = df[(df["paper"] == paper) & (df["aspect"] == "statistics")]
    assert len(row) == 1, f"paper {paper}: one statistics row expected"
    return row["ours"].iloc[0]


def test_the_significance_test_named_in_the_protocol_is_the_one_the_significance_rows_run():
    rng = np.random.default_rng(0)
    old = rng.lognormal(0.1, 0.05, size=(4, 6))
    new = rng.lognormal(0.0, 0.05, size=(4, 6))
    p, how = process_level_p(old, new)
    assert 0 <= p <= 1
    # the evidence's own words for its test, less the count of processes of this sample
    said = how.removeprefix("p: ").replace(f"the {old.shape[0]} processes'", "the processes'")
    test = said.split(" (", 1)[0]                       # "two-sided t-test of the processes' log speed ratios"
    statistic = str(load_rules()["speed_statistic"])
    for paper in ("000", "001"):
        text = _statistics(paper)
        assert test in text, f"paper {paper}: the protocol does not name the test the rows run ({test!r})"
        assert f"the {statistic} of its rounds' log ratios" in text
        assert "Mann-Whitney" not in text


def test_every_field_of_our_protocol_is_recorded_by_the_shipped_run():
    """Each ``{meta.*}``, ``{pkg.*}`` and ``{cfg.*}`` of our side names a field the chapter's first raw file's
    provenance records (checked on the shipped run's records): a report never says "(not recorded in this run)"
    of a run that recorded it under another name."""
    import json
    from pathlib import Path

    from cipherlab.pipeline import chapters
    from cipherlab.report import referee

    runs = sorted(Path(PROTOCOLS_FILE).parents[1].glob("runs/*/raw"))
    assert runs, "no shipped run to check the fields against"
    df = pd.read_csv(PROTOCOLS_FILE, dtype=str, keep_default_na=False)
    for paper, info in referee.papers().items():
        chapter = next(c for c in chapters.load().chapters if c.name == info.chapter)
        raw = next(n for n in chapter.measure.raw if (runs[-1] / f"{n}.meta.json").is_file())
        meta = json.loads((runs[-1] / f"{raw}.meta.json").read_text())
        for text in df.loc[df["paper"] == paper, "ours"]:
            for kind, path in referee._FIELD.findall(text):
                assert referee._lookup(meta, kind, path) != "(not recorded in this run)", (paper, kind, path)
