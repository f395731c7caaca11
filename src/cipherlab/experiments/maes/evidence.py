"""Evidence for every claim of paper 002 in ``data/paper/claims.csv``, from this run's frames.

The chapter decides nothing: it states, for each claim id, what it measured
and under which condition (size, style, mode, profile); the decision engine
(:mod:`cipherlab.analysis.verdicts`) turns claims plus evidence into verdicts.
Speed claims carry the A/A band of AES against its twin timed in the same
run. Speed-ups are the paper's formula ``(T_old / T_new - 1) * 100``: for
"MAES is faster" ``old`` is AES; for "the IV costs more" ``old`` is the IV
generation (so the number is its extra time in percent).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from cipherlab.names import MAES_IV_SOURCES
from cipherlab.ciphers.maes import maes_ivs
from cipherlab.analysis.claims import claims_of_chapter
from cipherlab.analysis.evidence import Evidence, evidence_frame, speed_evidence as _verdicts_speed
from cipherlab.experiments.maes.common import PAPER
from cipherlab.experiments.maes import comparisons as _comparisons
from cipherlab.analysis import paper as _paper
from cipherlab.analysis import stats as _stats
from cipherlab.experiments.maes.dependency import byte_routes
from cipherlab.experiments.maes.entropy import expected_entropy_uniform, fig8_worst
from cipherlab.experiments.maes.measure import stage_impls
from cipherlab.experiments.maes.published import (entropy_power_evidence, iv_source_consistency_evidence,
                                                 iv_specification_evidence, mixcolumns_polynomial_evidence,
                                                 mixcolumns_share_evidence, tables_consistency_evidence)
from cipherlab.experiments.maes.steps import _times as _step_times, steps_evidence
from cipherlab.experiments.maes.tables import REALTIME_MB_S, overhead_us, realtime_evidence, speed_case  # noqa: F401


@dataclass(frozen=True)
class Frames:
    """What the evidence is computed from: the raw timings and this run's deterministic tables."""

    keyexp: pd.DataFrame
    stage: pd.DataFrame
    block: pd.DataFrame
    bulk: pd.DataFrame
    entropy: pd.DataFrame            # :func:`image.entropy_table`
    entropy_diff: pd.DataFrame       # :func:`image.entropy_comparison`
    dependency: pd.DataFrame         # :func:`image.byte_dependency`, all ciphers
    keyspace: pd.DataFrame           # :func:`image.keyspace_table`
    leaks: pd.DataFrame              # :func:`image.leak_table`
    overhead: "pd.DataFrame | None" = None   # the ``maes_overhead`` raw file (empty-call time), shown beside one-block rows
    steps: "pd.DataFrame | None" = None      # the ``maes_steps`` raw file (each step of a round timed alone)


def paper_claim_ids() -> list[str]:
    """Every claim id of paper 002 whose evidence this chapter writes (claims and extensions)."""
    c = claims_of_chapter("maes")
    return sorted(c.loc[c["paper"] == PAPER, "claim_id"])


#: Why the bulk per-block cost stands for the paper's one block (shown on every one-block claim's row).
PROXY_WHY = "a one-block call is mostly call overhead, which both ciphers pay alike"


def _one_block(f: Frames, cid: str, impl: str, op: str, old: str, new: str, profile: str, section: str,
               seed: int, new_impl: "str | None" = None) -> Evidence:
    """A one-block claim decided on the cipher's cost: per-block time from batched (bulk, ECB, one thread) calls.

    A one-block call is mostly call overhead (the wrapper's checks and the
    kernel dispatch), which both sides pay alike, so it shrinks the effect of
    the cipher towards 0. The cipher's own cost of a block is the bulk ECB
    time per block (the whole file in one call): that decides. The raw
    one-call comparison and the empty-call overhead stand beside it in ``detail``. ``new_impl``: the style of
    ``new`` where it differs from ``impl`` (a comparison across code paths: reading ``new_impl>impl``).
    """
    new_impl = new_impl or impl
    where = {"impl": impl, "operation": op}
    nwhere = {"impl": new_impl, "operation": op}
    for i in {impl, new_impl}:
        if f.bulk[(f.bulk["mode"] == "ecb") & (f.bulk["impl"] == i)].empty:
            raise ValueError(f"the bulk timings have no ECB rows in style {i!r}: bulk_modes must include ecb")
    bulk = f.bulk[(f.bulk["mode"] == "ecb") & (f.bulk["impl"] == impl)]
    bw = {**where, "mode": "ecb"}
    aes_b = {**bw, "cipher": "aes", "role": "main"}
    old_b = aes_b if old == "aes" else {**bw, "cipher": old, "role": "main"}
    nbulk = int(bulk["bytes"].iloc[0])
    style = impl if new_impl == impl else f"{new_impl} against {impl}"   # the styles only: the approach is the detail's
    ev = speed_case(f.bulk, cid, old_b, {**nwhere, "mode": "ecb", "cipher": new, "role": "main"}, aes_b,
                    {**bw, "cipher": "aes", "role": "control"}, seed=seed, size=f"per block of {nbulk} B ECB calls",
                    style=style, mode="ecb", profile=profile, section=section,
                    reading=f"style={impl}" if new_impl == impl else f"style={new_impl}>{impl}",
                    proxy_for="size=16 B", proxy_why=PROXY_WHY)
    aes = {**where, "cipher": "aes", "role": "main"}
    old_f = aes if old == "aes" else {**where, "cipher": old, "role": "main"}
    raw = speed_case(f.block, cid, old_f, {**nwhere, "cipher": new, "role": "main"}, aes,
                     {**where, "cipher": "aes", "role": "control"}, seed=seed)

    def sel(d, c, i) -> float:
        return float(np.median(d.loc[(d["impl"] == i) & (d["operation"] == op) & (d["cipher"] == c)
                                     & (d["role"] == "main"), "seconds"]))
    blocks = int(bulk["bytes"].iloc[0]) // 16
    ovh = overhead_us(f.overhead) if f.overhead is not None else float("nan")
    eb = f.bulk[f.bulk["mode"] == "ecb"]
    detail = (f"{op}, {new} against {old}{'' if new_impl == impl else f' ({style})'}: cipher cost per block from one call over {blocks} blocks "
              f"({sel(eb, new, new_impl) / blocks * 1e6:.3f} against "
              f"{sel(eb, old, impl) / blocks * 1e6:.3f} us); one-block calls as the paper "
              f"timed them: {sel(f.block, new, new_impl) * 1e6:.2f} against {sel(f.block, old, impl) * 1e6:.2f} us, "
              f"{raw.estimate:+.1f} % [{raw.low:+.1f}, {raw.high:+.1f}], empty-call overhead {ovh:.3f} us")
    return dataclasses.replace(ev, detail=detail)


def _speed(f: Frames, impls, original: str, optimized: str, profile: str, seed: int) -> list[Evidence]:
    rows = []
    # Abstract headlines: every style; the paper's original AES (reference) decides.
    for cid, op in (("002-abstract-enc-speedup", "encrypt"), ("002-abstract-dec-speedup", "decrypt")):
        rows += [_one_block(f, cid, impl, op, "aes", "maes-2", profile, "maes-table3", seed) for impl in impls]
    rows += [_one_block(f, "002-approaches-similar-time", impl, "encrypt", "maes-1", "maes-2", profile,
                        "maes-table3", seed) for impl in impls]
    # Table III prose against the paper's original and optimized AES.
    t3 = _paper.corrected(PAPER, "Table III").set_index(["row", "column"])["number"]
    t3_rows = {"maes-1": "Approach 1: One IV vector generation for all round",
               "maes-2": "Approach 2: One IV vectors generation for each round"}
    # the same-path speed-ups (readings: any in the registry): every style is a reading the paper leaves open
    for cid, op in (("002-t3-enc-half", "encrypt"), ("002-t3-dec-fifth", "decrypt")):
        rows += [_one_block(f, cid, impl, op, "aes", "maes-2", profile, "maes-table3", seed) for impl in impls]
    def printed_gap(op: str, c: str) -> float:
        """Table III's own speed-up of MAES approach ``c`` over the optimized AES (%), the gap the paper states."""
        col = op.capitalize() + "ion"
        return float((t3[("Original AES (optimized implementation)", col)] / t3[(t3_rows[c], col)] - 1) * 100)

    # "decreases slightly" is decided on the gap Table III prints for it (34 against 30 us, 13.3 %), an order the
    # sentence calls slight (its claim row's expect: slight, as 003's Tables 5-7): decided as a slight effect, but
    # no effect beyond the noise refutes it, the printed gap lying clearly beyond the floor
    # Against the optimized AES, two readings the paper leaves open (readings: every in the registry): like for
    # like (MAES in the optimized style too) and the paper's own comparison, its one MAES (whose style it does not
    # name: our byte-oriented one, as its 'original AES') against the optimized AES, a comparison across code paths
    for new_impl in dict.fromkeys((optimized, original)):
        reading = (f"comparison=like for like ({optimized})" if new_impl == optimized else
                   f"comparison=the paper's (MAES {new_impl}, AES {optimized})")
        rows.append(dataclasses.replace(
            _one_block(f, "002-t3-opt-enc-slight", optimized, "encrypt", "aes", "maes-2", profile, "maes-table3",
                       seed, new_impl=new_impl),
            stated=printed_gap("encrypt", "maes-2"), reading=reading))
        rows.append(dataclasses.replace(
            _one_block(f, "002-t3-opt-dec-half", optimized, "decrypt", "aes", "maes-2", profile, "maes-table3", seed,
                       new_impl=new_impl), reading=reading))
        rows.append(min((dataclasses.replace(
            _one_block(f, "002-t3-fastest", optimized, op, "aes", c, profile, "maes-table3", seed, new_impl=new_impl),
            stated=printed_gap(op, c), reading=reading)
            for op in ("encrypt", "decrypt") for c in ("maes-1", "maes-2")), key=lambda e: e.low))
    rows += _little_worse(f, original, optimized, profile, seed)
    if f.steps is not None:
        rows += steps_evidence(f.steps, profile=profile, seed=seed)
    rows.append(realtime_evidence(f.bulk, optimized, profile))
    # Bulk (our extension): every style.
    for cid, op in (("002-ext-bulk-enc-speedup", "encrypt"), ("002-ext-bulk-dec-speedup", "decrypt")):
        for impl in impls:
            sub = f.bulk[(f.bulk["impl"] == impl) & (f.bulk["operation"] == op)]
            mode = str(sub["mode"].iloc[0])
            where = {"impl": impl, "operation": op, "mode": mode}
            aes = {**where, "cipher": "aes", "role": "main"}
            rows.append(speed_case(f.bulk, cid, aes, {**where, "cipher": "maes-2", "role": "main"}, aes,
                                   {**where, "cipher": "aes", "role": "control"}, seed=seed,
                                   size=f"{int(sub['bytes'].iloc[0])} B", style=impl, mode=mode, profile=profile,
                                   reading=f"style={impl}",
                                   section="maes-bulk", detail=f"{op} of the bulk file, maes-2 against aes, one thread"))
    return rows


def _little_worse(f: Frames, original: str, optimized: str, profile: str, seed: int) -> list[Evidence]:
    """002-s5-optimized-little-worse: how much MAES's speed-up (approach 2) falls from over the original AES to over the
    optimized AES, in points, per operation and comparison (one reading each): like for like (MAES in each AES's
    style) and as the paper compares (its one MAES, byte-oriented, against both AESs). "A little worse" is a small
    effect in a direction (rule ``small_effect``): a fall within the noise band, or beyond it but within the
    slight effect's reach (``small_effect.slight_pct``); the interval of the fall spans both speed-ups' intervals
    (the lower edge of one against the upper of the other)."""
    cid, out = "002-s5-optimized-little-worse", []
    for label, opt_maes in ((f"like for like ({optimized}, {original})", optimized),
                            (f"the paper's (MAES {original})", original)):
        for op in ("encrypt", "decrypt"):
            orig = _one_block(f, cid, original, op, "aes", "maes-2", profile, "maes-table3", seed)
            opt = _one_block(f, cid, optimized, op, "aes", "maes-2", profile, "maes-table3", seed, new_impl=opt_maes)
            fall = orig.estimate - opt.estimate
            aa = ({} if None in (orig.control_low, orig.control_high, opt.control_low, opt.control_high) else
                  {"control_low": orig.control_low - opt.control_high, "control_high": orig.control_high - opt.control_low})
            out.append(Evidence(cid, estimate=fall, low=orig.low - opt.high, high=orig.high - opt.low, unit="%", **aa,
                                n=min(orig.n or 0, opt.n or 0) or None, size="per block of ECB calls",
                                style=f"{original}, {optimized}", mode="ecb", profile=profile, section="maes-table3",
                                reading=f"comparison={label}, operation={op}",
                                detail=(f"MAES approach 2's speed-up falls by {fall:.1f} points, from "
                                        f"{orig.estimate:+.1f} % [{orig.low:+.1f}, {orig.high:+.1f}] over the original "
                                        f"AES to {opt.estimate:+.1f} % [{opt.low:+.1f}, {opt.high:+.1f}] over the "
                                        f"optimized AES, {op}")))
    return out


#: Claims of other papers this chapter decides, declared here (never by the section label alone): claim -> paper.
#: Papers 000 and 001 (Section 4) premise that MixColumns needs more computation than AES's other round
#: functions; their own chapter (AES-2SBox) times no round function alone, this one times each step of a round
#: (:mod:`.steps`). ``tests/test_verdicts.py`` holds every claim decided outside the chapters whose
#: declared `paper` globs read its paper to such a declaration.
OTHER_PAPER_CLAIMS = {"000-s4-mixcolumns-most-resources": "000", "001-s4-mixcolumns-most-resources": "001"}


#: Our own construction where the paper gives none: MAES's "modified key expansion" IVs (Section 4C).
STAND_IN = ("our modified key expansion: the AES key expansion run on past its last round key, the paper giving "
            "no construction")


def table1_evidence(k: pd.DataFrame, profile: str, seed: int = 0) -> list[Evidence]:
    """Evidence of the Table I claims from the ``maes_keyexp`` timings (extra time in %, A/A band of the key expansion).

    The paper's claims are decided on the compiled pair (``impl = "numba"``:
    SHA-3 and the key expansion both Numba kernels, the same language and
    style: the paper names no language for either side, and one language for
    both is the like-for-like reading). The pair a Python caller times
    (``hashlib``'s SHA-3, in C, called once per IV from Python, against our key
    expansion, a compiled kernel behind one Python call) is kept as a finding,
    ``002-ext-t1-languages``: what unequal terms do to the same question.
    """
    def ke(lang, role="main"):
        return {"impl": lang, "cipher": "aes", "operation": "key_expansion", "role": role}

    def iv(lang, cipher, src):
        return {"impl": lang, "cipher": cipher, "operation": "iv_generation", "iv_source": src, "role": "main"}

    size = f"{int(k['bytes'].iloc[0]) * 8}-bit key"
    cond = dict(size=size, style="numba (SHA-3 and key expansion compiled)", mode="none", profile=profile,
                section="maes-table1")
    n = "numba"
    spec = (  # claim, old (the slower, per the paper), new, detail
        # "the original algorithm is faster than the modified": Table I times the modified scheme's IV generation
        # two ways. Its SHA-3 column is MAES as the paper specifies it (Figure 7), and decides; its key-expansion
        # column needs our stand-in, which illustrates beside it and decides nothing.
        ("002-t1-aes-keyexp-faster", iv(n, "maes-1", "sha3"), ke(n),
         "MAES's IV generation with SHA-3 (approach 1, the cheaper of the two), Table I's sha3 column, against the "
         "AES key expansion, both compiled"),
        ("002-t1-aes-keyexp-faster", iv(n, "maes-1", "keyexp"), ke(n),
         "modified key expansion (approach 1) against AES key expansion, both compiled"),
        ("002-t1-sha3-1-less-keyexp", iv(n, "maes-1", "keyexp"), iv(n, "maes-1", "sha3"),
         "approach 1: modified key expansion against SHA-3 IV, both compiled"),
        # "high speed" against what the hash replaces as IV generator: the key-expansion IV generator (Table I's
        # key-expansion column), which needs our stand-in: it illustrates, the claim is not testable here
        ("002-s4c-hash-high-speed", iv(n, "maes-1", "keyexp"), iv(n, "maes-1", "sha3"),
         "approach 1's SHA-3 IV against the modified key expansion (our stand-in) it replaces as IV generator, both "
         "compiled: speed-up of the hash"),
        ("002-t1-sha3-1-twice", iv(n, "maes-1", "sha3"), ke(n),
         "approach 1 SHA-3 IV against AES key expansion, both compiled: extra time"),
        ("002-t1-sha3-2-seven", iv(n, "maes-2", "sha3"), ke(n),
         "approach 2 SHA-3 IVs against AES key expansion, both compiled: extra time"),
        ("002-t1-sha3-2-double-keyexp", iv(n, "maes-2", "sha3"), iv(n, "maes-2", "keyexp"),
         "approach 2: SHA-3 IVs against the modified key expansion, both compiled: extra time"),
    )
    two = {cid for cid, *_ in spec if sum(c == cid for c, *_ in spec) > 1}     # a claim with a reading per column
    rows = [speed_case(k, cid, old, new, ke(n), ke(n, "control"), seed=seed, detail=d,
                       stand_in=STAND_IN if "keyexp" in (old.get("iv_source"), new.get("iv_source")) else "",
                       reading=f"iv_source={old['iv_source']}" if cid in two else "", **cond)
            for cid, old, new, d in spec]
    if set(k["impl"]) >= {"python", "numba"}:
        p = "python"
        ev = speed_case(k, "002-ext-t1-languages", iv(p, "maes-2", "sha3"), ke(p), ke(p), ke(p, "control"),
                        seed=seed, **{**cond, "style": "python calls (SHA-3 from hashlib, once per IV; key expansion "
                                                             "compiled, one call)"})
        sha_c = float(np.median(k.loc[_match(k, iv(p, "maes-2", "sha3")), "seconds"])) * 1e6
        sha_n = float(np.median(k.loc[_match(k, iv(n, "maes-2", "sha3")), "seconds"])) * 1e6
        ke_p = float(np.median(k.loc[_match(k, ke(p)), "seconds"])) * 1e6
        ke_n = float(np.median(k.loc[_match(k, ke(n)), "seconds"])) * 1e6
        rows.append(dataclasses.replace(ev, detail=(
            f"approach 2 SHA-3 IVs (hashlib's C, called once per IV from Python) against the AES key expansion (a "
            f"compiled kernel behind one Python call): extra time; medians "
            f"{sha_c:.2f} against {ke_p:.2f} us, where the compiled pair takes {sha_n:.2f} against {ke_n:.2f} us")))
    return rows


def approach1_init_evidence(k: pd.DataFrame, profile: str, seed: int = 0) -> list[Evidence]:
    """"The first approach will increase the speed of the initialization" (Section 4B): approach 1's IV against 2's.

    The initialization is the IV generation Table I times; approach 1's
    speed-up over approach 2 (extra time of approach 2 in %), on the compiled
    pair as every Table I claim, with the key expansion's A/A band. Table I
    gives both IV sources, so each is one reading (``reading = "iv_source=..."``)
    and both must hold.
    """
    n = "numba"
    ke = {"impl": n, "cipher": "aes", "operation": "key_expansion"}

    def iv(cipher, src) -> dict:
        return {"impl": n, "cipher": cipher, "operation": "iv_generation", "iv_source": src, "role": "main"}
    size = f"{int(k['bytes'].iloc[0]) * 8}-bit key"
    t1 = _paper.published(PAPER, "Table I").set_index(["row", "column"])["number"]
    column = {"sha3": "Time (sha3)", "keyexp": "Time (key expansion)"}
    printed = {src: (t1[("Approach 2: One IV vector generation for each round", col)]
                     / t1[("Approach 1: One IV vector generation for all rounds", col)] - 1) * 100
               for src, col in column.items()}
    return [speed_case(k, "002-s4b-approach1-faster-init", iv("maes-2", src), iv("maes-1", src),
                       {**ke, "role": "main"}, {**ke, "role": "control"}, seed=seed, size=size,
                       style="numba (SHA-3 and key expansion compiled)", mode="none", profile=profile,
                       section="maes-table1", reading=f"iv_source={src}", stand_in=STAND_IN if src == "keyexp" else "",
                       stated=float(printed[src]),
                       detail=f"IV generation ({src}): approach 2 (an IV per round) against approach 1 (one IV), "
                              f"both compiled: extra time of approach 2")
            for src in dict.fromkeys(k.loc[k["operation"] == "iv_generation", "iv_source"])]


def _match(df: pd.DataFrame, where: dict) -> np.ndarray:
    sel = np.ones(len(df), dtype=bool)
    for col, v in where.items():
        sel &= (df[col] == v).to_numpy()
    return sel


def table2_evidence(steps: pd.DataFrame, stage: pd.DataFrame, profile: str, seed: int = 0) -> list[Evidence]:
    """Evidence of every claim reading Table II, on ONE harness and ONE style: the step harness (``maes_steps``: each
    step inside one compiled loop, the XOR stage being AddRoundKey, the identical 16-byte XOR), in the byte-oriented
    (reference) style, Table II's 'Original AES'; the A/A band is the mixing step's twin. The separately called stage
    harness (``maes_stage``, one call per stage, which adds call cost to every stage) is shown beside, per style."""
    def t(op, step, role="main"):
        return _step_times(steps, op, step, role)

    def beside(slow):
        parts = []
        for impl in dict.fromkeys(stage["impl"]):
            med = stage[(stage["impl"] == impl) & (stage["role"] == "main")].groupby("operation")["seconds"].median()
            if slow in med and "xor_iv" in med:
                parts.append(f"{impl} {(med[slow] / med['xor_iv'] - 1) * 100:+.0f} %")
        return "; the stage harness, a call per stage, beside: " + ", ".join(parts) if parts else ""

    cond = dict(size=f"{int(steps['states'].iloc[0])} states x {int(steps['rounds'].iloc[0])} rounds per call",
                style="reference", mode="none", profile=profile, section="maes-steps")
    rows = []
    for cid, op, mix, reading in (("002-t2-mixcol-half", "encrypt", "mix_columns", ""),
                                  ("002-t2-invmix-50x", "decrypt", "inv_mix_columns", ""),
                                  ("002-s4a-xor-much-less", "encrypt", "mix_columns", "operation=encrypt"),
                                  ("002-s4a-xor-much-less", "decrypt", "inv_mix_columns", "operation=decrypt")):
        rows.append(_verdicts_speed(cid, t(op, mix), t(op, "add_round_key"), t(op, mix), t(op, mix, "control"),
                                    seed=seed, stated=_table2_gap(mix, "xor"), reading=reading,
                                    detail=f"{mix} against the XOR stage (AddRoundKey), per state and step, step "
                                           f"harness" + beside(mix), **cond))
    rows.append(_verdicts_speed("002-t2-invmix-costlier", t("decrypt", "inv_mix_columns"), t("encrypt", "mix_columns"),
                                t("decrypt", "inv_mix_columns"), t("decrypt", "inv_mix_columns", "control"), seed=seed,
                                stated=_table2_gap("inv_mix_columns", "mix_columns"),
                                detail="InvMixColumns against MixColumns, per state and step, step harness", **cond))
    return rows


def _table2_gap(slow: str, fast: str) -> float:
    """The gap (%) the paper's Table II prints between two stages (approach 2's XOR stage for ``xor``)."""
    t2 = _paper.published(PAPER, "Table II").set_index(["row", "column"])["number"]
    cell = {"mix_columns": ("Original AES", "Encryption"), "inv_mix_columns": ("Original AES", "Decryption"),
            "xor": ("Approach 2: One IV vectors generation for each round", "Encryption")}
    return float((t2[cell[slow]] / t2[cell[fast]] - 1) * 100)


#: How far a ratio the prose states may lie from the one the paper's own table gives and still agree with it
#: (relative, on the ratio of times): 25 %, the default margin of the rules file.
PROSE_TOLERANCE = 0.25
#: A table cell the text copy prints garbled leaves its reading open: ``data/paper/002_open_readings.csv`` names
#: it (table ``<Table> (open readings)``, row ``row <label>``, column ``column <label>``) with its other reading.
OPEN_SUFFIX = " (open readings)"


def open_readings(paper: str = PAPER) -> dict[tuple[str, str, str], list[tuple[float, str]]]:
    """Each garbled cell (table, row, column) with its other readings (value, note): the printed value is a
    reading too, and neither is held a misprint, since only the sentence under check would tell them apart."""
    df = _paper.published(paper)
    out: dict[tuple[str, str, str], list[tuple[float, str]]] = {}
    for r in df[df["table"].str.endswith(OPEN_SUFFIX)].itertuples():
        key = (r.table.removesuffix(OPEN_SUFFIX), r.row.removeprefix("row "), r.column.removeprefix("column "))
        out.setdefault(key, []).append((float(r.number), r.note))
    return out


def prose_tables_evidence(profile: str) -> list[Evidence]:
    """002-prose-t3-consistent, 002-prose-t1-consistent: does each ratio the prose states (a speed-up or a time
    increase, as the paper's own formula reads it) agree with the ratio its own Table III or Table I gives,
    within :data:`PROSE_TOLERANCE` ("lower by 50 times" read as about 50 times, as 002-t2-invmix-50x reads it)? Exact arithmetic
    on the transcription, its documented misprints (``data/paper/002_misprints.csv``) read as corrected: a defect
    is never drawn from a cell held to be a misprint, and the detail names each such cell, printed and corrected.
    A misprint is documented only on evidence outside the sentence checked here. A cell the text copy prints
    garbled (:func:`open_readings`) gives one evidence row per reading of it, the printed one first (``reading``
    names the cell's value), for the claim row's ``readings: open`` to combine. Which cells each claim compares
    is ``prose_ratio`` of ``data/paper/002_comparisons.yaml``; a claim read one reading per approach there (the
    prose names none while the table gives both) gives one row per approach (``approach=1``, ``approach=2``)."""
    opened = open_readings()
    claims = _comparisons.prose_ratios()
    tables = {t: _paper.corrected(PAPER, t).set_index(["row", "column"])
              for t in {c[0] for ratios in claims.values() for r in ratios for c in (r.slow, r.fast)}}
    out = []
    for cid, ratios in claims.items():
        cells = [c for r in ratios for c in (r.slow, r.fast) if c in opened
                 and not tables[c[0]].loc[c[1:], "misprint"]]
        choices = [[(c, float(tables[c[0]].loc[c[1:], "number"]), "as printed")]
                   + [(c, v, "the garbled cell's other reading") for v, _ in opened[c]] for c in dict.fromkeys(cells)]
        groups = ({f"approach={a}": [r for r in ratios if r.approach == a] for a in sorted({r.approach for r in ratios})}
                  if ratios[0].approach is not None else {"": ratios})
        for pick in itertools.product(*choices):
            for approach, mine in groups.items():
                parts = [_prose_ratio(r, tables, {c: v for c, v, _ in pick}) for r in mine]
                reading = "; ".join([approach] * bool(approach) + [f"{c[0]} {c[1].split(':')[0]}, {c[2]}: {v:g} us "
                                                                  f"({how})" for c, v, how in pick])
                out.append(Evidence(cid, holds=all(ok for ok, _ in parts),
                                    estimate=float(sum(not ok for ok, _ in parts)), unit="ratios that disagree",
                                    n=len(parts), style="exact arithmetic", profile=profile,
                                    section={"t1": "maes-table1", "t2": "maes-table2"}.get(cid.split("-")[2],
                                                                                              "maes-table3"),
                                    reading=reading, detail="; ".join(f"{t} ({'agrees' if ok else 'disagrees'})"
                                                                      for ok, t in parts)))
    return out


def _prose_ratio(ratio: _comparisons.ProseRatio, tables, values) -> tuple[bool, str]:
    """One prose ratio against its table's, the cells in ``values`` read at the value given there."""
    (ptab, prow, pcol), keys, ttab = ratio.prose, (ratio.slow, ratio.fast), ratio.slow[0]
    pr = _paper.published(PAPER, ptab)
    said = 1 + float(pr.loc[(pr["row"] == prow) & (pr["column"] == pcol), "number"].iloc[0]) / 100
    cells = [tables[ttab].loc[k[1:]] for k in keys]
    a, b = (values.get(k, float(c["number"])) for k, c in zip(keys, cells))
    table = a / b
    ok = abs(said / table - 1) <= PROSE_TOLERANCE
    read = "".join(f" (printed {c['printed']}, a documented misprint read as {c['value']})"
                   for c in cells if c["misprint"])
    what = f"{prow}{'' if ratio.approach is None else f' (approach {ratio.approach})'}"
    return ok, (f"{ptab.replace(' (prose)', '')}, {what}, {pcol.replace(' (reading)', '').lower()}: "
                f"the prose says x{said:.3g}, "
                f"{ttab} gives {a:g} / {b:g} = x{table:.3g}{read}")


def iv_source_evidence(key: bytes, options: dict, profile: str, seed: int = 0) -> list[Evidence]:
    """002-s4c-sha3-more-secure: MAES with SHA-3 IVs and with key-expansion IVs, each through the cipher: is each ciphertext byte
    reached by exactly one plaintext byte (byte-local, what the codebook attack needs)? SHA-3 IVs increase security
    only if MAES with them is not byte-local while it is with key-expansion IVs."""
    local = {}
    for src in MAES_IV_SOURCES:
        opts = {**options, "iv_source": src}
        local[src] = {c: byte_routes(c, key, seed=seed, **opts) is not None for c in ("maes-1", "maes-2")}
    text = "; ".join(f"{src} IVs: " + ", ".join(f"{c} {'byte-local' if v else 'diffuses'}" for c, v in d.items())
                     for src, d in local.items())
    cond = dict(size="one-byte changes of random blocks", style="table", mode="ecb", profile=profile,
                section="maes-dependency")
    contrast = bool(not all(local["sha3"].values()) and all(local["keyexp"].values()))
    # "this approach [key-expansion IVs] is not secure" (002-s4c-keyexp-not-secure): MAES with key-expansion IVs is
    # not secure, byte-local so the key-free codebook attack reads it; the reason the paper gives (the key expansion
    # as IV source, where SHA-3 IVs would not be) is the contrast above, decided at 002-s4c-sha3-more-secure
    return [Evidence("002-s4c-sha3-more-secure", holds=contrast, detail=text, **cond),
            Evidence("002-s4c-keyexp-not-secure", holds=bool(all(local["keyexp"].values())),
                     detail="MAES with key-expansion IVs byte-local, so the key-free codebook attack reads it: " + text
                            + "; the paper's reason (the IV source) is decided at 002-s4c-sha3-more-secure",
                     **cond)]


def _printed_iv_count() -> float:
    """The number of IVs the paper prints for approach 2 (Section 4C: "it needs 16 IV vectors")."""
    t = _paper.published(PAPER, "Section 4C (prose)")
    return float(t.loc[(t["row"] == "Approach 2") & (t["column"] == "IV vectors"), "number"].iloc[0])


def _image(f: Frames, key: bytes, options: dict, profile: str, style: str) -> list[Evidence]:
    rows = []
    d = f.entropy_diff
    for mode in dict.fromkeys(d["mode"]):
        sub = d[(d["mode"] == mode) & d["cipher"].str.startswith("maes")]
        size = f"{int(sub['bytes'].iloc[0])} B image"
        far = sub.loc[sub["difference_bits"].abs().idxmax()]
        cond = dict(size=size, style=style, mode=mode, profile=profile, unit="bits", section="maes-table4",
                    reading=f"mode={mode}")
        rows.append(Evidence("002-t4-entropy-kept", estimate=float(far["difference_bits"]), low=float(far["low_bits"]),
                             high=float(far["high_bits"]), n=int(far["bytes"]),
                             detail=f"H({far['cipher']}) - H(aes), same image and mode", **cond))
        two = sub[sub["cipher"] == "maes-2"].iloc[0]
        rows.append(Evidence("002-t4-approach2-higher", estimate=float(two["difference_bits"]),
                             low=float(two["low_bits"]), high=float(two["high_bits"]), n=int(two["bytes"]),
                             detail="H(maes-2) - H(aes), same image and mode", **cond))
        e = f.entropy[(f.entropy["mode"] == mode) & f.entropy["cipher"].str.startswith("maes")]
        rows.append(Evidence("002-fig8-uniform", size=size, style=style, mode=mode, profile=profile,
                             section="maes-fig8", reading=f"mode={mode}", **fig8_worst(e)))
    ideal = _paper.published(PAPER, "Section 6D (prose)")
    must = float(ideal.loc[(ideal["row"] == "Ideal") & (ideal["column"] == "Entropy"), "number"].iloc[0])
    n = int(d["bytes"].iloc[0])
    best = expected_entropy_uniform(n)
    ideal = _stats.byte_entropy(np.arange(256, dtype=np.uint8))    # complete randomness: every byte equally likely
    rows.append(Evidence("002-s6d-entropy-must-be-8", holds=bool(np.isclose(ideal, must, rtol=0, atol=1e-12) and round(best) == must),
                         estimate=ideal, unit="bits", n=n,
                         size=f"{n} B image", style="exact arithmetic", profile=profile, section="maes-table4",
                         detail=(f"uniformly distributed bytes have byte entropy {ideal:g} bits (log2 256, the "
                                 f"maximum); a file of {n} uniformly random bytes (a perfect cipher's output of the "
                                 f"image's size) has an expected plug-in entropy of {best:.5f} bits, short of it by "
                                 f"255 / (2 n ln 2) = {ideal - best:.2g} bits, which is {must:g} to the whole bits "
                                 "the sentence gives")))
    lk = f.leaks[(f.leaks["mode"] == "ecb") & f.leaks["cipher"].str.startswith("maes")]
    kept, lost = float(lk["p_equal_if_plain_equal"].min()), float(lk["p_equal_if_plain_differs"].max())
    rows.append(Evidence("002-ext-ecb-repeats", holds=bool(kept == 1.0 and lost == 0.0), size=size, style=style,
                         mode="ecb", profile=profile,
                         section="maes-fig8", detail=f"P(equal | plain equal) >= {kept:.3f}, "
                                                     f"P(equal | plain differs) <= {lost:.3f}"))
    ks = f.keyspace
    takes = {int(b): set(a.split()) for b, a in zip(ks["key_bits"], ks["accepted_by"])}
    same = all(("aes" in t) == ({"maes-1", "maes-2"} <= t) for t in takes.values()) and any(
        "aes" in t for t in takes.values())
    rows.append(Evidence("002-keyspace-unchanged", holds=bool(same), profile=profile, section="maes-keyspace",
                         detail="; ".join(f"{b}-bit: {' '.join(sorted(t)) or 'none'}" for b, t in takes.items())))
    one = maes_ivs(key, 1, options["iv_source"], sha3=options["sha3"], sha3_chain=options["sha3_chain"])
    two = maes_ivs(key, 2, options["iv_source"], sha3=options["sha3"], sha3_chain=options["sha3_chain"])
    distinct = len({bytes(r) for r in two})
    printed = _printed_iv_count()
    # a count, decided against the printed one (within_margin, the null approach 1's one IV): one IV per round
    # is more than approach 1's one (the qualitative part) and not the printed 16 (the size)
    rows.append(Evidence("002-approach2-more-ivs", estimate=float(len(two)), low=float(len(two)), high=float(len(two)),
                         unit="IVs", profile=profile,
                         section="maes-table1", size=f"{len(key) * 8}-bit key",
                         detail=f"approach 1: {len(one)} IV; approach 2: {len(two)} IVs (one per round), {distinct} "
                                f"distinct ({options['iv_source']}); the paper prints {printed:g}"))
    return rows


def evidence_rows(frames: Frames, *, key: bytes, options: dict, impls: Sequence[str], original_style: str,
                  optimized_style: str, profile: str, image_style: str = "table", seed: int = 0) -> list[Evidence]:
    """Evidence for every claim of paper 002 that is testable here, from this run's frames.

    ``impls`` are the timed styles (config ``impls``); ``original_style`` and
    ``optimized_style`` map the paper's "original" and "optimized" AES onto
    two of them; ``image_style`` is the style the image was encrypted in (config ``image_impl``).
    All are the chapter's parameters, checked at the door, and the paper's two styles are among ``impls``
    (:func:`cipherlab.experiments.maes.driver.setup` checks them against the styles this CPU runs).
    """
    stages = stage_impls(impls)
    if not stages:
        raise ValueError(f"impls must include a style with separate steps for Table II, got {list(impls)}")
    return (table1_evidence(frames.keyexp, profile, seed) + approach1_init_evidence(frames.keyexp, profile, seed)
            + table2_evidence(frames.steps, frames.stage, profile, seed) + [tables_consistency_evidence(profile)]
            + [mixcolumns_share_evidence(profile), entropy_power_evidence(profile),
               *iv_specification_evidence(profile, options["sha3"])]
            + prose_tables_evidence(profile) + [mixcolumns_polynomial_evidence(profile), *iv_source_consistency_evidence(profile)]
            + iv_source_evidence(key, options, profile, seed)
            + _speed(frames, impls, original_style, optimized_style, profile, seed)
            + _image(frames, key, options, profile, image_style))


def evidence_frame_for_display(rows: Sequence[Evidence]) -> pd.DataFrame:
    """The evidence rows as a table: claim, condition, estimate with interval, A/A band."""
    df = evidence_frame(rows)
    return df[["claim_id", "style", "mode", "size", "estimate", "low", "high", "control_low", "control_high",
               "n", "holds", "p_value", "unit", "detail"]]
