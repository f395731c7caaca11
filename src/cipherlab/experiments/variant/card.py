"""The summary card at the top of a variant's chapter: its weakest point and the cost of exploiting it.

Rendered from the battery's tables only (never a hand-written number).  The
structural weaknesses, worst first:

1. **affine over GF(2)**: every random triple of the affinity test held and the
   129-query attack recovered the plaintext exactly;
2. **byte-local**: the dependency matrix is a permutation and the codebook
   attack (256 + 1 queries) recovered the plaintext exactly;
3. **the square attack**: balanced one round short of the whole cipher, and
   the attack recovered the key and the plaintext exactly.

Then the design margin against differential and linear trails (the wide-trail
bound of :mod:`cipherlab.experiments.variant.trails`, beside AES's), or, for an
affine S-box, that the bound means nothing; the linear layer's branch number
and the active S-boxes in 4 rounds. Anything else (the round count of full
diffusion, the S-box measures against Rijndael's, randomness, speed) is listed
below.
"""

from __future__ import annotations

import pandas as pd
from cipherlab.ciphers.registry import lookup
from cipherlab.experiments.variant.bytemaps import CONTROL
from cipherlab.experiments.variant.equivalence import NONE_FOUND, short_transformation
from cipherlab.experiments.variant.measures import confirmed_equivalence
from cipherlab.experiments.variant.randomness import chance_of_failing, chance_of_passing_all, chance_of_worst_test
from cipherlab.experiments.variant.trails import TRAIL_KEYS

#: the tests the card lists when it finds nothing
TESTS_RUN = ("correctness (round trips, style agreement)", "byte-map measures and S-box tables (BCT, linear structures, "
             "cycles, spectra)", "branch numbers and active-S-box bounds by round (MILP)", "byte-dependency by round",
             "avalanche and SAC", "GF(2)-affinity test and 129-query attack",
             "byte-locality test and codebook attack", "integral property by round and the square attack",
             "structural properties by round",
             "SP 800-22 on a CTR keystream and an ECB image")
NO_WEAKNESS = "no structural weakness found by this battery"
#: the card's first line when no attack read the cipher but its design is weaker than AES's somewhere
NO_BREAK = "no attack of this battery recovered a plaintext"
#: SP 800-22 counts as a weakness only when a random source fails that many tests less often than this (a bound true
#: however the tests are correlated: :func:`cipherlab.experiments.variant.randomness.chance_of_failing`)
CHANCE = 0.01


def _exact(table: pd.DataFrame) -> bool:
    ran = table[table["ran"]] if "ran" in table.columns else table
    return bool(len(ran)) and bool(ran["exact"].all())


def weaknesses(results: dict) -> list[dict]:
    """The structural weaknesses the battery demonstrated, worst first: ``{"what", "cost"}``."""
    out = []
    test = results["affinity_test"].iloc[0]
    att = results["affinity_attack"]
    if bool(test["affine"]) and _exact(att):
        q = int(att["queries"].iloc[0])
        modes = ", ".join(m.upper() for m in dict.fromkeys(att["mode"]))
        out.append({"what": "affine over GF(2) for a fixed key",
                    "cost": f"{q} chosen plaintexts recover every plaintext without the key "
                            f"({modes}: {int(att['bytes_recovered'].sum())} of {int(att['bytes'].sum())} "
                            "target bytes recovered)"})
    cb = results["codebook"]
    if bool(results["byte_local"]) and _exact(cb):
        ran = cb[cb["ran"]]
        q = int(ran["queries"].iloc[0])
        out.append({"what": "byte-local (each output byte depends on one input byte)",
                    "cost": f"a codebook of 256 blocks per position plus one ({q} chosen plaintexts) "
                            "recovers every plaintext without the key"})
    sq = results["square_attack"]
    if _exact(sq):
        ran = sq[sq["ran"]]
        nr = int(ran["rounds"].iloc[0])
        out.append({"what": f"the square (integral) attack: balanced after {nr - 1} of its {nr} rounds",
                    "cost": f"{int(ran['queries'].iloc[0])} chosen plaintexts ({int(ran['lambda_sets'].iloc[0])} "
                            "Λ-sets and one check) recover the 128-bit key, and with it every plaintext "
                            f"({int(ran['bytes_recovered'].sum())} of {int(ran['bytes'].sum())} target bytes)"})
    return out


#: the standing of a variant, from the battery's findings (:func:`standing`): each with the label the chapter shows
STANDINGS = {"broken": "NOT secure: broken by this battery",
             "weaker": "NOT secure: its design is weaker than AES's",
             "as-aes": "AES with transformed round keys: AES's round function under AES's round keys offset, no "
                       "stronger than AES but for any key the offset adds",
             "stand-in": "not proven secure: the text read leaves the cipher open, and what the chapter measures is "
                         "its stand-in, which illustrates and decides nothing",
             "unproven": "a research cipher, not proven secure: no attack of this battery broke it, which proves "
                         "no security"}


def standing(results: dict) -> str:
    """The one rule that labels a variant (a key of :data:`STANDINGS`), from the battery's findings, in this order:
    an attack that reads it (``broken``); a design weaker than AES's (``weaker``, :func:`design_concerns`); a
    structural equivalence to AES, decided and confirmed (``as-aes``: AES's round function under offset round keys, so
    an attack on the round function carries over, one on the key schedule up to a guess of a secret offset); else
    ``unproven``; before all but the equivalence (which holds for every reading of what the text leaves open), a
    cipher measured only through the chapter's stand-in for a construction the paper leaves open (``stand-in``: its
    findings are the stand-in's, not the paper's cipher's). Only ``broken`` and ``weaker`` are findings against the
    design's security."""
    equivalent = confirmed_equivalence(results) is not None
    desc = getattr(lookup(results["cipher"]), "description", None)
    if desc is not None and dict(desc.paper or {}).get("stand_in") and not equivalent:
        return "stand-in"
    if weaknesses(results):
        return "broken"
    if design_concerns(results):
        return "weaker"
    return "as-aes" if equivalent else "unproven"


def design_concerns(results: dict, cipher: "str | None" = None) -> list[str]:
    """Where the variant's design is weaker than AES's in this run (same settings): a smaller design margin, fewer
    active S-boxes in 4 rounds, an S-box of larger differential uniformity or smaller nonlinearity (the worst over
    every sampled key and round), fewer SP 800-22 tests passed than AES where a random source would give a result as
    bad with probability below :data:`CHANCE` by a bound true however the tests are correlated (:func:`_chance`;
    never for a cipher that is AES up to its round keys, whose statistics are AES's). Each item says the variant's value and AES's; empty for AES itself or a variant at least as strong as
    AES in each of these."""
    cipher = cipher or results["cipher"]
    if cipher == "aes":
        return []
    out = []
    margin = results["margin"].set_index("cipher")
    v, aes = margin.loc[cipher], margin.loc["aes"]
    if bool(v["bound_meaningful"]) and pd.notna(aes["margin_rounds"]) and (
            pd.isna(v["margin_rounds"]) or v["margin_rounds"] < aes["margin_rounds"]):
        own = "none" if pd.isna(v["margin_rounds"]) else f"{int(v['margin_rounds'])} round(s)"
        out.append(f"a design margin of {own} against trails (AES {int(aes['margin_rounds'])})")
    if int(v["active_sboxes_4_rounds"]) < int(aes["active_sboxes_4_rounds"]):
        out.append(f"at least {int(v['active_sboxes_4_rounds'])} active S-boxes in 4 rounds "
                   f"(AES {int(aes['active_sboxes_4_rounds'])})")
    if "sbox_key_summary" in results:
        summary = results["sbox_key_summary"].set_index("measure")
        for measure, worse, label in (("differential_uniformity", "max", "S-box differential uniformity"),
                                      ("nonlinearity", "min", "S-box nonlinearity")):
            if measure not in summary.index:
                continue
            r = summary.loc[measure]
            bad = r["max"] > r["aes"] if worse == "max" else r["min"] < r["aes"]
            if bad:
                span = f"{r['min']:g}" if r["min"] == r["max"] else f"{r['min']:g} to {r['max']:g}"
                out.append(f"{label} {span} (AES {r['aes']:g})")
    if results.get("equivalence") is not None and confirmed_equivalence(results) is not None:
        return out   # AES's round function under offset round keys: its statistics measure that round function,
        # and a lower count of passed tests than AES's says nothing of the S-box change
    rnd = results["randomness"]
    for (mode, inp), d in rnd[rnd["cipher"] != "plaintext"].groupby(["mode", "input"], sort=False):
        ours, ref = d[d["cipher"] == cipher], d[d["cipher"] == "aes"]
        failed = int((~ours["passed"].astype(bool)).sum())
        chance, why = _chance(ours, failed)
        if (len(ours) and len(ref) and int(ours["passed"].sum()) < int(ref["passed"].sum())
                and (chance is None or chance < CHANCE)):
            out.append(f"SP 800-22 on the {mode.upper()} {inp}: {int(ours['passed'].sum())} of {len(ours)} tests "
                       f"passed (AES {int(ref['passed'].sum())} of {len(ref)}" + (f"; {why})" if why else ")"))
    return out


def _chance(ours: pd.DataFrame, failed: int) -> "tuple[float | None, str]":
    """How rare the variant's SP 800-22 result is for a truly random source, by a bound true however the tests are
    correlated, and the words saying so: SP 800-22's per-test reading (the worst test's count of passing sequences,
    :func:`~cipherlab.experiments.variant.randomness.chance_of_worst_test`) where the table has the counts, else the
    count of failed tests (:func:`~cipherlab.experiments.variant.randomness.chance_of_failing`); (None, "") without
    the pass probability."""
    if "expected_pass_probability" not in ours or not len(ours):
        return None, ""
    tail = "however the tests are correlated"
    if {"proportion", "sequences"} <= set(ours.columns):
        n = int(ours["sequences"].iloc[0])
        lowest = int((ours["proportion"] * ours["sequences"]).round().min())
        chance = chance_of_worst_test(lowest, n, len(ours))
        return chance, (f"its worst test had {n - lowest} of {n} sequences fail, which a random source gives in one of "
                        f"{len(ours)} tests with probability at most {chance:.2g}, {tail}")
    chance = chance_of_failing(failed, len(ours), float(ours["expected_pass_probability"].iloc[0]))
    return chance, f"a random source fails {failed} or more with probability at most {chance:.2g}, {tail}"


def equivalence_line(results: dict) -> "str | None":
    """The structural equivalence to AES, where the battery recognised one (decided and confirmed), else None."""
    eq = results.get("equivalence")
    if eq is None or eq.iloc[0]["equivalent_to"] == NONE_FOUND:
        return None
    e = eq.iloc[0]
    how = f" ({short_transformation(e['transformation'])})" if e["transformation"] else ""
    check = (f"confirmed by encrypting: {int(e['blocks_equal'])} of {int(e['blocks_confirmed'])} blocks equal under "
             f"{int(e['keys_confirmed'])} keys of the key sizes {e['key_sizes']}" if e["confirmed"] else
             f"**not** confirmed by encrypting: only {int(e['blocks_equal'])} of {int(e['blocks_confirmed'])} blocks "
             "equal")
    return (f"**equivalent to {e['equivalent_to']}**{how}: decided from the structure ({e['decided_from']}); "
            f"{check}. What the whole cipher does is what AES's round function does under AES's round keys offset by "
            "that transformation: an attack on the round function (differential, linear, integral) carries over as "
            "it is, and one that rests on AES's key schedule carries over up to a guess of any secret offset. A "
            "property of the S-box table that an XOR changes, such as its fixed points, can differ and says nothing "
            "of the cipher's security")


def card_markdown(results: dict, cipher: str) -> str:
    """The card as markdown, from the results of :func:`cipherlab.experiments.variant.driver.run_battery`."""
    found = weaknesses(results)
    same = equivalence_line(results) if cipher != "aes" else None   # AES is trivially itself
    weaker = design_concerns(results, cipher)
    lines = [f"**{cipher}**: " + (f"weakest point: **{found[0]['what']}**; {found[0]['cost']}." if found
                                  else same + "." if same else
                                  f"**{NO_BREAK}**, but its design is weaker than AES's: " + "; ".join(weaker) + "."
                                  if weaker else f"**{NO_WEAKNESS}**.")]
    for w in found[1:]:
        lines.append(f"- also **{w['what']}**: {w['cost']}.")
    if found and same:
        lines.append(f"- {same}.")
    lines += trail_lines(results, cipher)
    props = results["property_rounds"].set_index("property")
    full = props.loc["full_diffusion"]
    nr = int(full["rounds_measured"])
    if pd.notna(full["first_round_holding"]):
        lines.append(f"- full diffusion (every output byte depends on every input byte) after "
                     f"{int(full['first_round_holding'])} of {nr} rounds")
    else:
        lines.append(f"- no full diffusion within its {nr} rounds")
    for prop, label in (("affine", "affine over GF(2)"), ("byte_local", "byte-local"),
                        ("balanced", "balanced over Λ-sets (the integral property)")):
        row = props.loc[prop]
        if pd.notna(row["first_round_failing"]) and pd.notna(row["last_round_holding"]):
            lines.append(f"- {label} up to {int(row['last_round_holding'])} round(s), "
                         f"no longer from {int(row['first_round_failing'])}")
        elif bool(row["holds_at_full"]) and pd.isna(row["first_round_failing"]):
            lines.append(f"- {label} after every round count, 1 to {nr}")
    maps = results["byte_maps"]
    ref = maps[maps["map"] == CONTROL].iloc[0]
    for _, m in maps[maps["map"] != CONTROL].iterrows():
        if m["map"] == "sbox" and "sbox_key_summary" in results:
            continue   # the S-box line below, over every key and round
        lines.append(f"- byte map `{m['map']}`: nonlinearity {m['nonlinearity']} (AES {ref['nonlinearity']}), "
                     f"differential uniformity {m['differential_uniformity']} (AES {ref['differential_uniformity']}), "
                     f"degree {m['algebraic_degree']} (AES {ref['algebraic_degree']})"
                     + ("; **affine**" if m["affine"] else ""))
    if "sbox_key_summary" in results:
        lines.append(sbox_line(results, maps))
    ok = results["correctness"]
    lines.append(f"- correctness: {int(ok['ok'].sum())} of {len(ok)} mode x style x key-size checks passed")
    if "avalanche_summary" in results:
        lines.append(avalanche_line(results["avalanche_summary"], cipher))
    lines += randomness_lines(results["randomness"], cipher)
    if "speed" in results:
        for _, s in results["speed"].iterrows():
            lines.append(f"- speed ({s['style']}, {s['bytes']} B ECB): {s['finding']} "
                         f"({s['speedup_pct']:+.1f} % [{s['low']:+.1f}, {s['high']:+.1f}])")
    if not found:
        lines.append("- tests run: " + "; ".join(TESTS_RUN))
    return "\n".join(lines) + "\n"


def trail_lines(results: dict, cipher: str) -> list[str]:
    """The card's lines on the wide-trail bound: the design margin (or why there is none) and the linear layer."""
    margin = results["margin"].set_index("cipher")
    layer = results["linear_layer"].set_index("cipher").loc[cipher]
    v, aes = margin.loc[cipher], margin.loc["aes"]
    vs_aes = cipher != "aes"
    a4 = int(v["active_sboxes_4_rounds"])
    out = []
    if not bool(v["bound_meaningful"]):
        affine = bool(results["affinity_test"].iloc[0]["affine"])
        out.append(f"- **the trail bound means nothing here**: the S-box is affine (differential uniformity "
                   f"{int(v['differential_uniformity'])}, nonlinearity {int(v['nonlinearity'])}), so an active S-box "
                   f"passes its difference with probability 1 and the {a4} active S-boxes in 4 rounds bound no trail"
                   + ("; the affinity attack says the same" if affine else ""))
    elif pd.isna(v["rounds_needed"]):
        out.append("- **design margin: none**: the trail bounds stay above 2^-128 for every round count searched")
    else:
        out.append(f"- **design margin: {int(v['margin_rounds'])} round(s)**: differential and linear trail bounds "
                   f"below 2^-128 from {int(v['rounds_needed'])} rounds on, against its own {int(v['own_rounds'])}"
                   + (f" (AES: from {int(aes['rounds_needed'])}, margin {int(aes['margin_rounds'])})" if vs_aes else ""))
    mds = "MDS" if bool(layer["mds"]) else "not MDS"
    out.append(f"- linear layer `{layer['linear_layer']}`: branch number {int(layer['differential_branch_number'])} "
               f"(linear {int(layer['linear_branch_number'])}, {mds}); at least {a4} active S-boxes in 4 rounds"
               + (f" (AES {int(aes['active_sboxes_4_rounds'])})" if vs_aes else ""))
    desc = getattr(lookup(cipher), "description", None)
    if desc is not None and desc.custom is None and desc.key_dependent:
        out.append(f"- its S-box or ShiftRows changes with the key: these bounds are those of the weakest of "
                   f"{results.get('parameters', {}).get('trail_keys', TRAIL_KEYS)} seeded keys (the S-box with the "
                   "largest differential uniformity and the least "
                   "nonlinearity, the ShiftRows with the fewest active S-boxes)")
    return out


def _range(summary: pd.DataFrame, measure: str, fmt: str = "{:g}") -> str:
    r = summary.set_index("measure").loc[measure]
    value = fmt.format(r["min"]) if r["min"] == r["max"] else f"{fmt.format(r['min'])} to {fmt.format(r['max'])}"
    return f"{value} (AES {fmt.format(r['aes'])})"


def sbox_line(results: dict, maps: pd.DataFrame) -> str:
    """The S-box's measures over every sampled key and round, AES's beside, SAC and BIC included."""
    summary = results["sbox_key_summary"]
    first = summary.iloc[0]
    over = (f"{int(first['sboxes'])} S-boxes of {int(first['keys'])} sampled keys" if results["sbox_samples"]
            ["key_dependent"].any() else "fixed" if int(first["sboxes"]) == 1 else f"{int(first['sboxes'])} by round")
    affine = bool(maps[maps["map"] == "sbox"]["affine"].any()) if "sbox" in set(maps["map"]) else False
    return (f"- S-box ({over}): nonlinearity {_range(summary, 'nonlinearity')}, differential uniformity "
            f"{_range(summary, 'differential_uniformity')}, degree {_range(summary, 'algebraic_degree')}, SAC mean "
            f"{_range(summary, 'sac_mean', '{:.4f}')}, largest SAC deviation from 1/2 "
            f"{_range(summary, 'sac_max_deviation', '{:.4f}')}, BIC nonlinearity {_range(summary, 'bic_nonlinearity')}"
            + ("; **affine**" if affine else ""))


def avalanche_line(summary: pd.DataFrame, cipher: str) -> str:
    """The avalanche and key avalanche of the variant with their intervals, AES's (same run and settings) beside."""
    rows = summary.set_index("cipher")

    def text(name, what):
        r = rows.loc[name]
        return (f"{r[f'{what}_mean_percent']:.2f} % [{r[f'{what}_low_percent']:.2f}, "
                f"{r[f'{what}_high_percent']:.2f}]")
    aes = "aes" in rows.index and cipher != "aes"
    return (f"- avalanche: {text(cipher, 'avalanche')} of the ciphertext bits change per flipped plaintext bit"
            + (f" (AES {text('aes', 'avalanche')})" if aes else "")
            + f"; per flipped key bit {text(cipher, 'key_avalanche')}"
            + (f" (AES {text('aes', 'key_avalanche')})" if aes else ""))


def randomness_lines(randomness: pd.DataFrame, cipher: str) -> list[str]:
    """SP 800-22 per input: tests passed, AES's count from the same run and settings beside, and what a random
    source passes at this many sequences."""
    rnd = randomness[randomness["cipher"] != "plaintext"]
    out = []
    for (mode, inp), d in rnd.groupby(["mode", "input"], sort=False):
        ours, aes = d[d["cipher"] == cipher], d[d["cipher"] == "aes"]
        p = float(ours["expected_pass_probability"].iloc[0]) if "expected_pass_probability" in ours else None
        seq = int(ours["sequences"].iloc[0])
        text = f"- SP 800-22, {mode.upper()} {inp}: {int(ours['passed'].sum())} of {len(ours)} tests passed"
        if len(aes) and cipher != "aes":
            text += f" (AES, same settings: {int(aes['passed'].sum())} of {len(aes)})"
        if p is not None:
            text += (f"; at {seq} sequences a random source passes each test with probability {p:.0%} and all "
                     f"{len(ours)} with at least {chance_of_passing_all(len(ours), p):.0%}, however the tests are "
                     "correlated")
        out.append(text)
    return out
