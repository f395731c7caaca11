"""The cluster route, run for real: the quick profile through the Slurm executor.

``cluster/local-slurm.sh up`` starts a one-node Slurm (munge, MariaDB, slurmdbd,
slurmctld, slurmd) from Debian's packages; one chapter of the pipeline (its
inputs, the selfcheck, its measuring and its chapter rule: ``SLURM_TARGET``)
then runs with ``--profile profiles/slurm`` in a temporary copy of the tree,
with a bare environment (no venv on PATH, no CIPHERLAB_ROOT or PYTHONPATH:
the Snakefile sets them for its jobs).  Checked: every job ran as a Slurm job
(``sacct`` lists them, the timing job's provenance names its Slurm job), and
the chapter's non-timing tables are byte-identical to the session's local
quick run (``quick_tree``).  The whole quick profile through Slurm adds
nothing to that proof but minutes of the executor's status polling.  The
cluster goes down after.

The cluster test needs root and apt-get; it runs under CI (``.ci/run``) and where
``CIPHERLAB_CLUSTER_TEST=1`` is set, and is skipped with the reason elsewhere.
The other tests here (interpreter, profile, provenance) run everywhere.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from cipherlab.pipeline import chapters, config, paths, provenance
from pipeline_tree import make_tree

ROOT = paths.ROOT
SCRIPT = ROOT / "cluster" / "local-slurm.sh"
PROFILE_DIR = ROOT / "profiles" / "slurm"
QUICK = paths.Profile("quick")
SNAKEMAKE = Path(sys.executable).with_name("snakemake")
CLUSTER_TIMEOUT = 1200  # seconds for one chapter through Slurm
#: The chapter run through Slurm: it has a measuring rule (a timing job on a whole node) and inputs.
SLURM_TARGET = "aes2sbox"
MINIMAL_PATH = "/usr/bin:/bin"  # a node's PATH: no venv on it


def _snakemake_cmd() -> list[str]:
    return [str(SNAKEMAKE)] if SNAKEMAKE.exists() else [sys.executable, "-m", "snakemake"]


def _minimal_env(**extra: str) -> dict[str, str]:
    """``env -i HOME=$HOME PATH=/usr/bin:/bin``: nothing of the venv is on PATH."""
    return {"HOME": os.environ.get("HOME", "/root"), "PATH": MINIMAL_PATH, **extra}


def _profile() -> dict:
    return yaml.safe_load((PROFILE_DIR / "config.yaml").read_text(encoding="utf-8"))


def _rules() -> list[str]:
    proc = subprocess.run([*_snakemake_cmd(), "--list-rules", "--config", "profile=quick"], cwd=ROOT,
                          env=_minimal_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [ln.split()[0] for ln in proc.stdout.splitlines() if ln.strip() and not ln[0].isspace()]  # docstrings wrap


# --- jobs that run on any node ---------------------------------------------------------------------

def test_plan_runs_without_the_venv_on_path_and_calls_this_interpreter():
    """``.venv/bin/snakemake`` with a bare PATH plans every job, and each job calls the venv's
    interpreter by its path, never whatever ``python`` a node's PATH finds."""
    proc = subprocess.run([*_snakemake_cmd(), "-n", "-p", "--forceall", "--config", "profile=quick"],
                          cwd=ROOT, env=_minimal_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    commands = [ln.split(":", 1)[1].strip() for ln in (proc.stdout + proc.stderr).splitlines()
                if ln.startswith("Shell command:") and "None" not in ln]
    assert commands, "the plan printed no shell command"
    interpreter = shlex.quote(sys.executable)
    for cmd in commands:
        assert not re.match(r"python3?\s", cmd), f"a rule calls a bare python: {cmd}"
        assert cmd.startswith(interpreter + " -m cipherlab."), f"not the interpreter running Snakemake: {cmd}"


# --- the profile ------------------------------------------------------------------------------------

def _planned_resources(cmd_prefix: list[str]) -> dict[str, dict[str, str]]:
    """``snakemake -n --forceall`` with the Slurm profile: each rule's resources as the jobs get them."""
    proc = subprocess.run([*cmd_prefix, "--profile", str(PROFILE_DIR), "-n", "--forceall", "--config", "profile=quick"],
                          cwd=ROOT, env=_minimal_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    out: dict[str, dict[str, str]] = {}
    rule = None
    for line in (proc.stdout + proc.stderr).splitlines():
        m = re.match(r"^(?:local)?rule (\w+):", line)
        if m:
            rule = m.group(1)
        elif rule and line.strip().startswith("resources:"):
            out[rule] = dict(kv.split("=", 1) for kv in line.split(":", 1)[1].strip().split(", ") if "=" in kv)
    return out


def test_slurm_profile_gives_every_rule_resources_and_timing_rules_a_whole_node():
    """Every job gets a partition, a wall time and memory (rules declare mem_mb, the measuring rules
    their whole node: workflow/rules/chapters.smk); the profile names only rules that exist."""
    pytest.importorskip("snakemake_executor_plugin_slurm", reason="the `cluster` (or `test`) extra is not installed")
    prof = _profile()
    assert prof["executor"] == "slurm"
    for key in ("slurm_partition", "runtime", "mem_mb"):
        assert key in prof["default-resources"], f"profiles/slurm: default-resources lacks {key}"
    planned = _planned_resources(_snakemake_cmd())
    # variant_<name> targets run only when asked for (`snakemake variant_<name>`), never in the default run
    targets = {chapters.Variants.page(v) for v in chapters.variant_names()}
    # pdf prints the built book only when asked for (`make pdf`), never in the default run
    rules = [r for r in _rules() if r not in ("all", "pdf") and r not in targets]
    assert set(rules) <= set(planned), f"rules without a planned job: {sorted(set(rules) - set(planned))}"
    for rule in rules:
        for key in ("slurm_partition", "runtime", "mem_mb"):
            assert key in planned[rule], f"rule {rule}: no {key} ({planned[rule]})"
    timing = [c.measure_name for c in chapters.load().chapters if c.measure]
    timing += ["variant_chapter"] if chapters.load().variants else []   # it times the variant against AES
    assert timing, "no timing rule (<chapter>_measure) in the manifest"
    for rule in timing:
        assert planned[rule].get("slurm_extra") == "--exclusive", \
            f"timing rule {rule} does not ask for a whole node (slurm_extra=--exclusive): {planned[rule]}"
    unknown = (set(prof.get("set-resources") or {}) | set(prof.get("set-threads") or {})) - set(rules)
    assert not unknown, f"profiles/slurm names rules the workflow does not have: {sorted(unknown)}"


def test_slurm_profile_parses_with_the_executor_plugin():
    pytest.importorskip("snakemake_executor_plugin_slurm", reason="the `cluster` (or `test`) extra is not installed")
    proc = subprocess.run([*_snakemake_cmd(), "--profile", str(PROFILE_DIR), "-n", "--forceall",
                           "--config", "profile=quick"], cwd=ROOT, env=_minimal_env(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "slurm_extra=--exclusive" in proc.stdout + proc.stderr


# --- provenance: the node ---------------------------------------------------------------------------

def test_raw_metadata_records_the_node_and_the_slurm_job(monkeypatch):
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    meta = provenance.run_metadata(profile="quick")
    assert meta["node"]["hostname"] and "slurm_job_id" not in meta["node"]
    monkeypatch.setenv("SLURM_JOB_ID", "4242")
    assert provenance.run_metadata(profile="quick")["node"]["slurm_job_id"] == "4242"


# --- the quick profile through Slurm -----------------------------------------------------------------

def _why_the_cluster_cannot_run() -> "str | None":
    if not sys.platform.startswith("linux"):
        return "needs Linux (Debian's Slurm packages)"
    if os.geteuid() != 0:
        return "needs root: cluster/local-slurm.sh installs Debian's packages and runs the daemons as root"
    if not shutil.which("apt-get") and not shutil.which("slurmctld"):
        return "needs apt-get to install Slurm, munge and MariaDB"
    return None


def _ask_for_the_cluster() -> None:
    """Skip (with the reason) where the cluster cannot or should not start; under CI fail instead."""
    ci = bool(os.environ.get("CI"))
    if not ci and os.environ.get("CIPHERLAB_CLUSTER_TEST") != "1":
        pytest.skip("installs and starts a Slurm cluster as root: runs under CI, or with CIPHERLAB_CLUSTER_TEST=1")
    reason = _why_the_cluster_cannot_run()
    if reason and not (ci and os.geteuid() == 0):
        pytest.skip(reason)
    if reason:
        pytest.fail(reason + " (CI as root must run this test)", pytrace=False)
    try:
        import snakemake_executor_plugin_slurm  # noqa: F401
    except ImportError:
        pytest.fail("snakemake-executor-plugin-slurm is not installed (the `test` extra has it)", pytrace=False)


def _script(action: str, state: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), action, str(state)], capture_output=True, text=True,
                          timeout=900)


@pytest.fixture(scope="module")
def slurm_cluster(tmp_path_factory):
    _ask_for_the_cluster()
    state = tmp_path_factory.mktemp("slurm")
    start = time.perf_counter()
    try:
        up = _script("up", state)
        if up.returncode != 0:
            pytest.fail(f"cluster/local-slurm.sh up failed:\n{(up.stdout + up.stderr)[-4000:]}", pytrace=False)
        yield {"state": state, "up_seconds": time.perf_counter() - start}
    finally:
        down = _script("down", state)
        assert down.returncode == 0, down.stderr[-2000:]


@pytest.fixture(scope="module")
def slurm_run(slurm_cluster, tmp_path_factory):
    """One chapter (SLURM_TARGET) through Slurm in a temporary copy of the tree, with a node's bare environment."""
    tree = make_tree(tmp_path_factory.mktemp("cluster") / "tree")
    env = _minimal_env()
    if os.environ.get("CIPHERLAB_PAPERS"):
        env["CIPHERLAB_PAPERS"] = os.environ["CIPHERLAB_PAPERS"]
    cmd = [*_snakemake_cmd(), "--profile", "profiles/slurm", "--slurm-init-seconds-before-status-checks", "1",
           SLURM_TARGET, "--config", "profile=quick"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tree.root, env=env, capture_output=True, text=True, timeout=CLUSTER_TIMEOUT)
    seconds = time.perf_counter() - start
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        slurm_logs = sorted((tree.root / ".snakemake" / "slurm_logs").rglob("*.log"))
        tails = "\n".join(f"--- {p}\n{p.read_text(errors='replace')[-1500:]}" for p in slurm_logs[-3:])
        pytest.fail(f"snakemake through Slurm exited {proc.returncode}:\n{log[-5000:]}\n{tails}", pytrace=False)
    run_id = re.search(r"SLURM run ID: (\S+)", log)
    assert run_id, "the Slurm executor did not report its run id"
    return {"tree": tree, "log": log, "seconds": seconds, "run_id": run_id.group(1),
            "submitted": dict(re.findall(r"Job (\d+) has been submitted with SLURM jobid (\d+)", log))}


def _sacct(run_id: str, expected: int) -> list[dict[str, str]]:
    """The run's jobs as Slurm's accounting lists them (slurmdbd records them a moment later)."""
    fields = ["JobID", "JobName", "Comment", "State", "ExitCode", "NodeList"]
    rows: list[dict[str, str]] = []
    for _ in range(30):
        proc = subprocess.run(["sacct", "-X", "-n", "-P", "-a", f"--name={run_id}", "-S", "now-1days",
                               f"--format={','.join(fields)}"], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        rows = [dict(zip(fields, ln.split("|"))) for ln in proc.stdout.splitlines() if ln.strip()]
        if len(rows) >= expected and all(r["State"] == "COMPLETED" for r in rows):
            break
        time.sleep(2)
    return rows


@pytest.mark.cluster
def test_a_chapter_through_slurm(slurm_cluster, slurm_run, quick_tree, capsys):
    tree, submitted = slurm_run["tree"], slurm_run["submitted"]
    chapter = chapters.load().chapter(SLURM_TARGET)
    # (a) every job (inputs, selfcheck, measuring, chapter) ran as a Slurm job.
    assert submitted, "no job was submitted to Slurm"
    rows = _sacct(slurm_run["run_id"], len(submitted))
    listed = {r["JobID"]: r for r in rows}
    assert set(listed) == set(submitted.values()), \
        f"sacct lists {sorted(listed)}, Snakemake submitted {sorted(submitted.values())}"
    not_done = {k: v["State"] for k, v in listed.items() if v["State"] != "COMPLETED"}
    assert not not_done, f"Slurm jobs not COMPLETED: {not_done}"
    ran = {re.sub(r"^rule_|_wildcards_.*$", "", r["Comment"]) for r in rows}
    has_inputs = bool(config.load_config("quick")[chapter.section].get("inputs"))
    expected = {"selfcheck", chapter.measure_name, chapter.name} | ({"input_file"} if has_inputs else set())
    assert ran == expected, f"rules run through Slurm {sorted(ran)} != {sorted(expected)}"
    local_jobs = re.findall(r"^localrule (\w+):", slurm_run["log"], flags=re.M)
    assert not local_jobs, f"jobs run outside Slurm: {local_jobs}"
    # The timing rule recorded the Slurm job (and node) that measured it.
    for raw in chapter.raw:
        node = json.loads(tree.at(QUICK.raw_meta(raw)).read_text(encoding="utf-8"))["node"]
        assert node.get("slurm_job_id") in listed, f"{raw}: node {node} is not one of the run's Slurm jobs"
    assert tree.at(QUICK.executed_notebook(chapter.name)).is_file(), "no chapter notebook from the Slurm run"

    # (b) the chapter's non-timing tables (and the selfcheck) equal the local run's, byte for byte.
    tables = ["selfcheck", *chapter.tables]
    differ = [t for t in tables if tree.at(QUICK.table(t)).read_bytes() != quick_tree.at(QUICK.table(t)).read_bytes()]
    assert not differ, f"non-timing tables differ between the Slurm run and the local run: {differ}"
    written = sorted(p.stem for p in tree.at(QUICK.tables).glob("*.csv"))
    assert written == sorted(tables + list(chapter.timing_tables))

    with capsys.disabled():
        print(f"\n{SLURM_TARGET} through Slurm: {len(submitted)} jobs in {slurm_run['seconds']:.0f} s "
              f"(cluster up in {slurm_cluster['up_seconds']:.0f} s); whole quick profile locally "
              f"{quick_tree.seconds or 0:.0f} s")
