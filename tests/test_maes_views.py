"""Tests of cipherlab.experiments.maes.views."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cipherlab.experiments.maes import common, evidence, keyspace, views
from cipherlab.pipeline.paths import Profile

pytestmark = pytest.mark.usefixtures("quiet_research_warning")


def test_modules_stay_small():
    for path in sorted(Path(views.__file__).parent.glob("*.py")):
        assert len(path.read_text().splitlines()) < 600, path.name


# --- how the pages show tables ------------------------------------------------


def test_keyspace_view_fits_and_keeps_the_exact_counts():
    ks = keyspace.keyspace_table(keys_per_second=1e12)
    view = views.keyspace_view(ks)
    assert len(view.columns) <= 8
    assert list(view["keys"]) == ["2^128", "2^192", "2^256"]
    assert list(view["expected trials"]) == ["2^127", "2^191", "2^255"]
    # the view's power of two is the saved exact count
    assert [2 ** int(k.split("^")[1]) for k in view["keys"]] == [int(k) for k in ks["keys"]]
    html = str(views.show(view, list(view.columns)))
    assert "5.391e18" in html                        # years at 10^12 keys/s for AES-128, not 5391448762278159360.0
    assert list(view["keys per second"]) == ["1e12"] * 3
    assert str(ks["keys"].iloc[0]) not in html and ".000000" not in html


def test_show_shortens_headers_and_needs_a_short_view_when_wide():
    df = pd.DataFrame({f"c{i}_us": [float(i)] for i in range(10)})
    with pytest.raises(ValueError, match="short"):
        views.show(df, list(df.columns))
    with pytest.raises(ValueError, match="not in the table"):
        views.show(df, ["nope"])
    html = str(views.show(df, list(df.columns), short=["c0_us", "c1_us"]))
    assert "c1 µs" in html and "<details>" in html and "c1_us" not in html
    assert [views.short_header(c) for c in ("published_us", "control_low_pct", "iqr_us_per_state")] == [
        "pub. µs", "A/A low %", "iqr µs/state"]


def test_evidence_view_has_one_interval_column(small_frames):
    rows = evidence.table2_evidence(small_frames.steps, small_frames.stage, "quick")
    view = views.evidence_view(evidence.evidence_frame_for_display(rows))
    assert list(view.columns) == ["claim", "style", "size", "estimate", "interval", "A/A band", "unit", "detail"]
    assert view["interval"].str.match(r"^\[.+, .+\]$").all()
    assert views.evidence_view(evidence.evidence_frame_for_display(rows).assign(low=np.nan))["interval"].eq("—").all()
    assert "<table" in str(views.show_evidence(rows))


def test_compile_and_saved_views_have_units_and_no_machine_paths(short_run):
    comp = views.compile_summary(short_run["maes_compile"])
    assert list(comp["experiment"]) == ["maes_keyexp", "maes_stage", "maes_block", "maes_bulk", "maes_steps"]
    raw_ms = short_run["maes_compile"].groupby("experiment")["seconds"].max() * 1e3
    assert np.allclose(comp.set_index("experiment")["slowest first call ms"], raw_ms[comp["experiment"]])
    table = views.saved_raw_table(short_run, Profile("quick"))
    assert list(table["file"]) == [f"data/raw/quick/{name}.csv" for name in short_run]
    assert list(table["rows"]) == [len(df) for df in short_run.values()]
    by_name = table.set_index("experiment")
    assert by_name.loc["maes_compile", "cases"] == len(short_run["maes_compile"])  # one first call per case
    for name in ("maes_keyexp", "maes_stage", "maes_block", "maes_bulk"):   # every case has a first call
        assert by_name.loc[name, "cases"] == (short_run["maes_compile"]["experiment"] == name).sum()
    assert not table["file"].str.startswith("/").any()
    cv = views.compile_view(pd.DataFrame({"experiment": ["x"], "first_call_seconds": [0.00123]}))
    assert cv["first call ms"].iloc[0] == pytest.approx(1.23)


def test_options_and_routes_are_text_not_reprs():
    assert views.options_text(common.maes_options()) == "`iv_source` = sha3, `sha3` = sha3_256, `sha3_chain` = iv"
    routes = views.routes_frame({"aes": None, "maes-1": np.arange(16)})
    assert routes.iloc[0, 1] == "every byte (diffused)"
    assert routes.iloc[1, 1] == " ".join(map(str, range(16)))
