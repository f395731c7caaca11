"""Each verdict's reason in one sentence a referee understands, written from the numbers that decided it.

The decision engine (:mod:`cipherlab.analysis.verdicts`) keeps two texts per
claim: the *basis*, how the rule decided with its internals (edge bands, scaled
nulls, readings), shown on the evidence link; and the *reason*, written here:
the claim's quantity (the registry's ``quantity``), ours with the condition it
was measured at, and what decided, e.g. "MAES's decryption speed-up over AES is
41 % [38, 44] (16 B, reference style), far below the paper's 500 %."  The
sentence is filled from the same numbers and outcome as the verdict, so it cannot
disagree with it.  A published value is named as the paper's own figure, or, where
the paper quotes it from the literature as a yardstick (its transcription column is
``reference``: the avalanche criterion's 50 %), as "the reference" value.
"""
from __future__ import annotations

import math
import re

import pandas as pd

from cipherlab.analysis.compare import fmt, noise_band

__all__ = ["condition_label", "ours_text", "plain_reason", "published_text", "is_reference", "owner",
           "REFERENCE_COLUMN"]


def _text(row, name) -> str:
    if row is None:
        return ""
    v = row.get(name, "") if isinstance(row, (dict, pd.Series)) else getattr(row, name, "")
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def _num(row, name) -> "float | None":
    t = _text(row, name)
    if t == "":
        return None
    if name == "holds":
        return None
    try:
        v = float(t)
    except ValueError:
        return None
    return None if math.isnan(v) else v


def _holds(row) -> "bool | None":
    t = _text(row, "holds").strip().lower()
    return None if t == "" else t in ("true", "1", "yes")


def condition_label(ev) -> str:
    """The condition an evidence row was measured at, as the pages label it: ``"59 KB, reference style"``; a
    declared proxy says what it stands for and why (``"... , a proxy for size=16 B: <why>"``)."""
    if ev is None:
        return ""
    size, style, mode = _text(ev, "size"), _text(ev, "style"), _text(ev, "mode")
    parts = [size, f"{style} style" if style and " " not in style and style not in ("none",) else style,
             mode if mode not in ("none",) else ""]
    label = ", ".join(p for p in parts if p)
    if _text(ev, "proxy_for"):
        label += f" (a proxy for {_text(ev, 'proxy_for').replace('size=', '')}: {_text(ev, 'proxy_why')})"
    return label


def ours_text(ev) -> str:
    """Our figure for a claim, in its unit: ``"41 % [38, 44]"``, ``"holds"``, ``"p = 0.003"``, or ``"—"``."""
    if ev is None:
        return "—"
    est, lo, hi = _num(ev, "estimate"), _num(ev, "low"), _num(ev, "high")
    holds = _holds(ev)
    if holds is not None and est is None:
        return "holds" if holds else "does not hold"
    if est is None:
        p = _num(ev, "p_value")
        return f"p = {p:.3g}" if p is not None else "—"
    unit = _text(ev, "unit")
    out = with_unit(fmt(est), unit)
    if lo is not None and hi is not None and not (lo == hi == est):
        out += (f" [{with_unit(fmt(lo), unit)}, {with_unit(fmt(hi), unit)}]" if unit == LOG2_UNIT
                else f" [{fmt(lo)}, {fmt(hi)}]")
    return out


#: The unit of a value given as a base-2 exponent (a probability of 2^-128 is stored as -128 in this unit).
LOG2_UNIT = "log2"


def with_unit(value: str, unit: str) -> str:
    """A value with its unit as a reader writes it: ``"41 %"``; an exponent in :data:`LOG2_UNIT` as ``"2^-128"``."""
    if unit == LOG2_UNIT:
        return f"2^{value}"
    return f"{value} {unit}".strip()


#: Abbreviations whose full stop does not end a sentence (lower-cased, without the stop), even before a capital
#: ("Figs. 9-10", "Sec. 4.2", "et al. Smith", "vs. AES").
ABBREVIATIONS = frozenset({"fig", "figs", "sec", "secs", "eq", "eqs", "tab", "tabs", "al", "vs", "cf", "approx",
                           "no", "nos", "e.g", "i.e", "etc", "ref", "refs", "ch", "app", "p", "pp", "resp", "viz"})


def _ends_sentence(t: str, i: int) -> bool:
    """Whether the '.' or ';' at ``t[i]`` ends a sentence: a ';' always does; a '.' only before the end of the text
    or a space and a capital letter (or digit-free opening quote/parenthesis and a capital), and never after an
    abbreviation (:data:`ABBREVIATIONS`), a single-letter initial ("J. Daemen") or inside a decimal ("3.1")."""
    nxt = t[i + 1:i + 2]
    if t[i] == ";":
        return nxt in (" ", "")
    if nxt == "":
        return True
    if nxt != " ":
        return False
    rest = t[i + 2:].lstrip("\"'(“‘")
    if not rest[:1].isupper():
        return False
    word = re.search(r"([A-Za-z.]*)$", t[:i]).group(1).lower()
    return not (word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()))


def _first_sentence(text: str) -> str:
    """The text up to its first sentence end (:func:`_ends_sentence`) or '; ' outside parentheses (a note's leading
    clause)."""
    t = " ".join(str(text).split())
    depth = 0
    for i, ch in enumerate(t):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in ".;" and _ends_sentence(t, i):
            return t[:i]
    return t.rstrip(".")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _pub(claim) -> str:
    pub, unit = _text(claim, "published"), _text(claim, "unit")
    return with_unit(pub, unit) if pub else ""


#: The transcription column (the last part of a claim's ``source``) of a value the paper quotes from the
#: literature as a yardstick (the avalanche criterion's 50 %), not one it measured or derived itself.
REFERENCE_COLUMN = "reference"


def is_reference(claim) -> bool:
    """Whether the claim's published value is a reference value the paper quotes (its ``source`` names the
    transcription column :data:`REFERENCE_COLUMN`), not a figure of the paper's own."""
    return _text(claim, "source").rsplit("|", 1)[-1].strip() == REFERENCE_COLUMN


def published_text(claim, ev) -> str:
    """A verdict row's published figure: the claim row's value with its unit, or, where the claim prints no one
    value (an order read from a table), the figure the deciding evidence ``ev`` read from the paper (its
    ``stated``: the gap a table prints for one pair); empty when neither gives one."""
    pub = _text(claim, "published")
    if pub:
        return pub + (f" {_text(claim, 'unit')}" if _text(claim, "unit") else "")
    stated = None if ev is None else _num(ev, "stated")
    if stated is None:
        return ""
    return fmt(stated) + (f" {_text(ev, 'unit')}" if _text(ev, "unit") else "")


def owner(claim) -> str:
    """Whose the published value is, as a reason names it: "the paper's" or "the reference"."""
    return "the reference" if is_reference(claim) else "the paper's"


def _cmp_band(h: float, claim, ev) -> "tuple[float, float] | None":
    """The noise band the comparison applied, around the claim's null (None without noise)."""
    if not h:
        return None
    null = _num(claim, "null_value")
    return noise_band(h, 0.0 if null is None or math.isnan(null) else null, _text(ev, "unit") == "%")


def _band(h: float, ev) -> str:
    if not h:
        return "the no-effect value"
    if _text(ev, "unit") == "%":   # a band of ratios, the same factor either way (:func:`noise_band`)
        lo, hi = noise_band(h, 0.0, True)
        return f"this machine's noise ({fmt(lo)} .. +{fmt(hi)} %)"
    unit = f" {_text(ev, 'unit')}" if _text(ev, "unit") else ""
    return f"this machine's noise (±{fmt(h)}{unit})"


def _side_clause(claim, ev, est: float) -> str:
    """"far below the paper's 500 %" / "above the paper's 20 %": where ours lies against the published value."""
    pub = _num(claim, "published_value") if "published_value" in claim else None
    if pub is None:
        try:
            pub = float(_text(claim, "published"))
        except ValueError:
            return f"outside the margin of {owner(claim)} {_pub(claim)}"
    below = est < pub
    far = pub != 0 and ((below and est < pub / 2) or (not below and est > 2 * pub)) and pub > 0
    margin = _num(claim, "margin_value")
    m = f" (its ±{margin * 100:.3g}% margin excluded)" if margin is not None and claim.get("rule") == "within_margin" else ""
    return f"{'far ' if far else ''}{'below' if below else 'above'} {owner(claim)} {_pub(claim)}{m}"


_MACHINE = {"agrees_here": "agrees with", "differs_here": "differs from",
            "unclear_here": "neither clearly agrees with nor differs from"}


def plain_reason(claim, ev, outcome: str, h: float, rules: dict) -> str:
    """The reason of one decision in one sentence: the claim's quantity, ours (with its condition), what decided."""
    q = _cap(_text(claim, "quantity") or _text(claim, "quote"))
    rule = _text(claim, "rule")
    pub = _pub(claim)
    if outcome == "covered":
        return f"{q}: tested at {_text(claim, 'covered_by')}, which decides the same sentence."
    if outcome == "unmeasurable":
        return f"{q}: not testable here; {_first_sentence(_text(claim, 'note'))}."
    ours, cond = ours_text(ev), condition_label(ev)
    at = f" ({cond})" if cond else ""
    if outcome == "stand_in":
        return (f"{q} is {ours}{at} with our own stand-in ({_text(ev, 'stand_in')}), since the paper does not give "
                "its construction: an illustration (a finding), not a test.")
    if outcome == "elsewhere":
        return (f"{q} was measured only at {cond or 'another condition'} ({ours}), not at the paper's condition "
                f"({_text(claim, 'condition')}), so it decides nothing.")
    if rule == "holds":
        detail = _text(ev, "detail")
        what = f" ({detail})" if detail else ""
        return f"{q}: {'it holds' if outcome == 'established' else 'it does not hold'}{what}."
    if rule == "pvalue":
        p, alpha = _num(ev, "p_value"), _num(claim, "alpha_value")
        rejects = p is not None and alpha is not None and p < alpha
        stated = "reject" if _text(claim, "expect") == "reject" else "retain"
        tail = "as the paper states" if outcome == "established" else f"where the paper says it would {stated}"
        return (f"{q}: p = {p:.3g}{at}, so the test {'rejects' if rejects else 'retains'} at α = {alpha:g}, "
                f"{tail}.")
    est = _num(ev, "estimate")
    lo, hi = _num(ev, "low"), _num(ev, "high")
    est = est if est is not None else ((lo + hi) / 2 if lo is not None else math.nan)
    noise = _band(h, ev)
    bound = rule == "ordering" and _num(claim, "null_value") not in (None, 0.0) and _text(ev, "unit") == "%"
    upper = bound and _text(claim, "expect") == "at_most"
    if outcome == "established":
        if rule == "within_margin":
            margin = _num(claim, "margin_value")
            clause = (f"within ±{margin * 100:.3g}% of {owner(claim)} {pub}" if margin is not None
                      else f"as {owner(claim)} {pub}")
        elif rule == "equivalent":
            clause = (f"within ±{fmt(_num(claim, 'margin_value'))} {_text(claim, 'unit')} of "
                      f"{fmt(_num(claim, 'null_value') or 0.0)}, the sameness the claim states").replace("  ", " ")
        elif bound:
            clause = (f"{'under the upper' if upper else 'above the'} bound of {fmt(_num(claim, 'null_value'))} % "
                      f"the claim is read with" + (", in the claimed direction" if upper else ""))
        elif rule == "significance":
            clause = f"significant (p = {_num(ev, 'p_value'):.3g}) and beyond {noise} in the claimed direction"
        else:
            clause = f"beyond {noise} in the claimed direction"
    elif outcome == "as_small_as_stated":
        stated = _num(ev, "stated")
        what = (f"{owner(claim)} {pub}" if pub and rule == "within_margin" else
                f"the gap the paper prints ({fmt(stated)} %)" if stated is not None else "the small effect the claim states")
        lo_, hi_, band = _num(ev, "low"), _num(ev, "high"), _cmp_band(h, claim, ev)
        slight = (rules.get("small_effect") or {}).get("slight_pct")
        either = _text(claim, "expect") == "either"
        if band is None and either and slight is not None and lo_ is not None and not lo_ == hi_ == 0:
            # no noise band (a statistic decided on its own interval): the slight reach decided it
            clause = (f"within ±{fmt(float(slight))} % (the most a slight effect reaches), whatever its sign: as "
                      "small as the sameness the claim states")
        elif band is None or lo_ is None or (band[0] <= lo_ and hi_ <= band[1]) or slight is None:
            clause = f"inside {noise}, as small as {what}; its sign cannot be told at this resolution"
        elif either:
            clause = (f"within ±{fmt(float(slight))} % (the most a slight effect reaches), whatever its sign, "
                      f"though not all inside {noise}: as small as the sameness the claim states")
        else:
            clause = (f"in the claimed direction and within the {fmt(float(slight))} % a slight effect reaches, "
                      f"none of it beyond {noise} against the claim: as small as {what}")
    elif outcome == "size_excluded":
        if bound:
            clause = (f"{'above the upper' if upper else 'below the'} bound of {fmt(_num(claim, 'null_value'))} % "
                      "the claim is read with, though in the claimed direction")
        elif rule == "small_effect" or (_num(ev, "stated") is not None and rule == "ordering"):
            clause = f"beyond {noise} in the claimed direction: larger than the small effect the paper states"
        else:
            clause = _side_clause(claim, ev, est)
    elif outcome == "reversed":
        clause = f"the opposite of the claim, beyond {noise}"
    elif outcome == "no_effect":
        clause = (f"no larger than {noise}, where the paper states {pub}" if pub else
                  f"no larger than {noise}, where the claim states an effect in its direction")
    elif outcome == "below_resolution":
        clause = (f"within {noise}; the paper states no effect beyond it, so the claim can be neither shown nor "
                  "refuted here")
    elif outcome == "statement_false" and rule == "small_effect":
        slight = (rules.get("small_effect") or {}).get("slight_pct")
        clause = (f"wholly beyond ±{fmt(float(slight))} % (the most a slight effect reaches): not the sameness the "
                  "claim states") if slight is not None else f"wholly beyond {noise}: not the sameness the claim states"
    elif outcome == "statement_false":
        clause = (f"outside ±{fmt(_num(claim, 'margin_value'))} {_text(claim, 'unit')} of "
                  f"{fmt(_num(claim, 'null_value') or 0.0)}: not the sameness the claim states").replace("  ", " ")
    elif outcome == "too_noisy":
        clause = f"but {noise} was too large to decide"
    elif outcome == "readings_disagree":
        clause = "under one of the readings the paper leaves open, which disagree, so the sentence cannot be decided"
    elif outcome == "bound_only":
        clause = "a bound on the quantity, which cannot decide in the claim's direction"
    elif outcome in _MACHINE:
        slight = (rules.get("small_effect") or {}).get("slight_pct")
        stated = _num(ev, "stated")
        gap = rule == "ordering" and _text(claim, "expect") == "slight" and slight is not None
        if gap:     # a step of a ranking the sentence calls slight, read against the gap the paper prints
            target = (f"the slight gap the paper prints ({fmt(stated)} %, within the {fmt(float(slight))} % a slight "
                      "effect reaches)" if stated is not None else
                      f"the slight effect the claim states (at most {fmt(float(slight))} %)")
        elif rule == "small_effect" and slight is not None:
            either = _text(claim, "expect") == "either"
            target = (f"the sameness the claim states (within ±{fmt(float(slight))} %, the most a slight effect "
                      "reaches)" if either else
                      f"the slight effect the claim states (at most {fmt(float(slight))} %)")
        elif bound:
            target = (f"{owner(claim)} {'upper' if upper else 'lower'} bound of "
                      f"{fmt(_num(claim, 'null_value'))} %")
        else:
            target = f"{owner(claim)} {pub or 'value'}"
        head = ("the size of the gap belongs to the machine the paper was timed on (a ratio of different code "
                "paths)" if gap or (rule == "small_effect" and _text(claim, "expect") == "either") else
                "the direction holds; the size belongs to the machine the paper was timed on")
        clause = f"{head}, and on this machine it {_MACHINE[outcome]} {target}"
    else:   # undecided
        clause = (f"too close to an edge that decides ({noise}"
                  + (f", or the margin of {owner(claim)} {pub}" if pub else "") + ") to decide")
    return f"{q} is {ours}{at}, {clause}."
