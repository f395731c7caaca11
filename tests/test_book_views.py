"""What the chapters' pages show beyond their tables: the AEAD chapter's reading of its verdicts,
figures whose legends stay off the data and explain every line style, coinciding curves said so,
and the coverage table's links."""
from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.experiments.aead import figures as aead_figures
from cipherlab.experiments.aead import views as aead_views
from cipherlab.experiments.security import figures as security_figures
from cipherlab.report import findings


def decided(spec) -> pd.DataFrame:
    return pd.DataFrame([{"claim_id": f"003-c{i}", "verdict": v, "section": s, "claim": f"quote {i}",
                          "where": f"Table {i}", "ours": f"{i} %", "reason": f"The reason of claim {i}."}
                         for i, (s, v) in enumerate(spec)])


def test_aead_reading_interprets_instead_of_copying():
    rows = decided([("aead-phase1", "contradicted"), ("aead-phase1", "reproduced"), ("aead-phase2", "reproduced"),
                    ("aead-absolute", "not testable"), ("aead-absolute", "not testable"), ("aead-bitflip", "finding")])
    text = aead_views.reading_markdown(rows)
    assert text.startswith("Paper 003 makes 5 claims")
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == 5          # the lead, three themes, the findings
    assert "**The modes ranked by speed (GCM, CCM, EAX)** (1 contradicted, 1 reproduced)" in text
    assert "[003-c0](verdicts.html#claim-003-c0)" in text and "claim-003-c1" not in text   # only the refuted
    assert "holds on this machine" in paragraphs[2]
    assert "none can be checked on another machine" in paragraphs[3]
    assert "1 finding, not counted" in paragraphs[4]
    # the rows themselves are not copied: the refuted claim's one-sentence reason leads, nothing of the others
    assert "for instance: The reason of claim 0" in text
    assert "quote 1" not in text and "quote 2" not in text and "claim 1." not in text


def test_forgery_time_legend_is_below_the_bars():
    table = pd.DataFrame([{"bytes": 1000, "mode": m, "kind": k, "median_us": 10.0, "q1_us": 9.0, "q3_us": 11.0,
                           "mean_us": 10.5} for m in ("eax", "gcm", "ccm") for k in ("random_tag", "flipped_tag")])
    fig = aead_figures.plot_forgery_times(table, 1000, "t")
    legend = fig.axes[0].get_legend()
    fig.canvas.draw()
    box = legend.get_window_extent()
    axes_box = fig.axes[0].get_window_extent()
    assert box.y1 <= axes_box.y0 + 1, "the legend overlaps the axes (it covered the EAX bars)"


def test_forgery_bound_explains_its_dashed_lines():
    bound = pd.DataFrame([{"mode": "gcm", "tag_bytes": tb, "log2_q": q, "log2_bound": min(0, q - 8 * tb),
                           "standard": tb >= 12} for tb in (4, 12, 16) for q in (0, 10, 20)])
    fig = aead_figures.plot_forgery_bound(bound, modes=("gcm",))
    texts = [t.get_text() for legend in fig.legends for t in legend.get_texts()]
    assert any("dashed" in t and "outside the mode's standard" in t for t in texts)


def test_coinciding_curves_are_named_and_drawn_apart():
    rounds = pd.DataFrame([(c, r, v) for c, vals in (("aes", (4, 16)), ("aes-2sbox", (1, 1)), ("maes-1", (1, 1)))
                           for r, v in zip((1, 2), vals)], columns=["cipher", "rounds", "dependent_pairs"])
    fig = security_figures.rounds_figure(rounds)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["aes", "aes-2sbox", "maes-1 (coincides with aes-2sbox)"]
    lines = fig.axes[0].get_lines()[:3]
    assert len({(ln.get_linestyle(), ln.get_marker()) for ln in lines}) == 3


def test_dependency_ticks_are_legible():
    dep = pd.DataFrame([(c, i, o, float(i == o)) for c in ("aes", "aes-2sbox", "maes-1") for i in range(16)
                        for o in range(16)], columns=["cipher", "input_byte", "output_byte", "change_rate"])
    fig = security_figures.dependency_figure(dep)
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.get_title()]
    assert len(panels) == 3
    width_in = fig.get_size_inches()[0]
    for ax in panels:
        size = ax.get_xticklabels()[0].get_fontsize()
        # shown at most at the book's ~7.5 in text width, the ticks stay >= 9 pt
        assert size * min(1.0, 7.5 / width_in) >= 9, (size, width_in)


def test_coverage_where_cells_are_links():
    cov = pd.DataFrame({"paper": ["000", "000"], "item": ["Table 1", "Figure 2"], "rebuilt": ["yes", "no"],
                        "where": ["aes2sbox.html#aes2sbox-sboxes", "—"], "note": ["n", "not in the copy"]})
    html = findings.coverage_html(cov, "000")
    assert '<a href="aes2sbox.html#aes2sbox-sboxes">aes2sbox › aes2sbox-sboxes</a>' in html
    assert "<td>—</td>" in html and np.char.count(html, "<tr>") == 3
