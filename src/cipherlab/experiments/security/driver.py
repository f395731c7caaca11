"""The security chapter's driver: every measurement, then the tables and figures by name.

:func:`build` is the chapter's one step (:data:`cipherlab.experiments.security.chapter.CHAPTER`
has no measuring notebook: nothing here is timed).  It runs :func:`analyse` with the
chapter's validated parameters and returns every table and figure the chapter declares,
by name, with the evidence the decision engine turns into findings and into the verdict
of "the security side has slightly weakened" of papers 000/001
(:func:`cipherlab.experiments.security.evidence.evidence_rows`).

The ciphers are the papers' ciphers as *described* in ``config/ciphers/<name>.yaml``
(:func:`described_ciphers`), built from the core's blocks by
:func:`cipherlab.ciphers.variant_files.build_from_description`, the same way a
variant chapter builds a variant: the chapter analyses what the descriptions
say, and the selfcheck (:mod:`cipherlab.selfcheck`) shows before every run
that each description encrypts bit for bit like the registered cipher the
speed chapters time.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from tqdm import tqdm  # plain text bar: no ipywidgets warning in the book

from cipherlab.pipeline import inputs as _inputs
from cipherlab.pipeline.paths import CIPHER_DESCRIPTIONS_DIR
from cipherlab._checks import check_choices
from cipherlab.ciphers.variant_files import VariantInfo, build_from_description, load_variant
from cipherlab.analysis.stats import byte_entropy

from cipherlab.experiments.security import attack, diffusion, iv_fold, randomness, summary
from cipherlab.experiments.security.quiet import new_quiet
from cipherlab.experiments.security.sbox_properties import (difference_distribution_table, linear_approximation_table,
                              sbox_property_table)

def _stride_image(image: np.ndarray, stride: int) -> np.ndarray:
    if not isinstance(stride, int) or stride < 1:
        raise ValueError(f"image_stride must be a positive integer, got {stride!r}")
    return np.ascontiguousarray(image[::stride, ::stride])


def described_ciphers(names=None, folder=CIPHER_DESCRIPTIONS_DIR) -> tuple[VariantInfo, ...]:
    """The ciphers described in ``folder/<name>.yaml``, built (not registered), in the order of ``names``.

    ``names`` default: every description in ``folder``, sorted by name
    (``aes``, ``aes-2sbox``, ``maes-1``, ``maes-2``). ``ValueError`` naming
    ``ciphers`` and the described names for a name without a file.
    """
    folder = Path(folder)
    described = tuple(sorted(p.stem for p in folder.glob("*.yaml")))
    if not described:
        raise ValueError(f"ciphers: no cipher descriptions (*.yaml) in {folder}")
    names = check_choices("ciphers", described if names is None else names, described)
    return tuple(build_from_description(load_variant(folder / f"{n}.yaml")) for n in names)


def attack_targets(*, seed: int, image_stride: int = 1, text_bytes: int = 65536) -> dict:
    """The attack's plaintexts: the (strided) test image and seeded text."""
    image = _stride_image(_inputs.test_image(), image_stride)
    text = _inputs.text_bytes(text_bytes, np.random.default_rng(seed + 300))
    return {"image": image, "text": text}


def analyse(*, seed: int, ciphers=None, xor_byte: int = 0x7F, dependency_keys: int = 8,
            dependency_plaintexts: int = 256, avalanche_keys: int = 4,
            avalanche_plaintexts: int = 64, rounds_keys: int = 2, rounds_plaintexts: int = 64,
            image_stride: int = 1, text_bytes: int = 65536, randomness_bytes: int = 65536,
            n_sequences: int = 16, block_size: int = 128, apen_m: int = 8,
            serial_m: int = 10, sbox_spread: bool = True, progress: bool = False) -> dict:
    """Run every measurement of the chapter.

    Parameters
    ----------
    seed : int
        The profile seed; each part derives its own seed from it.
    ciphers : sequence of str, optional
        Names of cipher descriptions in ``config/ciphers/`` (default: all of
        them, :func:`described_ciphers`); the tables' ``cipher`` column.
    sbox_spread : bool
        Tabulate the second S-box for all 256 xor bytes (a few seconds).
    image_stride : int
        Take every ``image_stride``-th pixel row and column of the test image
        (1 = the whole 600 x 512 image).
    text_bytes, randomness_bytes : int
        Size of the attack's text target and of each low-entropy randomness
        input (all-zero, text); the third randomness input is the (strided)
        test image, at its own size.

    Returns
    -------
    dict of DataFrame (and the recovered plaintexts under ``"recovered"``)
    """
    ciphers = described_ciphers(ciphers)
    bar = tqdm(total=7, disable=not progress, desc="security")
    out: dict = {}

    cat = summary.sbox_catalogue(xor_byte)
    out["sbox_properties"] = sbox_property_table(cat)
    if sbox_spread:
        spread = pd.concat([summary.second_sbox_spread(c) for c in summary.CONSTRUCTIONS],
                           ignore_index=True)
        out["sbox_spread"] = spread
        out["sbox_spread_summary"] = pd.concat(
            [summary.spread_summary(spread[spread.construction == c]).assign(construction=c)
             for c in summary.CONSTRUCTIONS], ignore_index=True)
    out["_tables"] = {name: (difference_distribution_table(s), linear_approximation_table(s))
                      for name, s in cat.items()}
    bar.update()

    dep = []
    for k, cipher in enumerate(ciphers):
        rates = diffusion.byte_change_rates(cipher, n_keys=dependency_keys,
                                            n_plaintexts=dependency_plaintexts, seed=seed + k)
        dep.append(diffusion.dependency_frame(rates, cipher.name))
    out["dependency"] = pd.concat(dep, ignore_index=True)
    bar.update()

    hists, rows = [], []
    for k, cipher in enumerate(ciphers):
        hist, sac = diffusion.avalanche_sac(cipher, n_keys=avalanche_keys,
                                            n_plaintexts=avalanche_plaintexts, seed=seed + 100 + k)
        hists.append(diffusion.avalanche_frame(hist, cipher.name))
        rows.append(diffusion.avalanche_summary(hist, sac, cipher.name))
        out.setdefault("_sac", {})[cipher.name] = sac
    out["avalanche"] = pd.concat(hists, ignore_index=True)
    out["avalanche_summary"] = pd.DataFrame(rows)
    bar.update()

    out["rounds"] = pd.concat(
        [diffusion.rounds_to_full_diffusion(c, n_keys=rounds_keys, n_plaintexts=rounds_plaintexts,
                                            seed=seed + 200 + k) for k, c in enumerate(ciphers)],
        ignore_index=True)
    bar.update()

    targets = attack_targets(seed=seed, image_stride=image_stride, text_bytes=text_bytes)
    image = targets["image"]
    table, recovered, ciphertexts = attack.attack_table(targets, ciphers=ciphers, seed=seed + 400)
    out["attack"] = table
    out["recovered"] = recovered
    out["ciphertexts"] = ciphertexts
    out["_image_shape"] = image.shape
    out["_targets"] = targets
    bar.update()

    # entropy of the encrypted image, the papers' own security evidence
    rng = np.random.default_rng(seed + 500)
    ent = []
    for cipher in ciphers:
        key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        ct = new_quiet(key, cipher, "ecb", padding=True).encrypt(image.reshape(-1))
        ent.append({"cipher": cipher.name, "mode": "ecb", "input": "image",
                    "byte_entropy": byte_entropy(np.asarray(ct))})
    out["image_entropy"] = pd.DataFrame(ent)
    bar.update()

    # the low-entropy files, and the test image the papers encrypt (its pixel bytes, row by row)
    rin = {"zeros": bytes(randomness_bytes),
           "text": _inputs.text_bytes(randomness_bytes, np.random.default_rng(seed + 600)),
           "image": image.tobytes()}
    per_seq = randomness.ciphertext_randomness(rin, ciphers=ciphers, seed=seed + 700,
                                               n_sequences=n_sequences, block_size=block_size,
                                               apen_m=apen_m, serial_m=serial_m)
    out["randomness_sequences"] = per_seq
    out["randomness"] = randomness.randomness_summary(per_seq)
    bar.update()
    bar.close()

    # MAES's IV stage against its round keys: the IVs fold into them (whatever their source)
    if any(c.name.startswith("maes") for c in ciphers):
        out["iv_fold"] = iv_fold.iv_fold_table(seed=seed + 800)

    out["summary"] = summary.summary_table(out["sbox_properties"], out["dependency"],
                                           out["avalanche_summary"], out["rounds"], out["attack"],
                                           out["randomness"], xor_byte=xor_byte)
    return out


#: The tables :func:`analyse` computes that the chapter writes whole, as ``security_<name>``.
TABLES = ("sbox_properties", "sbox_spread", "sbox_spread_summary", "dependency", "avalanche",
          "avalanche_summary", "rounds", "attack", "image_entropy", "randomness",
          "randomness_sequences", "summary")
#: The recovered text the page shows (and writes, ``security_recovered_text``): cipher, mode, first bytes.
RECOVERED_TEXT = ("maes-2", "cbc", 300)
#: The recovered-image figure's panels: (cipher, mode), each encrypted and recovered beside the original.
RECOVERED_IMAGES = (("maes-2", "ecb"), ("aes-2sbox", "cbc"), ("aes", "ecb"))
#: The S-boxes whose DDT and LAT the figure shows (names of :func:`summary.sbox_catalogue`, ``{x}``: the xor byte).
DDT_LAT_SBOXES = ("rijndael", "second (xor-index, {x:02X})", "aes-2sbox round: S2(S(x)) (xor-sbox, {x:02X})")


def recovered_text(results: dict, cipher: str = RECOVERED_TEXT[0], mode: str = RECOVERED_TEXT[1],
                   nbytes: int = RECOVERED_TEXT[2]) -> pd.DataFrame:
    """The first ``nbytes`` the key-free attack recovered from ``cipher``'s ``mode`` ciphertext of the text."""
    rec = results["recovered"][(cipher, mode, "text")]
    return pd.DataFrame([{"cipher": cipher, "mode": mode, "target": "text", "bytes_shown": min(nbytes, rec.size),
                          "text": bytes(rec[:nbytes]).decode("ascii", "replace")}])


def figures_of(results: dict, xor_byte: int) -> dict:
    """The chapter's figures, ``security_<name>`` -> matplotlib Figure, from :func:`analyse`'s results."""
    from cipherlab.experiments.security import figures

    original = results["_targets"]["image"]
    shown = {f"{c} {m.upper()}": results["recovered"][(c, m, "image")] for c, m in RECOVERED_IMAGES}
    cts = {f"{c} {m.upper()}": results["ciphertexts"][(c, m, "image")] for c, m in RECOVERED_IMAGES}
    sboxes = [n.format(x=xor_byte) for n in DDT_LAT_SBOXES]
    return {"security_ddt_lat": figures.ddt_lat_figure(results["_tables"], sboxes),
            "security_dependency_figure": figures.dependency_figure(results["dependency"]),
            "security_avalanche_figure": figures.avalanche_figure(results["avalanche"]),
            "security_sac": figures.sac_figure(results["_sac"]),
            "security_rounds_figure": figures.rounds_figure(results["rounds"]),
            "security_recovered_image": figures.recovered_image_figure(original, cts, shown),
            "security_randomness_figure": figures.randomness_figure(results["randomness"])}


def build(run, raw=None) -> dict:
    """Every table and figure of the chapter, by name, for ``run`` (a :class:`cipherlab.pipeline.params.Run`).

    ``raw`` is unused (the chapter has no measuring notebook).  The parameters
    are ``run.params``, validated at the door; the seed is the profile's.
    """
    import matplotlib.pyplot as plt

    from cipherlab.analysis import verdicts
    from cipherlab.present.plotting import style
    from cipherlab.experiments.security import evidence

    style()
    p = run.params
    results = analyse(seed=run.seed, **dataclasses.asdict(p))
    built: dict = {f"security_{n}": results[n] for n in TABLES}
    built["security_recovered_text"] = recovered_text(results)
    built["evidence_security"] = verdicts.evidence_frame(
        evidence.evidence_rows(results, profile=run.profile.name, xor_byte=p.xor_byte))
    for name, fig in figures_of(results, p.xor_byte).items():
        built[name] = fig
        plt.close(fig)   # saved and shown from the saved file, not drawn again at the cell's end
    return built
