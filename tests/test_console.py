"""What `make reproduce` shows (cipherlab.pipeline.console): one line per finished job with its name and time,
Snakemake's whole output in the log, errors and unknown lines shown, the exit status kept."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cipherlab.pipeline import console

#: Snakemake 9's output, as it prints it (trimmed): two jobs, one of them a timing job, and `rule all`.
OUTPUT = """Assuming unrestricted shared filesystem usage.
host: vm
Building DAG of jobs...
Using shell: /usr/bin/bash
Provided cores: 2
Rules claiming more threads will be scaled down.
Job stats:
job                 count
----------------  -------
all                     1
input_file              1
maes_measure            1
total                   3

Select jobs to execute...
Execute 1 jobs...

[Fri Nov 27 09:51:59 2026]
localrule input_file:
    output: data/inputs/quick/maes_image.npy
    log: logs/quick/inputs/maes_image.npy.log
    jobid: 11
    reason: Missing output files: data/inputs/quick/maes_image.npy
    wildcards: name=maes_image.npy
    resources: tmpdir=/tmp, mem_mb=2000, mem_mib=1908
Shell command: python -m cipherlab.pipeline.inputs quick maes_image.npy data/inputs/quick/maes_image.npy
[Fri Nov 27 09:54:29 2026]
Finished jobid: 11 (Rule: input_file)
1 of 3 steps (33%) done
Select jobs to execute...
Execute 1 jobs...

[Fri Nov 27 09:54:30 2026]
localrule maes_measure:
    input: notebooks/maes_measure.ipynb, src/cipherlab/experiments/maes/chapter.py
    output: build/quick/notebooks/maes_measure.ipynb
    log: logs/quick/maes_measure.log
    jobid: 12
    reason: Missing output files: build/quick/notebooks/maes_measure.ipynb
    threads: 2
    resources: tmpdir=/tmp, mem_mb=8000, mem_mib=7630, runtime=240, slurm_extra=--exclusive
Shell command: python -m cipherlab.report.notebook notebooks/maes_measure.ipynb --timing
Select jobs to execute...
[Fri Nov 27 10:00:39 2026]
Finished jobid: 12 (Rule: maes_measure)
2 of 3 steps (67%) done
Select jobs to execute...
Execute 1 jobs...

[Fri Nov 27 10:00:40 2026]
localrule all:
    input: data/inputs/quick/maes_image.npy, build/quick/notebooks/maes_measure.ipynb
    jobid: 0
    reason: Input files updated by another job: data/inputs/quick/maes_image.npy
    resources: tmpdir=/tmp
Select jobs to execute...
[Fri Nov 27 10:00:40 2026]
Finished jobid: 0 (Rule: all)
3 of 3 steps (100%) done
Complete log(s): .snakemake/log/2026-11-27T095157.snakemake.log
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """The jobs' log paths are relative to the run's directory: a test's own, never the checkout's logs/."""
    monkeypatch.chdir(tmp_path)


class Clock:
    """Each call is 2.5 s later than the one before."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 2.5
        return self.t


def _show(text: str, tmp_path: "Path | None" = None) -> tuple[str, str, console.Console]:
    log, out = io.StringIO(), io.StringIO()
    c = console.Console(log, out, bars=False, clock=Clock())
    for line in text.splitlines():
        c.feed(line)
    c.close()
    return out.getvalue(), log.getvalue(), c


def test_one_line_per_job_with_its_name_and_time_and_the_whole_output_in_the_log():
    shown, log, c = _show(OUTPUT)
    lines = shown.splitlines()
    assert [line.split() for line in lines] == [["[1/2]", "input_file", "maes_image.npy", "2.5", "s"],
                                                ["[2/2]", "maes_measure", "2.5", "s", "(timing", "job)"]], shown
    assert lines[0].index("2.5 s") == lines[1].index("2.5 s")     # the times in one column
    assert log == OUTPUT                                   # the log keeps every line
    assert c.history == {"input_file maes_image.npy": 2.5, "maes_measure": 2.5}
    assert "reason:" not in shown and "input:" not in shown and "Shell command" not in shown


def test_unknown_lines_errors_and_the_failed_jobs_log_are_shown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "verdicts.log").write_text("running\nTraceback (most recent call last):\nKeyError: 'x'\n")
    failing = """Job stats:
job      count
-------  -----
verdicts     1
total        1

[Fri Nov 27 10:00:40 2026]
rule verdicts:
    log: logs/verdicts.log
    jobid: 4
    resources: tmpdir=/tmp
Shell command: python -m cipherlab.report.notebook notebooks/verdicts.ipynb
WARNING: something a user must see
[Fri Nov 27 10:00:41 2026]
Error in rule verdicts:
    jobid: 4
    input: notebooks/verdicts.ipynb, data/paper/claims.csv
    output: build/quick/notebooks/verdicts.ipynb
    log: logs/verdicts.log (check log file(s) for error details)

Shutting down, this might take some time.
Exiting because a job execution failed. Look below for error messages
"""
    shown, _, c = _show(failing)
    assert "WARNING: something a user must see" in shown
    assert "Error in rule verdicts:" in shown and "    log: logs/verdicts.log" in shown
    assert "KeyError: 'x'" in shown and "the last 3 lines of logs/verdicts.log" in shown
    assert "Exiting because a job execution failed" in shown
    assert "claims.csv" not in shown and "build/quick" not in shown      # the file lists are in the full log
    assert c.failed == ["verdicts"]


def test_a_wait_for_the_machine_lock_is_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs" / "quick").mkdir(parents=True)
    (tmp_path / "logs" / "quick" / "maes_measure.log").write_text(
        "machine lock /tmp/x.lock: busy, waiting for every running job to finish (timing job)\n"
        "machine lock: obtained after 95.2 s\nrunning notebooks/maes_measure.ipynb\n")
    shown, _, _ = _show(OUTPUT)
    assert "(timing job; 1 min 35 s of it waiting for the machine lock)" in shown
    assert "maes_image.npy" in shown and shown.count("waiting") == 1


def test_nothing_to_do_is_said():
    shown, _, _ = _show("Building DAG of jobs...\nNothing to be done (all requested files are present and up to date).\n")
    assert shown.strip() == "Nothing to be done (all requested files are present and up to date)."


def test_durations_read_as_a_person_writes_them():
    assert [console.duration(s) for s in (0.42, 12.4, 185, 3725)] == ["0.4 s", "12 s", "3 min 05 s", "1 h 02 min"]


def test_run_keeps_the_exit_status_writes_the_log_and_the_job_times(tmp_path):
    script = tmp_path / "fake_snakemake.py"
    script.write_text("import sys\nprint(" + repr(OUTPUT) + ")\nprint('a warning', file=sys.stderr)\nsys.exit(3)\n")
    out = io.StringIO()
    log = tmp_path / "logs" / "snakemake.log"
    code = console.run(log, [sys.executable, str(script)], out=out)
    assert code == 3
    assert "Snakemake stopped with status 3" in out.getvalue() and "a warning" in out.getvalue()
    assert "maes_measure" in out.getvalue() and "reason:" not in out.getvalue()
    assert "reason: Missing output files" in log.read_text()
    times = json.loads((tmp_path / "logs" / "job_seconds.json").read_text())
    assert set(times) == {"input_file maes_image.npy", "maes_measure"}
    assert console.main(["only-a-log"]) == 2
