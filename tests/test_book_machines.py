"""The Machines page and the reports' paragraph on machines (cipherlab.report.machines), on a synthetic comparison."""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.analysis.machines import COMPARISON_COLUMNS, THIS_RUN
from cipherlab.report import machines


def comparison() -> pd.DataFrame:
    rows = []
    for run, est, verdict in ((THIS_RUN, 1.10, "reproduced"), ("box-b", 1.50, "reproduced"),
                              ("box-c", 0.80, "contradicted")):
        rows.append({"claim_id": "002-speed", "paper": "002", "tier": "headline", "run": run, "machine": run,
                     "emulated": "no-aes" if run == "box-c" else "", "commit": "", "verdict": verdict, "reason": "",
                     "speed": True, "estimate": est, "low": est - 0.05, "high": est + 0.05,
                     "ratio_to_this": np.nan if run == THIS_RUN else 1.10 / est,
                     "size_differs": run != THIS_RUN, "verdict_differs": verdict != "reproduced"})
        rows.append({"claim_id": "002-struct", "paper": "002", "tier": "supporting", "run": run, "machine": run,
                     "emulated": "", "commit": "", "verdict": "reproduced" if run != "box-b" else "not measured",
                     "reason": "", "speed": False, "estimate": np.nan, "low": np.nan, "high": np.nan,
                     "ratio_to_this": np.nan, "size_differs": False, "verdict_differs": False})
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def test_the_summary_counts_portable_machine_dependent_and_sizes_apart():
    text = machines.summary_markdown(comparison())
    assert "2 shipped runs (`box-b`, `box-c`)" in text and "Of the 2 claims this run measured" in text
    assert "**1** have the same verdict" in text and "**1** were decided differently on two machines" in text
    assert "0 were left undecided on some machine" in text and "**0** state a size that differs" in text
    assert "Of the 1 speed claims, 1 have an effect whose interval" in text


def test_a_size_machine_bound_by_evidence_is_counted_apart_and_marked_in_the_speed_view():
    table = comparison()
    table["bound_by_evidence"] = (table["claim_id"] == "002-speed") & table["run"].isin([THIS_RUN, "box-b"])
    table.loc[table["claim_id"] == "002-speed", "verdict"] = ["machine-bound", "machine-bound", "contradicted"]
    text = machines.summary_markdown(table)
    assert "**1** have the same verdict" in text and "**1** state a size that differs between two real" in text
    assert "**0** were decided differently" in text
    view = machines.speed_view(table).set_index("run")
    assert view.loc["box-b", "intervals apart"] == "yes: machine-bound by evidence"
    assert view.loc["box-c", "intervals apart"] == "yes"


def test_no_shipped_run_is_said():
    alone = comparison()
    assert "No other run of this profile is shipped" in machines.summary_markdown(alone[alone["run"] == THIS_RUN])


def test_the_verdicts_that_differ_are_badges_linked_to_their_rows():
    html = machines.differing_html(comparison())
    assert 'href="verdicts.html#claim-002-speed"' in html and "002-struct" not in html
    assert html.count('class="cl-verdict"') == 3 and "yes: decided differently" in html


def test_the_speed_view_gives_both_intervals_the_ratio_and_whether_they_are_apart():
    view = machines.speed_view(comparison())
    assert list(view["run"]) == ["box-b", "box-c"]
    first = view.iloc[0]
    assert first["this run"] == "1.100 [1.050, 1.150]" and first["there"] == "1.500 [1.450, 1.550]"
    assert first["this / there"] == "0.733" and first["intervals apart"] == "yes"

