"""What ``make reproduce`` (and ``make variant``, ``make pdf``) shows in the terminal: one line per job.

``python -m cipherlab.pipeline.console LOG -- snakemake ARGS...`` runs Snakemake, writes
everything it prints to ``LOG`` (the full log: every job's inputs, reasons and shell command,
what ``snakemake`` alone prints), and shows in the terminal

* one line per finished job: how many of the run's jobs are done, its name (and wildcards),
  and how long it took (and how much of that it waited for the machine lock, which a timing job of
  any run on the machine holds alone: :mod:`cipherlab.pipeline.machine_lock`);
* a progress bar of the whole run (``tqdm``), and one for each running timing job (a job that
  holds the machine alone: ``slurm_extra: --exclusive`` in its resources), which counts the
  seconds against that job's duration in the last run of this profile (kept in
  ``job_seconds.json`` beside ``LOG``), and says when the job waits for the machine lock;
* every line it does not know (warnings, Snakemake's errors, a locked directory), as printed,
  and for a failed job Snakemake's error block and the last lines of the job's own log.

The bars are drawn only on a terminal; piped into a file, the job lines alone are written.  The
exit status is Snakemake's.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

from tqdm import tqdm

#: How many lines of a failed job's log are shown under its error.
LOG_TAIL = 25

_JOB_HEAD = re.compile(r"^(local)?(rule|checkpoint) (?P<rule>[\w-]+):$")
_FINISHED = re.compile(r"^Finished jobid: (?P<jobid>\d+) \(Rule: (?P<rule>[\w-]+)\)")
_STEPS = re.compile(r"^(?P<done>\d+) of (?P<total>\d+) steps \(.*\) done$")
_STAMP = re.compile(r"^\[\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}\]$")
_ERROR = re.compile(r"^Error in rule (?P<rule>[\w-]+):$")
_TOTAL = re.compile(r"^total\s+(?P<n>\d+)$")
#: The target rule's line of the job stats: it runs no command and is not counted as a job.
_TARGET = re.compile(r"^all\s+(?P<n>\d+)$")
#: Snakemake's own chatter, which the full log keeps and the terminal does not need.
_QUIET = re.compile(r"^(Assuming unrestricted shared filesystem usage\.|host: |Building DAG of jobs\.\.\.|"
                    r"Using shell: |Provided cores: |Rules claiming more threads will be scaled down\.|"
                    r"Select jobs to execute\.\.\.|Execute \d+ jobs?\.\.\.|Removing temporary output|"
                    r"Touching output file|Complete log\(s\): |Job stats:|Nothing to be done \(all requested)")


@dataclass
class Job:
    rule: str
    jobid: str = ""
    wildcards: str = ""
    log: str = ""
    timing: bool = False
    start: float = field(default_factory=time.monotonic)

    @property
    def name(self) -> str:
        return f"{self.rule} {self.wildcards}".strip()


def duration(seconds: float) -> str:
    """``0.4 s``, ``12 s``, ``3 min 05 s``, ``1 h 02 min``."""
    if seconds < 10:
        return f"{seconds:.1f} s"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Console:
    """Reads Snakemake's output line by line; writes the full log and the short view."""

    def __init__(self, log: TextIO, out: TextIO, history: "dict[str, float] | None" = None,
                 bars: "bool | None" = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.log, self.out, self.clock = log, out, clock
        self.history = dict(history or {})
        self.jobs: dict[str, Job] = {}
        self.pending: "Job | None" = None
        self.block = ""          # "job", "error", "stats" or "" (top level)
        self.total = 0
        self.target_jobs = 0
        self.done = 0
        self.failed: list[str] = []
        self.nothing_to_do = False
        self.lock = threading.Lock()
        show = (out.isatty() if hasattr(out, "isatty") else False) if bars is None else bars
        self.bar = tqdm(total=None, desc="jobs", unit="job", file=out, disable=not show, leave=False,
                        dynamic_ncols=True, bar_format="{desc}: {n_fmt}/{total_fmt} |{bar}| {elapsed}")
        self.timing_bars: dict[str, tqdm] = {}
        self._show_bars = show

    # ------------------------------------------------------------------ output
    def say(self, text: str) -> None:
        """A line in the terminal, above the bars."""
        with self.lock:
            tqdm.write(text, file=self.out)

    # ------------------------------------------------------------------ parsing
    def feed(self, line: str) -> None:
        """One line of Snakemake's output (without its newline)."""
        self.log.write(line + "\n")
        self.log.flush()
        if self.block == "job":
            if line.startswith("    "):
                self._job_field(line.strip())
                return
            self._job_started()
        elif self.block == "error":
            if line.startswith("    ") or not line.strip():
                if not line.startswith(("    input: ", "    output: ")):   # the file lists stay in the full log
                    self.say(line)
                if not line.strip():
                    self._error_done()
                return
            self._error_done()
        elif self.block == "stats":
            m = _TOTAL.match(line.strip())
            if m:
                self.total = int(m.group("n")) - self.target_jobs
                self._set_total()
            m = _TARGET.match(line.strip())
            if m:
                self.target_jobs = int(m.group("n"))
            if not line.strip() and self.total:
                self.block = ""
            return
        self._top(line)

    def _top(self, line: str) -> None:
        text = line.strip()
        if not text or _STAMP.match(text):
            return
        m = _JOB_HEAD.match(text)
        if m:
            self.pending = Job(m.group("rule"), start=self.clock())
            self.block = "job"
            return
        m = _FINISHED.match(text)
        if m:
            self._finished(m.group("jobid"), m.group("rule"))
            return
        m = _STEPS.match(text)
        if m:
            self.total = int(m.group("total")) - self.target_jobs
            self._set_total()
            return
        m = _ERROR.match(text)
        if m:
            self.block = "error"
            self._error_rule = m.group("rule")
            self._error_lines: list[str] = []
            self.say(line)
            return
        if text == "Job stats:":
            self.block = "stats"
            return
        if text.startswith("Shell command:"):
            return   # the job's command, in the full log (a command of several lines shows its other lines)
        if text.startswith("Nothing to be done"):
            self.nothing_to_do = True
            self.say(text)
            return
        if _QUIET.match(text):
            return
        self.say(line)

    def _job_field(self, text: str) -> None:
        key, _, value = text.partition(": ")
        job = self.pending
        if job is None:
            return
        if key == "jobid":
            job.jobid = value
        elif key == "wildcards":
            job.wildcards = " ".join(part.split("=", 1)[-1] for part in value.split(", "))
        elif key == "log":
            job.log = value.split(", ")[0]
        elif key == "resources" and "--exclusive" in value:
            job.timing = True

    def _job_started(self) -> None:
        job, self.pending, self.block = self.pending, None, ""
        if job is None or not job.jobid:
            return
        self.jobs[job.jobid] = job
        if job.timing and self._show_bars:
            expected = self.history.get(job.name)
            with self.lock:
                self.timing_bars[job.jobid] = tqdm(
                    total=round(expected) if expected else None, desc=f"  timing {job.name}", unit="s",
                    file=self.out, leave=False, dynamic_ncols=True,
                    bar_format=("{desc}: {bar} {n_fmt}/{total_fmt} s (the last run's time)" if expected
                                else "{desc}: {n_fmt} s (no earlier run to compare)"))
        self._postfix()

    def _finished(self, jobid: str, rule: str) -> None:
        job = self.jobs.pop(jobid, None) or Job(rule, jobid=jobid, start=self.clock())
        bar = self.timing_bars.pop(jobid, None)
        if bar is not None:
            with self.lock:
                bar.close()
        if rule == "all":
            return
        seconds = self.clock() - job.start
        self.done += 1
        self.history[job.name] = seconds
        width = len(str(self.total or self.done))
        count = f"[{self.done:>{width}}/{self.total}]" if self.total else f"[{self.done}]"
        notes = (["timing job"] if job.timing else []) + (
            [f"{duration(waited)} of it waiting for the machine lock"] if (waited := _lock_wait(job.log)) >= 1 else [])
        self.say(f"{count} {job.name:<40} {duration(seconds):>12}" + (f"   ({'; '.join(notes)})" if notes else ""))
        with self.lock:
            self.bar.update(1)
        self._postfix()

    def _error_done(self) -> None:
        self.block = ""
        rule = getattr(self, "_error_rule", "?")
        self.failed.append(rule)
        job = next((j for j in self.jobs.values() if j.rule == rule), None)
        if job and job.log and Path(job.log).is_file():
            lines = Path(job.log).read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL:]
            self.say(f"--- the last {len(lines)} lines of {job.log} ---")
            for text in lines:
                self.say("    " + text)
            self.say("---")

    def _set_total(self) -> None:
        with self.lock:
            if self.bar.total != self.total:
                self.bar.total = self.total
                self.bar.refresh()

    def _postfix(self) -> None:
        running = [j.name for j in self.jobs.values()]
        with self.lock:
            self.bar.set_description_str("jobs" + (f" (running: {', '.join(running)})" if running else ""))

    # ------------------------------------------------------------------ the timing bars
    def tick(self) -> None:
        """Advance each running timing job's bar to its elapsed seconds, noting a wait for the machine lock."""
        now = self.clock()
        with self.lock:
            self.bar.refresh()   # its elapsed time
            for jobid, bar in list(self.timing_bars.items()):
                job = self.jobs.get(jobid)
                if job is None:
                    continue
                waiting = _waits_for_lock(job.log)
                bar.set_description_str(f"  timing {job.name}" + (" (waiting for the machine lock)" if waiting else ""),
                                        refresh=False)
                bar.n = int(now - job.start)
                bar.refresh()

    def close(self) -> None:
        with self.lock:
            for bar in self.timing_bars.values():
                bar.close()
            self.bar.close()


_OBTAINED = re.compile(r"machine lock: obtained after ([\d.]+) s")


def _lock_wait(log: str) -> float:
    """The seconds a finished job waited for the machine lock, as its log says (0 when it did not wait)."""
    try:
        with open(log, encoding="utf-8", errors="replace") as fh:
            m = _OBTAINED.search(fh.read(8000))
    except OSError:
        return 0.0
    return float(m.group(1)) if m else 0.0


def _waits_for_lock(log: str) -> bool:
    """Whether a job's log says it waits for the machine lock (cipherlab.pipeline.machine_lock)."""
    try:
        with open(log, encoding="utf-8", errors="replace") as fh:
            head = fh.read(4000)
    except OSError:
        return False
    return "machine lock" in head and "busy" in head and "obtained" not in head


def load_history(path: Path) -> dict[str, float]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float))} if isinstance(data, dict) else {}


def run(log_path: Path, command: list[str], out: TextIO = sys.stdout) -> int:
    """Run ``command`` (Snakemake), its whole output into ``log_path``, the short view to ``out``."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    history_path = log_path.with_name("job_seconds.json")
    history = load_history(history_path)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # Ctrl-C in a terminal reaches Snakemake itself (the same process group): it stops its jobs and
    # says so, and this view keeps reading until it has exited.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    with open(log_path, "w", encoding="utf-8") as log:
        console = Console(log, out, history)
        console.say(f"{' '.join(command)}\n(the full log: {log_path})")
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
                                errors="replace", env=env)
        stop = threading.Event()

        def ticker() -> None:
            while not stop.wait(1.0):
                console.tick()

        thread = threading.Thread(target=ticker, daemon=True)
        thread.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                console.feed(line.rstrip("\n"))
            code = proc.wait()
        finally:
            stop.set()
            thread.join(timeout=2)
            console.close()
            signal.signal(signal.SIGINT, previous)
    finished = {k: v for k, v in console.history.items()}
    if finished != history:
        try:
            history_path.write_text(json.dumps(finished, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        except OSError:
            pass
    if code == 0:
        if not console.nothing_to_do:
            out.write(f"Done: {console.done} job{'s' if console.done != 1 else ''}; the full log is {log_path}\n")
    else:
        out.write(f"Snakemake stopped with status {code}; the full log is {log_path}\n")
    out.flush()
    return code


def main(argv: "list[str] | None" = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3 or argv[1] != "--":
        print("usage: python -m cipherlab.pipeline.console LOG -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    return run(Path(argv[0]), argv[2:])


if __name__ == "__main__":
    raise SystemExit(main())
