"""The paper's figures from our data, with the published values marked (aead.figures)."""
import pytest

from cipherlab.analysis import paper
from cipherlab.experiments.aead import figures, forgery, measure

from aead_synthetic import AAD, PAPER_ORDER, synthetic_raw


def _paper_sizes():
    return paper.published("003", "Pseudocode 3 (setup)")["number"].tolist()


def test_prose_marks_read_points_ranges_and_plateaus():
    prose = paper.published("003", "Figure 9 (prose)")
    m = figures.prose_marks(prose, _paper_sizes(), "cipher", "encrypt", "throughput")
    pts = {(r.key, r.mb_low, r.low) for r in m.itertuples() if r.mb_low == r.mb_high}
    assert pts == {("aes", 0.1, 95.0), ("aes", 5.0, 400.0), ("blowfish", 0.1, 45.0), ("blowfish", 1.0, 60.0)}
    cast = m[m["key"] == "cast"].iloc[0]  # "ranging from ~45 to 50 MB/Sec across all file sizes"
    assert (cast["mb_low"], cast["mb_high"], cast["low"], cast["high"]) == (0.1, 5.0, 45.0, 50.0)
    # a plateau is the larger half of the paper's sizes; decryption marks stay off the encryption figure
    m10 = figures.prose_marks(paper.published("003", "Figure 10 (prose)"), _paper_sizes(), "cipher", "decrypt",
                           "throughput")
    plateau = m10[(m10["key"] == "blowfish") & (m10["mb_low"] != m10["mb_high"])].iloc[0]
    assert (plateau["mb_low"], plateau["mb_high"], plateau["low"], plateau["high"]) == (1.0, 5.0, 60.0, 65.0)
    assert figures.prose_marks(paper.published("003", "Figure 10 (prose)"), _paper_sizes(), "cipher", "encrypt",
                            "throughput").empty
    # phase-1 prose (GCM, Figure 5) belongs to the mode figures only
    m5 = figures.prose_marks(paper.published("003", "Figure 5 (prose)"), _paper_sizes(), "mode", "encrypt", "throughput")
    assert m5[["key", "qualifier", "low"]].values.tolist() == [["gcm", "lower bound", 1000.0]]
    with pytest.raises(ValueError, match="group"):
        figures.prose_marks(prose, _paper_sizes(), "cipers", "encrypt", "throughput")
    with pytest.raises(ValueError, match="paper_sizes_mb"):
        figures.prose_marks(prose, [], "cipher", "encrypt", "throughput")


def test_figures_draw_the_published_values():
    import matplotlib.pyplot as plt

    s2 = measure.throughput_summary(synthetic_raw(2, PAPER_ORDER, sizes=(1000, 4000)), 1e6)
    marks = figures.prose_marks(paper.published("003", "Figure 7 (prose)"), _paper_sizes(), "cipher", "encrypt", "time")
    fig = figures.plot_size_curves(s2, "cipher", "encrypt", "time", "t", published=marks)
    drawn = {(float(x), float(y)) for ln in fig.axes[0].lines for x, y in zip(*ln.get_data())}
    assert (5.0, 0.013 * 1e3) in drawn and (5.0, 0.096 * 1e3) in drawn  # seconds drawn in ms, at 5 MB
    plt.close(fig)
    outcomes = forgery.forgery_outcomes({1000: b"a" * 1000}, n_tags=3, aad=AAD, seed=1)
    ftab = forgery.forgery_table(synthetic_raw("forgery", PAPER_ORDER, sizes=(1000,)), outcomes)
    pub = paper.published("003", "Table 7")
    fig = figures.plot_forgery_times(ftab, 1000, "t", published=pub, published_label="paper")
    drawn = {float(y) for ln in fig.axes[0].lines for y in ln.get_ydata()}
    means = pub[pub["column"] == "Fail Avg."]["number"].tolist()
    assert len(means) == 3 and set(means) <= drawn
    assert fig.axes[0].get_yscale() == "log"  # 5 MB means beside 1 kB times
    plt.close(fig)
    fig = figures.plot_forgery_times(ftab, 1000, "t")
    assert fig.axes[0].get_yscale() == "linear" and not set(means) & {float(y) for ln in fig.axes[0].lines
                                                                      for y in ln.get_ydata()}
    plt.close(fig)
