"""What the maes chapter runs: ``measure(run)`` (the timings) and ``build(run, raw)`` (every table and figure).

Orchestration only: the work is in :mod:`.measure` (timing cases), :mod:`.tables`
(Tables I-III, speed-ups), :mod:`.image` (Figure 8), :mod:`.entropy` (Table IV),
:mod:`.dependency`, :mod:`.keyspace`, :mod:`.figures` and :mod:`.evidence`.  The
parameters come validated from ``run.params`` (:class:`.chapter.Params`); what is
checked here depends on this machine (the styles its CPU runs).
"""
from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from cipherlab.present import plotting
from cipherlab.analysis.evidence import evidence_table
from cipherlab.analysis.verdicts import load_rules
from cipherlab.ciphers.registry import InsecureCipherWarning
from cipherlab.experiments.maes import dependency, entropy, figures, image, keyspace, steps, tables
from cipherlab.experiments.maes.common import CIPHERS, check_paper_styles, maes_options, measured_impls
from cipherlab.experiments.maes.evidence import Frames, evidence_rows
from cipherlab.experiments.maes.measure import measure_all
from cipherlab.pipeline.inputs import read_input

if TYPE_CHECKING:
    from cipherlab.pipeline.params import Run


@dataclass(frozen=True)
class Setup:
    """What a run's parameters mean on this machine: key and IV bytes, the MAES options, the styles timed
    (and why the others are not: the hardware style needs AES-NI)."""

    key: bytes
    iv: bytes
    options: dict
    styles: tuple
    not_measured: dict


def setup(run: Run) -> Setup:
    """The run's key, IV, MAES options and the styles this CPU times (the paper's two AES among them)."""
    p = run.params
    styles, not_measured = measured_impls(p.impls)
    check_paper_styles(p.original_style, p.optimized_style, styles)   # this CPU may not run one of them
    return Setup(key=bytes.fromhex(p.key_hex), iv=bytes.fromhex(p.iv_hex), options=maes_options(p), styles=styles,
                 not_measured=not_measured)


@contextlib.contextmanager
def quiet():
    """MAES warns on every use that it is insecure; the chapter says so once, loudly, on its page."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InsecureCipherWarning)
        yield


def min_trial_seconds() -> float:
    """The shortest trial (``config/verdicts.yaml``): shorter operations are timed in batches."""
    return float(load_rules()["min_trial_seconds"])


def measure(run: Run) -> dict[str, Any]:
    """Every timing of the chapter (:func:`.measure.measure_all`): ``{raw name: (frame, extra provenance)}``,
    the extra being the experiment's name, the run id, the batching floor and the styles timed."""
    p, s = run.params, setup(run)
    floor = min_trial_seconds()
    bulk = np.frombuffer(read_input(run.profile.input_file(p.bulk_file)), dtype=np.uint8)
    with quiet():
        frames = measure_all(
            s.key, bulk, options=s.options, impls=s.styles, trials_keyexp=p.trials_keyexp,
            trials_stage=p.trials_stage, trials_block=p.trials_block, trials_bulk=p.trials_bulk, warmup=p.warmup,
            stage_blocks=p.stage_blocks, iv=s.iv, min_trial_seconds=floor, bulk_modes=p.bulk_modes,
            seed=run.seed, processes=p.processes, progress=False, trials_steps=p.trials_steps,
            steps_states=p.steps_states)
    return {name: (df, {"experiment": name, "run_id": str(df["run_id"].iloc[0]), "min_trial_seconds": floor,
                        "impls_measured": list(s.styles)})
            for name, df in frames.items()}


def routes(run: Run, s: "Setup | None" = None) -> dict:
    """Which ciphertext byte each plaintext byte reaches, per cipher (None: it diffuses)."""
    s = s or setup(run)
    with quiet():
        return dependency.cipher_routes(s.key, s.options, seed=run.seed)


def _figure(fig):
    """A figure detached from pyplot: saved and shown by name (:mod:`cipherlab.experiments.outputs`), never
    drawn a second time by the notebook's inline backend."""
    plt.close(fig)
    return fig


def build(run: Run, raw: Mapping[str, pd.DataFrame]) -> dict[str, Any]:
    """Every table and figure of the chapter, by its declared name, from the raw timings (``raw``) and the
    deterministic experiments (Figure 8, Table IV, byte dependency, key space), and the evidence."""
    p, s = run.params, setup(run)
    plotting.style()
    orig, opt = p.original_style, p.optimized_style
    out: dict[str, Any] = {}
    out["maes_table1"] = tables.table1(raw["maes_keyexp"])
    out["maes_table2"] = tables.table2(raw["maes_stage"])
    out["maes_steps"] = steps.steps_table(raw["maes_steps"])
    out["maes_table3"] = tables.table3(raw["maes_block"], orig, opt, bulk=raw["maes_bulk"])
    sp_block = out["maes_speedups_block"] = tables.speedup_table(raw["maes_block"], orig, opt, seed=run.seed)
    out["maes_speedups_block_figure"] = _figure(figures.speedup_figure(sp_block, "One block (Table III)"))
    tp = out["maes_throughput"] = tables.throughput_table(raw["maes_bulk"])
    sp_bulk = out["maes_speedups_bulk"] = tables.speedup_table(raw["maes_bulk"], orig, opt, published_table=None,
                                                               seed=run.seed)
    out["maes_speedups_bulk_figure"] = _figure(figures.speedup_figure(
        sp_bulk, f"Bulk, {int(tp['bytes'].iloc[0])} bytes, one thread"))

    photo = read_input(run.profile.input_file(p.image_file))
    with quiet():
        images = image.image_ciphertexts(photo, s.key, s.iv, modes=p.image_modes, impl=p.image_impl,
                                         maes_options=s.options)
        control = {("aes", m): image.encrypt_image(photo, "aes", m, entropy.second_key(s.key), s.iv,
                                                   impl=p.image_impl) for m in p.image_modes}
        dep = pd.concat([dependency.byte_dependency(c, s.key, n_blocks=p.dependency_blocks, seed=run.seed,
                                                    **(s.options if c != "aes" else {})) for c in CIPHERS],
                        ignore_index=True)
    out["maes_fig8_images"] = _figure(figures.image_figure(images))
    out["maes_fig8_repeats"] = _figure(figures.repeat_map_figure(images))
    leaks = out["maes_leaks"] = image.leak_table(images, routes=routes(run, s))
    hist = out["maes_histograms"] = image.histogram_frame(images)
    out["maes_fig8_histograms"] = _figure(figures.histogram_figure(hist))
    ent = out["maes_entropy"] = entropy.entropy_table(images, alpha=p.alpha)
    ent_diff = out["maes_entropy_vs_aes"] = entropy.entropy_comparison(
        images, control, confidence=float(load_rules()["confidence"]))
    out["maes_dependency"] = dep.groupby("cipher")["bytes_changed"].agg(["mean", "min", "max"]).reset_index()
    ks = out["maes_keyspace"] = keyspace.keyspace_table(keys_per_second=p.keys_per_second)

    frames = Frames(raw["maes_keyexp"], raw["maes_stage"], raw["maes_block"], raw["maes_bulk"], ent, ent_diff, dep,
                    ks, leaks, overhead=raw["maes_overhead"], steps=raw["maes_steps"])
    out["evidence_maes"] = evidence_table(evidence_rows(
        frames, key=s.key, options=s.options, impls=s.styles, original_style=orig, optimized_style=opt,
        profile=run.profile.name, image_style=p.image_impl, seed=run.seed))
    out["maes_compile_times"] = (raw["maes_compile"].groupby(["experiment", "cipher", "impl", "role"])["seconds"]
                                 .max().reset_index().rename(columns={"seconds": "first_call_seconds"}))
    return out
