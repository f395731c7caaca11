"""Shipped runs: the raw data of a whole run, kept under ``data/runs/`` so a book can be rebuilt without timing.

One folder per run, named by machine and date (``data/runs/<machine>-<YYYY-MM-DD>[-<n>]/``)::

    card.json                        the machine card: CPU model, id and flags, cores, measured clock, memory,
                                     OS, Python, Numba, llvmlite, PyCryptodome and OpenSSL versions, the JIT
                                     target; the run's commit, profile, dates and run ids; every file below
                                     with its rows and SHA-256
    README.md                        the card in words (written from card.json)
    raw/<experiment>.csv.gz          each raw file, gzip-compressed (deterministic: no name, no time)
    raw/<experiment>.meta.json       its provenance record, byte for byte as the run wrote it (rows and
                                     SHA-256 of the CSV, experiment, profile, parameters, seed, commit)
    evidence/evidence_<chapter>.csv  the evidence the run's own chapters derived from those raw files
    notebooks/<chapter>_measure.ipynb.gz   each measuring notebook as the run executed it (the book's appendix:
                                     what was measured, and how, cannot be re-run without timing)

:func:`contribute` makes such a folder from a run's trees (the user's own, or an emulated machine's,
:data:`MACHINES`), refusing in one line a run that is incomplete (a raw file, an evidence table or a
measuring notebook missing, a file not whole) or mixed (raw files of more than one commit, machine, JIT target or set of
package versions). :func:`check_run` verifies a shipped run before a book is built from it, and
:func:`unpack` writes one raw file into the book's own tree (``build/runs/<run>/<profile>/raw/``), each
checked by the one raw reader (:func:`cipherlab.pipeline.results.check_raw_file`): whole, of its
experiment and profile, measured with the parameters this code runs. Every failure is a
:class:`RunError` in one line naming the file.

A run's parameters are what the chapters declare: the caller (``python -m cipherlab.shipped``, at the
top of the layers) hands them in as ``expected`` (``{experiment: {"seed": ..., "config": ...}}``).
"""
from __future__ import annotations

import datetime as _dt
import gzip
import hashlib
import json
import os
import re
import shutil
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from cipherlab.pipeline import chapters, paths
from cipherlab.pipeline import results as _results
from cipherlab.pipeline.config import built_variants
from cipherlab.pipeline.paths import Profile, as_profile
from cipherlab.pipeline.results import (RAW_ROWS, RAW_SHA256, RawDataError, atomic_path, check_raw_file,
                                        write_bytes, write_json, write_text)

#: The layout's version, recorded in every card; a card of another version is refused, naming it.
FORMAT = 1
CARD, README, RAW_DIR, EVIDENCE_DIR, NOTEBOOK_DIR = "card.json", "README.md", "raw", "evidence", "notebooks"


@dataclass(frozen=True)
class Machine:
    """A machine emulated on this one: the environment its jobs run in, and what it is."""

    name: str
    env: Mapping[str, str]
    about: str


#: The machines a run can emulate here (``make reproduce NO_AES=1``: ``--config machine=no-aes``).
MACHINES = {
    "no-aes": Machine(
        "no-aes", {"NUMBA_CPU_NAME": "generic"},
        "a machine without AES instructions: cipherlab's kernels compiled for a generic x86-64 target "
        "(NUMBA_CPU_NAME=generic: no AES-NI, no PCLMULQDQ, no VAES, so the hardware style is not measured) "
        "and PyCryptodome's AES without them (use_aesni=False, GCM with use_clmul=False)"),
}


def check_machine(name: str) -> Machine:
    if name not in MACHINES:
        raise ValueError(f"machine must be one of {sorted(MACHINES)}, got {name!r}")
    return MACHINES[name]


def tree_of(*, run: "str | None" = None, machine: "str | None" = None, profile: str = "full") -> str:
    """The output tree of a pipeline run (:class:`cipherlab.pipeline.paths.Profile`): ``runs/<run>`` for the book
    of a shipped run (which must be of ``profile``), ``machines/<machine>`` for an emulated machine, ``""`` for the
    user's own; ``ValueError`` in one line for a bad name, both at once, or a run of another profile."""
    if run is not None and machine is not None:
        raise ValueError("run and machine do not go together: a shipped run was measured on its own machine")
    if machine is not None:
        check_machine(str(machine))
        return f"machines/{machine}"
    if run is not None:
        _check_profile(load_run(str(run)), profile)
        return f"runs/{run}"
    return ""


class RunError(ValueError):
    """A shipped run (or a run to ship) is incomplete, mixed, of another profile or not whole: one line."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _rel(path: Path) -> str:
    try:
        return str(Path(path).relative_to(paths.ROOT))
    except ValueError:
        return str(path)


def raw_files(cfg: Mapping[str, Any], manifest: "chapters.Manifest | None" = None) -> dict[str, tuple[str, str]]:
    """Every raw file a complete run of the profile ``cfg`` (:func:`cipherlab.pipeline.config.load_config`)
    writes: ``{experiment: (kind, owner)}``, kind ``chapter`` (owner: the chapter), ``pipeline`` (the rule) or
    ``variant`` (owner: a variant the run builds, :func:`cipherlab.pipeline.config.built_variants`)."""
    manifest = manifest or chapters.load()
    out = {name: ("chapter", ch.name) for ch in manifest.chapters for name in ch.raw}
    out.update({name: ("pipeline", name) for name in chapters.PIPELINE_RAW})
    if manifest.variants:
        for variant in built_variants(dict(cfg)):
            out.update({manifest.variants.stem(variant, x): ("variant", variant) for x in manifest.variants.raw})
    return out


# ----------------------------------------------------------------------------- a shipped run


@dataclass(frozen=True)
class ShippedRun:
    """A folder of ``data/runs/`` and its card."""

    path: Path
    card: dict

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def profile(self) -> str:
        return str(self.card["profile"])

    @property
    def machine(self) -> str:
        return str(self.card["machine"])

    @property
    def emulated(self) -> "str | None":
        """The emulated machine's name (``no-aes``), or None for the machine itself."""
        return (self.card.get("emulated") or {}).get("name")

    @property
    def label(self) -> str:
        """How the book names the run: ``amd-epyc-2026-11-28 (AMD EPYC, without AES instructions)``."""
        cpu = self.card.get("cpu", {}).get("model", "CPU not recorded")
        return f"{self.name} ({cpu}" + (", without AES instructions, emulated" if self.emulated == "no-aes"
                                        else f", emulated {self.emulated}" if self.emulated else "") + ")"

    @property
    def raw_names(self) -> tuple[str, ...]:
        return tuple(self.card.get("files", {}).get("raw", {}))

    @property
    def evidence_chapters(self) -> tuple[str, ...]:
        return tuple(self.card.get("files", {}).get("evidence", {}))

    def raw_gz(self, experiment: str) -> Path:
        return self.path / RAW_DIR / f"{experiment}.csv.gz"

    def raw_meta(self, experiment: str) -> Path:
        return self.path / RAW_DIR / f"{experiment}.meta.json"

    def evidence_file(self, chapter: str) -> Path:
        return self.path / EVIDENCE_DIR / f"evidence_{chapter}.csv"

    @property
    def notebooks(self) -> tuple[str, ...]:
        return tuple(self.card.get("files", {}).get("notebooks", {}))

    def notebook_gz(self, name: str) -> Path:
        return self.path / NOTEBOOK_DIR / f"{name}.ipynb.gz"


def load_run(name: str) -> ShippedRun:
    """The shipped run ``data/runs/<name>/`` with its card checked, or :class:`RunError` in one line."""
    try:
        folder = paths.run_dir(name)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    card_path = folder / CARD
    if not folder.is_dir():
        known = ", ".join(run_names()) or "none"
        raise RunError(f"{_rel(folder)}: no such shipped run (shipped: {known})")
    try:
        card = json.loads(card_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunError(f"{_rel(card_path)}: missing: the folder is not a shipped run") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RunError(f"{_rel(card_path)}: not readable JSON ({_one_line(exc)})") from None
    if not isinstance(card, dict) or card.get("format") != FORMAT:
        got = card.get("format") if isinstance(card, dict) else type(card).__name__
        raise RunError(f"{_rel(card_path)}: format {got!r}, this cipherlab reads format {FORMAT}")
    for key in ("profile", "machine", "commit", "files"):
        if key not in card:
            raise RunError(f"{_rel(card_path)}: records no {key!r}")
    if card["profile"] not in paths.PROFILES:
        raise RunError(f"{_rel(card_path)}: profile {card['profile']!r} is none of {paths.PROFILES}")
    return ShippedRun(folder, card)


def run_names() -> tuple[str, ...]:
    """Every folder of ``data/runs/`` that holds a card (sorted)."""
    if not paths.RUNS_DIR.is_dir():
        return ()
    return tuple(sorted(p.name for p in paths.RUNS_DIR.iterdir() if (p / CARD).is_file()
                        and re.fullmatch(paths.NAME_PATTERN, p.name)))


def shipped_runs(profile: str, exclude: Iterable[str] = ()) -> list[ShippedRun]:
    """The shipped runs of ``profile`` (newest last), those named in ``exclude`` left out; a run whose card
    cannot be read is left out too (:func:`check_run` names why)."""
    out = []
    for name in run_names():
        if name in set(exclude):
            continue
        try:
            run = load_run(name)
        except RunError:
            continue
        if run.profile == profile:
            out.append(run)
    return sorted(out, key=lambda r: (str(r.card.get("dates", {}).get("last", "")), r.name))


def latest_run(profile: str) -> str:
    """The newest shipped run of ``profile`` of the machine itself (not an emulated one), else any; RunError if none."""
    runs = shipped_runs(profile)
    if not runs:
        raise RunError(f"data/runs/ holds no shipped run of the {profile} profile "
                       f"(shipped: {', '.join(run_names()) or 'none'})")
    real = [r for r in runs if not r.emulated]
    return (real or runs)[-1].name


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _gunzip(path: Path) -> bytes:
    try:
        return gzip.decompress(path.read_bytes())
    except FileNotFoundError:
        raise RunError(f"{_rel(path)}: missing (the run's card lists it)") from None
    except (OSError, EOFError, zlib.error) as exc:
        raise RunError(f"{_rel(path)}: not a whole gzip file ({_one_line(exc)}): the file was truncated or "
                       "edited; fetch the run again") from None


def _check_profile(run: ShippedRun, profile: str) -> None:
    if run.profile != profile:
        fix = "add QUICK=1" if run.profile == "quick" else "drop QUICK=1"
        raise RunError(f"{_rel(run.path / CARD)}: a {run.profile}-profile run, refused for the {profile} "
                       f"profile ({fix})")


def _listed(run: ShippedRun, experiment: str) -> None:
    if experiment not in run.raw_names:
        raise RunError(f"{_rel(run.path)}: has no raw file {experiment} (a run without it cannot build this "
                       "book: it is incomplete, or of an older cipherlab)")


def _check_copy(run: ShippedRun, experiment: str, expected: "Mapping[str, Any] | None", copy: Path) -> None:
    """The one raw reader on ``copy`` (the decompressed CSV) and the run's record; its line names the shipped file."""
    try:
        check_raw_file(copy, run.raw_meta(experiment), experiment=experiment, profile=run.profile,
                       expected=expected)
    except RawDataError as exc:
        text = str(exc).replace(str(copy), _rel(run.raw_gz(experiment)))
        fix = getattr(_results, "_RAW_FIX", "")
        # a shipped file is never measured anew: fetched again if damaged, built by its own commit if older
        instead = (f"the run was measured with another configuration than this checkout's: build it with its "
                   f"commit {str(run.card.get('commit'))[:12]}" if "other parameters" in text else
                   "fetch the run again")
        if fix and fix in text:
            text = text.replace(fix, instead).replace(", or run with the parameters it was measured with", "")
        raise RunError(_one_line(text)) from None


def verify_raw(run: ShippedRun, experiment: str, expected: "Mapping[str, Any] | None") -> None:
    """One raw file of ``run``, decompressed whole and checked by the one raw reader against its record (rows,
    SHA-256, experiment, profile, the ``expected`` parameters); nothing is written."""
    _listed(run, experiment)
    data = _gunzip(run.raw_gz(experiment))
    with tempfile.TemporaryDirectory(prefix="cipherlab-run-") as tmp:
        copy = Path(tmp) / f"{experiment}.csv"
        copy.write_bytes(data)
        _check_copy(run, experiment, expected, copy)


def check_run(name: str, profile: str, expected: Mapping[str, Mapping[str, Any]],
              evidence: Iterable[str] = (), notebooks: Iterable[str] = ()) -> ShippedRun:
    """The shipped run ``name``, verified for a book of ``profile``: its card, every raw file ``expected`` names
    (whole, of its experiment and profile, measured with those parameters), the evidence of each chapter of
    ``evidence`` and each measuring notebook of ``notebooks``; else :class:`RunError` in one line naming the file."""
    run = load_run(name)
    _check_profile(run, profile)
    for experiment in expected:
        verify_raw(run, experiment, expected[experiment])
    for chapter in evidence:
        evidence_path(run, chapter)
    for notebook in notebooks:
        notebook_bytes(run, notebook)
    return run


def notebook_bytes(run: ShippedRun, name: str) -> bytes:
    """The measuring notebook ``name`` as the run executed it, checked against the card's SHA-256."""
    record = run.card.get("files", {}).get("notebooks", {}).get(name)
    if record is None:
        raise RunError(f"{_rel(run.path)}: has no measuring notebook {name} (a run without it cannot build this "
                       "book: it is incomplete, or of an older cipherlab)")
    data = _gunzip(run.notebook_gz(name))
    if _digest(data) != record.get("sha256"):
        raise RunError(f"{_rel(run.notebook_gz(name))}: SHA-256 {_digest(data)[:16]}..., but {CARD} recorded "
                       f"{str(record.get('sha256'))[:16]}...: the file was edited; fetch the run again")
    return data


def _own_tree(name: str, profile: "str | Profile", what: str) -> "tuple[Profile, Any]":
    """``(profile, run)`` when ``profile`` is the tree of the shipped run ``name`` and of its profile; else
    :class:`RunError` in one line: a run's ``what`` are unpacked only into its own tree."""
    prof = as_profile(profile)
    if prof.shipped_run != name:
        raise RunError(f"the {what} of run {name} are unpacked into its own tree (runs/{name}), not into "
                       f"{prof.tree or 'the user tree'}")
    run = load_run(name)
    _check_profile(run, prof.name)
    return prof, run


def unpack_notebook(name: str, notebook: str, profile: "str | Profile") -> Path:
    """Write the measuring notebook ``notebook`` of the shipped run ``name`` (checked) into ``profile``'s tree."""
    prof, run = _own_tree(name, profile, "notebooks")
    return write_bytes(prof.executed_notebook(notebook), notebook_bytes(run, notebook), parents=True)


def unpack(name: str, experiment: str, profile: "str | Profile", expected: "Mapping[str, Any] | None") -> Path:
    """Write the raw file ``experiment`` of the shipped run ``name`` (checked, :func:`verify_raw`) and its record
    into ``profile``'s raw tree (the book's own tree, ``build/runs/<name>/<profile>/raw/``). Returns the CSV."""
    prof, run = _own_tree(name, profile, "raw files")
    _listed(run, experiment)
    data = _gunzip(run.raw_gz(experiment))
    with atomic_path(prof.raw_csv(experiment), parents=True) as tmp:
        tmp.write_bytes(data)
        _check_copy(run, experiment, expected, tmp)
        # the record first, then the CSV lands (the one raw writer's order)
        write_bytes(prof.raw_meta(experiment), run.raw_meta(experiment).read_bytes(), parents=True)
    return prof.raw_csv(experiment)


def evidence_path(run: ShippedRun, chapter: str) -> "Path | None":
    """The evidence the run's chapter ``chapter`` wrote, checked against the card's SHA-256; None when the run
    has none for that chapter (it did not run it, or its cipherlab had no such chapter)."""
    record = run.card.get("files", {}).get("evidence", {}).get(chapter)
    if record is None:
        return None
    path = run.evidence_file(chapter)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RunError(f"{_rel(path)}: missing (the run's card lists it)") from None
    if _digest(data) != record.get("sha256"):
        raise RunError(f"{_rel(path)}: SHA-256 {_digest(data)[:16]}..., but {CARD} recorded "
                       f"{str(record.get('sha256'))[:16]}...: the file was edited; fetch the run again")
    return path


# ----------------------------------------------------------------------------- making one


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")[:60] or "machine"


def _same(values: Mapping[str, Any], what: str) -> Any:
    """The one value all raw files recorded for ``what``, else :class:`RunError` naming two that differ."""
    seen: dict[str, str] = {}
    for experiment, value in values.items():
        seen.setdefault(json.dumps(value, sort_keys=True, default=str), experiment)
    if len(seen) > 1:
        (a, ea), (b, eb) = list(seen.items())[:2]
        raise RunError(f"a mixed run: its raw files were measured with more than one {what} ({ea}: {a[:60]}, "
                       f"{eb}: {b[:60]}); run make reproduce to measure them all anew, then contribute")
    return json.loads(next(iter(seen))) if seen else None


_PACKAGES = ("numba", "llvmlite", "numpy", "pycryptodome", "scipy", "pandas")


def machine_card(metas: Mapping[str, dict], *, machine: str, profile: str, emulated: "Machine | None") -> dict:
    """The card of a run from its raw files' records (all of one commit, machine and software: else RunError)."""
    commit = _same({e: m.get("git_commit") for e, m in metas.items()}, "commit")
    host = _same({e: [m.get("node", {}).get("hostname"), m.get("cpu_model"), m.get("cpu_id")]
                  for e, m in metas.items()}, "machine (host name, CPU)")
    target = _same({e: m.get("jit_target") for e, m in metas.items()}, "JIT target (NUMBA_CPU_NAME)")
    versions = _same({e: [m.get("python")] + [m.get("packages", {}).get(p) for p in _PACKAGES]
                      for e, m in metas.items()}, "set of Python and package versions")
    first = next(iter(metas.values()))
    dates = sorted(str(m.get("date_utc", "")) for m in metas.values())
    clocks = [m["clock_hz_measured"] for m in metas.values() if isinstance(m.get("clock_hz_measured"), (int, float))]
    aes = bool(first.get("cpu_aes_ni")) and emulated is None
    return {
        "format": FORMAT, "machine": machine, "profile": profile, "commit": commit,
        "emulated": None if emulated is None else {"name": emulated.name, "about": emulated.about,
                                                   "env": dict(emulated.env)},
        "dates": {"first": dates[0], "last": dates[-1]},
        "run_ids": sorted({str(m.get("run_id")) for m in metas.values()}),
        "host": host[0],
        "cpu": {"model": host[1], "id": host[2], "flags": first.get("cpu_os_flags", "not recorded"),
                "aes_instructions": aes, "logical_cores": first.get("logical_cores"),
                "clock_hz_measured": clocks[0] if clocks else None, "os_clock": first.get("cpu_mhz_os"),
                "boost": first.get("cpu_boost"), "governor": first.get("cpu_governor")},
        "jit_target": target, "numba_threads": first.get("numba_threads"),
        "memory_gib": first.get("memory_gib"), "os": first.get("os"), "platform": first.get("platform"),
        "python": versions[0], "packages": dict(zip(_PACKAGES, versions[1:])),
        "openssl": first.get("openssl_version", "not recorded"),
        "openssl_python": first.get("openssl_python", "not recorded"),
    }


def _without_checkout(data: bytes) -> bytes:
    """An executed notebook as it is shipped: the paths of the contributor's checkout (papermill records where it
    read and wrote the notebook) relative to it, so the folder names no directory of anyone's machine."""
    root = os.fspath(paths.ROOT).rstrip("/") + "/"
    return data.replace(json.dumps(root)[1:-1].encode(), b"")


def card_markdown(card: Mapping[str, Any], name: str) -> str:
    """The card in words, for the folder's README (every value from the card)."""
    cpu = card.get("cpu", {})
    clock = cpu.get("clock_hz_measured")
    emulated = card.get("emulated")
    lines = [f"# Shipped run `{name}`", "",
             f"A {card['profile']}-profile run of cipherlab at commit `{card['commit']}`, measured "
             f"{card['dates']['first']} .. {card['dates']['last']} (UTC). `make from-run RUN={name}"
             + (" QUICK=1" if card["profile"] == "quick" else "") + "` rebuilds its book from these files, "
             "without timing.", ""]
    if emulated:
        lines += [f"**Emulated machine `{emulated['name']}`**: {emulated['about']}.", ""]
    if str(card["commit"]).endswith("+dirty"):
        lines += ["**The run's checkout had uncommitted changes**: its code is the commit's plus those changes.", ""]
    rows = [("CPU", f"{cpu.get('model')} ({cpu.get('id')})"),
            ("AES instructions used", "yes" if cpu.get("aes_instructions") else "no"),
            ("logical cores", cpu.get("logical_cores")),
            ("clock (measured)", f"{clock / 1e9:.2f} GHz" if isinstance(clock, (int, float)) else "not measured"),
            ("clock (OS)", cpu.get("os_clock")), ("memory", f"{card.get('memory_gib')} GiB"),
            ("OS", card.get("platform")), ("JIT target", json.dumps(card.get("jit_target"), sort_keys=True)),
            ("Python", card.get("python")),
            *((p, v) for p, v in card.get("packages", {}).items()),
            ("OpenSSL", card.get("openssl")), ("raw files", len(card["files"]["raw"])),
            ("evidence tables", len(card["files"]["evidence"])),
            ("measuring notebooks", len(card["files"].get("notebooks", {})))]
    lines += ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    lines += ["", f"CPU flags: `{cpu.get('flags')}`", "",
              "Each raw file's `.meta.json` is its provenance record as the run wrote it (host name, load, "
              "parameters, seed, the CSV's rows and SHA-256)."]
    return "\n".join(lines) + "\n"


def _folder_name(machine: str, date: str, run_ids: list[str]) -> str:
    base = f"{machine}-{date}"
    for n in range(1, 100):
        name = base if n == 1 else f"{base}-{n}"
        folder = paths.RUNS_DIR / name
        if not folder.exists():
            return name
        try:
            same = load_run(name).card.get("run_ids") == run_ids
        except RunError:
            same = False
        if same:
            raise RunError(f"this run is already shipped as {_rel(folder)}")
    raise RunError(f"data/runs/ holds 99 runs named {base}-*: name the machine (MACHINE=...)")


def contribute(profile: str, expected: Mapping[str, Mapping[str, Any]], evidence: Mapping[str, Iterable[str]],
               notebooks: "Mapping[str, Iterable[str]] | None" = None, *, machine: "str | None" = None,
               emulated: "str | None" = None) -> Path:
    """Make ``data/runs/<machine>-<date>/`` from the last run of ``profile`` (the user's trees, or those of the
    emulated machine ``emulated``): every raw file ``expected`` names, checked whole and measured with those
    parameters, gzip-compressed with its record; the evidence of each chapter of ``evidence`` and each executed
    measuring notebook of ``notebooks`` (name -> the raw files it derives from or wrote: it must not be older
    than any); the card and its README. The folder appears whole or not at all. Returns its path."""
    emu = check_machine(emulated) if emulated else None
    src = Profile(profile, tree=f"machines/{emulated}" if emulated else "")
    where = _rel(src.raw)
    missing = [e for e in expected if not src.raw_csv(e).is_file() or not src.raw_meta(e).is_file()]
    if missing:
        raise RunError(f"an incomplete run: {where} lacks {', '.join(missing[:4])}"
                       + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
                       + f" (run make reproduce{' QUICK=1' if profile == 'quick' else ''}"
                       + (" NO_AES=1" if emulated == "no-aes" else "") + " first)")
    records = {}
    for experiment, want in expected.items():
        try:
            records[experiment] = check_raw_file(src.raw_csv(experiment), src.raw_meta(experiment),
                                                 experiment=experiment, profile=profile, expected=want)
        except RawDataError as exc:
            raise RunError(_one_line(exc)) from None
    chapters, notebooks = list(evidence), dict(notebooks or {})
    derived = ([(src.table(f"evidence_{c}"), evidence[c]) for c in chapters]
               + [(src.executed_notebook(n), raws) for n, raws in notebooks.items()])
    absent = [path for path, _ in derived if not path.is_file()]
    if absent:
        raise RunError(f"an incomplete run: it lacks {', '.join(_rel(p) for p in absent[:3])}"
                       + (f" and {len(absent) - 3} more" if len(absent) > 3 else "") + " (run make reproduce first)")
    stale = [path for path, raws in derived
             if any(path.stat().st_mtime < records[e].path.stat().st_mtime for e in raws if e in records)]
    if stale:
        raise RunError(f"a mixed run: {', '.join(_rel(p) for p in stale[:3])} older than the raw files it derives from "
                       "(run make reproduce to bring the chapters up to date, then contribute)")
    metas = {e: r.meta for e, r in records.items()}
    if emu is not None:
        targets = {e: (m.get("jit_target") or {}).get("cpu_name") for e, m in metas.items()}
        wrong = [e for e, t in targets.items() if t != emu.env.get("NUMBA_CPU_NAME")]
        if wrong:
            raise RunError(f"a mixed run: {wrong[0]} in {where} was not measured as the emulated machine "
                           f"{emu.name} (JIT target {targets[wrong[0]]!r})")
    slug = paths.check_name("machine", machine) if machine else (
        _slug(next(iter(metas.values())).get("cpu_model", "machine")) + (f"-{emu.name}" if emu else ""))
    card = machine_card(metas, machine=slug, profile=profile, emulated=emu)
    date = card["dates"]["last"][:10] or _dt.date.today().isoformat()
    name = _folder_name(slug, date, card["run_ids"])
    final = paths.RUNS_DIR / name
    part = paths.RUNS_DIR / f".{name}.part"
    if part.exists():
        shutil.rmtree(part)
    try:
        files: dict[str, dict] = {"raw": {}, "evidence": {}, "notebooks": {}}
        for experiment, record in sorted(records.items()):
            data = record.path.read_bytes()
            write_bytes(part / RAW_DIR / f"{experiment}.csv.gz", gzip.compress(data, 9, mtime=0), parents=True)
            write_bytes(part / RAW_DIR / f"{experiment}.meta.json", record.meta_path.read_bytes())
            files["raw"][experiment] = {"rows": record.meta[RAW_ROWS], "sha256": record.meta[RAW_SHA256]}
        for chapter in chapters:
            data = src.table(f"evidence_{chapter}").read_bytes()
            write_bytes(part / EVIDENCE_DIR / f"evidence_{chapter}.csv", data, parents=True)
            files["evidence"][chapter] = {"sha256": _digest(data)}
        for notebook in sorted(notebooks):   # not `name`: that is the run's folder, named in its README below
            data = _without_checkout(src.executed_notebook(notebook).read_bytes())
            write_bytes(part / NOTEBOOK_DIR / f"{notebook}.ipynb.gz", gzip.compress(data, 9, mtime=0), parents=True)
            files["notebooks"][notebook] = {"sha256": _digest(data)}
        card["files"] = files
        write_json(card, part / CARD)
        write_text(part / README, card_markdown(card, name))
        os.rename(part, final)
    finally:
        if part.exists():
            shutil.rmtree(part)
    return final


def size_bytes(run: ShippedRun) -> int:
    """The run's folder size on disk (bytes)."""
    return sum(p.stat().st_size for p in run.path.rglob("*") if p.is_file())
