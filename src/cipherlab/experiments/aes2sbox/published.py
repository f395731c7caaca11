"""Evidence of papers 000 and 001 from their published values alone: the papers against themselves (defects,
printed percentages, p-values, trials, the avalanche criterion as stated), no measurement of this run."""
from __future__ import annotations

from scipy import stats as _st

from cipherlab.analysis import paper as _paper
from cipherlab.analysis.evidence import Evidence
from cipherlab.experiments._sentences import join

from cipherlab.experiments.aes2sbox.common import (BLOCK_BITS, OPERATION_ROW, OPERATIONS, PAPERS,
                                                   SPEED_SECTION, TABLES)

#: The date of FIPS PUB 197 (NIST, "Announcing the Advanced Encryption Standard (AES)"), which the papers cite.
FIPS_197_DATE, FIPS_197_YEAR = "November 26, 2001", 2001
#: The avalanche pairs whose printed plaintexts each paper's one-bit rows count (pair: the two rows of the table).
ONE_BIT_PAIRS = {"000": {1: ("1", "2"), 2: ("3", "4")}, "001": {2: ("3", "4")}}
#: Where each paper prints its t-tests' p-values in prose (besides Tables 3-4): the speed section and the conclusion.
P_VALUE_PROSE = {"000": ("Section 7.1 (prose)", "Section 8 (prose)"), "001": ("Section 5.1 (prose)", "Section 6 (prose)")}
#: The conclusion's "slightly lower than ... 50 %" against the paper's own printed avalanche figures.
OWN_AVALANCHE_CLAIM = {"000": "000-s8-avalanche-own-figures", "001": "001-s6-avalanche-own-figures"}
#: The claim that each paper prints its p-values the same wherever it gives them (named by its conclusion's section).
P_VALUE_CLAIM = {"000": "000-s8-p-values-consistent", "001": "001-s6-p-values-consistent"}
#: Where each paper states its number of timing trials (``data/paper/<paper>_prose.csv``, row ``trials``).
TRIALS_PROSE = {"000": "Section 6.1 (prose)", "001": "Section 5.1 (prose)"}
#: MyST labels of the chapter's sections that hold the evidence.
SECTIONS = {"sboxes": "aes2sbox-sboxes", "speed": SPEED_SECTION, "audit": "aes2sbox-audit",
            "pairs": "aes2sbox-avalanche-pairs", "avalanche": "aes2sbox-avalanche"}


def _printed_speedup(paper: str, operation: str) -> float:
    """The speed-up the paper's own Table 5 prints for an operation (it sizes the significance claim)."""
    t = _paper.published(paper, TABLES[paper]["speedup"])
    hit = t[(t["row"] == OPERATION_ROW[operation]) & (t["column"] == TABLES[paper]["speedup_column"])]
    return float(hit["number"].iloc[0])


def _bits_apart(a: str, b: str) -> int:
    return bin(int(a, 16) ^ int(b, 16)).count("1")


def defect_evidence(*, profile: str) -> list[Evidence]:
    """The papers' own numbers and words checked against each other (exact, on the transcription): the second
    avalanche pair's one-bit change, 001's second-pair share (printed 19.351 %), the p-values."""
    rows = []
    cond = dict(style="exact arithmetic", profile=str(profile), section=SECTIONS["audit"])
    for paper in PAPERS:
        t = _paper.corrected(paper, TABLES[paper]["avalanche"])
        pt = t[t["column"] == "Plaintext"].set_index("row")["value"]
        for pair, (a, b) in ONE_BIT_PAIRS[paper].items():
            bits = _bits_apart(pt[a], pt[b])
            rows.append(Evidence(f"{paper}-aval-pair{pair}-one-bit", holds=bits == 1, estimate=float(bits),
                                 unit="bits", detail=f"the printed plaintexts {pt[a]} and {pt[b]} differ in {bits} bits",
                                 **cond))
    av = _paper.corrected("001", "Section 6 (prose)")   # a documented misprint read as corrected, as everywhere
    cell = av[av["row"] == "avalanche, second plaintext pair"].iloc[0]
    printed = float(cell["number"])
    t = _paper.corrected("001", TABLES["001"]["avalanche"])
    n = float(t.loc[(t["row"] == "3") & (t["column"] == "Avalanche Effect (changed bits)"), "number"].iloc[0])
    share = 100.0 * n / BLOCK_BITS
    said = (f"the conclusion prints {cell['printed']} %, a documented misprint read as {cell['value']} %"
            if cell["misprint"] else f"the conclusion prints {printed:g} %")
    rows.append(Evidence("001-s6-avalanche-second-pair", holds=round(share, 3) == round(printed, 3), estimate=share,
                         unit="%", detail=f"{n:.0f} changed bits of {BLOCK_BITS}, by the paper's own table, are "
                                          f"{share:.3f} %; {said}", **cond))
    for paper in PAPERS:
        intro = _paper.published(paper, "Introduction (prose)")
        year = int(intro.loc[intro["row"] == "FIPS-197 published", "number"].iloc[0])
        rows.append(Evidence(f"{paper}-s1-fips197-year", holds=year == FIPS_197_YEAR,
                             estimate=float(FIPS_197_YEAR),   # ours: the reference's own year, beside the paper's
                             detail=f"the paper dates FIPS-197 to {year}; FIPS PUB 197 is dated {FIPS_197_DATE}",
                             **cond))
    for paper in PAPERS:
        rows.append(printed_percentages_evidence(paper, profile=profile))
        rows.append(trials_evidence(paper, profile=profile))
    rows += [p_values_evidence(paper, profile=profile) for paper in PAPERS]
    for paper in PAPERS:
        rows += own_avalanche_evidence(paper, profile=profile)
        rows += definition_evidence(paper, profile=profile)
    return rows


def definition_evidence(paper: str, *, profile: str) -> list[Evidence]:
    """The avalanche criterion as the papers state it ("at least half the output bits will be flipped" when one
    input bit changes) against an ideal cipher, whose output bits each flip with probability 1/2, independently,
    under the two readings the sentence leaves open: on every flip (the chance that one flip changes at least half
    of them, binomial, exact) and on average (the expected share, one half, as the strict avalanche criterion of
    Webster and Tavares asks)."""
    half = BLOCK_BITS // 2
    p = float(_st.binom.sf(half - 1, BLOCK_BITS, 0.5))      # P(at least half the bits flip on one flip)
    mean = float(_st.binom.mean(BLOCK_BITS, 0.5))           # the bits that flip in expectation
    cond = dict(style="exact arithmetic", profile=str(profile), section=SECTIONS["audit"])
    return [Evidence(f"{paper}-avalanche-definition", holds=p >= 1.0, estimate=p, reading="on every flip",
                     detail=(f"an ideal cipher changes at least {half} of its {BLOCK_BITS} output bits on one "
                             f"single-bit flip with probability {p:.3f} (binomial, each bit flipping with probability "
                             f"1/2), so read per flip the criterion fails it on {1 - p:.1%} of its flips"), **cond),
            Evidence(f"{paper}-avalanche-definition", holds=mean >= half, estimate=mean / BLOCK_BITS,
                     reading="on average",
                     detail=(f"an ideal cipher flips {mean:g} of its {BLOCK_BITS} output bits in expectation (each "
                             "with probability 1/2): read on average, as the strict avalanche criterion asks, it "
                             f"{'meets' if mean >= half else 'fails'} the criterion"), **cond)]


def own_avalanche_evidence(paper: str, *, profile: str) -> list[Evidence]:
    """The conclusion's "slightly lower than ... 50 %" read against the paper's own avalanche table: each printed
    percentage is one reading of the sentence (it names both), exact, on the transcription (no measurement of ours)."""
    t = _paper.published(paper, TABLES[paper]["avalanche"])
    t = t[t["column"] == TABLES[paper]["avalanche_column"]]
    return [Evidence(OWN_AVALANCHE_CLAIM[paper], estimate=float(r.number), low=float(r.number), high=float(r.number),
                     unit="%", style="exact arithmetic", profile=str(profile), section=SECTIONS["audit"],
                     reading=f"pair {k}", detail=f"{TABLES[paper]['avalanche']} prints {r.value} % for pair {k}")
            for k, r in enumerate(t.sort_values("row").itertuples(), start=1)]


def p_values_evidence(paper: str, *, profile: str) -> Evidence:
    """Each t-test's two-tailed p-value as the paper prints it wherever it gives it (the speed section's prose,
    Tables 3-4 and the conclusion), compared as printed, documented misprints read as corrected
    (:func:`cipherlab.analysis.paper.corrected`): exact, on the transcription."""
    places = {}  # (row, value) -> where it is printed
    for name in P_VALUE_PROSE[paper]:
        pv = _paper.corrected(paper, name)
        for r in pv[pv["row"].str.endswith("P-value")].itertuples():
            where = name.replace(" (prose)", "")   # a corrected cell says what it printed
            places.setdefault((r.row, r.value), []).append(
                f"{where} (printed {r.printed}, a documented misprint)" if r.misprint else where)
    tabs = {"encryption P-value": TABLES[paper]["encrypt"], "decryption P-value": TABLES[paper]["decrypt"]}
    for row, table in tabs.items():
        tv = _paper.corrected(paper, table)
        places.setdefault((row, tv.loc[tv["row"] == "P(T<=t) two-tail", "value"].iloc[0]), []).append(table)
    values = {row: [(v, where) for (r, v), where in places.items() if r == row] for row in tabs}

    def said(row: str) -> str:
        found = values[row]
        if len(found) == 1:
            return f"{row.split()[0]}: {found[0][0]} in {join(found[0][1])}"
        return f"{row.split()[0]}: " + " against ".join(f"{v} in {join(where)}" for v, where in found)
    return Evidence(P_VALUE_CLAIM[paper], holds=all(len(v) == 1 for v in values.values()),
                    n=sum(len(w) for w in places.values()), style="exact arithmetic", profile=str(profile),
                    section=SECTIONS["audit"], detail="; ".join(said(row) for row in tabs))


def trials_evidence(paper: str, *, profile: str) -> Evidence:
    """The timing protocol's trial count as the text states it against the Observations its t-test tables print
    (Tables 3-4, both ciphers): exact, on the transcription."""
    prose = _paper.published(paper, TRIALS_PROSE[paper])
    trials = int(prose.loc[prose["row"] == "trials", "number"].iloc[0])
    seen = []
    for op in OPERATIONS:
        t = _paper.published(paper, TABLES[paper][op])
        obs = t[t["row"] == "Observations"]
        seen += [(TABLES[paper][op], c, int(n)) for c, n in zip(obs["column"], obs["number"])]
    if not seen:
        raise ValueError(f"paper {paper}: Tables 3-4 print no Observations")
    return Evidence(f"{paper}-trials-observations", holds=all(n == trials for *_, n in seen), n=len(seen),
                    estimate=float(trials), style="exact arithmetic", profile=str(profile), section=SECTIONS["audit"],
                    detail=f"the text states {trials} trials; " + "; ".join(
                        f"{table} prints {n} observations of {c}" for table, c, n in seen))


def printed_percentages_evidence(paper: str, *, profile: str) -> Evidence:
    """The avalanche table's printed percentages against its own printed bit counts (count / 128, to the printed
    decimals): exact arithmetic on the transcription."""
    t = _paper.published(paper, TABLES[paper]["avalanche"])
    col = TABLES[paper]["avalanche_column"]
    pct = t[t["column"] == col].set_index("row")
    bits = t[t["column"] == f"{col} (changed bits)"].set_index("row")["number"]
    parts, holds = [], True
    for row, r in pct.iterrows():
        decimals = len(r["value"].partition(".")[2])
        share = round(100.0 * float(bits[row]) / BLOCK_BITS, decimals)
        holds &= share == round(float(r["number"]), decimals)
        parts.append(f"row {row}: printed {r['value']} % with {bits[row]:.0f} bits; {bits[row]:.0f} / {BLOCK_BITS} = "
                     f"{share:.{decimals}f} %")
    return Evidence(f"{paper}-aval-pct-consistent", holds=bool(holds), n=len(parts), style="exact arithmetic",
                    profile=str(profile), section=SECTIONS["audit"], detail="; ".join(parts))
