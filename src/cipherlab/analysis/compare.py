"""The comparison a rule makes between a claim and its evidence: an **outcome**, and the reason written from it.

Each rule of ``config/verdicts.yaml`` compares an interval (or a p-value, or a
holds flag) with what the claim states and names one outcome of
:data:`OUTCOMES`; the table of meanings in the same file alone turns an
outcome into a verdict word (:func:`cipherlab.analysis.verdicts.decide`).  The
reason is written here, from the very numbers that decided the outcome, so it
cannot contradict them: an interval is said to lie *above*, *below* or
*within* the noise band exactly when it does.

Speed evidence is in percent (a speedup ``(T_old / T_new - 1) x 100``).  Its
A/A noise band is a band of ratios: the factor ``1 + h / 100`` either way
around ``1 + N / 100`` (around 0, a half-width of 3 % spans -2.9 % .. +3 %, so a
ratio and its inverse decide alike; around a claimed +809 % the band is about
+-30 points wide), never added in percentage points.  Every edge that decides
a speed claim has its own band: the no-effect value, a stated bound, and each
edge of a margin (``within_margin``, ``equivalent``).  An interval counts as
inside or outside a margin only beyond the noise at that edge, so a result that
sits on an edge is *undecided* in every run, not inside in one and outside in
the next.

**How large the claim says the effect is** decides what an effect inside the
noise band means (:func:`effect_class`, ``small_effect:`` in the rules file):
a claim that states an effect inside the band ("slightly", "very close", a
printed gap below the floor) is *as small as stated* when ours lies inside the
band too; only a claim whose stated effect lies clearly beyond the band (more
than ``clear`` times its half-width) is contradicted by no effect beyond the
noise; a claim that states no size, or one near the band, is left
*below resolution*. **Machine-bound sizes** (``carries: direction``): the
direction is decided as any other; the size, which belongs to the machine the
paper was timed on, is only said to agree or differ *on this machine*
(:func:`machine_size`).
"""
from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, replace

#: Every outcome a rule can name (their meaning is declared in ``config/verdicts.yaml``).
OUTCOMES = ("established", "as_small_as_stated", "size_excluded", "reversed", "no_effect", "statement_false",
            "undecided", "below_resolution", "too_noisy", "bound_only", "readings_disagree", "unmeasurable", "stand_in", "covered",
            "elsewhere", "agrees_here", "differs_here", "unclear_here")
#: How a claim's stated effect compares with the noise band (:func:`effect_class`).
EFFECT_CLASSES = ("small", "near", "clear", "unknown")
#: What the machine-bound outcomes say, in the shown label ("machine-bound: differs on this machine").
MACHINE_WORDS = {"agrees_here": "agrees on this machine", "differs_here": "differs on this machine",
                 "unclear_here": "neither agrees nor differs clearly on this machine"}


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
    """Three significant figures, but a whole number below 10^7 in full (a year is 2001, not 2e+03)."""
    if float(x).is_integer() and abs(x) < 1e7:
        return str(int(x))
    return f"{x:.3g}"


def noise_band(h: float, at: float, percent: bool) -> tuple[float, float]:
    """The A/A noise band around ``at``: ``at +- h``; for a speed-up in percent a band of ratios, the factor
    ``1 + h / 100`` either way around the ratio ``1 + at / 100``, so that a ratio and its inverse decide alike
    (with h = 14.4: -12.6 % .. +14.4 % around 0, and CAST 14 % slower than Blowfish lies as far beyond it as
    Blowfish 16.3 % faster than CAST)."""
    if percent and at > -100.0:
        ratio, factor = 1.0 + at / 100.0, 1.0 + h / 100.0
        return 100.0 * (ratio / factor - 1.0), 100.0 * (ratio * factor - 1.0)
    return at - h, at + h


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


def too_noisy(h: float, effect: float, percent: bool, rules: dict,
              interval: "tuple[float, float, tuple[float, float]] | None" = None) -> "Outcome | None":
    """The noise limit, relative to the effect: a band wider than ``max_noise_pct`` decides only a large effect,
    or an interval that lies wholly beyond the band (``interval``: ``(lo, hi, band)``). A noisy machine can still
    show an effect beyond its own noise; what it cannot show is an absence, or a size within its noise."""
    limit, ratio = float(rules["max_noise_pct"]), float(rules.get("decisive_effect_ratio", math.inf))
    if interval is not None and place(*interval) in ("above", "below"):
        return None
    if percent and h > limit and effect < ratio * h:
        return Outcome("too_noisy", f"the A/A noise band ±{fmt(h)} % is wider than ±{limit:g} % and the effect "
                                    f"({fmt(effect)}) is less than {ratio:g} times it: this machine was too noisy "
                                    "to decide")
    return None


def effect_class(stated: "float | None", base: float, h: float, percent: bool, rules: dict) -> str:
    """How large a claim says its effect is, against the noise band around ``base``: ``small`` (within
    ``small_effect.small`` half-widths: "slightly", "very close", a printed gap below the floor), ``clear``
    (beyond ``small_effect.clear`` half-widths), ``near`` (between) or ``unknown`` (the claim states no size).
    Without a noise band (``h`` 0: exact evidence, nothing to resolve) every stated effect, sized or not, is
    ``clear``: an exact absence of the effect refutes it."""
    if not h:   # no noise band (exact or deterministic evidence): any effect a claim states lies beyond it
        return "small" if stated is not None and float(stated) == base else "clear"
    if stated is None:
        return "unknown"
    sizes = rules.get("small_effect") or {}
    small, clear = float(sizes.get("small", 1.0)), float(sizes.get("clear", 2.0))
    a, b = noise_band(h, base, percent)
    half = (b - a) / 2
    gap = abs(float(stated) - base)
    if gap <= small * half:
        return "small"
    return "clear" if gap > clear * half else "near"


def _direction(lo, hi, band, h, side, size="clear"):
    """(established, outcome if the claimed direction is excluded) against the noise band.

    ``size`` (:func:`effect_class` of the stated effect): an interval that reaches no further than the band in
    the claimed direction contradicts (``no_effect``) only a claim whose stated effect is ``clear``ly beyond
    the band; for any other it is ``below_resolution``.
    """
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
    within = place(lo, hi, band) == "within"
    if size != "clear":
        what = "states no size" if size == "unknown" else "states a size too near the band"
        return est, Outcome("below_resolution", f"{text}{'' if within else ', not beyond it in the claimed direction'}"
                                                f": the claim {what} for its absence to show here")
    if within:
        return est, Outcome("no_effect", f"{text}: no effect beyond the noise")
    return est, Outcome("no_effect", f"{text}, not beyond it in the claimed direction: no effect beyond the noise")


def _direction_text(lo, hi, band, h, side, established) -> str:
    where = f"{place(lo, hi, band)} the {band_text(band, h)}"
    return (f"the claimed direction holds beyond the noise ({where})" if established else
            f"the claimed direction is not excluded ({where})")


def small(lo, hi, band, h, side, stated_text: str, slight: "float | None" = None) -> Outcome:
    """A claim that states a small effect (inside the band) in a direction: as small as stated when ours lies
    inside the band too (its sign cannot be told there), or, given ``slight`` (the most a slight effect in its
    direction reaches, in the claim's unit), beyond the band in its direction but wholly within ``slight``;
    larger than stated beyond the band on the claimed side (beyond ``slight`` where given); reversed beyond it
    on the other."""
    where = place(lo, hi, band)
    text = f"{interval_text(lo, hi)} {where} the {band_text(band, h)}"
    if where == "within":
        return Outcome("as_small_as_stated", f"{text}: as small as the claim's {stated_text}, whose sign the noise "
                                             "hides")
    if side == 0:     # a sameness ("similar", "very close"): no direction, the same reach on either side
        base = (band[0] + band[1]) / 2
        reach = band[1] - base if slight is None else slight - base
        if lo >= base - reach and hi <= base + reach:
            return Outcome("as_small_as_stated", f"{text}, all of it within ±{fmt(reach)} % (the most a slight "
                                                 f"effect reaches), whatever its sign: as small as the claim's "
                                                 f"{stated_text}")
        if lo > base + reach or hi < base - reach:
            return Outcome("statement_false", f"{text}, wholly beyond ±{fmt(reach)} %: not the claim's "
                                              f"{stated_text}")
        return Outcome("undecided", f"{text}, across the ±{fmt(reach)} % a slight effect reaches")
    if slight is not None and where == "overlapping":
        near, far = (lo, hi) if side > 0 else (-hi, -lo)
        if near >= (band[0] if side > 0 else -band[1]) and far <= slight:   # none of it reversed, all of it slight
            return Outcome("as_small_as_stated", f"{text}, none of it beyond the band against the claim and all of it "
                                                 f"within the {fmt(slight)} % a slight effect reaches: as small as "
                                                 f"the claim's {stated_text}")
    if (where == "above") == (side > 0) and where != "overlapping":
        if slight is not None:
            reach = hi if side > 0 else -lo
            start = lo if side > 0 else -hi
            if reach <= slight:
                return Outcome("as_small_as_stated", f"{text}, and within the {fmt(slight)} % a slight effect "
                                                     f"reaches: as small as the claim's {stated_text}, in its "
                                                     "direction")
            if start <= slight:
                return Outcome("undecided", f"{text}, across the {fmt(slight)} % a slight effect reaches")
            text = f"{text}, beyond the {fmt(slight)} % a slight effect reaches"
        return Outcome("size_excluded", f"{text}: larger than the claim's {stated_text}, in its direction")
    if where != "overlapping":
        return Outcome("reversed", f"{text}: the reverse of the claim, beyond the noise")
    return Outcome("undecided", f"{text}: across an edge of the band")


@_applies_band
def small_effect(lo, hi, est, base, h, percent, rules, either: bool = False) -> Outcome:
    """The rule ``small_effect``: a claim that states a small effect above ``base`` ("slightly faster"), or,
    with ``either`` (the claim's ``expect: either``), a sameness of no direction ("similar", "very close"); for
    a speed-up in percent, a slight effect reaches up to ``small_effect.slight_pct`` of the rules file."""
    noisy = too_noisy(h, abs(est - base), percent, rules, (lo, hi, noise_band(h, base, percent)))
    if noisy:
        return noisy
    cap = (rules.get("small_effect") or {}).get("slight_pct") if percent else None
    return small(lo, hi, noise_band(h, base, percent), h, 0.0 if either else 1.0,
                 "sameness" if either else "small effect", None if cap is None else base + float(cap))


#: The outcomes of a sameness (``small_effect`` with ``expect: either``) that a machine-bound size turns into a
#: status: as small as stated (agrees), wholly beyond the largest slight effect (differs), across it (unclear).
SAMENESS_ON_MACHINE = ("as_small_as_stated", "statement_false", "undecided")


def slight_on_machine(out: Outcome) -> Outcome:
    """A slight effect whose size belongs to the paper's machine (``small_effect`` with ``carries: direction``,
    e.g. "slightly better" between two different code paths), its direction held beyond the noise: the size
    is only said to agree (within ``slight_pct``), differ (wholly beyond it) or neither, on this machine."""
    name = {"as_small_as_stated": "agrees_here", "size_excluded": "differs_here",
            "statement_false": "differs_here"}.get(out.name, "unclear_here")
    return replace(out, name=name, reason=f"{out.reason}; the size of a slight effect between two code paths "
                                          f"belongs to the machine: it {MACHINE_WORDS[name]}")


def machine_size(lo, hi, edges: "tuple[float, float] | None", h: float, percent: bool, target: str,
                 bound: "float | None" = None, machine: str = "this machine", upper: bool = False) -> Outcome:
    """The size of a claim that belongs to the paper's machine (``carries: direction``), the direction held:
    ours inside ``edges`` (the margin of the stated size) beyond the noise at each edge, or above a stated
    ``bound`` beyond its noise, agrees on ``machine``; wholly outside (below the bound) differs; otherwise
    neither clearly; an ``upper`` bound the reverse (below it agrees, above it differs). Never a verdict: a status
    counted apart. Evidence of another real machine enters the same way, with its name."""
    ci = interval_text(lo, hi)
    if bound is not None:
        tband = noise_band(h, bound, percent)
        inside, outside = ("below", "above") if upper else ("above", "below")
        where = {inside: "inside", outside: "outside"}.get(place(lo, hi, tband), "straddles")
        span = band_text(tband, h)
    else:
        where, span = margin_place(lo, hi, edges, h, percent)
    if where == "inside":
        return Outcome("agrees_here", f"{ci} within {target} ({span}): the size agrees on {machine}")
    if where == "outside":
        return Outcome("differs_here", f"{ci} outside {target} ({span}): the size differs on {machine}")
    return Outcome("unclear_here", f"{ci} across an edge of {target} ({span}) on {machine}")


@_applies_band
def within_margin(lo, hi, est, published, margin, base, h, percent, rules, carries: str = "size") -> Outcome:
    """A value or ratio: ``published +- margin`` (relative); with a ``base`` (null), also its direction.

    ``carries = "direction"``: the size belongs to the paper's machine; with the direction established, ours is
    said to agree or differ on this machine (:func:`machine_size`)."""
    blo, bhi = sorted((published * (1 - margin), published * (1 + margin)))
    where, edges = margin_place(lo, hi, (blo, bhi), h if base is not None else 0.0, percent)
    span = f"±{margin * 100:.3g}% of {fmt(published)} ({edges})"
    inside, outside = where == "inside", where == "outside"
    ci = interval_text(lo, hi)
    if base is None:
        if inside:
            return Outcome("established", f"{ci} within {span}")
        if outside:
            return Outcome("size_excluded", f"{ci} outside {span}")
        return Outcome("undecided", f"{ci} {_edge_text(0.0)} {span}")
    noisy = too_noisy(h, max(abs(published - base), abs(est - base)), percent, rules,
                      (lo, hi, noise_band(h, base, percent)))
    if noisy:
        return noisy
    band = noise_band(h, base, percent)
    side = 1.0 if published >= base else -1.0
    size = effect_class(published, base, h, percent, rules)
    if size == "small":
        return small(lo, hi, band, h, side, f"stated {fmt(published)}")
    est_dir, excluded = _direction(lo, hi, band, h, side, size)
    if excluded:
        return excluded
    if carries == "direction":
        if not est_dir:
            return Outcome("undecided", f"{against(lo, hi, band, h, side)}: the direction is not established")
        return machine_size(lo, hi, (blo, bhi), h, percent, f"±{margin * 100:.3g}% of the paper's {fmt(published)}")
    if est_dir and inside:
        return Outcome("established", f"{against(lo, hi, band, h, side)}, and within {span}")
    if outside:
        return Outcome("size_excluded", f"{ci} outside {span}; {_direction_text(lo, hi, band, h, side, est_dir)}")
    return Outcome("undecided", f"{against(lo, hi, band, h, side)}; {_edge_text(h)} {span}")


@_applies_band
def ordering(lo, hi, est, base, bound, h, percent, rules, stated: "float | None" = None,
             carries: str = "size", slight: bool = False, upper: bool = False) -> Outcome:
    """An ordering, oriented so that the claim is above ``base``; ``bound``: a stated lower bound beyond it, or with
    ``upper`` (the claim row's ``expect: at_most``) an upper bound: the effect lies above ``base`` and at most
    ``bound`` (a gain computed from a printed lower bound, "starting above 100 MB/s");
    ``stated``: the effect the paper itself printed for this comparison (a gap read from its table), when it
    states one; ``carries = "direction"``: a bound that belongs to the paper's machine; ``slight`` (the claim
    row's ``expect: slight``: the sentence calls an order slight): a printed gap in the claimed direction no
    larger than ``small_effect.slight_pct`` is a slight effect, decided as ``small_effect`` decides one, except
    that an interval within the noise band agrees with a printed gap only where that gap lies within the band
    too: it refutes a gap clearly beyond the floor (this machine resolves it), as it refutes every such claim,
    and cannot tell a gap near the floor (``below_resolution``), whatever the machine's load made the band."""
    cap = (rules.get("small_effect") or {}).get("slight_pct") if percent else None
    if slight and stated is not None and bound is None and cap is not None and 0 < stated - base <= float(cap):
        resolvable = effect_class(stated, base, h, percent, rules) != "small"
        if not (resolvable and place(lo, hi, noise_band(h, base, percent)) == "within"):
            out = small_effect(lo, hi, est, base, h, percent, rules)
            if carries == "direction" and (out.name in ("as_small_as_stated", "size_excluded") or (
                    out.name == "undecided" and out.band is not None and lo > out.band[1])):
                # a slight printed gap between two code paths: its size is the machine's, whether ours lies inside
                # the noise or within the slight reach (agrees), beyond it (differs) or across it, the direction
                # held (unclear), as a sameness between code paths is decided; reversed or across the band, the
                # direction decides as it does any claim's
                return slight_on_machine(out)
            return out
    claimed = bound if bound is not None else stated
    effect = abs(est - base) if claimed is None else max(abs(est - base), abs(claimed - base))
    noisy = too_noisy(h, effect, percent, rules, (lo, hi, noise_band(h, base, percent)))
    if noisy:
        return noisy
    band = noise_band(h, base, percent)
    size = effect_class(claimed, base, h, percent, rules)
    if size == "small":
        return small(lo, hi, band, h, 1.0, f"stated {fmt(claimed)}")
    est_dir, excluded = _direction(lo, hi, band, h, 1.0, size)
    if excluded:
        return excluded
    if bound is None:
        # a step of a ranking whose printed gap is beyond slight states no size (the sentence orders; the gap is a
        # ratio of two printed times): its direction decides, whatever the row carries
        if est_dir:
            return Outcome("established", against(lo, hi, band, h))
        return Outcome("undecided", against(lo, hi, band, h))
    if carries == "direction":
        if not est_dir:
            return Outcome("undecided", f"{against(lo, hi, band, h)}: the direction is not established")
        kind = "upper bound" if upper else "bound"
        return machine_size(lo, hi, None, h, percent, f"the paper's {kind} {fmt(bound)}", bound=bound, upper=upper)
    tband = noise_band(h, bound, percent)
    ttext = f"the stated {'upper bound' if upper else 'bound'} {fmt(bound)} (its {band_text(tband, h)})"
    where = place(lo, hi, tband)
    holds, fails = ("below", "above") if upper else ("above", "below")
    if where == holds and (est_dir or not upper):
        return Outcome("established", f"{interval_text(lo, hi)} {holds} {ttext}"
                       + (f"; {_direction_text(lo, hi, band, h, 1.0, est_dir)}" if upper else ""))
    if where == fails:
        return Outcome("size_excluded", f"{interval_text(lo, hi)} {fails} {ttext}; "
                                        f"{_direction_text(lo, hi, band, h, 1.0, est_dir)}")
    if where == holds:      # under an upper bound, but the direction not established
        return Outcome("undecided", f"{interval_text(lo, hi)} {holds} {ttext}; "
                                    f"{_direction_text(lo, hi, band, h, 1.0, est_dir)}")
    return Outcome("undecided", f"{interval_text(lo, hi)} {where} {ttext}")


@_applies_band
def significance(lo, hi, est, p, alpha, base, h, percent, rules, stated: "float | None" = None) -> Outcome:
    """"A significant difference" in the claimed direction: p < alpha AND the interval beyond the band on its side.
    ``stated``: the effect the paper's own numbers show (e.g. from its printed means), which sizes the claim."""
    noisy = too_noisy(h, abs(est - base) if stated is None else max(abs(est - base), abs(stated - base)),
                      percent, rules, (lo, hi, noise_band(h, base, percent)))
    if noisy:
        return noisy
    band = noise_band(h, base, percent)
    size = effect_class(stated, base, h, percent, rules)
    ptext = f"p = {p:.3g} {'<' if p < alpha else '>='} {alpha:g}"
    if size == "small":
        out = small(lo, hi, band, h, 1.0, f"stated {fmt(stated)}")
        return Outcome(out.name, f"{out.reason} ({ptext})")
    est_dir, excluded = _direction(lo, hi, band, h, 1.0, size)
    if excluded:
        return Outcome(excluded.name, f"{excluded.reason} ({ptext})")
    if est_dir and p < alpha:
        return Outcome("established", f"{ptext} and {against(lo, hi, band, h)}")
    return Outcome("undecided", f"{ptext}; {against(lo, hi, band, h)}")


def bound_only(out: Outcome, bound: str) -> Outcome:
    """Evidence that is a bound on the claim's quantity (``lower`` or ``upper``) decides only in its own
    direction: a lower bound can show the quantity above a value, never below it or within a margin (an
    upper bound the reverse). Every other outcome that decides becomes ``bound_only``."""
    if bound not in ("lower", "upper"):
        return out
    keeps = {"lower": ("established", "agrees_here"),
             "upper": ("reversed", "no_effect", "below_resolution", "as_small_as_stated", "statement_false")}[bound]
    if out.name in keeps or out.name in ("undecided", "too_noisy"):
        return out
    return replace(out, name="bound_only",
                   reason=f"ours is a {bound} bound on the quantity, which shows it only "
                          f"{'above' if bound == 'lower' else 'below'} a value: {out.reason}")


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
