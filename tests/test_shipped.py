"""``python -m cipherlab.shipped`` and the book built from a shipped run (``make contribute``, ``make from-run``).

The pipeline tests contribute the session's quick run (``quick_tree``) in a copy of it, build the whole quick
book from the shipped folder with no timing job, and re-run the user's own verdict page beside it; the
others check the command's one-line refusals and what a complete run must hold (cheap, no pipeline).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import re
import subprocess
import sys

import pandas as pd
import pytest

from cipherlab import shipped
from cipherlab.pipeline import chapters, paths, runs
from cipherlab.pipeline.config import built_variants, load_config
from pipeline_tree import SNAKEMAKE_TIMEOUT, copy_tree

MACHINE = "test-box"
TIMING_RULES = re.compile(r"^(\w+_measure|bench_sweep)\b", re.M)


def test_expected_raw_names_every_raw_file_of_a_complete_run_with_its_parameters():
    want = shipped.expected_raw("quick")
    assert set(want) == set(runs.raw_files(load_config("quick")))
    maes = chapters.load().chapter("maes").run("quick")
    assert want["maes_block"] == {"seed": maes.seed, "config": maes.config}
    assert set(want["bench_sweep"]) == {"config"}
    # every variant the run builds (variant.names and the variant papers), measured with the variant chapters'
    # resolved parameters and naming its variant, as the chapter records them (outputs.save_raw)
    variants = chapters.load().variants
    built = built_variants(load_config("quick"))
    assert {variants.stem(v, "speed") for v in built} == {k for k in want if k.startswith("variant_")}
    assert set(chapters.variant_papers()) <= set(built)
    run = variants.run("quick")
    for v in built:
        assert want[variants.stem(v, "speed")] == {"seed": run.seed, "config": run.config, "variant": v}


def test_the_command_refuses_in_one_line(capsys):
    assert shipped.main(["check", "no-such-run", "--profile", "quick"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: data/runs/no-such-run: no such shipped run")
    assert shipped.main(["contribute", "--machine", "Bad Name"]) == 1
    assert "machine must be a name" in capsys.readouterr().err


def make(tree, *args: str) -> subprocess.CompletedProcess:
    """``make ARGS`` in ``tree`` with the checkout's venv (linked as the tree's ``.venv``: what make calls)."""
    venv = tree.root / ".venv"
    if not venv.exists():
        venv.symlink_to(paths.ROOT / ".venv", target_is_directory=True)
    proc = subprocess.run(["make", *args], cwd=tree.root, env=tree.env(), capture_output=True, text=True,
                          timeout=SNAKEMAKE_TIMEOUT)
    assert proc.returncode == 0, f"make {' '.join(args)}: {proc.returncode}\n{(proc.stdout + proc.stderr)[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def contributed(quick_tree, tmp_path_factory):
    """A copy of the session's quick run, contributed by ``make contribute QUICK=1`` as data/runs/test-box-<date>/,
    and beside it a synthetic run of "another machine" (see :func:`other_machine`)."""
    if not (paths.ROOT / ".venv" / "bin" / "python").exists():
        pytest.skip("make's targets run the checkout's .venv, which this checkout has not")
    tree = copy_tree(quick_tree, tmp_path_factory.mktemp("shipped") / "tree")
    proc = make(tree, "contribute", "QUICK=1", f"MACHINE={MACHINE}")
    name = re.search(r"contributed data/runs/([\w.-]+)/", proc.stdout).group(1)
    other_machine(tree.root / "data" / "runs", name)
    return tree, name


#: The synthetic other machine's run, and what differs there.
OTHER = "other-box-2026-01-01"


def other_machine(runs_dir, name) -> dict:
    """A run of "another machine": the contributed run's evidence with one structural statement false there, one
    speed effect twice as large (as a speed ratio), and no security chapter (a run missing a chapter)."""
    src, dst = runs_dir / name, runs_dir / OTHER
    (dst / "evidence").mkdir(parents=True)
    card = json.loads((src / "card.json").read_text())
    card.update(machine="other-box", dates={"first": "2026-01-01T00:00:00+00:00", "last": "2026-01-01T00:00:00+00:00"},
                run_ids=["20260101T000000Z-0000"], commit="0" * 40)
    card["cpu"]["model"] = "Other CPU"
    card["files"] = {"raw": {}, "evidence": {}, "notebooks": {}}
    picked = {}
    for chapter in ("maes", "aes2sbox", "aead"):
        ev = pd.read_csv(src / "evidence" / f"evidence_{chapter}.csv", keep_default_na=False, dtype=str)
        if chapter == "aes2sbox":
            row = ev.index[ev["holds"].str.lower() == "true"][0]
            ev.loc[row, "holds"] = "False"
            picked["false"] = ev.loc[row, "claim_id"]
        if chapter == "maes":
            speed = ev.index[(ev["unit"] == "%") & (ev["control_low"] != "")]
            cid = ev.loc[speed[0], "claim_id"]
            for i in ev.index[ev["claim_id"] == cid]:
                for col in ("estimate", "low", "high"):
                    ev.loc[i, col] = repr((1 + float(ev.loc[i, col]) / 100) * 2 * 100 - 100)
            picked["speed"] = cid
        data = ev.to_csv(index=False, lineterminator="\n").encode()
        (dst / "evidence" / f"evidence_{chapter}.csv").write_bytes(data)
        card["files"]["evidence"][chapter] = {"sha256": hashlib.sha256(data).hexdigest()}
    (dst / "card.json").write_text(json.dumps(card))
    (dst / "picked.json").write_text(json.dumps(picked))
    return picked


@pytest.fixture(scope="module")
def built(contributed):
    """The whole quick book built from the shipped run: ``make from-run QUICK=1 RUN=<name>`` (its check, then
    Snakemake in the run's own tree)."""
    tree, name = contributed
    own = {p: p.stat().st_mtime_ns for top in ("data/raw/quick", "data/tables/quick", "build/quick")
           for p in (tree.root / top).rglob("*") if p.is_file()}
    proc = make(tree, "from-run", "QUICK=1", f"RUN={name}", "CORES=2")
    after = {p: p.stat().st_mtime_ns for top in ("data/raw/quick", "data/tables/quick", "build/quick")
             for p in (tree.root / top).rglob("*") if p.is_file()}
    assert proc.stdout.startswith(f"ok: data/runs/{name}: ")
    # Snakemake's whole output (every job, the job stats) is the run's log in its own tree (make's console)
    log = (tree.root / "build" / "runs" / name / "quick" / "logs" / "make-from-run.log").read_text()
    return tree, name, log, own, after


@pytest.mark.pipeline
def test_contribute_ships_every_raw_file_its_record_the_evidence_and_a_card(contributed):
    tree, name = contributed
    folder = tree.root / "data" / "runs" / name
    card = json.loads((folder / "card.json").read_text())
    assert card["profile"] == "quick" and card["machine"] == MACHINE and name.startswith(f"{MACHINE}-20")
    raw = tree.root / "data" / "raw" / "quick"
    assert set(card["files"]["raw"]) == set(shipped.expected_raw("quick"))
    for experiment in card["files"]["raw"]:
        assert gzip.decompress((folder / "raw" / f"{experiment}.csv.gz").read_bytes()) == \
            (raw / f"{experiment}.csv").read_bytes()
    assert set(card["files"]["evidence"]) == set(chapters.evidence_chapters())
    assert set(card["files"]["notebooks"]) == {ch.measure_name for ch in chapters.load().chapters if ch.measure}
    assert isinstance(card["cpu"]["clock_hz_measured"], float) and card["cpu"]["flags"]


@pytest.mark.pipeline
def test_the_book_is_built_from_the_shipped_run_with_no_timing_job(built):
    tree, name, log, own, after = built
    jobs = log.split("Job stats:", 1)[1].split("total", 1)[0]
    assert not TIMING_RULES.search(jobs), jobs
    assert "--timing" not in log and "cipherlab.bench" not in log
    assert re.search(rf"^shipped_raw\s+{len(shipped.expected_raw('quick'))}\s*$", jobs, re.M), jobs
    base = tree.root / "build" / "runs" / name / "quick"
    assert (base / "book" / "_build" / "html" / "index.html").is_file()
    assert own == after   # the user's data/*/quick and build/quick are untouched


@pytest.mark.pipeline
def test_the_rebuilt_tables_equal_the_runs_own(built):
    """Everything deterministic is computed again and equals the run's; the evidence, derived from the same raw
    files by the same code, is byte for byte the run's (its bootstrap is seeded)."""
    tree, name, *_ = built
    ours, theirs = tree.root / "data" / "tables" / "quick", tree.root / "build" / "runs" / name / "quick" / "tables"
    names = sorted(p.stem for p in ours.glob("*.csv"))
    assert names == sorted(p.stem for p in theirs.glob("*.csv"))
    compared = [n for n in names if not chapters.is_timing_table(n) or n.startswith("evidence_")]
    assert any(n.startswith("evidence_") for n in compared) and len(compared) > 40
    differ = [n for n in compared if (ours / f"{n}.csv").read_bytes() != (theirs / f"{n}.csv").read_bytes()]
    assert not differ, differ


@pytest.mark.pipeline
def test_every_page_says_which_run_and_machine_built_it(built):
    tree, name, *_ = built
    html = tree.root / "build" / "runs" / name / "quick" / "book" / "_build" / "html"
    for page in ("findings.html", "verdicts.html", "machines.html", "environment.html", "maes.html"):
        text = (html / page).read_text()
        assert f"Built without timing from the shipped run {name}" in text, page
    assert "data/runs/" + name in (html / "environment.html").read_text()


@pytest.mark.pipeline
def test_a_failed_integrity_check_stops_the_build_in_one_line(contributed):
    tree, name = contributed
    gz = tree.root / "data" / "runs" / name / "raw" / "maes_block.csv.gz"
    data = gz.read_bytes()
    try:
        gz.write_bytes(data[:-40])   # truncated
        proc = subprocess.run(["make", "from-run", "QUICK=1", f"RUN={name}"], cwd=tree.root, env=tree.env(),
                              capture_output=True, text=True, timeout=600)
    finally:
        gz.write_bytes(data)
    assert proc.returncode != 0 and "snakemake" not in proc.stdout + proc.stderr   # stopped before any job
    line, *rest = proc.stderr.splitlines()
    assert line.startswith(f"error: data/runs/{name}/raw/maes_block.csv.gz: not a whole gzip file"), proc.stderr
    assert all(r.startswith("make: ***") for r in rest), rest   # make's own exit line only


@pytest.mark.pipeline
def test_the_pipeline_refuses_a_run_of_another_profile_in_one_line(contributed):
    tree, name = contributed
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--config", "profile=full", f"run={name}"],
                          cwd=tree.root, env=tree.env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode != 0
    assert (f"cipherlab: data/runs/{name}/card.json: a quick-profile run, refused for the full profile "
            "(add QUICK=1)") in proc.stderr + proc.stdout


@pytest.mark.pipeline
def test_the_verdict_page_shows_each_other_machines_verdict_and_the_claims_portability(built):
    tree, name, *_ = built
    picked = json.loads((tree.root / "data" / "runs" / OTHER / "picked.json").read_text())
    base = tree.root / "build" / "runs" / name / "quick"
    verdicts = pd.read_csv(base / "tables" / "verdicts.csv", keep_default_na=False).set_index("claim_id")
    claims = verdicts[verdicts["verdict"] != "finding"]
    assert claims["machines"].str.startswith(f"{OTHER}: ").all()   # the run itself is not compared with itself
    false = verdicts.loc[picked["false"]]
    assert false["verdict"] == "reproduced" and f"{OTHER}: contradicted" in false["machines"]
    # the flipped statement is exact evidence (nothing timed): a verdict that differs on it changed with the code or
    # data, never the machine's (config/verdicts.yaml, across_machines)
    assert false["portability"].startswith("changed with the code or data, not the machine"), false["portability"]
    security = claims[claims["chapter"] == "security"]   # (our own findings are compared with no machine)
    assert len(security) and security["machines"].str.fullmatch(f"{OTHER}: not measured").all()   # a run missing a chapter
    page = (base / "notebooks" / "verdicts.ipynb").read_text()
    assert f"other machines: {OTHER}: " in page and "changed with the code or data, not the machine" in page


@pytest.mark.pipeline
def test_the_machines_page_gives_each_speed_claim_on_each_machine_and_the_ratio(built):
    tree, name, *_ = built
    picked = json.loads((tree.root / "data" / "runs" / OTHER / "picked.json").read_text())
    base = tree.root / "build" / "runs" / name / "quick"
    table = pd.read_csv(base / "tables" / "machines.csv", keep_default_na=False)
    speed = table[(table["claim_id"] == picked["speed"]) & (table["run"] == OTHER)].iloc[0]
    assert speed["speed"] in (True, "True") and float(speed["ratio_to_this"]) == pytest.approx(0.5)
    html = (base / "book" / "_build" / "html" / "machines.html").read_text()
    assert picked["false"] in html and "Other CPU" in html and OTHER in html


@pytest.mark.pipeline
def test_a_machine_dependent_verdict_is_never_counted_as_the_papers_error(built):
    tree, name, *_ = built
    picked = json.loads((tree.root / "data" / "runs" / OTHER / "picked.json").read_text())
    paper, cid = picked["false"][:3], picked["false"]
    cells = json.loads((tree.root / "build" / "runs" / name / "quick" / "notebooks" / f"report_{paper}.ipynb")
                       .read_text())["cells"]
    shown = {c["id"]: "".join(o["data"]["text/markdown"]) for c in cells if c["cell_type"] == "code"
             for o in c.get("outputs", []) if "text/markdown" in o.get("data", {})}
    # an exact statement false on the other run changed with the code or data: never the paper's error, never a
    # concern, and the recommendation does not rest on it
    assert cid not in shown["show-concerns"] and cid not in shown["show-recommendation"]


@pytest.mark.pipeline
def test_after_contributing_the_users_own_verdict_page_is_rendered_again(contributed):
    tree, _ = contributed
    assert {"verdicts", "machines"} <= set(tree.plan())   # the shipped runs are inputs of the verdict rule
