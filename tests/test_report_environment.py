"""The Environment page (cipherlab.report.environment): the load of the machine around each timing job, read from
the raw files' provenance (the page's parts built from the size sweep are tested with the sweep, in test_bench.py)."""
from __future__ import annotations

import json

from cipherlab.report import environment as env_page


def test_timing_loads_reads_the_raw_provenance(monkeypatch, tmp_path):
    from cipherlab.pipeline import paths

    raw = tmp_path / "raw" / "quick"
    raw.mkdir(parents=True)
    (raw / "a.meta.json").write_text(json.dumps({"run_id": "r1", "load_average_start": [1.0, 2.0, 3.0],
                                                 "load_average_end": [1.5, 2.0, 3.0]}))
    (raw / "b.meta.json").write_text(json.dumps({"run_id": "r2"}))
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path)
    loads = env_page.timing_loads("quick")
    assert list(loads["raw file"]) == ["a", "b"]
    assert loads["load at start"].iloc[0] == "[1.0, 2.0, 3.0]" and loads["load at end"].iloc[1] == "not recorded"
