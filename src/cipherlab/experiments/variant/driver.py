"""The variant chapters' driver: the whole battery for one registered cipher or variant description.

:func:`run_battery` runs correctness, byte maps and the S-box tables
cryptanalysts read (:mod:`.sbox_tables`), the wide-trail bounds (branch numbers,
active S-boxes by round, trail bounds and the design margin, :mod:`.trails`),
diffusion, the structural attacks (affinity, codebook, square, properties by
round), randomness and, if asked, speed against AES; :func:`save` writes the raw file, tables and
figures the chapter declares (:data:`cipherlab.experiments.variant.chapter.VARIANTS`) through
:mod:`cipherlab.experiments.outputs`, as every chapter's.  The notebook ``notebooks/variant.ipynb``
calls :func:`battery` (the battery with the chapter's validated parameters) and :func:`save`, and
displays the results; :mod:`cipherlab.experiments.variant.card` renders the
summary card.

Every part is seeded from ``seed``: all outputs but the timings are the same
run to run.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from cipherlab.present.plotting import style
from cipherlab.ciphers.variant_files import check_variant_name, register_variant_file
from cipherlab.ciphers.registry import cipher_names, lookup
from cipherlab.ciphers.sboxes import rijndael_sbox
from cipherlab.experiments.security import figures as security_figures
from cipherlab.experiments.security.driver import attack_targets
from cipherlab.experiments import outputs
from cipherlab.experiments.variant.chapter import VARIANTS
from cipherlab.pipeline.paths import variant_file

from cipherlab.experiments.security import diffusion
from cipherlab.experiments.variant import (affinity, bytemaps, card, claims, correctness, equivalence, figures,
                                           integral, keys, randomness, sbox_tables, speed, structure, trails)

__all__ = ["resolve", "battery", "run_battery", "save", "figures_of", "with_control", "TABLES", "TIMING_TABLES",
           "CONTROLLED"]

#: tables :func:`save` writes, as ``variant_<name>_<table>`` (declared in :data:`VARIANTS`)
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
        if path.is_file():   # a file named like a built-in cipher: never measure the built-in in its place
            check_variant_name(text, str(path))
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
        counts["speed_raw"] = outputs.read_raw(VARIANTS, run, variant=cipher)["speed"]
    return run_battery(variant, profile=run.profile.name, seed=run.seed, **counts)


def run_battery(variant: "str | Path", *, profile: str = "quick", seed: int = 0, correctness_messages: int = 2,
                correctness_bytes: int = 1000, dependency_keys: int = 2, dependency_plaintexts: int = 32,
                avalanche_keys: int = 2, avalanche_plaintexts: int = 32, affinity_triples: int = 64,
                rounds_triples: int = 8, lambda_sets: int = 3, image_stride: int = 4, keystream_bytes: int = 65536,
                n_sequences: int = 8, block_size: int = 128, apen_m: int = 8, serial_m: int = 10,
                measure_speed: bool = True, speed_bytes: int = 65536, speed_processes: int = 2,
                speed_trials: int = 10, trail_rounds: int = 10, sbox_keys: int = 8, equivalence_keys: int = 4,
                equivalence_blocks: int = 64, trail_keys: int = 2, speed_raw: "pd.DataFrame | None" = None) -> dict:
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
        and ``card`` (markdown). AES, measured with the same settings in the same run, is the control of the
        tables in :data:`CONTROLLED`: ``controls`` holds its frames (:func:`with_control` puts them beside the
        variant's), ``aes_repeat`` a second AES avalanche measurement (its A/A band), ``aes_repeat_sac`` its SAC matrix and ``key_avalanche``
        the key-bit histograms (``{cipher: uint8[129]}``).
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
                        ("trail_rounds", trail_rounds), ("sbox_keys", sbox_keys),
                        ("equivalence_keys", equivalence_keys), ("equivalence_blocks", equivalence_blocks),
                        ("trail_keys", trail_keys)):
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
    out.update(_trail_tables(cipher, maps, trail_rounds, trail_keys))

    control = cipher != "aes"
    out["controls"] = {}
    out["sbox_samples"] = keys.sbox_samples(cipher, n_keys=sbox_keys, seed=seed + 50)
    out["sbox_key_summary"] = keys.sbox_key_summary(out["sbox_samples"])
    out["equivalence"] = equivalence.equivalence_table(cipher, n_keys=equivalence_keys, n_blocks=equivalence_blocks,
                                                       seed=seed + 60)

    image = attack_targets(seed=seed, image_stride=image_stride, text_bytes=16)["image"]
    out["image"] = image
    targets = {"image": image}
    for name in (cipher, "aes") if control else (cipher,):
        part = _structure(name, targets, seed=seed, dependency_keys=dependency_keys,
                          dependency_plaintexts=dependency_plaintexts, rounds_triples=rounds_triples,
                          lambda_sets=lambda_sets, avalanche_keys=avalanche_keys,
                          avalanche_plaintexts=avalanche_plaintexts, affinity_triples=affinity_triples)
        if name == cipher:
            out.update(part)
        else:
            out["controls"] = {t: part[t] for t in CONTROLLED + ("avalanche_summary",)}
            out["control_results"] = part
    # a second AES avalanche from other plaintexts and keys: the A/A band of an avalanche difference
    repeat, repeat_sac = diffusion.avalanche_sac("aes", n_keys=avalanche_keys, n_plaintexts=avalanche_plaintexts,
                                        seed=seed + 350)
    out["aes_repeat"], out["aes_repeat_sac"] = repeat, repeat_sac
    out["key_avalanche"] = {name: structure.key_avalanche(name, n_keys=avalanche_keys,
                                                          n_plaintexts=max(1, avalanche_plaintexts // 8),
                                                          seed=seed + 320)
                            for name in ((cipher, "aes") if control else (cipher,))}
    out["avalanche_summary"] = _avalanche_summary(out, cipher)
    out["controls"].pop("avalanche_summary", None)
    out["codebook"], rec_c = structure.codebook_table(cipher, targets, out["byte_local"], seed=seed + 500)
    out["square_attack"], rec_s, ct_s = integral.square_attack_table(cipher, targets, out["rounds"],
                                                                     n_sets=lambda_sets, seed=seed + 450)
    rec_a, ct_a = out.pop("_affinity_recovered"), out.pop("_affinity_ciphertexts")
    out["recovered"] = {**{("affinity", m, t): v for (m, t), v in rec_a.items()},
                        **{("codebook", m, t): v for (m, t), v in rec_c.items()},
                        **{("square", m, t): v for (m, t), v in rec_s.items()}}
    out["ciphertexts"] = {**{("affinity", m, t): v for (m, t), v in ct_a.items()},
                          **{("square", m, t): v for (m, t), v in ct_s.items()}}

    out["randomness_sequences"], out["randomness"] = randomness.randomness_tables(
        cipher, image, keystream_bytes=keystream_bytes, seed=seed + 600, n_sequences=n_sequences,
        block_size=block_size, apen_m=apen_m, serial_m=serial_m)
    out["image_entropy"] = randomness.image_entropy_table(cipher, image, seed=seed + 650)
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
    info = lookup(cipher)
    out["key_bits"] = {size: 8 * size + (8 if "additional_key" in info.options else 0) for size in info.key_sizes}
    out["paper_claims"] = claims.load_paper_claims(cipher, path) if path is not None else None
    out["evidence"], out["verdicts"] = claims.paper_verdicts(out, out["paper_claims"], profile=str(profile),
                                                             page=VARIANTS.page(cipher))
    out["card"] = card.card_markdown(out, cipher)
    return out


#: Tables whose control (AES, same settings, same run) the battery measures; saved and shown beside the variant's.
CONTROLLED = ("dependency", "rounds", "avalanche", "affinity_test", "affinity_attack")


def _structure(cipher: str, targets: dict, *, seed: int, dependency_keys: int, dependency_plaintexts: int,
               rounds_triples: int, lambda_sets: int, avalanche_keys: int, avalanche_plaintexts: int,
               affinity_triples: int) -> dict:
    """Diffusion by round, the structural properties by round, the avalanche and the affinity attack of one
    cipher (the variant, or AES as its control, with the same seeds)."""
    dep, rates = structure.dependency_by_round(cipher, n_keys=dependency_keys, n_plaintexts=dependency_plaintexts,
                                               seed=seed + 100)
    part = {"dependency": dep}
    part["rounds"] = structure.rounds_table(cipher, rates, n_triples=rounds_triples, lambda_sets=lambda_sets,
                                            seed=seed + 200)
    part["property_rounds"] = structure.property_rounds(part["rounds"])
    part["byte_local"] = structure.is_byte_local(rates[max(rates)])
    part["avalanche"], part["avalanche_summary"], part["sac"] = structure.diffusion_tables(
        cipher, n_keys=avalanche_keys, n_plaintexts=avalanche_plaintexts, seed=seed + 300)
    part["affinity_test"], part["affinity_attack"], part["_affinity_recovered"], part["_affinity_ciphertexts"] = \
        affinity.affinity_table(cipher, targets, seed=seed + 400, n_triples=affinity_triples)
    return part


def _avalanche_summary(out: dict, cipher: str) -> pd.DataFrame:
    """The avalanche summary of the variant and AES, with the interval of each mean and the key avalanche."""
    frames = [out["avalanche_summary"]] + ([out["controls"]["avalanche_summary"]]
                                           if "avalanche_summary" in out["controls"] else [])
    table = pd.concat(frames, ignore_index=True)
    hists = {cipher: _hist(out["avalanche"])}
    if "avalanche" in out["controls"]:
        hists["aes"] = _hist(out["controls"]["avalanche"])
    cols = {"avalanche_low_percent": [], "avalanche_high_percent": [], "key_avalanche_mean_percent": [],
            "key_avalanche_low_percent": [], "key_avalanche_high_percent": []}
    for name in table["cipher"]:
        _, lo, hi = structure.mean_interval(hists[name])
        km, klo, khi = structure.mean_interval(out["key_avalanche"][name])
        for col, v in zip(cols, (lo, hi, km, klo, khi)):
            cols[col].append(v)
    return table.assign(**cols)


def _hist(avalanche: pd.DataFrame) -> np.ndarray:
    return avalanche.sort_values("bits_flipped")["count"].to_numpy()


def with_control(results: dict, table: str) -> pd.DataFrame:
    """``results[table]`` with AES's rows (the control of :data:`CONTROLLED`) below the variant's."""
    control = results.get("controls", {}).get(table)
    return results[table] if control is None else pd.concat([results[table], control], ignore_index=True)


def _trail_tables(cipher: str, maps: dict, trail_rounds: int, trail_keys: int) -> dict:
    """The S-box tables and the wide-trail tables of ``cipher``, AES's beside them (the control)."""
    named = {**maps, bytemaps.CONTROL: rijndael_sbox()}
    ciphers = (cipher,) if cipher == "aes" else (cipher, "aes")
    bounds, times = zip(*(trails.bound_table(c, trail_rounds, trail_keys) for c in ciphers))
    return {"sbox_tables": sbox_tables.sbox_table(named), "sbox_spectra": sbox_tables.spectra_table(named),
            "linear_layer": pd.DataFrame([trails.layer_properties(c) for c in ciphers]),
            "trail_bounds": pd.concat(bounds, ignore_index=True), "milp_times": pd.concat(times, ignore_index=True),
            "margin": pd.concat([trails.margin_table(c, trail_keys) for c in ciphers], ignore_index=True)}


def table_name(cipher: str, table: str) -> str:
    """``variant_<name>_<table>``: the stem the variant chapters' rule declares (:meth:`Variants.stem`)."""
    return VARIANTS.stem(cipher, table)


def save(run, results: dict) -> dict:
    """Write what :func:`battery` returned for ``run`` (:mod:`cipherlab.experiments.outputs`, with the
    variant's name): the raw speed trials with their provenance, every declared table (AES's control rows
    beside the variant's where :data:`CONTROLLED` says so) and the figures (:func:`figures_of`); returns
    ``{figure: Figure}`` (open, for display). Speed trials a shipped run measured (``speed_shipped``) are
    already this tree's raw file: read, never rewritten."""
    cipher, raw = results["cipher"], results["speed_raw"]
    if not results.get("speed_shipped"):
        outputs.save_raw(VARIANTS, run, {"speed": (raw, {"run_id": str(raw["run_id"].iloc[0]), "variant": cipher})},
                         variant=cipher)
    figs = figures_of(results)
    tables = {t: with_control(results, t) for t in TABLES}
    tables.update({t: results[t] for t in TIMING_TABLES if t in results})
    outputs.save(VARIANTS, run, tables, figures=figs, variant=cipher)
    return figs


def figures_of(results: dict) -> dict:
    """The battery's figures, ``{figure: Figure}`` (the names :data:`VARIANTS` declares)."""
    style()
    cipher = results["cipher"]
    figs = {"dependency": figures.dependency_rounds_figure(with_control(results, "dependency")),
            "rounds": figures.rounds_figure(with_control(results, "rounds")),
            "avalanche": security_figures.avalanche_figure(with_control(results, "avalanche")),
            "trail_bounds": figures.trail_bounds_figure(results["trail_bounds"], cipher),
            "sbox_keys": figures.sbox_keys_figure(results["sbox_samples"])}
    key = ("affinity", "ecb", "image")
    rows = [(cipher, results["ciphertexts"][key], results["recovered"][key])]
    aes = results.get("control_results")
    if aes is not None:
        target = ("ecb", "image")
        rows.append(("aes", aes["_affinity_ciphertexts"][target], aes["_affinity_recovered"][target]))
    figs["affinity_attack"] = figures.attack_figure(results["image"], rows, "the 129-query affinity attack")
    return figs
