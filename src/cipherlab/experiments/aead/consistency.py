"""Paper 003: claims a referee's reading found untranscribed, checked against our data and the paper's own numbers.

* ``003-f6-ccm-eax-enc-dec-differ``: "CCM Mode and EAX Mode have differences
  in encryption and decryption" (after Fig. 6), set against Table 1's
  "convergent values for both operations": AES-CCM's and AES-EAX's decryption
  over encryption speed at every size, against the ±10 % that reads
  "convergent" at ``003-t1-converge`` (:func:`enc_dec_differ_evidence`).
* ``003-f5-ccm-higher-average``: "Mode CCM had a higher average speed" (Fig. 5):
  the encryption throughput averaged over the sizes, CCM's over EAX's, with
  the speed statistic, bootstrap and A/A band of every speed claim
  (:func:`average_speed_evidence`).
* the paper's own numbers against each other (:func:`self_consistency_evidence`):
  Fig. 7's times at 5 MB against Fig. 9's throughputs; Table 7's rejection
  times at 5 MB against Figs. 5 and 10's throughputs; Fig. 7's "Blowfish is
  faster than CAST" against Fig. 9's starting speeds. A figure read off a plot
  ("about", "approximately") gets the misprint charity every paper gets: the
  declared default margin of ``within_margin`` (:data:`CHARITY`); only a gap
  beyond it is a self-contradiction. Where the paper's words state an order
  and its plot-read figures lean against it inside the charity, the charity
  keeps the gap from counting as an error without making the words agree:
  two open readings, the figures as printed and off by up to the charity
  (:func:`_against_words`), and the claim stays undecided.
* the pseudocode and Sec. 3's words, checked as written (:func:`pseudocode_evidence`): Algorithms 1-2
  select a key per mode while Sec. 3 applies the modes "using the same encryption keys"; Table 2 and
  Sec. 5.1.1 name different modes the stable one. The pseudocode's editorial slips (Algorithm 4's "using
  AES algorithm" inside its loop over three methods, Pseudocode 3's stored ``DecryptionTime``, Pseudocode 1's
  undefined ``Method1``, eq. 3's label, Algorithms 1-2's "all algorithms") are documented misprints
  (``data/paper/003_misprints.csv``), each with its evidence: the same charity as every paper's.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd

from cipherlab.analysis import paper as _paper
from cipherlab.analysis import verdicts as _v
from cipherlab.experiments.aead.evidence import SECTIONS, _control, _size, _times, published_cells_mean
from cipherlab.experiments.aead.measure import IMPL, LABELS, PAPER

#: The misprint charity, relative: the declared default margin of ``within_margin`` (``config/verdicts.yaml``).
CHARITY = float(_v.load_rules()["rules"]["within_margin"]["margin"])
#: Table 1's "convergent", read as at ``003-t1-converge`` (a sameness, rule small_effect): decryption within this
#: many % of encryption, the most a slight effect reaches (``small_effect.slight_pct``, ``config/verdicts.yaml``).
CONVERGENT_PCT = float(_v.load_rules()["small_effect"]["slight_pct"])
#: The claims this module gives evidence for.
CLAIMS = ("003-f6-ccm-eax-enc-dec-differ", "003-f5-ccm-higher-average", "003-f7-f9-consistent",
          "003-t7-f5-f10-consistent", "003-f7-f9-blowfish-cast-consistent", "003-a1-key-per-mode",
          "003-t2-s511-stable-contradiction", "003-f10-internal-crossover")
#: The claim whose allowance between the paper's two protocols is bounded by our own cold calls
#: (:func:`protocol_bound_evidence`, given the cold-against-warm table of :func:`.protocol.cold_table`).
PROTOCOL_CLAIMS = ("003-t5-fig9-consistent",)


def _phase1(p1: pd.DataFrame, **sel) -> np.ndarray:
    return _times(p1, cipher="aes", **sel)


def enc_dec_differ_evidence(p1: pd.DataFrame, *, profile: str, seed: int = 0) -> _v.Evidence:
    """"CCM and EAX have differences in encryption and decryption", read against Table 1's "convergent".

    One comparison per mode (CCM, EAX) and size: decryption over encryption
    speed (%), with the A/A band of that size. The claim needs one difference
    (it states no size), so the comparison farthest from equal decides (the one
    most favourable to the claim), its sign turned to point away from equal; the
    claim row's rule (``ordering`` from 0) then asks whether it lies beyond the
    noise.
    """
    evs = []
    for m in ("ccm", "eax"):
        for nb in sorted(int(b) for b in p1.loc[p1["mode"] == m, "bytes"].unique()):
            base = dict(mode=m, bytes=nb, instance="main")
            ctl = _control(1, "decrypt", nb)
            evs.append(_v.speed_evidence(
                "003-f6-ccm-eax-enc-dec-differ", _phase1(p1, operation="encrypt", **base),
                _phase1(p1, operation="decrypt", **base), _times(p1, instance="main", **ctl),
                _times(p1, instance="control", **ctl), seed=seed, size=_size(nb), mode=m))
    far = max(evs, key=lambda e: max(abs(e.low), abs(e.high)))
    sign = 1.0 if far.estimate >= 0 else -1.0
    lo, hi = sorted((sign * far.low, sign * far.high))
    c_lo, c_hi = sorted((sign * far.control_low, sign * far.control_high))
    which = "faster" if sign > 0 else "slower"
    return dataclasses.replace(
        far, estimate=sign * far.estimate, low=lo, high=hi, control_low=c_lo, control_high=c_hi, style=IMPL,
        profile=profile, section=SECTIONS["fig6"],
        detail=(f"{LABELS[far.mode]}'s decryption against its encryption at {far.size}, the farthest from equal of "
                f"{len(evs)} comparisons (CCM and EAX at each size): decryption {which} by "
                f"{abs(far.estimate):.1f} % [{abs(lo):.1f}, {abs(hi):.1f}]" if lo >= 0 else
                f"{LABELS[far.mode]}'s decryption against its encryption at {far.size}, the farthest from equal of "
                f"{len(evs)} comparisons (CCM and EAX at each size): decryption {which} by "
                f"{abs(far.estimate):.1f} %, interval [{lo:.1f}, {hi:.1f}] in that direction"))


def _average_time(df: pd.DataFrame, sizes, **sel) -> np.ndarray:
    """Per trial, the time per call that gives the throughput averaged over ``sizes``: 1 / mean(size / time)
    (same processes x trials shape; trial ``t`` of every size is timed in the same interleaved round)."""
    tp = [nb / _times(df, bytes=nb, **sel) for nb in sizes]
    shape = {a.shape for a in tp}
    if len(shape) != 1:
        raise ValueError(f"the sizes {sizes} have trials of different shapes {sorted(shape)}: "
                         "an average over sizes needs the same trials at every size")
    return 1.0 / np.mean(tp, axis=0)


def average_speed_evidence(p1: pd.DataFrame, *, profile: str, seed: int = 0) -> _v.Evidence:
    """"Mode CCM had a higher average speed" (Fig. 5): AES-CCM's encryption throughput averaged over the sizes
    over AES-EAX's (%), its A/A control averaged the same way."""
    sizes = sorted(int(b) for b in p1["bytes"].unique())
    sel = dict(cipher="aes", operation="encrypt", instance="main")
    ccm, eax = (_average_time(p1, sizes, mode=m, **sel) for m in ("ccm", "eax"))
    c_main = 1.0 / np.mean([nb / _times(p1, instance="main", **_control(1, "encrypt", nb)) for nb in sizes], axis=0)
    c_ctl = 1.0 / np.mean([nb / _times(p1, instance="control", **_control(1, "encrypt", nb)) for nb in sizes], axis=0)
    return _v.speed_evidence("003-f5-ccm-higher-average", eax, ccm, c_main, c_ctl, seed=seed,
                             size=" | ".join(f"{nb} B" for nb in sizes), style=IMPL, mode="ccm vs eax",
                             profile=profile, section=SECTIONS["fig5"],
                             detail=(f"AES-CCM's encryption throughput averaged over the {len(sizes)} sizes over "
                                     "AES-EAX's (the mean of each size's throughput, per interleaved round)"))


def _gap_pct(implied: float, printed: float) -> float:
    return (implied / printed - 1.0) * 100.0


def _consistent(cid: str, gaps: "dict[str, float]", what: str, *, profile: str, one_sided: bool = False,
                charity: "float | None" = CHARITY, why: str = "a number read off a plot is allowed") -> _v.Evidence:
    """Holds when every gap (%) lies within the charity (``one_sided``: no gap below ``-charity``); the largest
    gap is the estimate, named in the detail. ``charity=None``: none (the direction is stated in words)."""
    worst = min(gaps, key=gaps.get) if one_sided else max(gaps, key=lambda k: abs(gaps[k]))
    lim = 0.0 if charity is None else charity * 100
    ok = all(g >= -lim for g in gaps.values()) if one_sided else all(abs(g) <= lim for g in gaps.values())
    parts = "; ".join(f"{k}: {g:+.1f} %" for k, g in gaps.items())
    allowed = f"the ±{lim:g} % {why}" if charity is not None else why
    return _v.Evidence(cid, holds=bool(ok), estimate=float(gaps[worst]), unit="%", style="the transcription",
                       profile=profile, section=SECTIONS["absolute"],
                       detail=(f"{what} ({parts}); the largest, {worst}, {'lies within' if ok else 'lies beyond'} "
                               f"{allowed}"))


#: The two readings of a plot-read figure that leans against the paper's own words by less than the misprint
#: charity: the figure as printed (the words and the figure then conflict) or off by up to the charity (then they
#: need not). The charity keeps such a gap from counting as the authors' error; it does not make the words and
#: the figure agree, so the two readings disagree and the claim stays undecided.
AS_PRINTED = "the plot-read figures as printed"
WITHIN_CHARITY = f"a plot-read figure off by up to the misprint charity (±{CHARITY * 100:g} %)"


def _against_words(cid: str, label: str, gap: float, what: str, *, profile: str) -> list[_v.Evidence]:
    """Words that state an order (``A faster than B``) against the paper's plot-read figures, ``gap`` (%) the
    figures' A over B: one row per reading (:data:`AS_PRINTED`, :data:`WITHIN_CHARITY`). A gap in the words'
    direction agrees under both; one against them beyond the charity conflicts under both; one against them within
    the charity conflicts only as printed."""
    lim = CHARITY * 100
    rows = []
    for reading, holds in ((AS_PRINTED, gap >= 0), (WITHIN_CHARITY, gap >= -lim)):
        said = ("in the words' order" if gap >= 0 else
                f"against the words' order, {'within' if gap >= -lim else 'beyond'} the ±{lim:g} % misprint charity")
        rows.append(_v.Evidence(cid, holds=bool(holds), estimate=float(gap), unit="%", style="the transcription",
                                profile=profile, section=SECTIONS["absolute"], reading=reading,
                                detail=f"{what} ({label}: {gap:+.1f} %, {said})"))
    return rows


def self_consistency_evidence(*, profile: str) -> list[_v.Evidence]:
    """The paper's numbers against each other (exact arithmetic on the transcription, data/paper/003_*.csv)."""
    cell = lambda table, row, column: published_cells_mean([(table, row, column)])    # noqa: E731
    mb = float(max(_paper.published(PAPER, "Pseudocode 3 (setup)")["number"]))      # the largest file, 5 MB
    small = float(min(_paper.published(PAPER, "Pseudocode 3 (setup)")["number"]))   # the smallest, 0.1 MB
    f7, f9, f5, f10 = (f"Figure {i} (prose)" for i in (7, 9, 5, 10))
    t7 = lambda row: cell("Table 7", row, "Fail Avg.") * 1e-6                        # noqa: E731  (s)
    f7_f9 = {"AES": _gap_pct(mb / cell(f7, "AES", f"encryption time at {mb:g} MB"),
                             cell(f9, "AES", f"encryption throughput at {mb:g} MB")),
             "Blowfish": _gap_pct(mb / cell(f7, "Blowfish", f"encryption time at {mb:g} MB"),
                                  cell(f9, "Blowfish", "encryption throughput at 1 MB"))}
    t7_figs = {"GCM (Fig. 5)": _gap_pct(mb / t7("GCM"), cell(f5, "GCM", f"encryption throughput at {mb:g} MB")),
               "EAX (Fig. 10)": _gap_pct(mb / t7("EAX"), cell(f10, "AES", f"decryption throughput at {mb:g} MB"))}
    # like for like: Fig. 9 prints CAST as a range over every size, so Blowfish's start is set against the lowest
    # CAST figure that range admits (the start conflicts with Fig. 7's order only below all of it); Fig. 10 prints
    # CAST's level (where it 'leveled off'), not its start, so its words are set against Blowfish's level
    bf_cast = _gap_pct(cell(f9, "Blowfish", f"encryption throughput at {small:g} MB"),
                       cell(f9, "CAST", "encryption throughput range low"))
    f10_levels = _gap_pct(cell(f10, "Blowfish", "decryption throughput plateau low"),
                          cell(f10, "CAST", "decryption throughput plateau high"))
    return [
        _consistent("003-f7-f9-consistent", f7_f9,
                    f"the {mb:g} MB file over Fig. 7's encryption times, against Fig. 9's throughputs (Blowfish's "
                    "level from 1 MB on)", profile=profile),
        _consistent("003-t7-f5-f10-consistent", t7_figs,
                    f"the {mb:g} MB file over Table 7's rejection times, against Fig. 5's GCM and Fig. 10's AES-EAX "
                    "throughputs", profile=profile, one_sided=True),
        *_against_words("003-f10-internal-crossover", "Blowfish's level over CAST's", f10_levels,
                        "Fig. 10's levels, Blowfish's lowest ('going to around 60-65 MB/s, and then leveled off') over "
                        "CAST's highest ('leveled off at around 45-50 MB/Sec'), against its 'CAST is ... the weakest at "
                        "each performance test'; Fig. 10 prints no CAST start, so Blowfish's start ('approximately 40 "
                        "MB/s') has no CAST figure at its size to be set against", profile=profile),
        *_against_words("003-f7-f9-blowfish-cast-consistent", f"Blowfish over CAST at {small:g} MB", bf_cast,
                        "Fig. 9's Blowfish start ('approximately 45 MB/Sec') over the lowest figure of CAST's range "
                        "over every size ('~45 to 50 MB/Sec'), against Fig. 7's 'Blowfish is faster than CAST': the "
                        "start conflicts with Fig. 7's order only below all of CAST's printed range", profile=profile),
        # the words alone: Fig. 9 calls Blowfish's start the lowest of the three curves, which puts it below CAST at
        # the smallest file, where Fig. 7's order, read as holding at every size, puts it above
        _v.Evidence("003-f7-f9-blowfish-cast-consistent", holds=False, style="the transcription", profile=profile,
                    section=SECTIONS["absolute"], reading=WORDS_EVERY_SIZE,
                    detail=(f"Fig. 9's words 'Blowfish ... has the lowest starting performance' put Blowfish below "
                            f"AES and CAST at the smallest file ({small:g} MB), and Fig. 7's 'Blowfish is faster than "
                            "CAST; CAST ... consumes highest time', read at every size, put it above CAST there")),
    ]


#: The reading of Fig. 7's order ('Blowfish is faster than CAST') at every file size, the smallest included,
#: against Fig. 9's words on the start (the other readings set the plot-read figures against each other).
WORDS_EVERY_SIZE = "the words, Fig. 7's order at every size"


def _quote(claims: pd.DataFrame, cid: str) -> str:
    hit = claims.loc[claims["claim_id"] == cid, "quote"]
    if len(hit) != 1:
        raise ValueError(f"claims.csv has {len(hit)} rows {cid!r}")
    return str(hit.iloc[0])


def pseudocode_evidence(*, profile: str, seed: int = 0, claims: "pd.DataFrame | None" = None) -> list[_v.Evidence]:
    """The pseudocode and Sec. 3's words (the claim rows' quotes) checked as written."""
    claims = _v.load_claims() if claims is None else claims
    a1 = _quote(claims, "003-a1-key-per-mode")
    # "the same encryption keys" (plural) read as the one key set Key_Set = {K1, K2, K3} used for every file; the
    # algorithms hold to it when they pick a key by the mode (Mi) from that set, not a new key by the file (Fi)
    per_mode = bool(re.search(r"Select key K_?i from Key_Set according to M_?i", a1))
    per_file = bool(re.search(r"according to F_?i|new key|generate[sd]? (a )?key", a1, re.IGNORECASE))
    cond = dict(style="the transcription", profile=profile)
    # Table 2 and Sec. 5.1.1 on stability, decided on the text alone: one names GCM the most stable, the other
    # sends the reader who values stability to CCM; no one reading of "stable" makes both true
    both = _quote(claims, "003-t2-s511-stable-contradiction")
    gcm_most = bool(re.search(r"GCM\b[^;]*Most Stable", both, re.IGNORECASE))
    ccm_for = bool(re.search(r"CCM\b[^;]*where stability", both, re.IGNORECASE))
    return [
        _v.Evidence("003-t2-s511-stable-contradiction", holds=not (gcm_most and ccm_for),
                    section=SECTIONS["stability"], **cond,
                    detail=("Table 2 names GCM the most stable and Sec. 5.1.1 recommends CCM, not GCM, where "
                            "stability matters more than speed: whatever 'stable' means, read the same way in both, the two "
                            "passages name different modes as the steadier, so they cannot both hold"
                            if gcm_most and ccm_for else "the two passages name the same mode for stability")),
        _v.Evidence("003-a1-key-per-mode", holds=per_mode and not per_file, section=SECTIONS["phase1"], **cond,
                    reading=A1_KEY_SET,
                    detail=("Algorithms 1-2 take one key set, Key_Set = {K1, K2, K3}, for every file and select "
                            "each mode's key from it, so every data size is encrypted under the same keys, as "
                            "Sec. 3 states" if per_mode and not per_file else
                            "Algorithms 1-2 change the key from file to file" if per_file else
                            "Algorithms 1-2 name no key set shared by every file")),
        # the most natural reading of "the same encryption keys" for three modes: one key for all of them, which
        # Algorithm 1's "select key Ki ... according to Mi" (a key per mode) does not follow
        _v.Evidence("003-a1-key-per-mode", holds=not per_mode and not per_file, section=SECTIONS["phase1"], **cond,
                    reading=A1_ONE_KEY,
                    detail=("Algorithm 1 selects key Ki according to the mode Mi, a different key for each of the "
                            "three modes, so the modes are not applied under one and the same key"
                            if per_mode else "Algorithms 1-2 select no key by the mode")),
    ]


#: The two readings of Sec. 3's "using the same encryption keys" the paper leaves open: one key set shared by every
#: file (a key per mode, as Algorithm 1 selects it), or one key for all three modes.
A1_KEY_SET = "the same key set for every data size"
A1_ONE_KEY = "the same key for all three modes"


def protocol_bound_evidence(protocols: pd.DataFrame, *, profile: str) -> list[_v.Evidence]:
    """Table 5's rejection of a forged 100 KB EAX file (repeated trials, Sec. 4.2) against Figs. 9-10's AES-EAX
    throughput at the same size (one cold call per file): the paper's factor between them, against the most a cold
    call costs over a warm one on this machine (``protocols``: :func:`.protocol.cold_table`, the largest
    ``cold_over_warm`` of AES-EAX at the smallest size, either phase and operation) widened by the misprint charity.
    Holds if the paper's factor lies within that measured allowance: a factor beyond it is a self-contradiction."""
    t5 = _paper.published(PAPER, "Table 5").query("column == 'Fail Avg.'").set_index("row")["number"]
    fig = _paper.published(PAPER, "Figure 9 (prose)").set_index(["row", "column"])["number"]
    mb = float(min(_paper.published(PAPER, "Pseudocode 3 (setup)")["number"]))      # 0.1 MB
    reject_mb_s = mb / (float(t5["EAX"]) * 1e-6)
    fig_mb_s = float(fig[("AES", f"encryption throughput at {mb:g} MB")])
    factor = reject_mb_s / fig_mb_s
    aes = protocols[(protocols["cipher"] == "aes") & (protocols["mode"] == "eax")]
    if aes.empty:
        raise ValueError("protocols has no AES-EAX rows: the cold-against-warm table (aead_protocols) is needed")
    small = int(aes["bytes"].min())
    at = aes[aes["bytes"] == small]
    worst = at.loc[at["cold_over_warm"].idxmax()]
    cold = float(worst["cold_over_warm"])
    allowed = max(cold, 1.0) * (1 + CHARITY)
    ok = factor <= allowed
    return [_v.Evidence(
        "003-t5-fig9-consistent", holds=bool(ok), estimate=float(factor), unit="x", size=f"{small} B",
        style="the transcription against our cold calls", profile=profile, section="aead-forgery",
        detail=(f"Table 5: EAX rejects a forged {mb:g} MB file in {t5['EAX']:g} us, decrypting it first: "
                f"{reject_mb_s:.0f} MB/s; Fig. 9: AES-EAX at about {fig_mb_s:g} MB/s at {mb:g} MB, "
                f"{factor:.2f} times less; on this machine one cold call of AES-EAX at {small} B costs at most "
                f"{cold:.2f} times a warm one (phase {int(worst['phase'])}, {worst['operation']}, the median of "
                f"{int(worst['cold_calls'])} processes' single calls over the warm, batched median), {allowed:.2f} "
                f"with the ±{CHARITY * 100:g} % misprint charity: the paper's factor "
                + ("lies within it" if ok else "lies beyond it, so the protocols do not explain it")))]


def consistency_claims(p1: pd.DataFrame, *, profile: str, seed: int = 0) -> list[_v.Evidence]:
    """Evidence for every claim of :data:`CLAIMS` (one row each)."""
    return ([enc_dec_differ_evidence(p1, profile=profile, seed=seed),
             average_speed_evidence(p1, profile=profile, seed=seed)]
            + self_consistency_evidence(profile=profile) + pseudocode_evidence(profile=profile, seed=seed))
