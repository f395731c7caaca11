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

from cipherlab.experiments.variant.bytemaps import CONTROL

#: the tests the card lists when it finds nothing
TESTS_RUN = ("correctness (round trips, style agreement)", "byte-map measures and S-box tables (BCT, linear structures, "
             "cycles, spectra)", "branch numbers and active-S-box bounds by round (MILP)", "byte-dependency by round",
             "avalanche and SAC", "GF(2)-affinity test and 129-query attack",
             "byte-locality test and codebook attack", "integral property by round and the square attack",
             "structural properties by round",
             "SP 800-22 on a CTR keystream and an ECB image")
NO_WEAKNESS = "no structural weakness found by this battery"


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


def card_markdown(results: dict, cipher: str) -> str:
    """The card as markdown, from the results of :func:`cipherlab.experiments.variant.driver.run_battery`."""
    found = weaknesses(results)
    lines = [f"**{cipher}**: "
             + (f"weakest point: **{found[0]['what']}**; {found[0]['cost']}." if found
                else f"**{NO_WEAKNESS}**.")]
    for w in found[1:]:
        lines.append(f"- also **{w['what']}**: {w['cost']}.")
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
        lines.append(f"- byte map `{m['map']}`: nonlinearity {m['nonlinearity']} (AES {ref['nonlinearity']}), "
                     f"differential uniformity {m['differential_uniformity']} (AES {ref['differential_uniformity']}), "
                     f"degree {m['algebraic_degree']} (AES {ref['algebraic_degree']})"
                     + ("; **affine**" if m["affine"] else ""))
    ok = results["correctness"]
    lines.append(f"- correctness: {int(ok['ok'].sum())} of {len(ok)} mode x style x key-size checks passed")
    rnd = results["randomness"]
    rnd = rnd[rnd["cipher"] != "plaintext"]
    for (mode, inp), d in rnd.groupby(["mode", "input"], sort=False):
        lines.append(f"- SP 800-22, {mode.upper()} {inp}: {int(d['passed'].sum())} of {len(d)} tests passed")
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
    return out
