"""The evidence the battery measures, by name: what a variant paper's claim (its ``measure`` column) is decided on.

Each measure turns the results of :func:`cipherlab.experiments.variant.driver.run_battery`
into rows of :class:`cipherlab.analysis.evidence.Evidence` (an estimate with its
interval, a ``holds`` flag, or a p-value), in one unit, with the section of the
variant's page that shows the numbers.  The verdict engine
(:func:`cipherlab.analysis.verdicts.decide_all`) then decides every claim by its
declared rule, exactly as for the four papers.  ``-vs-aes`` measures are the
variant's value minus AES's, from the same run and settings: with an A/A
control (a second AES measurement) where the value is sampled, exact where it is
computed.  A measure with several rows names each row's ``reading`` (the claim
holds only if it holds under every reading, ``config/verdicts.yaml``).

:data:`MEASURES` lists every name, its unit and what it is; the how-to page shows the same list.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from cipherlab.analysis.evidence import Evidence
from cipherlab.experiments.variant import structure
from cipherlab.experiments.variant.equivalence import NONE_FOUND, short_transformation
from cipherlab.names import MODES
from cipherlab.experiments.variant.keys import CONTROL as SBOX_CONTROL, MEASURES as SBOX_MEASURES

__all__ = ["MEASURES", "SECTIONS", "evidence_for", "check_measure", "confirmed_equivalence", "short_of_ideal",
           "ideal_sac_deviation"]

#: AES, the control of every comparison (its rows in the battery's tables)
CONTROL = "aes"

#: measure -> (unit, what it is). The S-box measures take every name of
#: :data:`cipherlab.experiments.variant.keys.MEASURES`.
MEASURES = {
    "avalanche": ("%", "ciphertext bits changed per flipped plaintext bit, mean over every flip"),
    "avalanche-aes": ("%", "the same for AES, same run and settings"),
    "avalanche-vs-aes": ("pp", "the variant's avalanche minus AES's (percentage points), A/A control: AES minus AES"),
    "avalanche-single-draw": ("%", "p-value: the published value as the avalanche of one block pair of the variant "
                                  "(two-sided, against the measured distribution of single flips)"),
    "avalanche-single-draw-aes": ("%", "the same against AES's measured distribution"),
    "key-avalanche": ("%", "ciphertext bits changed per flipped key bit"),
    "key-avalanche-aes": ("%", "the same for AES"),
    "key-avalanche-aes-short-of-ideal": ("", "a premise that AES needs a change for one flipped key bit to change "
                                             "its ciphertext enough: holds when AES's key avalanche lies wholly below "
                                             "an ideal cipher's 50 % (its interval's upper end), which no change can "
                                             "exceed on average"),
    "avalanche-aes-short-of-ideal": ("", "a premise that a cipher's avalanche above AES's can be a gain: holds when "
                                         "AES's avalanche lies wholly below an ideal cipher's 50 % (its interval's "
                                         "upper end), two readings: a flipped plaintext bit, a flipped key bit"),
    "key-avalanche-vs-aes": ("pp", "the variant's key avalanche minus AES's"),
    "sac-vs-aes": ("", "how much nearer 1/2 the SAC matrix's entries lie than AES's (AES's deviation from 1/2 minus "
                       "the variant's: positive, the criterion better met), two readings: the S-box's 8 x 8 matrix "
                       "over every sampled key (its largest deviation, exact; where every S-box is Rijndael's up to "
                       "an XOR on its input, its output or both, decided as a statement: no such XOR changes the "
                       "SAC), the cipher's 128 x 128 matrix (its mean deviation, A/A control)"),
    "sac-cipher-vs-aes": ("", "the cipher's reading of sac-vs-aes alone (the 128 x 128 matrix's mean deviation from "
                              "1/2, A/A control), for a claim whose row reads the SAC as the whole cipher's"),
    "sac-sbox-vs-aes": ("", "the S-box's reading of sac-vs-aes alone, for a claim whose row reads the SAC as the "
                            "S-box criterion it was defined as (Webster and Tavares): decided as a statement where "
                            "every S-box is Rijndael's up to an XOR on its input, its output or both"),
    **{f"sbox-{m.replace('_', '-')}": ("", f"the S-box's {m.replace('_', ' ')} over every sampled key and round "
                                           "(median, interval min..max)") for m in SBOX_MEASURES},
    **{f"sbox-{m.replace('_', '-')}-vs-aes": ("", f"the S-box's {m.replace('_', ' ')} minus AES's over every sampled "
                                                  "key and round (exact: min..max)") for m in SBOX_MEASURES},
    "sp800-22": ("", "holds when every SP 800-22 test passes on the CTR keystream (ECB image in the detail)"),
    "image-entropy": ("bits", "byte entropy of the encrypted test image, one row per mode (ecb, cbc, ctr)"),
    "image-entropy-vs-aes": ("bits", "the same minus AES's, same key, IV and mode"),
    "key-bits": ("bits", "log2 of the key space: the AES key and the additional key byte, if any"),
    "key-bits-vs-aes": ("bits", "the same minus AES's for the same key size"),
    "design-margin": ("rounds", "own rounds minus the rounds after which both trail bounds are below 2^-128"),
    "design-margin-vs-aes": ("rounds", "the same minus AES's"),
    "broken": ("", "holds when an attack of the battery recovered a plaintext without the key"),
    "unbroken": ("", "holds when no attack of the battery recovered a plaintext"),
    "equivalent-to-aes": ("", "holds when the variant is AES, or AES with transformed round keys (decided from the "
                              "structure and confirmed by encrypting)"),
    "beyond-aes-key": ("", "a claim that the modification changes more than AES's key: does not hold when the variant "
                           "is AES with transformed round keys (decided and confirmed): AES's round function under "
                           "AES's round keys offset by the transformation; holds otherwise, which shows only that the cipher differs from AES, "
                           "never that it is stronger"),
    "additional-key-secret": ("", "a claim that an additional key byte adds security, the byte a key and so kept "
                                  "secret with it: holds when the key space exceeds AES's for every key size, an "
                                  "exhaustive key search 2^(the added bits) times as long; where the cipher is AES "
                                  "with transformed round keys (decided and confirmed) the detail says what carries "
                                  "over from AES"),
    "additional-key-or-sbox": ("", "a claim that credits a modification of the S-box with an additional key byte "
                                   "with more security, two readings the sentence leaves open: the key space the byte "
                                   "adds (as additional-key-secret) and the S-box modification itself (as "
                                   "beyond-aes-key: fails when the cipher is AES with transformed round keys)"),
    "speed": ("%", "speedup over AES in each style (ECB, the battery's size), with its A/A control"),
    "published-times-linear": ("", "the paper's own numbers: holds when its execution times (its claims in ms or s "
                                   "at a condition size=... B) lie on one straight line in the message length within "
                                   "half their last printed digit, as encrypting does (a fixed cost plus a cost per "
                                   "block)"),
    "published-times-off-line": ("", "the paper's own numbers, the other way round: holds when the least-squares line "
                                     "in the message length misses one of its execution times by more than half their "
                                     "last printed digit, the only tolerance a text without a spread of its times "
                                     "allows; such a miss cannot tell a cost other than the blocks' encryption from "
                                     "the noise of one timing"),
}

#: measure prefix -> the section of the variant's page that shows it (the heading's id)
SECTIONS = {"additional-key": "structural-equivalence-to-aes-and-the-key", "avalanche": "diffusion", "key-avalanche": "diffusion", "sac": "diffusion", "sbox": "the-byte-maps",
            "sp800": "randomness", "image": "randomness", "key-bits": "structural-equivalence-to-aes-and-the-key",
            "design": "trail-bounds-and-the-design-margin", "broken": "structural-attacks",
            "unbroken": "structural-attacks", "equivalent": "structural-equivalence-to-aes-and-the-key",
            "beyond": "structural-equivalence-to-aes-and-the-key", "published": "claims-of-the-paper",
            "speed": "speed-against-aes"}


def check_measure(name: str, unit: str) -> None:
    """``ValueError`` unless ``name`` is a measure of :data:`MEASURES` and ``unit`` its unit."""
    if name not in MEASURES:
        raise ValueError(f"measure must be one of {tuple(MEASURES)}, got {name!r}")
    if unit != MEASURES[name][0]:
        raise ValueError(f"measure {name!r} is in {MEASURES[name][0] or 'no unit'!r}; the claim's unit is {unit!r}")


def _section(name: str) -> str:
    return next(v for k, v in sorted(SECTIONS.items(), key=lambda kv: -len(kv[0])) if name.startswith(k))


def _hist(results: dict, cipher: str) -> np.ndarray:
    av = results["avalanche"] if cipher != CONTROL else results["controls"]["avalanche"]
    return av.sort_values("bits_flipped")["count"].to_numpy()


def _difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``a`` minus mean of ``b`` (histograms of changed bits, in percentage points) and its normal
    interval, the flips taken as independent trials."""
    k = np.arange(a.size)
    means, variances = [], []
    for h in (a, b):
        n = h.sum()
        m = (k * h).sum() / n
        means.append(m)
        variances.append(((k - m) ** 2 * h).sum() / max(n - 1, 1) / n)
    d = 100 * (means[0] - means[1]) / 128
    half = 100 * float(stats.norm.ppf(0.5 + confidence / 2)) * float(np.sqrt(sum(variances))) / 128
    return float(d), float(d - half), float(d + half)


def _single_draw_p(hist: np.ndarray, published: float) -> float:
    """Two-sided p-value of one block pair's avalanche ``published`` (%): the share of measured single flips at
    least as far from the measured mean."""
    k = np.arange(hist.size)
    mean = (k * hist).sum() / hist.sum()
    far = np.abs(k - mean) >= abs(published / 100 * 128 - mean) - 1e-9
    return float(hist[far].sum() / hist.sum())


def confirmed_equivalence(results: dict) -> "pd.Series | None":
    """The variant's structural equivalence to AES (``results["equivalence"]``'s row), decided and confirmed by
    encrypting; None when the battery found none or did not confirm it."""
    eq = results.get("equivalence")
    if eq is None or eq.iloc[0]["equivalent_to"] == NONE_FOUND or not bool(eq.iloc[0]["confirmed"]):
        return None
    return eq.iloc[0]


def added_key_bits(results: dict) -> int:
    """The key bits the variant adds to AES's at every key size (the least over the key sizes; 0 for none)."""
    bits = results["key_bits"]
    return int(min(bits[s] - 8 * s for s in bits))


def carries_over(results: dict) -> str:
    """What of AES carries over to a variant that is AES with transformed round keys (decided and confirmed), in
    words: AES's round function under AES's round keys offset by the transformation; an attack on the round function
    carries over as it is, one that rests on AES's key schedule up to a guess of the secret offset, where the
    variant adds key bits (its additional key), or with the offsets applied, where the design fixes them."""
    added = added_key_bits(results)
    if added > 0:
        return ("the cipher is AES's round function with AES's round keys offset by a secret of "
                f"{added} bits (round keys 1 to the last XORed with the additional key byte, round key 0 unchanged), "
                "so an attack on AES's round function carries over to it as it is, and an attack that rests on AES's "
                f"key schedule carries over at the cost of guessing that byte, 2^{added} times the work (with the byte "
                "in the rounds' SubBytes, where this file places it; were it in the key expansion's S-box too, the round "
                "keys would change non-linearly, and what holds either way is that the cipher is AES's round function "
                "under other round keys, every S-box property unchanged)")
    return ("the cipher is AES's round function with AES's round keys offset by constants the design fixes, so every "
            "attack on AES carries over to it with those offsets applied")


def short_of_ideal(hist: np.ndarray, flipped: str) -> dict:
    """Whether AES's avalanche (``hist`` of changed bits per flipped ``flipped`` bit) lies wholly below an ideal
    cipher's 50 %: only then can a cipher's avalanche above AES's be a move toward the ideal."""
    m, lo, hi = structure.mean_interval(hist)
    if hi < 50.0:
        where = "lies wholly below an ideal cipher's 50 %: a larger avalanche can be a move toward the ideal"
    else:
        where = ("meets an ideal cipher's 50 % within its interval" if lo <= 50.0 else
                 "lies above an ideal cipher's 50 %") + (": a larger avalanche than AES's is a move away from the "
                                                         "ideal, a bias, and no gain")
    return {"holds": bool(hi < 50.0), "n": int(hist.sum()),
            "detail": f"AES's {'key ' if flipped == 'key' else ''}avalanche {m:.4g} % [{lo:.4g}, {hi:.4g}] over "
                      f"{int(hist.sum())} single flipped {flipped} bits {where}"}


def _sbox(results: dict, measure: str, vs_aes: bool) -> list[dict]:
    samples = results["sbox_samples"]
    ours = samples[samples["cipher"] != SBOX_CONTROL][measure].astype(float)
    aes = float(samples[samples["cipher"] == SBOX_CONTROL][measure].iloc[0])
    values = ours - aes if vs_aes else ours
    keys = int(samples[samples["cipher"] != SBOX_CONTROL]["sample"].nunique())
    return [{"estimate": float(values.median()), "low": float(values.min()), "high": float(values.max()),
             "n": int(len(values)), "detail": f"{len(values)} S-boxes of {keys} sampled key(s); AES {aes:g}"}]


def _sac_sbox(results: dict) -> dict:
    """How much nearer 1/2 the S-box's SAC entries lie than AES's: AES's largest deviation of an entry of the 8 x 8
    SAC matrix from 1/2 minus the variant's, over every sampled S-box (positive: the criterion better met); where
    every S-box is Rijndael's up to an XOR on its input, its output or both, an exact identity decides it as a
    statement: SAC(S(x ^ a) ^ c) = SAC(S) for all a, c, entry by entry."""
    samples = results["sbox_samples"]
    ours = samples[samples["cipher"] != SBOX_CONTROL]["sac_max_deviation"].astype(float)
    aes = float(samples[samples["cipher"] == SBOX_CONTROL]["sac_max_deviation"].iloc[0])
    gain = aes - ours
    keys = int(samples[samples["cipher"] != SBOX_CONTROL]["sample"].nunique())
    sbox = {"estimate": float(gain.median()), "low": float(gain.min()), "high": float(gain.max()), "n": int(len(gain)),
            "detail": f"the largest deviation of an entry of the S-box's 8 x 8 SAC matrix from 1/2: "
                      f"{ours.min():.4g} to {ours.max():.4g} over {len(gain)} S-boxes of {keys} sampled key(s), "
                      f"AES's {aes:.4g}"}
    eq = confirmed_equivalence(results)
    if eq is None:
        return sbox
    return {"holds": bool(sbox["low"] > 0), "n": sbox["n"],
            "detail": f"every S-box is Rijndael's up to an XOR on {eq['sbox_xor']} ({eq['equivalent_to']}, "
                      "decided from the structure and confirmed by encrypting), and no XOR on an S-box's input or "
                      "output changes its SAC: SAC(S(x ^ a) ^ c) = SAC(S), since S(x ^ a) ^ c flips an output bit "
                      f"exactly when S flips it, over the same inputs; {sbox['detail']}"}


def sac_deviation(sac: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The mean deviation of a SAC matrix's entries from 1/2 (the criterion's statistic: 0 for an ideal cipher) and
    the half-width of its normal interval, the entries taken as independent."""
    dev = np.abs(np.asarray(sac, dtype=float) - 0.5).ravel()
    half = float(stats.norm.ppf(0.5 + confidence / 2)) * float(dev.std(ddof=1)) / np.sqrt(dev.size)
    return float(dev.mean()), half


def _sac_cipher(results: dict) -> dict:
    """How much nearer 1/2 the whole cipher's SAC entries lie than AES's: AES's mean deviation of an entry of the
    128 x 128 SAC matrix from 1/2 minus the variant's (positive: the criterion better met), same settings, with
    its A/A control (AES's minus a second AES measurement's)."""
    (ours, h1), (aes, h2) = (sac_deviation(m) for m in (results["sac"], results["control_results"]["sac"]))
    rep, h3 = sac_deviation(results["aes_repeat_sac"])
    d, half, ctrl, chalf = aes - ours, float(np.hypot(h1, h2)), aes - rep, float(np.hypot(h2, h3))
    worst = {who: float(np.abs(np.asarray(m, dtype=float) - 0.5).max())
             for who, m in (("ours", results["sac"]), ("aes", results["control_results"]["sac"]))}
    flips = int(_hist(results, results["cipher"]).sum())
    trials = flips // results["sac"].shape[0]    # each flip of input bit i is one trial of every entry of row i
    floor = ideal_sac_deviation(trials)
    return {"estimate": d, "low": d - half, "high": d + half, "control_low": ctrl - chalf,
            "control_high": ctrl + chalf, "n": flips,
            "detail": f"mean deviation of an entry of the 128 x 128 SAC matrix from 1/2, AES's minus the variant's: "
                      f"the variant's {ours:.4g} ± {h1:.2g} against AES's {aes:.4g} ± {h2:.2g} (largest: "
                      f"{worst['ours']:.4g} against {worst['aes']:.4g}); with {trials} trials per entry an ideal "
                      f"cipher's entries deviate from 1/2 by {floor:.4g} on average, by sampling alone: "
                      + _against_floor({"the variant's": (ours, h1), "AES's": (aes, h2)}, floor)}


def _against_floor(figures: dict, floor: float) -> str:
    """Where each mean deviation (name -> (value, half-width)) lies against an ideal cipher's ``floor``: within its
    interval of it, the figure is the measurement's noise floor and no property of the cipher."""
    at = [who for who, (v, h) in figures.items() if abs(v - floor) <= h]
    off = [f"{who} {'above' if v > floor else 'below'} it" for who, (v, h) in figures.items() if who not in at]
    if not off:
        return ("both figures lie at this noise floor within their intervals, so the measurement cannot tell either "
                "cipher's criterion from an ideal cipher's, nor a gain from noise")
    return "; ".join(([" and ".join(at) + " at it within its interval"] if at else []) + off)


def ideal_sac_deviation(trials: int) -> float:
    """The mean deviation from 1/2 of a SAC entry estimated from ``trials`` flips of an ideal cipher (each output
    bit flipping with probability 1/2): E|K/n - 1/2| for K ~ Binomial(n, 1/2), exactly; near sqrt(0.25/n)
    * sqrt(2/pi) for large n. The statistic's noise floor: no measured deviation below it is a property."""
    n = int(trials)
    if n < 1:
        raise ValueError(f"trials must be at least 1, got {trials!r}")
    k = np.arange(n + 1)
    return float((stats.binom.pmf(k, n, 0.5) * np.abs(k / n - 0.5)).sum())


TIME_UNITS = {"ms": 1e-3, "s": 1.0, "us": 1e-6}


def _published_times(results: dict) -> dict:
    """Whether the paper's printed execution times grow linearly with the message length (its rows in a unit of
    :data:`TIME_UNITS` at a condition ``size=N B``): a least-squares line in the length, its largest residual
    against half the last printed digit (the rounding of the printed values)."""
    claims = results.get("paper_claims")
    rows = [] if claims is None else [
        (r["condition"], r["published"], r["unit"]) for _, r in claims.iterrows()
        if r["unit"] in TIME_UNITS and str(r["condition"]).startswith("size=") and str(r["published"]).strip()]
    units = {u for _, _, u in rows}
    if len(rows) < 3 or len(units) != 1:
        raise ValueError("measure 'published-times-linear' needs at least 3 claims of the paper with a published time "
                         f"in one unit of {tuple(TIME_UNITS)} and a condition size=<n> B; found {len(rows)}")
    unit = units.pop()
    size = np.array([float(c.split("=", 1)[1].split()[0]) for c, _, _ in rows])
    t = np.array([float(p) for _, p, _ in rows])
    order = np.argsort(size)
    size, t, printed = size[order], t[order], [rows[i][1] for i in order]
    digits = max(len(p.split(".")[1]) if "." in p else 0 for p in printed)
    tol = 0.5 * 10.0 ** -digits
    slope, intercept = np.polyfit(size, t, 1)
    worst = float(np.max(np.abs(t - (intercept + slope * size))))
    per_block = [f"{(t[i + 1] - t[i]) / (size[i + 1] - size[i]) * 16:.3g}" for i in range(len(t) - 1)]
    sizes = ", ".join(f"{s:g}" for s in size)
    return {"holds": bool(worst <= tol * (1 + 1e-9)), "n": int(len(t)),
            "detail": f"the paper's {len(t)} times at {sizes} B; the least-squares line in the length misses them by up "
                      f"to {worst:.3g} {unit}, against the printed values' rounding of ±{tol:g} {unit} (the rounding "
                      "only: the text read gives no spread of its times, so no timing noise is allowed for, and a miss "
                      "beyond the rounding may be the noise of one timing as well as a cost other than the blocks'); "
                      f"the cost of one more 16-byte block between consecutive sizes: {', '.join(per_block)} {unit}"}


def _additional_key(results: dict) -> dict:
    """An additional key byte's security, the byte kept secret with the key (measure ``additional-key-secret``):
    holds when the key space exceeds AES's for every key size; the detail says by how many bits, what that makes of
    an exhaustive key search, and, where the cipher is AES with transformed round keys, that the modification adds
    nothing else."""
    bits = results["key_bits"]
    sizes = sorted(bits)
    extra = sorted({bits[s] - 8 * s for s in sizes})
    ours, aes = (", ".join(f"2^{b}" for b in values) for values in ([bits[s] for s in sizes], [8 * s for s in sizes]))
    added = f"{extra[0]}" if len(extra) == 1 else f"{extra[0]} to {extra[-1]}"
    if extra[0] <= 0:
        return {"holds": False, "n": len(sizes),
                "detail": f"the key space is {ours} keys against AES's {aes}: no more key to search than AES's"}
    eq = confirmed_equivalence(results)
    rest = ("" if eq is None else
            f"; the S-box change adds nothing else: the cipher is {eq['equivalent_to']} "
            f"({int(eq['blocks_equal'])} of {int(eq['blocks_confirmed'])} blocks equal, decided from its structure and "
            f"confirmed by encrypting): {carries_over(results)}")
    return {"holds": True, "n": len(sizes),
            "detail": f"trivially, by the {added} key bits the byte adds: {ours} keys against AES's {aes}, an "
                      f"exhaustive key search 2^{extra[0]} times as long{rest}"}


def _sbox_change(results: dict, e: pd.Series) -> dict:
    """A claim that the modification changes more than AES's key, for a cipher that is AES with transformed round
    keys (``e``, decided and confirmed): it does not hold, and the detail says what carries over from AES."""
    return {"holds": False,
            "detail": f"the cipher is {e['equivalent_to']} ({short_transformation(e['transformation'])}), "
                      "decided from its structure and confirmed by encrypting "
                      f"({int(e['blocks_equal'])} of {int(e['blocks_confirmed'])} blocks equal under "
                      f"{int(e['keys_confirmed'])} keys): {carries_over(results)}; the S-box change itself adds "
                      "nothing to it"}


def _speed(results: dict) -> list[dict]:
    if "speed" not in results:
        raise ValueError("measure 'speed': this run did not measure speed (measure_speed=False)")
    return [{"estimate": float(r["speedup_pct"]), "low": float(r["low"]), "high": float(r["high"]),
             "control_low": float(r["control_low"]), "control_high": float(r["control_high"]),
             "n": int(r["trials"]), "processes": int(r["processes"]), "size": f"{int(r['bytes'])} B",
             "style": r["style"], "mode": "ecb", "reading": f"style={r['style']}",
             "detail": "ECB encryption, one thread, interleaved with AES and its A/A twin"}
            for _, r in results["speed"].iterrows()]


def _rows(results: dict, name: str, published: "float | None") -> list[dict]:
    cipher = results["cipher"]
    if name in ("avalanche", "avalanche-aes", "key-avalanche", "key-avalanche-aes"):
        who = CONTROL if name.endswith("-aes") else cipher
        hist = results["key_avalanche"][who] if name.startswith("key") else _hist(results, who)
        m, lo, hi = structure.mean_interval(hist)
        return [{"estimate": m, "low": lo, "high": hi, "n": int(hist.sum()),
                 "detail": f"{int(hist.sum())} single-bit flips, {who}"}]
    if name == "key-avalanche-aes-short-of-ideal":
        return [short_of_ideal(results["key_avalanche"][CONTROL], "key")]
    if name == "avalanche-aes-short-of-ideal":
        return [{**short_of_ideal(_hist(results, CONTROL), "plaintext"), "reading": "a flipped plaintext bit"},
                {**short_of_ideal(results["key_avalanche"][CONTROL], "key"), "reading": "a flipped key bit"}]
    if name in ("avalanche-vs-aes", "key-avalanche-vs-aes"):
        key = name.startswith("key")
        ours = results["key_avalanche"][cipher] if key else _hist(results, cipher)
        aes = results["key_avalanche"][CONTROL] if key else _hist(results, CONTROL)
        d, lo, hi = _difference(ours, aes)
        row = {"estimate": d, "low": lo, "high": hi, "n": int(ours.sum()), "detail": "variant minus AES"}
        if not key:   # A/A: AES against a second AES measurement with other keys and plaintexts
            _, clo, chi = _difference(aes, results["aes_repeat"])
            row.update(control_low=clo, control_high=chi)
        return [row]
    if name in ("avalanche-single-draw", "avalanche-single-draw-aes"):
        if published is None:
            raise ValueError(f"measure {name!r} needs the claim's published value (in %)")
        who = CONTROL if name.endswith("-aes") else cipher
        return [{"p_value": _single_draw_p(_hist(results, who), published),
                 "detail": f"the published {published:g} % as one block pair ({published / 100 * 128:.1f} of 128 "
                           f"bits) against {int(_hist(results, who).sum())} measured flips of {who}"}]
    if name == "sac-sbox-vs-aes":
        return [{**_sac_sbox(results), "reading": "the S-box's SAC", "section": SECTIONS["sbox"]}]
    if name in ("sac-vs-aes", "sac-cipher-vs-aes"):
        whole = {**_sac_cipher(results), "reading": "the cipher's SAC"}
        if name == "sac-cipher-vs-aes":
            return [whole]
        return [{**_sac_sbox(results), "reading": "the S-box's SAC", "section": SECTIONS["sbox"]}, whole]
    if name.startswith("sbox-"):
        vs = name.endswith("-vs-aes")
        return _sbox(results, name[5:].removesuffix("-vs-aes").replace("-", "_"), vs)
    if name == "sp800-22":
        rnd = results["randomness"]
        ours = rnd[rnd["cipher"] == cipher]
        ctr, img = ours[ours["mode"] == "ctr"], ours[ours["mode"] == "ecb"]
        return [{"holds": bool(ctr["passed"].all()), "n": int(len(ctr)),
                 "detail": f"CTR keystream: {int(ctr['passed'].sum())} of {len(ctr)} tests passed; ECB image: "
                           f"{int(img['passed'].sum())} of {len(img)}"}]
    if name in ("image-entropy", "image-entropy-vs-aes"):
        ent = results["image_entropy"].set_index(["cipher", "mode"])["byte_entropy"]
        out = []
        for mode in MODES:
            v = float(ent[(cipher, mode)]) - (float(ent[(CONTROL, mode)]) if name.endswith("-vs-aes") else 0.0)
            out.append({"estimate": v, "mode": mode, "reading": f"mode={mode}", "n": 1,
                        "detail": f"byte entropy of the encrypted image ({mode.upper()})"})
        return out
    if name in ("key-bits", "key-bits-vs-aes"):
        return [{"estimate": float(results["key_bits"][size] - (8 * size if name.endswith("-vs-aes") else 0)),
                 "reading": f"key={8 * size} bits", "detail": "log2 of the key space"}
                for size in sorted(results["key_bits"])]
    if name in ("design-margin", "design-margin-vs-aes"):
        margin = results["margin"].set_index("cipher")["margin_rounds"]
        own = margin.loc[cipher]
        if pd.isna(own):
            return [{"holds": False, "detail": "no design margin: the trail bounds never fall below 2^-128"}]
        v = float(own) - (float(margin.loc[CONTROL]) if name.endswith("-vs-aes") else 0.0)
        return [{"estimate": v, "detail": "single-trail bounds (MILP)"}]
    if name in ("broken", "unbroken"):
        from cipherlab.experiments.variant.card import weaknesses
        found = weaknesses(results)
        return [{"holds": bool(found) == (name == "broken"),
                 "detail": "; ".join(w["what"] for w in found) or "no attack of the battery recovered a plaintext"}]
    if name == "equivalent-to-aes":
        e = results["equivalence"].iloc[0]
        return [{"holds": bool(e["equivalent_to"] != NONE_FOUND and e["confirmed"]),
                 "detail": f"{e['equivalent_to']}: {e['decided_from']}"}]
    if name == "beyond-aes-key":
        e = confirmed_equivalence(results)
        if e is None:
            first = results["equivalence"].iloc[0]
            return [{"holds": True, "detail": f"not AES with transformed round keys: {first['decided_from']}"}]
        return [_sbox_change(results, e)]
    if name == "additional-key-secret":
        return [_additional_key(results)]
    if name == "additional-key-or-sbox":
        e = confirmed_equivalence(results)
        change = _sbox_change(results, e) if e is not None else {
            "holds": True, "detail": "not AES with transformed round keys: "
                                     f"{results['equivalence'].iloc[0]['decided_from']}"}
        return [{**_additional_key(results), "reading": "the key space the additional byte adds"},
                {**change, "reading": "the S-box modification itself", "section": SECTIONS["beyond"]}]
    if name == "speed":
        return _speed(results)
    if name == "published-times-linear":
        return [_published_times(results)]
    if name == "published-times-off-line":
        row = _published_times(results)
        return [{**row, "holds": not row["holds"]}]
    raise ValueError(f"measure must be one of {tuple(MEASURES)}, got {name!r}")


def evidence_for(results: dict, claim: "pd.Series | dict", profile: str = "") -> list[Evidence]:
    """The evidence rows of one claim of a variant paper (its ``measure``), from the battery's results."""
    name = str(claim["measure"])
    published = claim.get("published_value")
    published = None if published is None or pd.isna(published) else float(published)
    out = []
    for row in _rows(results, name, published):
        row = {"section": _section(name), **row}
        out.append(Evidence(claim["claim_id"], unit=MEASURES[name][0], profile=profile, **row))
    return out
