"""The decision engine: claims (``data/paper/claims.csv``) plus evidence (from the chapters) give verdicts.

A chapter never writes a verdict.  It writes **evidence**: for a claim id, what
this run measured (an estimate with its interval, or whether a structural
statement holds, or a p-value), the condition actually measured (size, style,
mode, profile) and, for speed, the A/A control band.  :func:`decide` alone
turns a claim and its evidence into a verdict, by the claim's declared rule
with the parameters in ``config/verdicts.yaml`` (the same for every chapter and
profile).

Each rule compares (:mod:`cipherlab.analysis.compare`) and names an
*outcome*; the table of meanings in ``config/verdicts.yaml`` alone gives its
word (:func:`verdict_of`): *reproduced*, *not reproduced*, *contradicted*,
*inconclusive*, *not testable*, and two statuses counted apart, *covered* (by
another row) and *not at condition* (evidence taken at another condition than
the claim's).  :func:`decide_all` applies ``covered_by``, the claim's
``condition`` and the declared ``readings`` rule, which need every evidence
row of a claim.

Rows whose ``scope`` is ``extension`` are our own experiments: they get a
*finding*, never a verdict, and are never counted with the papers' claims.

A verdict row carries, beside the claim and the verdict: ``tier``, ``condition``, ``covered_by``, the
``reading`` that decided, the ``misprint`` read as corrected, the ``outcome``, the label a reader sees
(``shown``: "covered by <id>", "machine-bound: differs on this machine"), the ``reason`` in one sentence
(the claim's quantity, ours with the condition ``measured``, what decided: :mod:`cipherlab.analysis.reasons`)
and the rule's internals apart (``basis``, shown on the evidence link).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from cipherlab.analysis import compare as _cmp
from cipherlab.analysis import paper as _paper
from cipherlab.analysis.claims import (CLAIM_COLUMNS, FINDING, KINDS, RULES, SCOPES, STATUSES,
                                       VERDICTS, claims_of_chapter, condition_terms, load_claims, load_rules,
                                       rule_label, term_matches, verdict_counts)
from cipherlab.analysis.evidence import Evidence, evidence_frame, load_evidence, save_evidence, speed_evidence
from cipherlab.analysis.reasons import condition_label, ours_text, plain_reason, published_text

__all__ = ["VERDICTS", "STATUSES", "FINDING", "verdict_of", "compare", "KINDS", "SCOPES", "RULES", "CLAIM_COLUMNS", "load_claims", "load_rules",
           "claims_of_chapter", "Evidence", "evidence_frame", "save_evidence", "load_evidence", "speed_evidence",
           "Decision", "decide", "decide_all", "verdict_counts", "shown_label", "combine_verdicts", "chapter_verdicts"]

COVERED, NOT_AT_CONDITION, MACHINE_BOUND = STATUSES

# ----------------------------------------------------------------------------- decisions
@dataclass(frozen=True)
class Decision:
    verdict: str
    #: How the rule decided, with its internals (edge bands, scaled nulls): shown on the evidence link.
    basis: str
    outcome: str = ""
    #: The noise band the rule applied, ``"a .. b"`` in the claim's unit; empty where it applied none.
    band: str = ""
    #: The decision in one sentence a reader understands (:func:`cipherlab.analysis.reasons.plain_reason`).
    reason: str = ""


def noise_kind(ev, rules: "dict | None" = None) -> str:
    """The noise the rules declare for the evidence's kind of statistic (``noise_by_statistic``): ``aa`` or ``none``."""
    rules = rules or load_rules()
    return str(rules["noise_by_statistic"][_text(ev, "statistic") or "speed_ratio"])


def noise_half_width(ev, floor_pct: float) -> float:
    """Half-width of the A/A noise band: the control interval's largest excursion, at least the floor.

    The floor (in %) applies to evidence in % only; other units take the control as it is.  A statistic
    whose declared noise is ``none`` (``noise_by_statistic``) gets no band: its interval alone decides.
    """
    lo, hi = _get(ev, "control_low"), _get(ev, "control_high")
    if lo is None or noise_kind(ev) == "none":
        return 0.0
    floor = float(floor_pct) if _unit(ev) == "%" else 0.0
    return max(abs(lo), abs(hi), floor)


def _unit(ev) -> str:
    return str(ev["unit"] if isinstance(ev, (dict, pd.Series)) else ev.unit)


def _get(ev, name):
    if isinstance(ev, (dict, pd.Series)):
        v = ev.get(name)
    else:
        v = getattr(ev, name, None)
    if v is None or (isinstance(v, float) and math.isnan(v)) or (isinstance(v, str) and v == ""):
        return None
    if name == "holds":
        if isinstance(v, str):
            return v.strip().lower() == "true"
        return bool(v)
    return float(v)


def _text(row, name) -> str:
    """A text field of a claim or evidence row ('' where missing or NaN)."""
    v = row.get(name, "") if isinstance(row, (dict, pd.Series)) else getattr(row, name, "")
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def _interval(ev, claim_id):
    """The evidence's interval; an exact value (an estimate with neither interval nor control) is its own."""
    lo, hi = _get(ev, "low"), _get(ev, "high")
    if lo is None:
        est = _get(ev, "estimate")
        if est is not None and _get(ev, "control_low") is None:
            return est, est
        raise ValueError(f"claim {claim_id}: its rule needs an interval (low, high) in the evidence")
    return lo, hi


def _fmt(x: float) -> str:
    return _cmp.fmt(x)


def verdict_of(outcome: str, rules: "dict | None" = None) -> str:
    """The verdict word of an outcome, by the table of meanings (``verdicts:`` in ``config/verdicts.yaml``).

    The one place where an outcome becomes a word.
    """
    rules = rules or load_rules()
    for word, entry in rules["verdicts"].items():
        if outcome in entry["outcomes"]:
            return word
    raise ValueError(f"outcome {outcome!r} has no verdict in the table of meanings")


def compare(claim, ev, rules: "dict | None" = None) -> _cmp.Outcome:
    """The outcome of the comparison the claim's rule makes with one evidence row.

    Evidence that is only a bound on the quantity (``bound``) decides only in its own direction
    (:func:`cipherlab.analysis.compare.bound_only`).
    """
    rules = rules or load_rules()
    rule, cid = claim["rule"], claim["claim_id"]
    if rule == "not_testable":
        return _cmp.Outcome("unmeasurable", claim["note"])
    if ev is None:
        raise ValueError(f"claim {cid}: no evidence")
    out = _compare(claim, ev, rules)
    return _cmp.bound_only(out, _text(ev, "bound"))


def _compare(claim, ev, rules) -> _cmp.Outcome:
    rule, cid = claim["rule"], claim["claim_id"]
    if rule == "holds":
        holds = _get(ev, "holds")
        if holds is None:
            raise ValueError(f"claim {cid}: rule holds needs 'holds' in the evidence")
        return _cmp.holds(holds)
    if rule == "pvalue":
        p = _get(ev, "p_value")
        if p is None:
            raise ValueError(f"claim {cid}: rule pvalue needs 'p_value' in the evidence")
        return _cmp.pvalue(p, float(claim["alpha_value"]), claim["expect"])
    if claim["unit"] and _unit(ev) and claim["unit"] != _unit(ev):
        raise ValueError(f"claim {cid}: evidence in {_unit(ev)!r} for a claim in {claim['unit']!r}")
    lo, hi = _interval(ev, cid)
    est = _get(ev, "estimate")
    est = (lo + hi) / 2 if est is None else est
    null = claim["null_value"]
    null = None if (null is None or (isinstance(null, float) and math.isnan(null))) else float(null)
    percent = _unit(ev) == "%"
    h = noise_half_width(ev, float(rules["noise_floor_pct"]))
    carries = _text(claim, "carries") or "size"
    stated = _get(ev, "stated")
    if rule == "within_margin":
        return _cmp.within_margin(lo, hi, est, float(claim["published_value"]), float(claim["margin_value"]),
                                  null, h, percent, rules, carries=carries)
    if rule == "ordering":
        null = 0.0 if null is None else null
        if percent and null != 0.0:     # "at least N % faster": the direction is against 0, the bound is N
            # (expect: at_most, "at most N %": an upper bound, e.g. a gain computed from a printed lower bound)
            return _cmp.ordering(lo, hi, est, 0.0, null, h, percent, rules, carries=carries,
                                 upper=_text(claim, "expect") == "at_most")
        return _cmp.ordering(lo, hi, est, null, None, h, percent, rules, stated=stated, carries=carries,
                             slight=_text(claim, "expect") == "slight")
    if rule == "small_effect":
        out = _cmp.small_effect(lo, hi, est, 0.0 if null is None else null, h, percent, rules,
                                either=claim["expect"] == "either")
        if carries == "direction" and out.band is not None and lo > out.band[1] and claim["expect"] != "either":
            # "slightly" between two code paths: the direction holds beyond the noise, the size is the machine's
            return _cmp.slight_on_machine(out)
        if carries == "direction" and claim["expect"] == "either" and out.name in _cmp.SAMENESS_ON_MACHINE:
            # "nearly the same" between two code paths: the sameness is a size, and the size is the machine's
            return _cmp.slight_on_machine(out)
        return out
    if rule == "equivalent":
        return _cmp.equivalent(lo, hi, 0.0 if null is None else null, float(claim["margin_value"]), h, percent)
    if rule == "significance":
        p = _get(ev, "p_value")
        if p is None:
            raise ValueError(f"claim {cid}: rule significance needs 'p_value' in the evidence")
        return _cmp.significance(lo, hi, est, p, float(claim["alpha_value"]), 0.0 if null is None else null,
                                 h, percent, rules, stated=stated)
    raise ValueError(f"claim {cid}: unknown rule {rule!r}")


def decide(claim, ev, rules: "dict | None" = None) -> Decision:
    """The verdict of one claim (a row of :func:`load_claims`) on one evidence row.

    ``rules`` defaults to ``config/verdicts.yaml``.  Pure: the same inputs always
    give the same decision.  The claim's condition and ``covered_by`` are
    applied by :func:`decide_all`, which sees every evidence row.
    """
    rules = rules or load_rules()
    out = compare(claim, ev, rules)
    band = "" if out.band is None else f"{_cmp.fmt(out.band[0])} .. {_cmp.fmt(out.band[1])}"
    h = 0.0 if ev is None else noise_half_width(ev, float(rules["noise_floor_pct"]))
    return Decision(verdict_of(out.name, rules), out.reason, out.name, band,
                    plain_reason(claim, ev, out.name, h, rules))


def _select(claim, evs: pd.DataFrame) -> pd.DataFrame:
    """The evidence rows ``decided_by`` admits: terms ``key=value`` (all must match), ``|`` alternatives."""
    pick = evs
    try:
        terms = condition_terms(claim["decided_by"], "decided_by")
    except ValueError as exc:
        raise ValueError(f"claim {claim['claim_id']}: {exc}") from None
    for key, values in terms:
        pick = pick[pick[key].map(lambda v: term_matches(key, values, v))]
    return pick


def _at_condition(claim, ev, rules) -> bool:
    """Whether an evidence row is at the claim's condition: its own size, style and mode, or, for a declared
    proxy, the condition it stands for (``proxy_for``)."""
    tol = float(rules.get("size_tolerance", 0.0))
    stands = dict(condition_terms(_text(ev, "proxy_for"), "proxy_for")) if _text(ev, "proxy_for") else {}
    for k, vals in condition_terms(claim["condition"]):
        if k in stands:
            if not all(term_matches(k, vals, v, tol) for v in stands[k]):
                return False
        elif not term_matches(k, vals, ev[k], tol):
            return False
    return True


def _measured_at(ev) -> str:
    return condition_label(ev) or "an unstated condition"


def readings_rule(claim, rules) -> str:
    """How the claim's readings combine: its own ``readings`` or the rules file's."""
    return _text(claim, "readings") or rules["readings"]


def combine_verdicts(verdicts, how: str, order, favour=None) -> int:
    """The index of the reading whose verdict decides: ``every``, the least favourable in ``order`` (among readings
    of the same verdict, the one whose interval reaches least far in the claim's favour: lowest ``favour``);
    ``most``, the median: the most favourable verdict that more than half of the readings reach or pass, shown by
    the median reading when all are ranked by verdict, then ``favour`` (never the most favourable of that verdict);
    ``any``, the most favourable in ``order`` (among readings of the same verdict, the highest ``favour``)."""
    ranks = [list(order).index(v) for v in verdicts]
    favour = [0.0] * len(ranks) if favour is None else list(favour)
    if how == "every":
        return min(range(len(ranks)), key=lambda i: (ranks[i], favour[i]))
    if how == "any":
        return max(range(len(ranks)), key=lambda i: (ranks[i], favour[i], -i))
    if how != "most":
        raise ValueError(f"readings must be every, most or any, got {how!r}")
    # ranked from least to most favourable, the reading with more than half at or above it: its verdict is the most
    # favourable one that more than half of the readings reach or pass
    ranked = sorted(range(len(ranks)), key=lambda i: (ranks[i], favour[i], i))
    return ranked[len(ranks) - len(ranks) // 2 - 1]


def _favour(claim, ev) -> float:
    """How far a reading's interval reaches in the claim's favour (lower: less favourable): its lower edge, or for
    an equivalence or a sameness of no direction (``small_effect`` with ``expect: either``) its farthest edge from
    the null, negated; 0 where the reading has no interval."""
    lo, hi = _get(ev, "low"), _get(ev, "high")
    if lo is None:
        return 0.0
    if _text(claim, "rule") == "equivalent" or (_text(claim, "rule") == "small_effect"
                                                and _text(claim, "expect") == "either"):
        null = claim.get("null_value") if isinstance(claim, (dict, pd.Series)) else None
        null = 0.0 if null is None or (isinstance(null, float) and math.isnan(null)) else float(null)
        return -max(abs(lo - null), abs(hi - null))
    return lo


def _combine(claim, rows: pd.DataFrame, rules) -> "tuple[pd.Series, Decision, str]":
    """Several readings of one claim, one verdict: by the claim's ``readings`` rule (``every``, ``most`` or
    ``any``); the reason names every reading's figure and verdict, so a referee sees each reading.

    A machine-bound reading ranks after every verdict against the claim and before reproduced
    (:func:`machine_order`), under every rule: under ``every`` one makes the whole machine-bound; under ``most``
    the whole is reproduced only where most readings are reproduced outright; under ``any`` one reproduced reading
    decides first.
    """
    how = readings_rule(claim, rules)
    if how == "monotone":
        return _monotone(claim, rows, rules)
    decided = [(r, decide(claim, r, rules)) for _, r in rows.iterrows()]
    order = list(rules["combine_order"])
    ranked = [d.verdict if d.verdict in order else "reproduced" for _, d in decided]
    pick_how = how
    if how == "open":
        if len(set(ranked)) > 1:
            return _open_disagree(claim, decided, ranked, order, rules)
        # every open reading reaches the same verdict: it stands, as under every; the reading shown is the one most
        # favourable to the claim, as when every open reading is against it (the milder decides)
        how, pick_how = "every", "any"
    favour = [_favour(claim, r) for r, _ in decided]
    # a machine-bound reading (its direction held, its size the machine's) is not a reproduced one: under every rule
    # it ranks after every verdict against the claim and before reproduced, so a sentence that holds as stated only
    # where its size is the machine's is machine-bound (under every: one such reading; under most: most readings
    # reproduced or machine-bound but not most reproduced), never reproduced
    i = combine_verdicts(_machine_keys(decided, order), pick_how, machine_order(order), favour)
    pick = decided[i]
    readings = [r["reading"] for r, _ in decided]
    figures = "; ".join(f"{r}: {ours_text(e)}, {_word(d, order)}" for r, (e, d) in zip(readings, decided))
    if all(_word(d, order) == _word(pick[1], order) for _, d in decided):
        label = "every reading (" + ", ".join(readings) + ")"
        basis = f"the same under every reading ({', '.join(readings)}); under {pick[0]['reading']}: {pick[1].basis}"
        # the figure shown is one reading's: name it, so a referee never reads it as every reading's
        reason = f"{pick[1].reason.rstrip('.')} (under {pick[0]['reading']}; the same under every reading: {figures})"
    else:
        label = pick[0]["reading"]
        each = ", ".join(f"{r}: {d.verdict}" for r, (_, d) in zip(readings, decided))
        which = {"every": "the least favourable", "most": "the median",
                 "any": "the most favourable"}[pick_how] + f" of {len(readings)} readings"
        basis = f"under {label}, {which} ({each}): {pick[1].basis}"
        n_same = sum(_word(d, order) == _word(pick[1], order) for _, d in decided)
        rule = {"every": "every reading must hold", "most": "most readings decide",
                "any": "any reading may hold"}[how]
        apart = [d for _, d in decided if d.verdict not in order]
        n_rep = sum(d.verdict == "reproduced" for _, d in decided)
        also = ""
        if apart and pick[1].verdict == "reproduced":
            # say what the machine-bound readings were, so the count agrees with the rule it is given under
            also = f" and {len(apart)} machine-bound, whose size belongs to the machine"
        elif pick[1].verdict not in order and n_rep:
            also = (f" and {n_rep} reproduced; a reading whose size belongs to the machine never counts as "
                    "reproduced, so the sentence as stated is the machine's")
        reason = (f"{pick[1].reason.rstrip('.')} (under {label}; {rule}: "
                  f"{n_same} of {len(readings)} readings give {_word(pick[1], order)}{also}; each reading: {figures})")
    return pick[0], Decision(pick[1].verdict, basis, pick[1].outcome, pick[1].band, reason), label


def _word(d: Decision, order) -> str:
    """A reading's verdict as its reason names it: the word, or a machine-bound status with its place
    ("machine-bound: differs on this machine")."""
    return d.verdict if d.verdict in order else shown_label(d.verdict, d.outcome)


#: The machine-bound outcomes, least favourable first: the order in which they rank among themselves.
MACHINE_OUTCOMES = ("differs_here", "unclear_here", "agrees_here")


def machine_order(order) -> list:
    """``combine_order`` with the machine-bound outcomes ranked after every verdict against the claim and before
    ``reproduced`` (least favourable first): the order of readings under ``readings: every``."""
    order = list(order)
    last = order.index("reproduced")
    return order[:last] + [f"{MACHINE_BOUND}:{o}" for o in MACHINE_OUTCOMES] + order[last:]


def _machine_keys(decided, order) -> list:
    """Each reading's place in :func:`machine_order`: its verdict, or a machine-bound status with its outcome."""
    return [d.verdict if d.verdict in order else
            f"{MACHINE_BOUND}:{d.outcome if d.outcome in MACHINE_OUTCOMES else MACHINE_OUTCOMES[1]}"
            for _, d in decided]


def _open_disagree(claim, decided, ranked, order, rules) -> "tuple[pd.Series, Decision, str]":
    """Readings the paper leaves open (``readings: open``) that reach different verdicts. Every reading against the
    claim (contradicted or not reproduced): the mildest of them decides, the verdict every fair reading supports.
    Otherwise a fair reading holds or stays undecided where another does not: inconclusive (``readings_disagree``),
    the sentence's meaning deciding and the paper not giving it; every reading's figure and verdict in the reason."""
    readings = [r["reading"] for r, _ in decided]
    figures = "; ".join(f"{r}: {ours_text(e)}, {d.verdict}" for r, (e, d) in zip(readings, decided))
    ranks = [order.index(v) for v in ranked]
    against = order.index("not reproduced")
    if max(ranks) <= against:          # every reading against the claim: the verdict all of them support
        i = max(range(len(ranks)), key=lambda j: ranks[j])
        r, d = decided[i]
        reason = (f"{d.reason.rstrip('.')} (under {r['reading']}, the mildest of {len(readings)} readings the paper "
                  f"leaves open, each against the claim: {figures})")
        return r, Decision(d.verdict, f"every open reading against the claim; under {r['reading']}: {d.basis}",
                           d.outcome, d.band, reason), r["reading"]
    quantity = _text(claim, "quantity") or _text(claim, "quote")
    verdict = verdict_of("readings_disagree", rules)
    each = ", ".join(f"{r}: {d.verdict}" for r, (_, d) in zip(readings, decided))
    figures = "; ".join(f"{r}: {ours_text(e)}{_control_text(e)}, {d.verdict}"
                        for r, (e, d) in zip(readings, decided))
    reason = (f"{quantity[:1].upper() + quantity[1:]}: the paper leaves open which of {len(readings)} readings it "
              f"means, and they disagree ({each}), so the evidence cannot decide the sentence; each reading: "
              f"{figures}.")
    # the row shows every reading's figure (one reading's alone beside "inconclusive" reads as a contradiction),
    # and the A/A control of the reading that has one
    shown = decided[0][0].copy()
    shown[OURS_EACH] = "; ".join(f"{r}: {ours_text(e)}" for r, (e, _) in zip(readings, decided))
    with_control = next((e for e, _ in decided if _get(e, "control_low") is not None), None)
    if with_control is not None:
        shown["control_low"], shown["control_high"] = with_control["control_low"], with_control["control_high"]
    return shown, Decision(verdict, f"readings the paper leaves open disagree ({each})", "readings_disagree",
                           decided[0][1].band, reason), "every reading (" + ", ".join(readings) + ")"


#: The evidence field that carries every open reading's figure to a readings-disagree row's ``ours``.
OURS_EACH = "ours_each"


def _control_text(ev) -> str:
    lo = _get(ev, "control_low")
    return "" if lo is None else f" (A/A control [{_fmt(lo)}, {_fmt(_get(ev, 'control_high'))}])"


#: The reading of a ``readings: monotone`` claim that holds the end-to-end change (the others are its steps).
END_TO_END = "end-to-end"


def _monotone(claim, rows: pd.DataFrame, rules) -> "tuple[pd.Series, Decision, str]":
    """A claim that a quantity moves one way at every one of m steps (``readings: monotone``): the end-to-end change
    (reading :data:`END_TO_END`) decides the direction; each step's interval is widened to the family-wise level
    ``1 - (1 - confidence) / m`` (Bonferroni), never m uncorrected comparisons. A step reversed beyond the noise
    contradicts; a step inside it leaves a change that holds end to end inconclusive (no move at that step)."""
    from cipherlab.analysis.stats import family_scale, widen
    ends = rows[rows["reading"] == END_TO_END]
    steps = rows[rows["reading"] != END_TO_END]
    if len(ends) != 1 or steps.empty:
        raise ValueError(f"claim {claim['claim_id']}: readings: monotone needs one reading {END_TO_END!r} and "
                         f"one reading per step, got {list(rows['reading'])}")
    end = ends.iloc[0]
    whole = decide(claim, end, rules)
    scale = family_scale(float(rules["confidence"]), len(steps))
    decided = []
    for _, r in steps.iterrows():
        wide = r.copy()
        if _get(r, "low") is not None and _get(r, "estimate") is not None:
            wide["low"], wide["high"] = widen(_get(r, "estimate"), _get(r, "low"), _get(r, "high"), scale)
        decided.append((wide, decide(claim, wide, rules)))
    back = [(r, d) for r, d in decided if d.outcome == "reversed"]
    flat = [(r, d) for r, d in decided if d.verdict != "reproduced" and whole.verdict == "reproduced"]
    level = f"{(1 - (1 - float(rules['confidence'])) / len(steps)) * 100:.3g} %"
    each = "; ".join(f"{r['reading']}: {ours_text(r)}" for r, _ in decided)
    if back or flat:   # a step reversed, or (end to end holding) a step inside the noise: the least favourable shown
        r, d = min(back or flat, key=lambda x: _favour(claim, x[0]))
        why = (f"{d.reason.rstrip('.')} (the step {r['reading']} goes against the claim beyond the noise at the "
               f"family-wise level: each of {len(steps)} steps at {level}; steps: {each})") if back else (
               f"{whole.reason.rstrip('.')} end to end, but the step {r['reading']} ({ours_text(r)}) does not go the "
               f"claimed way beyond the noise at the family-wise level ({len(flat)} of {len(steps)} steps inside it, "
               f"each at {level}: {each}), so a move at every step is not established")
        verdict, outcome = (d.verdict, d.outcome) if back else (verdict_of("undecided", rules), "undecided")
        return r, Decision(verdict, f"monotone, step {r['reading']} {'reversed' if back else 'inside the noise'}: "
                           f"{d.basis}", outcome, d.band, why), r["reading"]
    return end, Decision(whole.verdict, f"monotone, end to end: {whole.basis}", whole.outcome, whole.band,
                         f"{whole.reason.rstrip('.')} (end to end; every step of {len(steps)} goes the claimed way "
                         f"beyond the noise at the family-wise level, each at {level}: {each})"), END_TO_END


def _status(outcome: str, rules) -> Decision:
    return Decision(verdict_of(outcome, rules), "", outcome)


def _decide_claim(claim, evs: pd.DataFrame, rules) -> "tuple[pd.Series | None, Decision, str]":
    """(the evidence row shown, the decision, the reading that decided) for one claim."""
    cid = claim["claim_id"]
    if claim["covered_by"]:
        cands = _select(claim, evs) if not evs.empty else evs
        ev = cands.iloc[0] if len(cands) == 1 else None
        return ev, Decision(verdict_of("covered", rules), f"covered by {claim['covered_by']}", "covered", "",
                            plain_reason(claim, ev, "covered", 0.0, rules)), ""
    if claim["rule"] == "not_testable":
        ev = evs.iloc[0] if len(evs) == 1 else None
        return ev, decide(claim, None, rules), ""
    cands = _select(claim, evs)
    if cands.empty:
        raise ValueError(f"claim {cid}: no evidence row matches decided_by={claim['decided_by']!r}")
    real = cands[cands["stand_in"].fillna("") == ""] if "stand_in" in cands.columns else cands
    if real.empty:      # only our stand-in for a construction the paper does not give: it illustrates
        ev = cands.iloc[0]
        h = noise_half_width(ev, float(rules["noise_floor_pct"]))
        shown = decide(claim, ev, rules)
        return ev, Decision(verdict_of("stand_in", rules),
                            f"stand-in ({_text(ev, 'stand_in')}), not deciding: {shown.basis}", "stand_in", "",
                            plain_reason(claim, ev, "stand_in", h, rules)), ""
    cands = real
    at = cands[[_at_condition(claim, r, rules) for _, r in cands.iterrows()]]
    if at.empty:
        ev = cands.iloc[0]
        what = "; ".join(f"at {_measured_at(r)}: {decide(claim, r, rules).basis}" for _, r in cands.iterrows())
        return ev, Decision(verdict_of("elsewhere", rules),
                            f"not at the paper's condition ({claim['condition']}): measured {what}",
                            "elsewhere", "", plain_reason(claim, ev, "elsewhere", 0.0, rules)), ""
    if len(at) == 1:
        return at.iloc[0], decide(claim, at.iloc[0], rules), at.iloc[0]["reading"]
    if (at["reading"] == "").any():
        raise ValueError(f"claim {cid}: {len(at)} evidence rows match decided_by={claim['decided_by']!r} and its "
                         "condition; several rows must each name their reading")
    return _combine(claim, at, rules)


def _ours(ev) -> str:
    each = ev.get(OURS_EACH) if hasattr(ev, "get") else None
    return each if isinstance(each, str) and each else ours_text(ev)


def _control(ev) -> str:
    lo = _get(ev, "control_low")
    return "—" if lo is None else f"[{_fmt(lo)}, {_fmt(_get(ev, 'control_high'))}]"


def shown_label(verdict: str, outcome: str, covered_by: str = "", rules: "dict | None" = None) -> str:
    """The verdict as a reader sees it: the word, or a status's ``shown`` form ("covered by <id>", "not at the
    paper's condition", "machine-bound: differs on this machine"); an extension's ``finding`` whose outcome
    decides nothing reads "finding: inconclusive" (or "finding: not testable")."""
    rules = rules or load_rules()
    if verdict == FINDING:
        # an extension of ours is a finding only where its outcome decides: an undecided one says so
        word = verdict_of(outcome, rules) if outcome else ""
        return f"{FINDING}: {word}" if word in ("inconclusive", "not testable") else FINDING
    if verdict == COVERED:
        return f"covered by {covered_by}" if covered_by else COVERED
    if verdict == MACHINE_BOUND:
        return f"{MACHINE_BOUND}: {_cmp.MACHINE_WORDS.get(outcome, 'on this machine')}"
    return rules["verdicts"].get(verdict, {}).get("shown", verdict)


VERDICT_COLUMNS = ("claim_id", "paper", "where", "claim", "kind", "rule", "published", "ours", "control",
                   "n", "processes", "size", "style", "mode", "profile", "verdict", "reason", "chapter", "section",
                   "other", "tier", "condition", "covered_by", "reading", "misprint", "applied_band", "outcome",
                   "shown", "basis", "measured", "quantity", "carries", "concern", "reference", "stand_in", "detail")


def decide_all(claims: pd.DataFrame, evidence: pd.DataFrame, rules: "dict | None" = None) -> pd.DataFrame:
    """One row per claim: the verdict (or, for extensions, ``finding``) and the condition that decided it.

    Every claim needs evidence (unless its rule is ``not_testable``) and every
    evidence row needs a claim: both are errors, so nothing drops out unseen.
    """
    rules = rules or load_rules()
    unknown = sorted(set(evidence["claim_id"]) - set(claims["claim_id"]))
    if unknown:
        raise ValueError(f"evidence for unknown claim ids {unknown}")
    for col in ("stand_in", "proxy_for", "proxy_why", "bound"):
        if col not in evidence.columns:
            evidence = evidence.assign(**{col: ""})
    if "stated" not in evidence.columns:
        evidence = evidence.assign(stated=float("nan"))
    out = []
    for _, claim in claims.iterrows():
        evs = evidence[evidence["claim_id"] == claim["claim_id"]]
        if claim["rule"] != "not_testable" and evs.empty:
            raise ValueError(f"claim {claim['claim_id']} ({claim['paper']}, {claim['where']}) has no evidence")
        ev, decision, reading = _decide_claim(claim, evs, rules)
        verdict = FINDING if claim["scope"] == "extension" else decision.verdict
        others = []
        for _, o in (evs if ev is None else evs.drop(index=ev.name)).iterrows():
            label = (", ".join(x for x in (o["reading"], o["style"]) if x) if o["reading"] else
                     ", ".join(x for x in (o["style"], o["mode"], o["size"]) if x)) or "another condition"
            if _text(o, "stand_in"):
                others.append(f"{label}: {_ours(o)} (our stand-in, not deciding)")
            elif claim["scope"] == "extension" or claim["rule"] == "not_testable" or claim["covered_by"]:
                others.append(f"{label}: {_ours(o)}")
            elif not _at_condition(claim, o, rules):
                others.append(f"{label}: {_ours(o)} → {verdict_of('elsewhere', rules)}")
            else:
                others.append(f"{label}: {_ours(o)} → {decide(claim, o, rules).verdict}")
        pub = published_text(claim, ev)
        out.append({
            "claim_id": claim["claim_id"], "paper": claim["paper"], "where": claim["where"],
            "claim": claim["quote"], "kind": claim["kind"], "rule": rule_label(claim), "published": pub or "—",
            "ours": "—" if ev is None else _ours(ev), "control": "—" if ev is None else _control(ev),
            "n": "" if ev is None or _get(ev, "n") is None else str(int(_get(ev, "n"))),
            "processes": "" if ev is None or _get(ev, "processes") is None else str(int(_get(ev, "processes"))),
            "size": "" if ev is None else ev["size"], "style": "" if ev is None else ev["style"],
            "mode": "" if ev is None else ev["mode"], "profile": "" if ev is None else ev["profile"],
            "verdict": verdict, "reason": decision.reason or decision.basis,
            "chapter": claim["section"].partition("-")[0] if claim["section"] else ("" if ev is None else ev["chapter"]),
            "section": claim["section"] or ("" if ev is None else ev["section"]),
            "other": "; ".join(others),
            "tier": claim["tier"], "condition": claim["condition"], "covered_by": claim["covered_by"],
            "reading": reading, "misprint": _paper.misprints_applied(claim), "applied_band": decision.band,
            "outcome": decision.outcome, "shown": shown_label(verdict, decision.outcome, claim["covered_by"], rules),
            "basis": decision.basis, "measured": "" if ev is None else condition_label(ev),
            "quantity": _text(claim, "quantity"), "carries": _text(claim, "carries"),
            "concern": _text(claim, "concern"), "reference": _text(claim, "reference"),
            "stand_in": "" if ev is None else _text(ev, "stand_in"),
            "detail": "" if ev is None else _text(ev, "detail"),
        })
    return pd.DataFrame(out, columns=list(VERDICT_COLUMNS))


def chapter_verdicts(chapter: str, evidence: pd.DataFrame, claims: "pd.DataFrame | None" = None,
                     rules: "dict | None" = None) -> pd.DataFrame:
    """The verdicts of one chapter's claims (:func:`~cipherlab.analysis.claims.claims_of_chapter`) on its evidence.

    The one way a chapter decides: every evidence row is the chapter's own, and a claim with no evidence row still
    gets the chapter (from its section label, in :func:`decide_all`), so that its verdict links to the chapter.
    """
    return decide_all(claims_of_chapter(chapter, claims), evidence.assign(chapter=chapter), rules)
