"""The comparison a rule makes between a claim and its evidence: an **outcome**, and the reason written from it.

Each rule of ``config/verdicts.yaml`` compares an interval (or a p-value, or a
holds flag) with what the claim states and names one outcome of
:data:`OUTCOMES`; the table of meanings in the same file alone turns an
outcome into a verdict word (:func:`cipherlab.analysis.verdicts.decide`).  The
reason is written here, from the very numbers that decided the outcome, so it
cannot contradict them: an interval is said to lie *above*, *below* or
*within* the noise band exactly when it does.

Speed evidence is in percent (a speedup ``(T_old / T_new - 1) x 100``).  Its
A/A noise band is a band of ratios: around a non-zero null ``N`` its half-width
``h`` is scaled to ``h x (1 + N / 100)`` (a +-3 % band around a claimed +809 %
is +-30 points wide), never added in percentage points.  Every edge that decides
a speed claim has its own band: the no-effect value, a stated bound, and each
edge of a margin (``within_margin``, ``equivalent``).  An interval counts as
inside or outside a margin only beyond the noise at that edge, so a result that
sits on an edge is *undecided* in every run, not inside in one and outside in
the next.
"""
from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, replace

#: Every outcome a rule can name (their meaning is declared in ``config/verdicts.yaml``).
OUTCOMES = ("established", "size_excluded", "reversed", "no_effect", "statement_false", "undecided", "claim_in_noise",
            "too_noisy", "unmeasurable", "covered", "elsewhere")


@dataclass(frozen=True)
class Outcome:
    name: str
    reason: str
    #: The A/A noise band the comparison applied (around its null), or None where it applied none.
    band: "tuple[float, float] | None" = None


def _applies_band(fn):
    """Record on the outcome the band a comparison applied: ``noise_band(h, base, percent)``."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        a = sig.bind(*args, **kwargs).arguments
        if a.get("base") is not None and a.get("h"):
            out = replace(out, band=noise_band(a["h"], a["base"], a["percent"]))
        return out
    return wrapper


def fmt(x: float) -> str:
    return f"{x:.3g}"


def noise_band(h: float, at: float, percent: bool) -> tuple[float, float]:
    """The A/A noise band around ``at``: ``at +- h``, scaled by ``1 + at / 100`` for a speedup in percent."""
    half = h * (1.0 + at / 100.0) if (percent and at > -100.0) else h
    return at - half, at + half


def band_text(band: tuple[float, float], h: float) -> str:
    a, b = band
    if h:
        return f"A/A noise band {a:+.3g} .. {b:+.3g}"
    return f"no-effect value {fmt(a)}"


def place(lo: float, hi: float, band: tuple[float, float]) -> str:
    """Where an interval lies against a band: ``above``, ``below``, ``within`` or ``overlapping``."""
    a, b = band
    if lo > b:
        return "above"
    if hi < a:
        return "below"
    if a <= lo and hi <= b:
        return "within"
    return "overlapping"


def margin_place(lo: float, hi: float, edges: tuple[float, float], h: float, percent: bool
                 ) -> tuple[str, str]:
    """Where an interval lies against a margin ``[low edge, high edge]`` whose edges carry the A/A noise band:
    ``inside`` (beyond the band of both edges, within), ``outside`` (beyond the band of an edge, without) or
    ``straddles``; and the margin in words, with its edges' bands when there are any."""
    (a, b), (c, d) = noise_band(h, edges[0], percent), noise_band(h, edges[1], percent)
    if not h:
        a = b = edges[0]
        c = d = edges[1]
    where = "inside" if (b <= lo and hi <= c) else "outside" if (hi < a or lo > d) else "straddles"
    text = f"[{fmt(edges[0])}, {fmt(edges[1])}]"
    if h:
        text += f", each edge with its A/A noise band: {a:+.3g} .. {b:+.3g} and {c:+.3g} .. {d:+.3g}"
    return where, text


def interval_text(lo: float, hi: float) -> str:
    return f"exact value {fmt(lo)}" if lo == hi else f"interval [{fmt(lo)}, {fmt(hi)}]"


def against(lo: float, hi: float, band: tuple[float, float], h: float, side: float = 1.0) -> str:
    """``interval [lo, hi] above the A/A noise band a .. b (the claimed direction)``, from the numbers alone."""
    where = place(lo, hi, band)
    text = f"{interval_text(lo, hi)} {where} the {band_text(band, h)}"
    if where == "above":
        text += " (the claimed direction)" if side > 0 else " (the opposite direction)"
    elif where == "below":
        text += " (the claimed direction)" if side < 0 else " (the opposite direction)"
    return text


def too_noisy(h: float, effect: float, percent: bool, rules: dict) -> "Outcome | None":
    """The noise limit, relative to the effect: a band wider than ``max_noise_pct`` decides only a large effect."""
    limit, ratio = float(rules["max_noise_pct"]), float(rules.get("decisive_effect_ratio", math.inf))
    if percent and h > limit and effect < ratio * h:
        return Outcome("too_noisy", f"the A/A noise band ±{fmt(h)} % is wider than ±{limit:g} % and the effect "
                                    f"({fmt(effect)}) is less than {ratio:g} times it: this machine was too noisy "
                                    "to decide")
    return None


def _direction(lo, hi, band, h, side):
    """(established, excluded, outcome if excluded) of the claimed direction against the noise band."""
    a, b = band
    if side > 0:
        est, excl, rev = lo > b, hi <= b, hi < a
    else:
        est, excl, rev = hi < a, lo >= a, lo > b
    if not excl:
        return est, None
    text = against(lo, hi, band, h, side)
    if rev:
        return est, Outcome("reversed", f"{text}: the reverse of the claim, beyond the noise")
    if place(lo, hi, band) == "within":
        return est, Outcome("no_effect", f"{text}: no effect beyond the noise")
    return est, Outcome("no_effect", f"{text}, not beyond it in the claimed direction: no effect beyond the noise")


def _direction_text(lo, hi, band, h, side, established) -> str:
    where = f"{place(lo, hi, band)} the {band_text(band, h)}"
    return (f"the claimed direction holds beyond the noise ({where})" if established else
            f"the claimed direction is not excluded ({where})")


@_applies_band
def within_margin(lo, hi, est, published, margin, base, h, percent, rules) -> Outcome:
    """A value or ratio: ``published +- margin`` (relative); with a ``base`` (null), also its direction."""
    blo, bhi = sorted((published * (1 - margin), published * (1 + margin)))
    where, edges = margin_place(lo, hi, (blo, bhi), h if base is not None else 0.0, percent)
    span = f"±{margin:.0%} of {fmt(published)} ({edges})"
    inside, outside = where == "inside", where == "outside"
    ci = interval_text(lo, hi)
    if base is None:
        if inside:
            return Outcome("established", f"{ci} within {span}")
        if outside:
            return Outcome("size_excluded", f"{ci} outside {span}")
        return Outcome("undecided", f"{ci} {_edge_text(0.0)} {span}")
    noisy = too_noisy(h, max(abs(published - base), abs(est - base)), percent, rules)
    if noisy:
        return noisy
    band = noise_band(h, base, percent)
    side = 1.0 if published >= base else -1.0
    if h and band[0] <= published <= band[1]:
        return Outcome("claim_in_noise", f"the claimed effect {fmt(published)} lies inside the {band_text(band, h)}")
    est_dir, excluded = _direction(lo, hi, band, h, side)
    if excluded:
        return excluded
    if est_dir and inside:
        return Outcome("established", f"{against(lo, hi, band, h, side)}, and within {span}")
    if outside:
        return Outcome("size_excluded", f"{ci} outside {span}; {_direction_text(lo, hi, band, h, side, est_dir)}")
    return Outcome("undecided", f"{against(lo, hi, band, h, side)}; {_edge_text(h)} {span}")


@_applies_band
def ordering(lo, hi, est, base, bound, h, percent, rules) -> Outcome:
    """An ordering, oriented so that the claim is above ``base``; ``bound``: a stated lower bound beyond it."""
    effect = abs(est - base) if bound is None else max(abs(est - base), abs(bound - base))
    noisy = too_noisy(h, effect, percent, rules)
    if noisy:
        return noisy
    band = noise_band(h, base, percent)
    est_dir, excluded = _direction(lo, hi, band, h, 1.0)
    if excluded:
        return excluded
    if bound is None:
        if est_dir:
            return Outcome("established", against(lo, hi, band, h))
        return Outcome("undecided", against(lo, hi, band, h))
    tband = noise_band(h, bound, percent)
    ttext = f"the stated bound {fmt(bound)} (its {band_text(tband, h)})"
    where = place(lo, hi, tband)
    if where == "above":
        return Outcome("established", f"{interval_text(lo, hi)} above {ttext}")
    if where == "below":
        return Outcome("size_excluded", f"{interval_text(lo, hi)} below {ttext}; "
                                        f"{_direction_text(lo, hi, band, h, 1.0, est_dir)}")
    return Outcome("undecided", f"{interval_text(lo, hi)} {where} {ttext}")


@_applies_band
def significance(lo, hi, est, p, alpha, base, h, percent, rules) -> Outcome:
    """"A significant difference" in the claimed direction: p < alpha AND the interval beyond the band on its side."""
    noisy = too_noisy(h, abs(est - base), percent, rules)
    if noisy:
        return noisy
    band = noise_band(h, base, percent)
    est_dir, excluded = _direction(lo, hi, band, h, 1.0)
    ptext = f"p = {p:.3g} {'<' if p < alpha else '>='} {alpha:g}"
    if excluded:
        return Outcome(excluded.name, f"{excluded.reason} ({ptext})")
    if est_dir and p < alpha:
        return Outcome("established", f"{ptext} and {against(lo, hi, band, h)}")
    return Outcome("undecided", f"{ptext}; {against(lo, hi, band, h)}")


def equivalent(lo, hi, null, margin, h: float = 0.0, percent: bool = False) -> Outcome:
    """"A keeps / matches B": the interval within ``null +- margin``; with an A/A band (``h``), beyond the
    noise at each edge of the margin."""
    where, edges = margin_place(lo, hi, (null - margin, null + margin), h, percent)
    span = f"±{fmt(margin)} of {fmt(null)} ({edges})" if h else f"±{fmt(margin)} of {fmt(null)}"
    ci = interval_text(lo, hi)
    if where == "inside":
        return Outcome("established", f"{ci} within {span}")
    if where == "outside":
        return Outcome("statement_false", f"{ci} wholly outside {span}")
    return Outcome("undecided", f"{ci} {_edge_text(h)} {span}")


def _edge_text(h: float) -> str:
    """How an undecided interval meets a margin: across an edge, or into the noise band an edge carries."""
    return "reaches into the noise band of an edge of" if h else "straddles an edge of"


def pvalue(p, alpha, expect) -> Outcome:
    rejected = p < alpha
    text = f"p = {p:.3g} {'<' if rejected else '>='} alpha = {alpha:g}: the test {'rejects' if rejected else 'retains'}"
    if rejected == (expect == "reject"):
        return Outcome("established", f"{text}, as the claim states")
    return Outcome("statement_false", f"{text}; the claim states it {'rejects' if expect == 'reject' else 'retains'}")


def holds(value: bool) -> Outcome:
    return Outcome("established", "the statement holds") if value else Outcome("statement_false", "the statement does not hold")
