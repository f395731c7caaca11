"""The security chapter's evidence for the claims registry, and its sentences rendered from its tables.

The chapter's measurements are our own experiments: they enter
``data/paper/claims.csv`` as ``extension`` rows (``<paper>-sec-*``) and get
findings, never verdicts.  One claim of papers 000/001 is decided here,
because only this chapter measures it: "the security side has slightly
weakened" (``<paper>-security-slightly-weakened``, against the key-free
codebook attack).  The papers' avalanche claim is decided once, in the
AES-2SBox chapter (``<paper>-avalanche-slightly-below-50``); this chapter
shows the same diffusion as a finding.

Sentences of the notebook that state numbers are rendered from the tables
(:func:`randomness_method_text`, :func:`randomness_findings_text`), never typed.
"""
from __future__ import annotations

import pandas as pd

from cipherlab.analysis.evidence import Evidence
from cipherlab.experiments.security.attack import attacker_model
from cipherlab.experiments.security.summary import round_sbox_name

#: The cipher(s) of each paper whose extensions this chapter measures.
PAPER_CIPHERS = {"000": ("aes-2sbox",), "002": ("maes-1", "maes-2")}
#: A paper's own claims that its scheme leaks nothing or keeps AES's security ("complexity") level, decided by
#: the codebook attack read the other way (attacker model: an encryption oracle for chosen blocks, no key).
NO_LEAK_CLAIMS = {"002": ("002-s6c-no-leak", "002-s6b-reliable", "002-complexity-maintained",
                          "002-s1-iv-keeps-complexity", "002-s7-faster-preserving-complexity")}
#: Paper 002's claim that a key-dependent IV makes encryption more complex: decided by the IV fold (an IV that
#: folds into the round key adds no key material, so no complexity), not by the attack, which needs no IV at all.
IV_COMPLEXITY_CLAIM = "002-s4a-key-dependent-complexity"
#: Paper 002's claim that approach 2 (an IV per round) is more secure than approach 1: holds only if the attack
#: that reads approach 1 fails on approach 2.
MORE_SECURE_CLAIM = "002-s4b-approach2-more-secure"
#: Papers whose claim "the security side has slightly weakened" is decided here.
WEAKENED_PAPERS = ("000", "001")
#: MyST labels of the notebook's sections.
SECTIONS = {"sboxes": "security-sboxes", "diffusion": "security-diffusion", "attack": "security-attack",
            "randomness": "security-randomness"}

__all__ = ["evidence_rows", "randomness_method_text", "randomness_findings_text", "PAPER_CIPHERS", "SECTIONS"]


def _names(ciphers) -> str:
    return " and ".join(ciphers)


def _attack(results: dict, ciphers, paper: str, profile: str) -> Evidence:
    at = results["attack"]
    mine, aes = at[at["cipher"].isin(ciphers)], at[at["cipher"] == "aes"]
    pct = 100.0 * float(mine["match_fraction"].min())
    detail = (f"{_names(ciphers)}, given {attacker_model(mine['queries'].max(), mine['mode'])} (per key): "
              f"the codebook recovers at least {pct:.2f} % "
              f"of every target ({', '.join(sorted(set(mine['target'])))}) in {', '.join(sorted(set(mine['mode'])))}"
              + (f"; AES attacked alike: at most {100 * float(aes['match_fraction_decoded'].max()):.2f} % of the "
                 f"decoded bytes (chance {100 * float(aes['chance'].iloc[0]):.2f} %)" if len(aes) else ""))
    return Evidence(f"{paper}-sec-codebook-attack", holds=bool(mine["exact"].all()), estimate=pct, unit="%",
                    n=int(mine["bytes"].sum()), profile=profile, section=SECTIONS["attack"], detail=detail)


def second_sbox_evidence(results: dict, *, profile: str, xor_byte: int = 0x7F) -> Evidence:
    """Finding ``000-sec-second-sbox-affine``: the second S-box AES-2SBox puts in MixColumns' place (the
    construction that reproduces the papers' Table 1) is an affine map: nonlinearity 0, for every key byte."""
    sb = results["sbox_properties"].set_index("sbox")
    s2, r0 = sb.loc[f"second (xor-index, {xor_byte:02X})"], sb.loc["rijndael"]
    spread = results.get("sbox_spread_summary")
    every = ""
    if spread is not None and len(spread):
        nl = spread[(spread["construction"] == "xor-index") & (spread["property"] == "nonlinearity")]
        if len(nl):
            every = f"; over every key byte 00..FF its nonlinearity is at most {int(nl['max'].iloc[0])}"
    return Evidence(
        "000-sec-second-sbox-affine", holds=int(s2["nonlinearity"]) == 0, estimate=float(s2["nonlinearity"]),
        unit="nonlinearity", profile=profile, section=SECTIONS["sboxes"],
        detail=(f"the second S-box of Table 1 (affine(x ^ {xor_byte:02X}), the construction that reproduces it): "
                f"nonlinearity {int(s2['nonlinearity'])}, differential uniformity "
                f"{int(s2['differential_uniformity'])}, algebraic degree {int(s2['algebraic_degree'])} "
                f"(Rijndael's S-box: {int(r0['nonlinearity'])}, {int(r0['differential_uniformity'])}, "
                f"{int(r0['algebraic_degree'])}){every}: an affine map, which adds no nonlinearity and mixes no "
                "bytes in MixColumns' place"))


def iv_fold_evidence(table: pd.DataFrame, *, profile: str) -> Evidence:
    """Finding ``002-sec-iv-round-key``: MAES with its IV stage encrypts exactly as the rounds without it under
    the round keys ``k_r ^ IV_r`` (:mod:`cipherlab.experiments.security.iv_fold`), for both approaches and
    both IV sources: the IVs add no key material."""
    equal, total = int(table["equal"].sum()), int(table["blocks"].sum())
    per = "; ".join(f"approach {int(r.approach)}, {r.iv_source} IVs: {int(r.equal)} of {int(r.blocks)} blocks"
                    for r in table.itertuples())
    return Evidence(
        "002-sec-iv-round-key", holds=equal == total, estimate=100.0 * equal / total if total else None,
        unit="% of blocks", n=total, profile=profile, section=SECTIONS["sboxes"],
        detail=(f"MAES's ciphertext equals that of the same rounds without the IV stage under the round keys "
                f"k_r ^ IV_r ({per}; {int(table['keys'].max())} keys each): the key-dependent IV folds into the "
                "round key and adds no security, whatever its source"))


def iv_complexity_evidence(fold: Evidence) -> Evidence:
    """``002-s4a-key-dependent-complexity`` ("the IV key dependent, so the complexity will increase"): holds only
    if the IV stage is NOT the same rounds under other round keys, i.e. only if the fold check fails somewhere."""
    return Evidence(IV_COMPLEXITY_CLAIM, holds=fold.holds is False, estimate=fold.estimate, unit=fold.unit,
                    n=fold.n, profile=fold.profile, section=fold.section,
                    detail=f"the key-dependent IV stage against the round keys: {fold.detail}")


def evidence_rows(results: dict, *, profile: str, xor_byte: int = 0x7F) -> list[Evidence]:
    """Extension evidence for papers 000 (AES-2SBox) and 002 (MAES), and 000/001's "slightly weakened".

    ``results`` is :func:`cipherlab.experiments.security.driver.analyse`'s output.
    """
    profile = str(profile)
    dep = results["dependency"]
    per_out = dep.groupby(["cipher", "output_byte"])["depends"].sum()
    av = results["avalanche_summary"].set_index("cipher")
    rounds = results["rounds"]
    sb = results["sbox_properties"].set_index("sbox")
    rd = results["randomness"]
    rd = rd[rd["cipher"] != "plaintext"]
    rows: list[Evidence] = []
    for paper, ciphers in PAPER_CIPHERS.items():
        attack = _attack(results, ciphers, paper, profile)
        rows.append(attack)
        if paper in NO_LEAK_CLAIMS:
            for cid in NO_LEAK_CLAIMS[paper]:
                rows.append(Evidence(cid, holds=not attack.holds, estimate=attack.estimate, unit="%",
                                     n=attack.n, profile=profile, section=attack.section,
                                     detail=f"the codebook attack, without the key: {attack.detail}"))
            at = results["attack"]
            per = {c: bool(at.loc[at["cipher"] == c, "exact"].all()) for c in ciphers}
            rows.append(Evidence(
                MORE_SECURE_CLAIM, holds=bool(per.get("maes-1") and not per.get("maes-2")), profile=profile,
                section=attack.section,
                detail="the codebook attack, without the key: " + "; ".join(
                    f"{c} {'read in full' if v else 'not read in full'}" for c, v in per.items())
                       + f" ({attack.detail})"))
        deps = per_out.loc[list(ciphers)]
        aes_deps = per_out.loc["aes"] if "aes" in per_out.index.get_level_values(0) else None
        avl = "; ".join(f"{c}: avalanche {av.loc[c, 'avalanche_mean_percent']:.2f} % mean, at most "
                        f"{int(av.loc[c, 'avalanche_max_bits'])} bits" for c in ciphers if c in av.index)
        rows.append(Evidence(
            f"{paper}-sec-diffusion", holds=bool(deps.min() == 16), estimate=float(deps.max()), unit="input bytes",
            profile=profile, section=SECTIONS["diffusion"],
            detail=(f"{_names(ciphers)}: each output byte depends on {int(deps.min())}..{int(deps.max())} of 16 input bytes"
                    + (f" (AES: {int(aes_deps.min())}..{int(aes_deps.max())})" if aes_deps is not None else "")
                    + (f"; {avl}" if avl else ""))))
        mine = rounds[rounds["cipher"].isin(ciphers)]
        full = mine.groupby("cipher").apply(lambda g: g.loc[g["full_diffusion"], "rounds"].min(), include_groups=False)
        aes_r = rounds[(rounds["cipher"] == "aes") & rounds["full_diffusion"]]["rounds"]
        reached = full.notna().all()
        rows.append(Evidence(
            f"{paper}-sec-rounds", holds=bool(reached), estimate=float(full.max()) if reached else None,
            unit="rounds" if reached else "", profile=profile, section=SECTIONS["diffusion"],
            detail=(f"{_names(ciphers)}: " + ("full diffusion after " + ", ".join(f"{c} {int(v)}" for c, v in full.items())
                                             if reached else f"no full diffusion in {int(mine['rounds'].max())} rounds")
                    + (f"; AES after {int(aes_r.min())} rounds" if len(aes_r) else ""))))
        names = {c: round_sbox_name(c, xor_byte) for c in ciphers}
        r0 = sb.loc["rijndael"]
        same = all(int(sb.loc[n, "nonlinearity"]) == int(r0["nonlinearity"]) and
                   int(sb.loc[n, "differential_uniformity"]) == int(r0["differential_uniformity"]) for n in names.values())
        nl = min(int(sb.loc[n, "nonlinearity"]) for n in names.values())
        rows.append(Evidence(
            f"{paper}-sec-sbox-round", holds=bool(same), estimate=float(nl), unit="nonlinearity",
            profile=profile, section=SECTIONS["sboxes"],
            detail="; ".join(f"{c} round map: nonlinearity {int(sb.loc[n, 'nonlinearity'])}, differential uniformity "
                             f"{int(sb.loc[n, 'differential_uniformity'])}" for c, n in names.items())
                   + f"; Rijndael: {int(r0['nonlinearity'])}, {int(r0['differential_uniformity'])}"))
        m = rd[rd["cipher"].isin(ciphers)]
        if len(m):
            # one row (decided on CTR, the mode meant to hide patterns): a finding has one condition, the
            # other modes are counted in its detail
            modes = sorted(set(m["mode"]), key=lambda x: (x != "ctr", x))
            head = m[m["mode"] == modes[0]]
            per = "; ".join(f"{mode.upper()}: " + ", ".join(
                f"{c} {int(g['passed'].sum())} of {len(g)}" for c, g in m[m["mode"] == mode].groupby("cipher", sort=True))
                for mode in modes)
            rows.append(Evidence(
                f"{paper}-sec-sp800-22", holds=bool(head["passed"].all()), estimate=float(head["passed"].sum()),
                unit=f"of {len(head)} test x input cells passed", n=int(head["sequences"].iloc[0]), mode=modes[0],
                profile=profile, section=SECTIONS["randomness"],
                detail=f"inputs {', '.join(sorted(set(m['input'])))}; cells at or above the pass proportion: {per}"))
    rows.append(second_sbox_evidence(results, profile=profile, xor_byte=xor_byte))
    if "iv_fold" in results:
        fold = iv_fold_evidence(results["iv_fold"], profile=profile)
        rows += [fold, iv_complexity_evidence(fold)]
    ent = results["image_entropy"].set_index("cipher")
    at = results["attack"]
    img = at[at["cipher"].isin(PAPER_CIPHERS["002"]) & (at["target"] == "image")]
    e_min = float(ent.loc[list(PAPER_CIPHERS["002"]), "byte_entropy"].min())
    rows.append(Evidence(
        "002-sec-image-entropy", holds=not bool(img["exact"].all()), estimate=e_min, unit="bits/byte",
        mode="ecb", profile=profile, section=SECTIONS["attack"],
        detail=(f"MAES-encrypted image: byte entropy at least {e_min:.4f} bits/byte (ECB; AES "
                f"{float(ent.loc['aes', 'byte_entropy']):.4f}); the codebook attack recovers at least "
                f"{100 * float(img['match_fraction'].min()):.2f} % of the image")))
    rows += weakened_evidence(at, profile=profile)
    return rows


def weakened_evidence(attack: pd.DataFrame, *, profile: str) -> list[Evidence]:
    """"The security side has slightly weakened" (000 Section 8, 001 Section 6), as a size on a security quantity:
    how much more of the plaintext the key-free codebook attack reads from AES-2SBox than from AES attacked alike,
    in percentage points of the targets' bytes (exact: every byte counted, no noise band). The direction
    (weakened) holds when it is above 0; "slightly" states a small effect, which the rule ``small_effect`` bounds.
    The interval spans every target and mode: the least AES-2SBox share against the most AES share, and back."""
    att, aes = attack[attack["cipher"] == "aes-2sbox"], attack[attack["cipher"] == "aes"]
    if att.empty or aes.empty:
        raise ValueError("the attack table needs AES-2SBox and AES, attacked alike")
    lo = 100.0 * (float(att["match_fraction"].min()) - float(aes["match_fraction"].max()))
    hi = 100.0 * (float(att["match_fraction"].max()) - float(aes["match_fraction"].min()))
    detail = (f"a key-free chosen-plaintext codebook attack ({attacker_model(att['queries'].max(), att['mode'])}) "
              f"reads {100 * float(att['match_fraction'].min()):.2f} % or more of AES-2SBox plaintext "
              f"({', '.join(sorted(set(att['mode'])))}; {', '.join(sorted(set(att['target'])))}) and at most "
              f"{100 * float(aes['match_fraction'].max()):.2f} % of AES's, attacked alike: the cipher is broken, "
              "not slightly weakened")
    return [Evidence(f"{paper}-security-slightly-weakened", estimate=lo, low=lo, high=hi, unit="%",
                     n=int(att["bytes"].sum()), profile=profile, section=SECTIONS["attack"],
                     detail=detail) for paper in WEAKENED_PAPERS]


def randomness_method_text(randomness: pd.DataFrame) -> str:
    """How many SP 800-22 tests (and P-values) the randomness table holds, as a sentence."""
    tests = list(dict.fromkeys(randomness["test"]))
    base = sorted({t.rsplit("_", 1)[0] if t.startswith(("serial_", "cumulative_sums_")) else t for t in tests})
    n_seq = int(randomness["sequences"].max())
    return (f"{len(base)} SP 800-22 tests giving {len(tests)} P-values per sequence ({', '.join(tests)}), "
            f"on {n_seq} sequences per ciphertext")


def randomness_findings_text(randomness: pd.DataFrame, ciphers=("aes-2sbox", "maes-1", "maes-2", "aes")) -> str:
    """Per cipher, mode and input: tests passed of all, and the byte entropy, as a Markdown list."""
    lines = []
    rd = randomness[randomness["cipher"].isin(ciphers)]
    for (cipher, mode, inp), g in rd.groupby(["cipher", "mode", "input"], sort=False):
        lines.append(f"* {cipher} {mode.upper()}, {inp} input: passes {int(g['passed'].sum())} of {len(g)} "
                     f"tests; byte entropy {float(g['byte_entropy'].iloc[0]):.3f} bits/byte")
    return "\n".join(lines)
