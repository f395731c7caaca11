"""The variant chapters' driver: the whole battery for one registered cipher or variant description.

:func:`run_battery` runs correctness, byte maps and the S-box tables
cryptanalysts read (:mod:`.sbox_tables`), the wide-trail bounds (branch numbers,
active S-boxes by round, trail bounds and the design margin, :mod:`.trails`),
diffusion, the structural attacks (affinity, codebook, square, properties by
round), randomness and, if asked, speed against AES; :func:`save_all` and :func:`save_figures` write the
tables and figures the chapter declares (:data:`cipherlab.experiments.variant.chapter.VARIANTS`).  The
notebook ``notebooks/variant.ipynb`` calls :func:`battery` (the battery with the chapter's validated
parameters) and these two, and displays the results; :mod:`cipherlab.experiments.variant.card` renders the
summary card.

Every part is seeded from ``seed``: all outputs but the timings are the same
run to run.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import numpy as np
import pandas as pd

from cipherlab.analysis.plotting import save_figure, style
from cipherlab.ciphers.described import register_variant_file
from cipherlab.ciphers.registry import cipher_names
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security import figures as security_figures
from cipherlab.experiments.security.driver import attack_targets
from cipherlab.experiments.variant.chapter import VARIANTS
from cipherlab.pipeline.paths import as_profile, variant_file
from cipherlab.pipeline.provenance import run_metadata
from cipherlab.pipeline.results import read_raw, save_raw, save_table

from cipherlab.experiments.variant import (affinity, bytemaps, card, correctness, figures, integral, randomness,
                                           sbox_tables, speed, structure, trails)

__all__ = ["resolve", "battery", "battery_parameters", "run_battery", "save_all", "save_figures", "TABLES", "TIMING_TABLES"]

#: tables :func:`save_all` writes, as ``variant_<name>_<table>`` (declared in :data:`VARIANTS`)
TABLES = VARIANTS.tables
#: tables whose bytes depend on measured times (``milp_times`` always, the others with ``measure_speed``)
TIMING_TABLES = VARIANTS.timing_tables


def resolve(variant: "str | Path") -> tuple[str, "Path | None"]:
    """``(registered name, description file or None)`` for a name or a description path.

    A name not yet registered is looked up as ``config/variants/<name>.yaml``
    and registered from there; a path is registered from that file.
    """
    if not isinstance(variant, (str, Path)) or not str(variant):
        raise ValueError(f"variant must be a cipher name or a path to a variant file, got {variant!r}")
    text = str(variant)
    if text.endswith((".yaml", ".yml")) or "/" in text:
        path = Path(text)
        if not path.is_file():
            raise ValueError(f"variant: no variant file {path}")
        return register_variant_file(path).name, path.resolve()
    path = variant_file(text)
    if text in cipher_names(families=True):
        return text, (path if path.is_file() else None)
    if not path.is_file():
        raise ValueError(f"variant must be a registered cipher {cipher_names()} or have a file {path}; "
                         f"got {text!r}")
    return register_variant_file(path).name, path


def _positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def battery(run, variant: "str | Path") -> dict:
    """:func:`run_battery` on ``variant`` with the chapter's parameters: ``run.params`` (validated at the
    door, :class:`cipherlab.experiments.variant.chapter.Params`; ``names`` lists the variants a run builds,
    it is not a count), the profile and its seed.

    In the tree of a book built from a shipped run (``run.profile.shipped_run``) nothing is timed: the speed
    trials are the run's raw file, read through the one raw reader (whole, of this variant, measured with
    these parameters)."""
    counts = {k: v for k, v in dataclasses.asdict(run.params).items() if k != "names"}
    if run.profile.shipped_run:
        cipher, _ = resolve(variant)
        counts["speed_raw"] = read_raw(table_name(cipher, "speed"), run.profile,
                                       expected={"seed": run.seed, "config": battery_parameters(run), "variant": cipher})
    return run_battery(variant, profile=run.profile.name, seed=run.seed, **counts)


def battery_parameters(run) -> dict:
    """The arguments :func:`battery` passes (the chapter's parameters, :func:`run_battery`'s defaults for the
    rest): what the speed trials' provenance records as their ``config``."""
    skip = ("variant", "profile", "seed", "speed_raw")
    out = {n: p.default for n, p in _BATTERY_SIGNATURE.parameters.items() if n not in skip}
    out.update({k: v for k, v in dataclasses.asdict(run.params).items() if k != "names"})
    return out


def run_battery(variant: "str | Path", *, profile: str = "quick", seed: int = 0, correctness_messages: int = 2,
                correctness_bytes: int = 1000, dependency_keys: int = 2, dependency_plaintexts: int = 32,
                avalanche_keys: int = 2, avalanche_plaintexts: int = 32, affinity_triples: int = 64,
                rounds_triples: int = 8, lambda_sets: int = 3, image_stride: int = 4, keystream_bytes: int = 65536,
                n_sequences: int = 8, block_size: int = 128, apen_m: int = 8, serial_m: int = 10,
                measure_speed: bool = True, speed_bytes: int = 65536, speed_processes: int = 2,
                speed_trials: int = 10, trail_rounds: int = 10, speed_raw: "pd.DataFrame | None" = None) -> dict:
    """Every part of the battery for ``variant`` (a registered name or a description file).

    ``speed_raw``: speed trials measured before (a shipped run's, read by :func:`battery`), used instead of
    timing; everything else is computed as always.

    Returns
    -------
    dict
        DataFrames under the names of :data:`TABLES` and :data:`TIMING_TABLES`
        (``speed`` and ``compile`` only with ``measure_speed``; the trail
        tables have AES's rows beside the variant's, ``trail_rounds`` round
        counts each), plus ``cipher``, ``variant_file``, ``seed`` and
        ``parameters`` (the other arguments: the raw file's provenance), ``byte_local``, ``image``, ``recovered`` and ``ciphertexts``
        (``(attack, mode, target) -> uint8 array``), ``sac``, ``speed_raw``
        and ``card`` (markdown).
    """
    # the arguments (the speed trials' provenance); speed_raw is data, not a parameter
    parameters = {k: v for k, v in locals().items() if k not in ("variant", "profile", "seed", "speed_raw")}
    for name, value in (("correctness_messages", correctness_messages), ("correctness_bytes", correctness_bytes),
                        ("dependency_keys", dependency_keys), ("dependency_plaintexts", dependency_plaintexts),
                        ("avalanche_keys", avalanche_keys), ("avalanche_plaintexts", avalanche_plaintexts),
                        ("affinity_triples", affinity_triples), ("rounds_triples", rounds_triples),
                        ("lambda_sets", lambda_sets),
                        ("image_stride", image_stride), ("n_sequences", n_sequences),
                        ("speed_processes", speed_processes), ("speed_trials", speed_trials),
                        ("trail_rounds", trail_rounds)):
        _positive(name, value)
    if _positive("speed_bytes", speed_bytes) % 16:
        raise ValueError(f"speed_bytes must be a positive multiple of 16, got {speed_bytes!r}")
    if not isinstance(measure_speed, (bool, np.bool_)):
        raise ValueError(f"measure_speed must be True or False, got {measure_speed!r}")
    cipher, path = resolve(variant)
    out: dict = {"cipher": cipher, "variant_file": path, "seed": seed, "parameters": parameters}
    out["correctness"] = correctness.correctness_table(cipher, seed=seed, n_messages=correctness_messages,
                                                       message_bytes=correctness_bytes)
    maps = bytemaps.byte_maps(cipher)
    out["byte_maps"] = bytemaps.byte_map_table(maps)
    out.update(_trail_tables(cipher, maps, trail_rounds))

    dep, rates = structure.dependency_by_round(cipher, n_keys=dependency_keys, n_plaintexts=dependency_plaintexts,
                                               seed=seed + 100)
    out["dependency"] = dep
    out["rounds"] = structure.rounds_table(cipher, rates, n_triples=rounds_triples, lambda_sets=lambda_sets,
                                           seed=seed + 200)
    out["property_rounds"] = structure.property_rounds(out["rounds"])
    out["byte_local"] = structure.is_byte_local(rates[max(rates)])
    out["avalanche"], out["avalanche_summary"], out["sac"] = structure.diffusion_tables(
        cipher, n_keys=avalanche_keys, n_plaintexts=avalanche_plaintexts, seed=seed + 300)

    image = attack_targets(seed=seed, image_stride=image_stride, text_bytes=16)["image"]
    out["image"] = image
    targets = {"image": image}
    out["affinity_test"], out["affinity_attack"], rec_a, ct_a = affinity.affinity_table(
        cipher, targets, seed=seed + 400, n_triples=affinity_triples)
    out["codebook"], rec_c = structure.codebook_table(cipher, targets, out["byte_local"], seed=seed + 500)
    out["square_attack"], rec_s, ct_s = integral.square_attack_table(cipher, targets, out["rounds"],
                                                                     n_sets=lambda_sets, seed=seed + 450)
    out["recovered"] = {**{("affinity", m, t): v for (m, t), v in rec_a.items()},
                        **{("codebook", m, t): v for (m, t), v in rec_c.items()},
                        **{("square", m, t): v for (m, t), v in rec_s.items()}}
    out["ciphertexts"] = {**{("affinity", m, t): v for (m, t), v in ct_a.items()},
                          **{("square", m, t): v for (m, t), v in ct_s.items()}}

    out["randomness_sequences"], out["randomness"] = randomness.randomness_tables(
        cipher, image, keystream_bytes=keystream_bytes, seed=seed + 600, n_sequences=n_sequences,
        block_size=block_size, apen_m=apen_m, serial_m=serial_m)
    if measure_speed:
        if speed_raw is None:
            raw = speed.measure_speed(cipher, path, nbytes=speed_bytes, processes=speed_processes,
                                      trials=speed_trials, seed=seed + 700)
        else:   # trials measured by a shipped run (a book built without timing): read, never rewritten
            raw = speed_raw
            out["speed_shipped"] = True
        out["speed_raw"] = raw
        out["speed"] = speed.speed_table(raw, cipher, profile=str(profile), seed=seed + 700)
        out["compile"] = speed.compile_table(raw)
    out["card"] = card.card_markdown(out, cipher)
    return out


#: The battery's arguments and defaults, as defined here (:func:`battery_parameters`).
_BATTERY_SIGNATURE = inspect.signature(run_battery)


def _trail_tables(cipher: str, maps: dict, trail_rounds: int) -> dict:
    """The S-box tables and the wide-trail tables of ``cipher``, AES's beside them (the control)."""
    named = {**maps, bytemaps.CONTROL: rijndael_sbox()}
    ciphers = (cipher,) if cipher == "aes" else (cipher, "aes")
    bounds, times = zip(*(trails.bound_table(c, trail_rounds) for c in ciphers))
    return {"sbox_tables": sbox_tables.sbox_table(named), "sbox_spectra": sbox_tables.spectra_table(named),
            "linear_layer": pd.DataFrame([trails.layer_properties(c) for c in ciphers]),
            "trail_bounds": pd.concat(bounds, ignore_index=True), "milp_times": pd.concat(times, ignore_index=True),
            "margin": pd.concat([trails.margin_table(c) for c in ciphers], ignore_index=True)}


def table_name(cipher: str, table: str) -> str:
    """``variant_<name>_<table>``: the stem the variant chapters' rule declares (:meth:`Variants.stem`)."""
    return VARIANTS.stem(cipher, table)


def save_all(results: dict, profile) -> dict:
    """Write every table (and the raw speed trials) of :func:`run_battery`; returns ``{table: path}``."""
    cipher = results["cipher"]
    saved = {t: save_table(results[t], table_name(cipher, t), profile) for t in TABLES}
    for t in TIMING_TABLES:
        if t in results:
            saved[t] = save_table(results[t], table_name(cipher, t), profile)
    if "speed_raw" in results and not results.get("speed_shipped"):
        raw = results["speed_raw"]
        meta = run_metadata(profile=as_profile(profile).name, seed=results["seed"], config=results["parameters"],
                            run_id=str(raw["run_id"].iloc[0]), variant=cipher)
        saved["speed_raw"] = save_raw(raw, table_name(cipher, "speed"), profile, meta=meta)
    return saved


def save_figures(results: dict, profile) -> dict:
    """Draw and save the battery's figures as ``variant_<name>_<figure>``; returns ``{figure: Figure}`` (open)."""
    style()
    cipher = results["cipher"]
    figs = {"dependency": figures.dependency_rounds_figure(results["dependency"]),
            "rounds": figures.rounds_figure(results["rounds"]),
            "avalanche": security_figures.avalanche_figure(results["avalanche"]),
            "trail_bounds": figures.trail_bounds_figure(results["trail_bounds"], cipher)}
    key = ("affinity", "ecb", "image")
    figs["affinity_attack"] = figures.attack_figure(results["image"], results["ciphertexts"][key],
                                                    results["recovered"][key],
                                                    f"{cipher}: the 129-query affinity attack")
    for name, fig in figs.items():
        save_figure(fig, table_name(cipher, name), profile)
    return figs
