"""The summary card at the top of a variant's chapter: its weakest point and the cost of exploiting it.

Rendered from the battery's tables only (never a hand-written number).  The
structural weaknesses, worst first:

1. **affine over GF(2)**: every random triple of the affinity test held and the
   129-query attack recovered the plaintext exactly;
2. **byte-local**: the dependency matrix is a permutation and the codebook
   attack (256 + 1 queries) recovered the plaintext exactly;
3. **the square attack**: balanced one round short of the whole cipher, and
   the attack recovered the key and the plaintext exactly.

Anything else (the round count of full diffusion, the S-box measures against
Rijndael's, randomness, speed) is listed below the headline.
"""

from __future__ import annotations

import pandas as pd

#: the tests the card lists when it finds nothing
TESTS_RUN = ("correctness (round trips, style agreement)", "byte-map measures", "byte-dependency by round",
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
    """The card as markdown, from the results of :func:`cipherlab.experiments.variant.run_battery`."""
    found = weaknesses(results)
    lines = [f"**{cipher}**: "
             + (f"weakest point: **{found[0]['what']}**; {found[0]['cost']}." if found
                else f"**{NO_WEAKNESS}**.")]
    for w in found[1:]:
        lines.append(f"- also **{w['what']}**: {w['cost']}.")
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
    ref = maps[maps["map"] == "rijndael (AES)"].iloc[0]
    for _, m in maps[maps["map"] != "rijndael (AES)"].iterrows():
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
