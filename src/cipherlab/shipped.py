"""Shipped runs from the command line: contribute the last run, check a shipped one, unpack it for a book.

``python -m cipherlab.shipped`` (what ``make contribute`` and ``make from-run`` call)::

    contribute [--profile P] [--machine NAME] [--emulated no-aes]  data/runs/<machine>-<date>/ from the last run
    check RUN [--profile P]                    every file of data/runs/RUN checked: whole, of this code's parameters
    unpack RUN NAME --profile P                one raw file or measuring notebook into the book's own tree (the
                                               rules shipped_raw and shipped_notebook)
    latest [--profile P]                       the newest shipped run of the profile
    list [--profile P]                         the shipped runs and their machines

Every refusal is one line on standard error and exit status 1 (2 for a bad argument).

What a complete run of a profile holds, and with which parameters each raw file must have been measured,
comes from the declarations: each chapter's raw files (its resolved parameters and seed,
:func:`cipherlab.experiments.outputs.raw_expected`, a variant's speed trials with the variant's name) and
the size sweep (:func:`cipherlab.analysis.sweep.sweep_parameters`); the folder's layout and the checks are
:mod:`cipherlab.pipeline.runs`.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from cipherlab.pipeline import chapters, paths, runs
from cipherlab.pipeline.config import load_config


def expected_raw(profile: str) -> dict[str, dict[str, Any]]:
    """Every raw file a complete run of ``profile`` writes (:func:`cipherlab.pipeline.runs.raw_files`), with
    what its record must say: the seed and parameters it was measured with."""
    from cipherlab.experiments.outputs import raw_expected
    from cipherlab.analysis.sweep import sweep_parameters

    manifest = chapters.load()
    cfg = load_config(profile)
    out: dict[str, dict[str, Any]] = {}
    for name, (kind, owner) in runs.raw_files(cfg, manifest).items():
        if kind == "chapter":
            out[name] = raw_expected(manifest.chapter(owner).run(profile))
        elif kind == "pipeline":   # the size sweep: its parameters, no seed
            out[name] = {"config": sweep_parameters(cfg["bench_sweep_repeats"])}
        else:
            out[name] = raw_expected(manifest.variants.run(profile), variant=owner)
    return out


def evidence_chapters() -> dict[str, tuple[str, ...]]:
    """Every chapter that writes evidence, with the raw files it derives it from."""
    manifest = chapters.load()
    return {name: manifest.chapter(name).raw for name in chapters.evidence_chapters()}


def measuring_notebooks() -> dict[str, tuple[str, ...]]:
    """Every measuring notebook (the book's appendix), with the raw files it writes."""
    return {ch.measure_name: ch.raw for ch in chapters.load().chapters if ch.measure}


def _fail(message: str) -> int:
    print(f"error: {' '.join(str(message).split())}", file=sys.stderr)
    return 1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m cipherlab.shipped", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("contribute", help="make data/runs/<machine>-<date>/ from the last run of the profile")
    c.add_argument("--profile", choices=paths.PROFILES, default="full")
    c.add_argument("--machine", help="the machine's name in the folder's (default: from the CPU model)")
    c.add_argument("--emulated", choices=sorted(runs.MACHINES),
                   help="contribute the run of this emulated machine (make reproduce NO_AES=1)")
    k = sub.add_parser("check", help="verify every file of data/runs/RUN for a book of the profile")
    k.add_argument("run")
    k.add_argument("--profile", choices=paths.PROFILES, default="full")
    u = sub.add_parser("unpack", help="one raw file or measuring notebook of data/runs/RUN into the book's own tree")
    u.add_argument("run")
    u.add_argument("experiment")
    u.add_argument("--profile", choices=paths.PROFILES, default="full")
    for name in ("latest", "list"):
        x = sub.add_parser(name, help="the newest shipped run" if name == "latest" else "the shipped runs")
        x.add_argument("--profile", choices=paths.PROFILES, default="full")
    args = p.parse_args(argv)
    try:
        if args.command == "contribute":
            if args.machine is not None:
                paths.check_name("machine", args.machine)
            folder = runs.contribute(args.profile, expected_raw(args.profile), evidence_chapters(),
                                     measuring_notebooks(), machine=args.machine, emulated=args.emulated)
            run = runs.load_run(folder.name)
            print(f"contributed {folder.relative_to(paths.ROOT)}/ ({len(run.raw_names)} raw files, "
                  f"{runs.size_bytes(run) / 1e6:.1f} MB): commit it to share the run; "
                  f"make from-run RUN={folder.name}{' QUICK=1' if args.profile == 'quick' else ''} "
                  "builds its book without timing")
        elif args.command == "check":
            run = runs.check_run(args.run, args.profile, expected_raw(args.profile), evidence_chapters(),
                                 measuring_notebooks())
            print(f"ok: data/runs/{run.name}: {len(run.raw_names)} raw files whole and measured with this code's "
                  f"{args.profile} parameters (commit {str(run.card['commit'])[:12]}, {run.label})")
        elif args.command == "unpack" and args.experiment in measuring_notebooks():
            runs.unpack_notebook(args.run, args.experiment, args.profile)
        elif args.command == "unpack":
            want = expected_raw(args.profile)
            if args.experiment not in want:
                return _fail(f"experiment must be a raw file of the {args.profile} profile or a measuring notebook "
                             f"{sorted(want) + sorted(measuring_notebooks())}, got {args.experiment!r}")
            runs.unpack(args.run, args.experiment, args.profile, want[args.experiment])
        elif args.command == "latest":
            print(runs.latest_run(args.profile))
        else:
            for run in runs.shipped_runs(args.profile):
                print(f"{run.name}\t{run.label}\tcommit {str(run.card['commit'])[:12]}")
    except (runs.RunError, ValueError) as exc:
        return _fail(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
