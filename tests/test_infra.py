"""Unit tests of the pipeline's infrastructure modules (fast, no Numba)."""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from cipherlab import config, inputs, paths, provenance, results, stats, timing, verdicts


@pytest.fixture
def tmp_profile(tmp_path, monkeypatch):
    """A Profile whose trees live under tmp_path (DATA_DIR and ROOT redirected)."""
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    return paths.Profile("quick")


# --- paths -------------------------------------------------------------------------------------

def test_profiles_never_share_an_output_path():
    full, quick = paths.Profile("full"), paths.Profile("quick")
    for attr in ("inputs", "raw", "tables", "figures", "notebooks", "book_src", "html", "logs"):
        assert getattr(full, attr) != getattr(quick, attr)
        assert "quick" in getattr(quick, attr).parts


def test_unknown_profile_is_rejected_with_the_allowed_values():
    with pytest.raises(ValueError, match="profile must be one of"):
        paths.Profile("fast")
    with pytest.raises(ValueError, match="full"):
        paths.config_file("nope")


# --- results: atomic writes --------------------------------------------------------------------

def test_atomic_write_leaves_no_partial_file_when_the_writer_raises(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(RuntimeError):
        with results.atomic_path(target) as tmp:
            tmp.write_text("half a tab")
            raise RuntimeError("interrupted")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []  # no temporary left behind either


def test_atomic_write_keeps_the_old_file_when_the_writer_raises(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("old complete\n")
    with pytest.raises(KeyError):
        with results.atomic_path(target) as tmp:
            tmp.write_text("new partial")
            raise KeyError("boom")
    assert target.read_text() == "old complete\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


def test_write_csv_is_byte_stable_and_round_trips(tmp_path):
    df = pd.DataFrame({"cipher": ["aes", "maes-1"], "bytes": [16, 32], "x": [0.1, 1 / 3]})
    a = results.write_csv(df, tmp_path / "a.csv").read_bytes()
    b = results.write_csv(df, tmp_path / "b.csv").read_bytes()
    assert a == b and b"\r\n" not in a
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a.csv"), df)


def test_save_raw_writes_csv_and_provenance(tmp_profile):
    df = pd.DataFrame({c: [1] for c in timing.TIMING_COLUMNS})
    meta = {"run_id": "r1", "seed": 7}
    path = results.save_raw(df, "exp", tmp_profile, meta=meta)
    assert path == tmp_profile.raw_csv("exp") and path.is_file()
    assert json.loads(tmp_profile.raw_meta("exp").read_text()) == meta
    pd.testing.assert_frame_equal(results.read_raw("exp", tmp_profile), df)


def test_save_table_and_read_table(tmp_profile):
    df = pd.DataFrame({"a": ["x", "NA"], "b": [1.5, 2.0]})
    results.save_table(df, "t", tmp_profile)
    back = results.read_table("t", tmp_profile)
    assert list(back["a"]) == ["x", "NA"]  # "NA" is a label, not a missing value


# --- timing --------------------------------------------------------------------------------------

def test_measure_shape_columns_and_interleaving():
    calls = []
    cases = [
        {"cipher": "aes", "impl": "table", "mode": "ecb", "operation": "encrypt", "bytes": 16,
         "fn": lambda: calls.append("a")},
        {"cipher": "maes-1", "impl": "table", "mode": "ecb", "operation": "encrypt", "bytes": 16,
         "extra": "label", "fn": lambda: calls.append("b")},
    ]
    df = timing.measure(cases, trials=5, warmup=2, run_id="run-x", seed=1, progress=False)
    assert len(df) == 10
    assert list(df.columns[:8]) == list(timing.TIMING_COLUMNS)
    assert "extra" in df.columns and "fn" not in df.columns
    assert (df["run_id"] == "run-x").all()
    assert sorted(df.groupby("cipher")["trial"].apply(list).iloc[0]) == [0, 1, 2, 3, 4]
    assert (df["seconds"] >= 0).all() and np.isfinite(df["seconds"]).all()
    # warm-up: 2 calls per case before the first trial; then every round times each case once
    assert calls[:4] == ["a", "a", "b", "b"]
    rounds = [sorted(calls[4 + 2 * i: 6 + 2 * i]) for i in range(5)]
    assert rounds == [["a", "b"]] * 5
    # the order is seeded: the same seed gives the same interleaving
    df2_calls = []
    cases2 = [dict(c, fn=(lambda k=k: df2_calls.append(k))) for k, c in zip("ab", cases)]
    timing.measure(cases2, trials=5, warmup=2, seed=1, progress=False)
    assert df2_calls == calls


def test_measure_order_varies_between_rounds():
    order = []
    cases = [{"cipher": c, "fn": (lambda c=c: order.append(c))} for c in "abcd"]
    timing.measure(cases, trials=20, warmup=0, seed=3, progress=False)
    rounds = {tuple(order[4 * i: 4 * i + 4]) for i in range(20)}
    assert len(rounds) > 1


@pytest.mark.parametrize("kwargs,match", [
    ({"trials": 0}, "trials must be an integer >= 1"),
    ({"trials": 2.5}, "trials must be an integer >= 1"),
    ({"trials": 2, "warmup": -1}, "warmup must be an integer >= 0"),
])
def test_measure_rejects_bad_counts(kwargs, match):
    with pytest.raises(ValueError, match=match):
        timing.measure([{"cipher": "aes", "fn": lambda: None}], progress=False, **kwargs)


def test_measure_rejects_empty_cases_and_missing_fn():
    with pytest.raises(ValueError, match="at least one case"):
        timing.measure([], trials=1, progress=False)
    with pytest.raises(ValueError, match=r"cases\[1\] needs a callable 'fn'"):
        timing.measure([{"fn": lambda: None}, {"cipher": "x"}], trials=1, progress=False)


def test_time_calls_and_compile_seconds():
    n = []
    out = timing.time_calls(lambda: n.append(1), trials=4, warmup=3)
    assert out.shape == (4,) and len(n) == 7 and (out >= 0).all()
    assert timing.compile_seconds(lambda: None) >= 0


# --- stats ---------------------------------------------------------------------------------------

A = [10.1, 10.4, 9.8, 10.0, 10.3, 10.2]
B = [8.0, 8.5, 7.9, 8.2, 8.1, 8.6, 8.3, 8.0]


def test_welch_table_against_hand_computation_and_scipy():
    tab = stats.welch_table(A, B, labels=("old", "new"))
    assert list(tab.index) == list(stats.WELCH_ROWS)
    m1, m2 = sum(A) / len(A), sum(B) / len(B)
    v1 = sum((x - m1) ** 2 for x in A) / (len(A) - 1)
    v2 = sum((x - m2) ** 2 for x in B) / (len(B) - 1)
    se1, se2 = v1 / len(A), v2 / len(B)
    t_hand = (m1 - m2) / math.sqrt(se1 + se2)
    df_hand = (se1 + se2) ** 2 / (se1 ** 2 / (len(A) - 1) + se2 ** 2 / (len(B) - 1))
    assert tab.loc["Mean", "old"] == pytest.approx(m1)
    assert tab.loc["Variance", "new"] == pytest.approx(v2)
    assert tab.loc["Observations", "new"] == len(B)
    assert tab.loc["t Stat", "old"] == pytest.approx(t_hand, rel=1e-12)
    assert tab.loc["df", "old"] == pytest.approx(df_hand, rel=1e-12)
    ref = st.ttest_ind(A, B, equal_var=False)
    assert tab.loc["P(T<=t) two-tail", "old"] == pytest.approx(ref.pvalue, rel=1e-12)
    assert tab.loc["P(T<=t) one-tail", "old"] == pytest.approx(ref.pvalue / 2, rel=1e-12)
    assert tab.loc["t Critical two-tail", "old"] == pytest.approx(st.t.ppf(0.975, df_hand))
    assert tab.loc["t Critical one-tail", "old"] == pytest.approx(st.t.ppf(0.95, df_hand))
    assert np.isnan(tab.loc["t Stat", "new"])


def test_welch_from_stats_agrees_with_the_sample_route():
    tab = stats.welch_table(A, B)
    s = stats.welch_from_stats(np.mean(A), np.var(A, ddof=1), len(A), np.mean(B), np.var(B, ddof=1), len(B))
    assert s["t Stat"] == pytest.approx(tab.loc["t Stat"].iloc[0])
    assert s["df"] == pytest.approx(tab.loc["df"].iloc[0])


@pytest.mark.parametrize("a,b,match", [([1.0], [1.0, 2.0], "a needs at least 2"),
                                       ([1.0, np.nan], [1.0, 2.0], "a must be finite")])
def test_welch_table_rejects_bad_samples(a, b, match):
    with pytest.raises(ValueError, match=match):
        stats.welch_table(a, b)


def test_speedup_definition():
    assert stats.speedup(2.0, 1.0) == pytest.approx(100.0)
    assert stats.speedup(1.25, 1.0) == pytest.approx(25.0)


def test_bootstrap_speedup_ci_contains_the_point_estimate():
    rng = np.random.default_rng(0)
    old = rng.normal(1.25, 0.02, 30)
    new = rng.normal(1.0, 0.02, 30)
    ci = stats.bootstrap_speedup_ci(old, new, n_resamples=2000, seed=1)
    assert ci.estimate == pytest.approx(stats.speedup(old.mean(), new.mean()))
    assert ci.low <= ci.estimate <= ci.high
    assert 20 < ci.low and ci.high < 30
    again = stats.bootstrap_speedup_ci(old, new, n_resamples=2000, seed=1)
    assert again == ci  # seeded: deterministic
    with pytest.raises(ValueError, match="confidence must be in"):
        stats.bootstrap_speedup_ci(old, new, confidence=1.5)


def test_entropy_known_values():
    assert stats.byte_entropy(bytes(range(256)) * 4) == pytest.approx(8.0)
    assert stats.byte_entropy(b"\x00" * 100) == pytest.approx(0.0)
    assert stats.byte_entropy(b"ab" * 50) == pytest.approx(1.0)
    assert stats.byte_entropy(np.array([0, 1, 2, 3], dtype=np.uint8)) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="must not be empty"):
        stats.byte_entropy(b"")


def test_chi_square_known_values():
    stat, p = stats.chi_square_uniform(bytes(range(256)) * 3)
    assert stat == pytest.approx(0.0) and p == pytest.approx(1.0)
    # all of 256 bytes in one bin: expected 1 per bin, chi2 = (256-1)^2/1 + 255 * 1 = 65280
    stat, p = stats.chi_square_uniform(b"\x00" * 256)
    assert stat == pytest.approx(65280.0) and p < 1e-100


def test_timing_summary():
    df = pd.DataFrame({"cipher": ["a"] * 4 + ["b"] * 2, "seconds": [1, 2, 3, 4, 5, 7]})
    s = stats.timing_summary(df, ["cipher"]).set_index("cipher")
    assert s.loc["a", "median"] == 2.5 and s.loc["b", "mean"] == 6 and s.loc["a", "n"] == 4


# --- inputs --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["text", "random", "zeros"])
@pytest.mark.parametrize("nbytes", [0, 1, 1000, 65537])
def test_generate_exact_size_and_deterministic(kind, nbytes):
    a = inputs.generate(kind, nbytes, seed=5, name="f.bin")
    assert len(a) == nbytes
    assert a == inputs.generate(kind, nbytes, seed=5, name="f.bin")


def test_generate_depends_on_seed_and_name_only():
    a = inputs.generate("random", 4096, seed=1, name="a")
    assert a != inputs.generate("random", 4096, seed=2, name="a")
    assert a != inputs.generate("random", 4096, seed=1, name="b")


def test_text_is_ascii_lines_of_at_most_72():
    text = inputs.generate("text", 20000, seed=3, name="t.txt").decode("ascii")
    assert max(len(line) for line in text.split("\n")) <= 72
    assert stats.byte_entropy(text.encode()) < 5.0  # text-like, not random


def test_image_input():
    raw = inputs.generate("image", 0, seed=0, name="img.npy")
    import io
    arr = np.load(io.BytesIO(raw))
    assert arr.dtype == np.uint8 and arr.ndim == 3 and arr.shape[2] == 3
    assert raw == inputs.generate("image", 0, seed=9, name="other.npy")


@pytest.mark.parametrize("kind,nbytes,match", [("photo", 1, "kind must be one of"),
                                               ("random", -1, "bytes must be a non-negative integer"),
                                               ("text", 1.5, "bytes must be a non-negative integer")])
def test_generate_rejects_bad_specs(kind, nbytes, match):
    with pytest.raises(ValueError, match=match):
        inputs.generate(kind, nbytes, seed=0, name="x")


def test_write_and_read_input(tmp_path):
    p = inputs.write_input(tmp_path / "r.bin", {"kind": "random", "bytes": 100}, seed=4)
    assert inputs.read_input(p) == inputs.generate("random", 100, seed=4, name="r.bin")


# --- config --------------------------------------------------------------------------------------

@pytest.mark.parametrize("profile", paths.PROFILES)
def test_shipped_configs_load(profile):
    cfg = config.load_config(profile)
    assert cfg["profile"] == profile
    config.input_specs(cfg)  # consistent input declarations


@pytest.mark.parametrize("cfg,match", [
    ({"seed": 1}, "profile: 'profile' is a required property"),
    ({"profile": "quick"}, "seed: 'seed' is a required property"),
    ({"profile": "quick", "seed": "1"}, "seed: '1' is not of type 'integer'"),
    ({"profile": "quick", "seed": 1, "maes": [1]}, r"maes: \[1\] is not of type 'object'"),
])
def test_config_validation_errors(cfg, match):
    with pytest.raises(ValueError, match=match):
        config.validate(cfg)


def test_input_declared_twice_differently_is_an_error():
    cfg = {"profile": "quick", "seed": 1,
           "maes": {"inputs": {"a.bin": {"kind": "random", "bytes": 1}}},
           "aead": {"inputs": {"a.bin": {"kind": "random", "bytes": 2}}}}
    with pytest.raises(ValueError, match="declared twice"):
        config.input_specs(cfg)


def test_notebook_parameters():
    cfg = {"profile": "quick", "seed": 3, "maes": {"trials": 2, "inputs": {"x": {}}}}
    assert config.notebook_parameters(cfg, "maes") == {"trials": 2, "profile": "quick", "seed": 3}
    with pytest.raises(ValueError, match="section must be one of"):
        config.notebook_parameters(cfg, "book")


# --- provenance ----------------------------------------------------------------------------------

def test_run_metadata_has_the_provenance_fields():
    meta = provenance.run_metadata(profile="quick", seed=3, config={"a": 1}, compile_seconds=0.5)
    for key in ("run_id", "profile", "date_utc", "seed", "config", "cpu_model", "logical_cores",
                "numba_threads", "python", "packages", "git_commit", "compile_seconds"):
        assert key in meta
    assert meta["packages"]["numpy"] == np.__version__
    assert provenance.new_run_id() != provenance.new_run_id()
