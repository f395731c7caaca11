"""The S-boxes under study and the chapter's summary table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cipherlab.ciphers.sboxes import rijndael_sbox, second_sbox

from cipherlab.experiments.security.sbox_properties import compose, sbox_properties

#: readings of the second S-box construction offered by the core
CONSTRUCTIONS = ("xor-index", "xor-sbox")
#: The round byte map of each cipher, as :func:`sbox_catalogue` names it (the core's default reading
#: of the second S-box; ``{xb}``: the xor byte).
ROUND_SBOX = {"aes": "rijndael", "aes-2sbox": "aes-2sbox round: S2(S(x)) (xor-index, {xb:02X})",
              "maes-1": "maes round: S(x) ^ 00", "maes-2": "maes round: S(x) ^ 00"}


def round_sbox_name(cipher: str, xor_byte: int = 0x7F) -> str:
    """The :func:`sbox_catalogue` entry of ``cipher``'s round byte map."""
    return ROUND_SBOX[cipher].format(xb=xor_byte)


def sbox_catalogue(xor_byte: int = 0x7F, maes_iv_byte: int = 0x00) -> dict[str, np.ndarray]:
    """The byte maps whose properties the chapter tabulates.

    ``maes_iv_byte`` stands for one byte of the key-dependent MAES round IV;
    XOR with a constant does not change nonlinearity, DDT or LAT spectra (it
    only moves fixed points), which the spread table shows.
    """
    s = rijndael_sbox()
    out = {"rijndael": s}
    for construction in CONSTRUCTIONS:
        s2, _ = second_sbox(xor_byte, construction=construction)
        out[f"second ({construction}, {xor_byte:02X})"] = s2
        out[f"aes-2sbox round: S2(S(x)) ({construction}, {xor_byte:02X})"] = compose(s2, s)
    out[f"maes round: S(x) ^ {maes_iv_byte:02X}"] = s ^ np.uint8(maes_iv_byte)
    return out


def second_sbox_spread(construction: str = "xor-index") -> pd.DataFrame:
    """Properties of the second S-box for every xor byte 00..FF (one row each)."""
    rows = []
    for b in range(256):
        s2, _ = second_sbox(b, construction=construction)
        rows.append({"xor_byte": b, "construction": construction, **sbox_properties(s2)})
    return pd.DataFrame(rows)


def spread_summary(spread: pd.DataFrame) -> pd.DataFrame:
    """Min / max of each numeric property over the xor bytes."""
    cols = [c for c in spread.columns if c not in ("xor_byte", "construction")]
    num = spread[cols].astype(float)
    return pd.DataFrame({"property": cols, "min": num.min().values, "max": num.max().values})


def summary_table(sbox_table: pd.DataFrame, dependency: pd.DataFrame, avalanche: pd.DataFrame,
                  full_diffusion: pd.DataFrame, attack: pd.DataFrame,
                  randomness: pd.DataFrame, xor_byte: int = 0x7F) -> pd.DataFrame:
    """Cipher x property, with the measured value and its practical consequence.

    Parameters are the chapter's tables: the S-box table (from
    ``sbox_property_table``), the full-cipher dependency frame, the avalanche
    summary, rounds-to-full-diffusion, the attack table and the randomness
    table; ``xor_byte`` names the second S-box in the S-box table.
    """
    rows = []
    sb = sbox_table.set_index("sbox")
    for cipher in dict.fromkeys(dependency["cipher"]):
        name = round_sbox_name(cipher, xor_byte) if cipher in ROUND_SBOX else None
        if name in sb.index:
            r = sb.loc[name]
            rows.append((cipher, "round S-box NL / DU / degree",
                         f"{r.nonlinearity} / {r.differential_uniformity} / {r.algebraic_degree}",
                         "the byte substitution is as strong as Rijndael's; the weakness lies elsewhere"))
        dep = dependency[dependency["cipher"] == cipher]
        per_out = dep.groupby("output_byte")["depends"].sum()
        local = bool((per_out == 1).all())
        rows.append((cipher, "input bytes each output byte depends on",
                     f"{int(per_out.min())}..{int(per_out.max())} of 16",
                     "16 independent byte substitutions: a codebook per position breaks it"
                     if local else "every output byte depends on every input byte"))
        av = avalanche[avalanche["cipher"] == cipher]
        if len(av):
            a = av.iloc[0]
            rows.append((cipher, "avalanche, single-bit flip",
                         f"{a.avalanche_mean_percent:.2f}% mean, max {a.avalanche_max_bits} of 128 bits",
                         "near the ideal 50%" if abs(a.avalanche_mean_percent - 50) < 1
                         else "a flipped bit never leaves its byte: related plaintexts stay visible"))
        fd = full_diffusion[full_diffusion["cipher"] == cipher]
        if len(fd):
            full = fd.loc[fd["full_diffusion"], "rounds"]
            rows.append((cipher, "rounds to full diffusion",
                         str(int(full.min())) if len(full) else f"never (in {int(fd.rounds.max())})",
                         "full diffusion with rounds to spare" if len(full)
                         else "no number of rounds helps: nothing mixes bytes"))
        at = attack[attack["cipher"] == cipher]
        if len(at):
            rows.append((cipher, "key-free chosen-plaintext attack",
                         f"{int(at.queries.max())} blocks; recovered "
                         f"{at.match_fraction.min():.4f}..{at.match_fraction.max():.4f}",
                         "plaintext read without the key (ECB and CBC)" if at.exact.all()
                         else "nothing beyond chance recovered"))
        rd = randomness[(randomness["cipher"] == cipher)]
        for mode in sorted(rd["mode"].unique()):
            m = rd[rd["mode"] == mode]
            failed = int((~m["passed"]).sum())
            ent = m.groupby("input")["byte_entropy"].first().min()
            inputs = ", ".join(dict.fromkeys(m["input"]))
            # one failing cell happens by chance (each test has a 1% false alarm
            # rate per sequence); a broken cipher fails most of them
            rows.append((cipher, f"SP 800-22 on {inputs}, {mode.upper()}",
                         f"{failed} of {len(m)} test x input cells below the pass proportion; "
                         f"min byte entropy {ent:.3f}",
                         "ciphertext looks random to these tests" if failed <= 1
                         else "ciphertext visibly non-random"))
    return pd.DataFrame(rows, columns=["cipher", "property", "measured", "consequence"])
