"""The main concerns of a referee's report, each as one readable line, most important first.

A concern line names the claim in plain words (the row's ``quantity``) and the number that decided it (our
value against the paper's, or the deciding clause of the evidence's ``detail``), then links the row on the
verdict page, where its full machine reason is. A break keeps its reason, which names the attacker model.
Every concern is listed (none is cut off); the machine-bound sizes that differ on this machine are one line
apart, largest difference first, said to be the machine's and never the paper's error.

Rows of one kind are ordered by weight (:func:`by_weight`): headline before supporting, contradicted before
not reproduced before undecided, so that a substantive self-contradiction comes before a typo.
"""
from __future__ import annotations

import math
import re
from typing import Mapping

import pandas as pd

from functools import lru_cache

from cipherlab.analysis.claims import load_claims
from cipherlab.analysis.reasons import is_reference
from cipherlab.analysis.verdicts import FINDING
from cipherlab.present.page_text import page_text
from cipherlab.report.text import cell as _s, claim_link as _link

__all__ = ["by_weight", "fallen_to_break", "deciding", "concern_line", "machine_bound_line", "concerns_markdown",
           "is_compared_design", "LEADS"]

#: The lead of each kind of concern, in bold before its line.
LEADS = {"break": "The cipher is broken.", "ineffective": "The modification is ineffective.",
         "method": "The paper's method cannot decide what it is used for.",
         "contradicted": "A headline claim is contradicted.", "not reproduced": "A headline claim is not reproduced.",
         "data": "The paper prints a result the cipher it describes cannot produce.",
         "overclaim": "Overclaim.", "defect": "The paper disagrees with itself.",
         "machine-dependent": "The verdict differs between machines."}
COMPARED = "A caution about a design the paper compares (not one it proposes)."
OWN_CAUTION = "A caution on the paper's own claim (decided under the paper's model; it weighs neither way)."
MACHINE_BOUND = ("Sizes that differ on this machine, not the paper's error (machine-bound: a size of the paper's "
                 "machine, never reproduced or refuted here)")
TIER_ORDER = {"headline": 0, "supporting": 1}
VERDICT_ORDER = {"contradicted": 0, "not reproduced": 1, FINDING: 2, "inconclusive": 3, "not testable": 4}
#: How long the deciding clause of a concern line may be (characters) before it is cut at a word.
CLAUSE_MAX = 160


def by_weight(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` most important first: our findings of the kind (what our analysis shows) before the paper's claims,
    then headline before supporting, then contradicted, not reproduced, inconclusive, not testable (the registry's
    order kept among equals)."""
    if rows.empty:
        return rows
    tier = rows.get("tier", pd.Series("", index=rows.index)).astype(str).map(TIER_ORDER).fillna(2)
    verdict = rows["verdict"].astype(str).map(VERDICT_ORDER).fillna(5)
    ours = (rows["verdict"].astype(str) != FINDING).astype(int)
    order = sorted(range(len(rows)), key=lambda i: (ours.iloc[i], tier.iloc[i], verdict.iloc[i], i))
    return rows.iloc[order]


def is_compared_design(r, no_design: "set[str]") -> bool:
    """A caution row about a design the paper compares or offers (a security finding of ours for a paper that
    proposes none), not a caution on the paper's own claim (a claim row marked ``concern: caution``)."""
    return _s(r.get("verdict")) == FINDING and _s(r.get("paper") or _s(r.get("claim_id"))[:3]) in no_design


def fallen_to_break(concerns: "list[tuple[str, pd.Series]]") -> dict[str, str]:
    """The refuted claim rows that a break decides: ``{claim_id: the break's claim_id}`` for every claim (not a
    finding) decided on the evidence of the attack itself (the break's evidence ``section``). The attack is stated
    once, as the first concern, with its attacker model; these rows refer to it instead of repeating it."""
    breaks = {_s(r.get("section")): _s(r["claim_id"]) for k, r in concerns if k == "break" and _s(r.get("section"))}
    return {_s(r["claim_id"]): breaks[_s(r.get("section"))] for k, r in concerns
            if k != "break" and _s(r.get("verdict")) in ("contradicted", "not reproduced")
            and _s(r.get("section")) in breaks}


#: A parenthesis up to this long is part of the figure ("9 x (0.06 - 0.03)", "(one per round)") and stays; a longer
#: one is an aside for the verdict page.
ASIDE_MIN = 32


def _unbracketed(text: str) -> str:
    """``text`` without its long parenthesized asides (nested ones included); short parentheses stay."""
    out, depth, group = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        if depth:
            group.append(ch)
        else:
            out.append(ch)
        if ch == ")" and depth:
            depth -= 1
            if not depth:
                kept = "".join(group)
                if len(kept) <= ASIDE_MIN:
                    out.append(kept)
                group = []
    return " ".join("".join(out).split()).replace(" ,", ",").replace(" ;", ";").replace(" :", ":").rstrip(":;, .")


def _cut(text: str, limit: int = CLAUSE_MAX) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " \u2026"


def _numeric(value: str) -> bool:
    return bool(re.search(r"\d", value)) and value not in ("holds", "does not hold")


@lru_cache(maxsize=1)
def _reference_ids() -> frozenset:
    """The claims whose published value is a reference the paper quotes (the avalanche criterion's 50 %), not its own."""
    claims = load_claims()
    return frozenset(c["claim_id"] for _, c in claims.iterrows() if is_reference(c))


def _against(r, pub: str) -> str:
    """``" against the paper's <pub>"``, or ``"the reference <pub>"`` for a yardstick the paper quotes (the
    avalanche criterion's 50 %); empty where the row has no published figure."""
    if not pub or pub == "\u2014":
        return ""
    whose = "the reference" if _s(r.get("claim_id")) in _reference_ids() else "the paper's"
    return f" against {whose} {pub}"


def deciding(r, limit: int = CLAUSE_MAX) -> str:
    """The number that decided a row, in a few words: ours against the paper's for a measured quantity (a ratio,
    a value, an ordering), else the leading clauses of the evidence's ``detail`` that fit (without its long asides), else the
    row's basis or reason."""
    ours, pub = _s(r.get("ours")), _s(r.get("published"))
    # a defect sets the paper against itself: its "ours" is a number the paper prints, never one measured here
    own = _s(r.get("concern")) == "defect"
    if _s(r.get("kind")) in ("ratio", "value", "ordering") and _numeric(ours) and not own:
        return f"{ours} here{_against(r, pub)}"
    detail = _s(r.get("detail"))
    clauses = [_unbracketed(c) for c in detail.split("; ") if _unbracketed(c)]
    if clauses:
        # as many whole clauses as fit: "approach 1: 1 IV" alone hides the approach the claim is about
        text = clauses[0]
        for c in clauses[1:]:
            if len(text) + 2 + len(c) > limit:
                break
            text += "; " + c
        return _cut(text, limit)
    if _numeric(ours) and not own:
        return f"{ours} here{_against(r, pub)}"
    return _cut(_unbracketed(_s(r.get("basis")) or _s(r.get("reason"))), limit)


def _lead(kind: str, r, names: Mapping[str, str], no_design: "set[str]") -> str:
    if kind == "security":
        return ("A security finding about the design." if _s(r.get("verdict")) == FINDING
                else "The paper's security case fails.")
    if kind == "caution":
        return COMPARED if is_compared_design(r, no_design) else OWN_CAUTION
    return LEADS.get(kind, f"{names.get(kind, kind)}.")


def concern_line(kind: str, r, names: Mapping[str, str], no_design: "set[str]" = frozenset()) -> str:
    """One concern in one line: its lead, the claim in plain words and the number that decided it, the link. A
    break states its reason, which names the attacker model; a verdict that differs between machines says how."""
    lead = f"**{_lead(kind, r, names, no_design)}**"
    cid = _s(r["claim_id"])
    if kind == "break":
        return f"{lead} {page_text(_s(r.get('reason'))).rstrip('.')}. {_link(cid)}"
    what = _s(r.get("quantity")) or _s(r.get("claim"))
    what = what[:1].upper() + what[1:]
    said = deciding(r) if what else deciding(r, 3 * CLAUSE_MAX)   # with no quantity, the figure is the whole line
    said = said[:1].upper() + said[1:] if not what else said
    text = f"{lead} {page_text(what)}: {page_text(said)}." if what else f"{lead} {page_text(said)}."
    if kind == "machine-dependent":
        text += f" Across machines, {page_text(_s(r.get('portability')))}."
    return f"{text} {_link(cid)}"


def _first_number(text: str) -> "float | None":
    m = re.search(r"[-+\u2212]?\d+(?:\.\d+)?", _s(text))
    return None if not m else float(m.group(0).replace("\u2212", "-"))


def _gap(r) -> float:
    """How far ours lies from the paper's figure, as a factor (a percentage read as a ratio of 100 + it)."""
    ours, pub = _first_number(r.get("ours")), _first_number(r.get("published"))
    if ours is None or pub is None:
        return 0.0
    per = "%" in _s(r.get("ours"))
    a, b = (100 + ours, 100 + pub) if per else (ours, pub)
    return abs(math.log(a / b)) if a > 0 and b > 0 else abs(ours - pub)


def machine_bound_line(rows: pd.DataFrame, shown: "int | None" = None) -> str:
    """The machine-bound sizes that differ on this machine, in one line: the largest differences first, each with
    ours against the paper's printed figure (every one, unless ``shown`` limits them and counts the rest); never the
    paper's error."""
    if rows.empty:
        return ""
    ranked = sorted((r for _, r in rows.iterrows()), key=_gap, reverse=True)
    parts = [f"{page_text(_s(r.get('quantity')) or _s(r['claim_id']))}, {page_text(_s(r.get('ours')))} here against "
             f"{page_text(_s(r.get('published')))} printed ({_link(_s(r['claim_id']))})" for r in (ranked if shown is None else ranked[:shown])]
    more = len(ranked) - len(parts)
    return (f"**{MACHINE_BOUND}.** " + "; ".join(parts)
            + (f"; and {more} more, each on the verdict page" if more > 0 else "") + ".")


def concerns_markdown(concerns: "list[tuple[str, pd.Series]]", names: Mapping[str, str], shared: pd.DataFrame,
                      no_design: "set[str]" = frozenset()) -> list[str]:
    """Every main concern as one numbered line's text, most important first: a break with the paper's statements
    it refutes named under it (:func:`fallen_to_break`); a record shared with a paper of the same subject said
    once; the machine-bound sizes that differ on this machine as one line, last but the machine-dependent ones."""
    fallen = fallen_to_break(concerns)
    rows = {_s(r["claim_id"]): r for _, r in concerns}
    shown = [(k, r) for k, r in concerns if _s(r["claim_id"]) not in fallen]
    shared_ids = set(shared["claim_id"].astype(str)) if len(shared) else set()
    items, told, bound = [], False, [r for k, r in shown if k == "machine-bound"]
    for k, r in shown:
        if k == "machine-bound":
            if r is bound[0]:
                items.append(machine_bound_line(pd.DataFrame(bound)))
            continue
        text = concern_line(k, r, names, no_design)
        cid = _s(r["claim_id"])
        if cid in shared_ids:   # whose the record is: said once in words, then only named
            text += (f" (Paper {page_text(_s(r.get('paper')))}'s record: that paper describes the same cipher, and "
                     "our findings about it are recorded once, with it.)" if not told
                     else f" (Paper {page_text(_s(r.get('paper')))}'s record.)")
            told = True
        under = [rows[c] for c, b in fallen.items() if b == cid]
        if under:
            text += (f" The same attack refutes {len(under)} statement{'s' if len(under) != 1 else ''} of the "
                     "paper's security case: "
                     + "; ".join(f"\u201c{page_text(_s(u.get('claim')))}\u201d ({page_text(_s(u.get('where')))}), "
                                 f"{_link(_s(u['claim_id']))}" for u in under) + ".")
        items.append(text)
    return items
