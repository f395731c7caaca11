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
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from cipherlab.analysis import compare as _cmp
from cipherlab.analysis import paper as _paper
from cipherlab.analysis.page_text import page_html
from cipherlab.analysis.claims import (CLAIM_COLUMNS, KINDS, RULES, SCOPES, VERDICT_PAGE, VERDICT_WORDS,
                                       claim_anchor, claims_of_chapter, condition_terms, load_claims, load_rules,
                                       term_matches)
from cipherlab.pipeline.config import load_config
from cipherlab.pipeline.paths import PROFILES, Profile
from cipherlab.pipeline.results import save_table

__all__ = ["VERDICTS", "STATUSES", "FINDING", "verdict_of", "compare", "KINDS", "SCOPES", "RULES", "CLAIM_COLUMNS", "load_claims", "load_rules",
           "claims_of_chapter", "Evidence", "evidence_frame", "save_evidence", "load_evidence", "speed_evidence",
           "Decision", "decide", "decide_all", "verdict_counts", "verdict_html", "rules_markdown", "save_verdicts"]

VERDICTS = VERDICT_WORDS[:5]
#: Statuses counted apart: a claim another row tests, and evidence taken at another condition than the claim's.
STATUSES = VERDICT_WORDS[5:]
COVERED, NOT_AT_CONDITION = STATUSES
FINDING = "finding"
#: Background colour of each verdict in the book.
VERDICT_COLOURS = {"reproduced": "#d4edda", "not reproduced": "#fff3cd", "contradicted": "#f8d7da",
                   "inconclusive": "#dbe7f6", "not testable": "#e2e3e5", COVERED: "#ffffff",
                   NOT_AT_CONDITION: "#ececf6", FINDING: "#f3f3f3"}


# ----------------------------------------------------------------------------- evidence (re-exported)
from cipherlab.analysis.evidence import (EVIDENCE_COLUMNS, Evidence, evidence_frame, load_evidence,  # noqa: E402
                                         save_evidence, speed_evidence)


# ----------------------------------------------------------------------------- decisions
@dataclass(frozen=True)
class Decision:
    verdict: str
    reason: str
    outcome: str = ""
    #: The noise band the rule applied, ``"a .. b"`` in the claim's unit; empty where it applied none.
    band: str = ""


def noise_half_width(ev, floor_pct: float) -> float:
    """Half-width of the A/A noise band: the control interval's largest excursion, at least the floor.

    The floor (in %) applies to evidence in % only; other units take the control as it is.
    """
    lo, hi = _get(ev, "control_low"), _get(ev, "control_high")
    if lo is None:
        return 0.0
    floor = float(floor_pct) if _unit(ev) == "%" else 0.0
    return max(abs(lo), abs(hi), floor)


def _unit(ev) -> str:
    return str(ev["unit"] if isinstance(ev, (dict, pd.Series)) else ev.unit)


def _get(ev, name):
    v = ev[name] if isinstance(ev, (dict, pd.Series)) else getattr(ev, name)
    if v is None or (isinstance(v, float) and math.isnan(v)) or (isinstance(v, str) and v == ""):
        return None
    if name == "holds":
        if isinstance(v, str):
            return v.strip().lower() == "true"
        return bool(v)
    return float(v)


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
    """The outcome of the comparison the claim's rule makes with one evidence row."""
    rules = rules or load_rules()
    rule, cid = claim["rule"], claim["claim_id"]
    if rule == "not_testable":
        return _cmp.Outcome("unmeasurable", claim["note"])
    if ev is None:
        raise ValueError(f"claim {cid}: no evidence")
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
    if rule == "within_margin":
        return _cmp.within_margin(lo, hi, est, float(claim["published_value"]), float(claim["margin_value"]),
                                  null, h, percent, rules)
    if rule == "ordering":
        null = 0.0 if null is None else null
        if percent and null != 0.0:     # "at least N % faster": the direction is against 0, the bound is N
            return _cmp.ordering(lo, hi, est, 0.0, null, h, percent, rules)
        return _cmp.ordering(lo, hi, est, null, None, h, percent, rules)
    if rule == "equivalent":
        return _cmp.equivalent(lo, hi, 0.0 if null is None else null, float(claim["margin_value"]), h, percent)
    if rule == "significance":
        p = _get(ev, "p_value")
        if p is None:
            raise ValueError(f"claim {cid}: rule significance needs 'p_value' in the evidence")
        return _cmp.significance(lo, hi, est, p, float(claim["alpha_value"]), 0.0 if null is None else null,
                                 h, percent, rules)
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
    return Decision(verdict_of(out.name, rules), out.reason, out.name, band)


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
    tol = float(rules.get("size_tolerance", 0.0))
    return all(term_matches(k, vals, ev[k], tol) for k, vals in condition_terms(claim["condition"]))


def _measured_at(ev) -> str:
    return ", ".join(x for x in (ev["size"], ev["style"], ev["mode"]) if x) or "an unstated condition"


def _combine(claim, rows: pd.DataFrame, rules) -> "tuple[pd.Series, Decision, str]":
    """Several readings of one claim, one verdict: the declared ``readings`` rule (``every``).

    The claim holds only if it holds under every reading; the least favourable
    reading (``combine_order``) decides and is named.
    """
    decided = [(r, decide(claim, r, rules)) for _, r in rows.iterrows()]
    order = list(rules["combine_order"])
    worst = min(decided, key=lambda rd: order.index(rd[1].verdict))
    readings = [r["reading"] for r, _ in decided]
    if all(d.verdict == worst[1].verdict for _, d in decided):
        label = "every reading (" + ", ".join(readings) + ")"
        reason = f"the same under every reading ({', '.join(readings)}); under {worst[0]['reading']}: {worst[1].reason}"
    else:
        label = worst[0]["reading"]
        each = ", ".join(f"{r}: {d.verdict}" for r, (_, d) in zip(readings, decided))
        reason = f"under {label}, the least favourable of {len(readings)} readings ({each}): {worst[1].reason}"
    return worst[0], Decision(worst[1].verdict, reason, worst[1].outcome, worst[1].band), label


def _decide_claim(claim, evs: pd.DataFrame, rules) -> "tuple[pd.Series | None, Decision, str]":
    """(the evidence row shown, the decision, the reading that decided) for one claim."""
    cid = claim["claim_id"]
    if claim["covered_by"]:
        cands = _select(claim, evs) if not evs.empty else evs
        ev = cands.iloc[0] if len(cands) == 1 else None
        return ev, Decision(verdict_of("covered", rules), f"covered by {claim['covered_by']}", "covered"), ""
    if claim["rule"] == "not_testable":
        ev = evs.iloc[0] if len(evs) == 1 else None
        return ev, decide(claim, None, rules), ""
    cands = _select(claim, evs)
    if cands.empty:
        raise ValueError(f"claim {cid}: no evidence row matches decided_by={claim['decided_by']!r}")
    at = cands[[_at_condition(claim, r, rules) for _, r in cands.iterrows()]]
    if at.empty:
        ev = cands.iloc[0]
        what = "; ".join(f"at {_measured_at(r)}: {decide(claim, r, rules).reason}" for _, r in cands.iterrows())
        return ev, Decision(verdict_of("elsewhere", rules),
                            f"not at the paper's condition ({claim['condition']}): measured {what}",
                            "elsewhere"), ""
    if len(at) == 1:
        return at.iloc[0], decide(claim, at.iloc[0], rules), at.iloc[0]["reading"]
    if (at["reading"] == "").any():
        raise ValueError(f"claim {cid}: {len(at)} evidence rows match decided_by={claim['decided_by']!r} and its "
                         "condition; several rows must each name their reading")
    return _combine(claim, at, rules)


def _misprints(claim) -> str:
    """The documented misprints (``data/paper/<paper>_misprints.csv``) a claim is judged under, corrected."""
    if "(misprints)" not in claim["source"] and f"{claim['paper']}_misprints.csv" not in claim["note"]:
        return ""
    df = _paper.published(claim["paper"])
    df = df[df["table"].str.endswith("(misprints)")]
    if "(misprints)" in claim["source"]:
        table, row, column = claim["source"].split("|")
        df = df[(df["table"] == table) & (df["row"] == row) & (df["column"] == column)]
    return "; ".join(f"{r.table.replace(' (misprints)', '')} {r.row} {r.column}: read as {r.value} {r.unit}"
                     .replace(" :", ":").strip() + f" ({r.note})" for r in df.itertuples())


def _ours(ev) -> str:
    if _get(ev, "holds") is not None and _get(ev, "estimate") is None:
        return "holds" if _get(ev, "holds") else "does not hold"
    est, lo = _get(ev, "estimate"), _get(ev, "low")
    unit = f" {ev['unit']}" if ev["unit"] else ""
    if est is None:
        return f"p = {_get(ev, 'p_value'):.3g}" if _get(ev, "p_value") is not None else "—"
    out = _fmt(est) + unit
    if lo is not None:
        out += f" [{_fmt(lo)}, {_fmt(_get(ev, 'high'))}]"
    return out


def _control(ev) -> str:
    lo = _get(ev, "control_low")
    return "—" if lo is None else f"[{_fmt(lo)}, {_fmt(_get(ev, 'control_high'))}]"


def _rule_label(claim) -> str:
    """The rule with the parameters this claim is decided with, e.g. ``within_margin (±25 %)``."""
    rule = claim["rule"]
    if rule == "within_margin":
        return f"{rule} (±{float(claim['margin_value']):.0%})"
    if rule == "equivalent":
        return f"{rule} (±{float(claim['margin_value']):g} {claim['unit']})".replace(" )", ")")
    if rule in ("significance", "pvalue"):
        return f"{rule} (alpha {float(claim['alpha_value']):g})"
    return rule


VERDICT_COLUMNS = ("claim_id", "paper", "where", "claim", "kind", "rule", "published", "ours", "control",
                   "n", "processes", "size", "style", "mode", "profile", "verdict", "reason", "chapter", "section", "other", "tier", "condition", "covered_by", "reading", "misprint",
                   "applied_band")


def decide_all(claims: pd.DataFrame, evidence: pd.DataFrame, rules: "dict | None" = None) -> pd.DataFrame:
    """One row per claim: the verdict (or, for extensions, ``finding``) and the condition that decided it.

    Every claim needs evidence (unless its rule is ``not_testable``) and every
    evidence row needs a claim: both are errors, so nothing drops out unseen.
    """
    rules = rules or load_rules()
    unknown = sorted(set(evidence["claim_id"]) - set(claims["claim_id"]))
    if unknown:
        raise ValueError(f"evidence for unknown claim ids {unknown}")
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
            if claim["scope"] == "extension" or claim["rule"] == "not_testable" or claim["covered_by"]:
                others.append(f"{label}: {_ours(o)}")
            elif not _at_condition(claim, o, rules):
                others.append(f"{label}: {_ours(o)} → {verdict_of('elsewhere', rules)}")
            else:
                others.append(f"{label}: {_ours(o)} → {decide(claim, o, rules).verdict}")
        pub = claim["published"] + (f" {claim['unit']}" if claim["unit"] and claim["published"] else "")
        out.append({
            "claim_id": claim["claim_id"], "paper": claim["paper"], "where": claim["where"],
            "claim": claim["quote"], "kind": claim["kind"], "rule": _rule_label(claim), "published": pub or "—",
            "ours": "—" if ev is None else _ours(ev), "control": "—" if ev is None else _control(ev),
            "n": "" if ev is None or _get(ev, "n") is None else str(int(_get(ev, "n"))),
            "processes": "" if ev is None or _get(ev, "processes") is None else str(int(_get(ev, "processes"))),
            "size": "" if ev is None else ev["size"], "style": "" if ev is None else ev["style"],
            "mode": "" if ev is None else ev["mode"], "profile": "" if ev is None else ev["profile"],
            "verdict": verdict, "reason": decision.reason,
            "chapter": claim["section"].partition("-")[0] if claim["section"] else ("" if ev is None else ev["chapter"]),
            "section": claim["section"] or ("" if ev is None else ev["section"]),
            "other": "; ".join(others),
            "tier": claim["tier"], "condition": claim["condition"], "covered_by": claim["covered_by"],
            "reading": reading, "misprint": _misprints(claim), "applied_band": decision.band,
        })
    return pd.DataFrame(out, columns=list(VERDICT_COLUMNS))


def verdict_counts(rows: pd.DataFrame, statuses: bool = False) -> pd.DataFrame:
    """The papers' claims per paper and verdict, with totals; extensions are not counted.

    ``total`` counts the five verdicts; rows *covered* by another row and rows
    *not at the paper's condition* are counted apart, after it: in one column
    ``apart`` (when some row has a status), or with ``statuses=True`` one
    column per status.
    """
    claims = rows[rows["verdict"] != FINDING]
    counts = (claims.groupby(["paper", "verdict"]).size().unstack(fill_value=0)
              .reindex(columns=list(VERDICTS) + list(STATUSES), fill_value=0))
    counts.insert(len(VERDICTS), "total", counts[list(VERDICTS)].sum(axis=1))
    if not statuses:
        apart = counts[list(STATUSES)].sum(axis=1)
        counts = counts.drop(columns=list(STATUSES))
        if apart.any():
            counts["apart"] = apart
    counts.loc["all"] = counts.sum()
    counts.columns.name = None
    return counts


def verdict_html(rows: pd.DataFrame) -> str:
    """Verdict rows as a four-column HTML table that fits the page.

    Claim (id, linked to its row on the verdict page; quote, place in the
    paper) | published | ours, with the A/A control and the condition
    measured | verdict, linked to the section that holds the evidence, with
    the rule and the reason.
    """
    esc = page_html   # claim text, where and notes come from a file: text on the page
    head = "".join(f'<th style="text-align:left;padding:0.3em 0.5em">{h}</th>'
                   for h in ("claim", "published", "ours", "verdict"))
    body = []
    for r in rows.itertuples():
        trials = (f"{r.n} trials in {r.processes} process{'es' if r.processes != '1' else ''}"
                  if r.processes else "")
        cond = ", ".join(x for x in (r.size, r.style, r.mode, r.profile, trials) if x) or "—"
        link = f"{r.chapter}.html#{r.section}" if r.section else f"{r.chapter}.html"
        control = f"<br><small>A/A control {esc(str(r.control))}</small>" if r.control != "—" else ""
        other = f"<br><small>other conditions: {esc(r.other)}</small>" if r.other else ""
        reading = getattr(r, "reading", "")
        other += f"<br><small>reading that decided: {esc(reading)}</small>" if reading else ""
        misprint = getattr(r, "misprint", "")
        other += f"<br><small>misprint read as corrected: {esc(misprint)}</small>" if misprint else ""
        shown = r.verdict
        if r.verdict == COVERED and getattr(r, "covered_by", ""):
            shown = f"covered by {r.covered_by}"
        elif r.verdict in STATUSES:
            shown = load_rules()["verdicts"][r.verdict].get("shown", r.verdict)
        cells = [
            f'<a href="{VERDICT_PAGE}#{claim_anchor(r.claim_id)}"><b>{esc(r.claim_id)}</b></a>'
            f"<br>{esc(str(r.claim))}<br><small>{esc(str(r.where))}</small>",
            esc(str(r.published)),
            f"{esc(str(r.ours))}{control}<br><small>measured at: {esc(cond)}</small>",
            f'<a href="{esc(link)}"><b>{esc(shown)}</b></a><br><small>{esc(r.rule)}: {esc(str(r.reason))}</small>'
            f"{other}",
        ]
        colour = VERDICT_COLOURS.get(r.verdict, "#fff")
        tds = "".join(f'<td style="padding:0.3em 0.5em;vertical-align:top;word-break:break-word;'
                      f'{"background:" + colour + ";" if i == 3 else ""}width:{w}">{c}</td>'
                      for i, (c, w) in enumerate(zip(cells, ("34%", "12%", "24%", "30%"))))
        body.append(f"<tr>{tds}</tr>")
    return (f'<table class="table cipherlab-verdicts" style="font-size:0.85em;table-layout:fixed;width:100%">'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')


#: What each rule compares, in words, with ``{margin}``/``{alpha}`` filled from the rules file.  A rule names
#: an outcome; the table of meanings (:func:`meanings_markdown`) alone gives its verdict word.
RULE_TEXT = {
    "within_margin": ("value, ratio",
                      "our interval against the published value ±{margin} (relative) and, for a directional claim "
                      "(one with a null), against the A/A noise band around the null: `established` if beyond the "
                      "band in the claimed direction and within the margin; `size_excluded` if wholly outside the "
                      "margin and the direction not excluded; `reversed` or `no_effect` if it reaches no further "
                      "than the band in the claimed direction; `claim_in_noise` if the published value lies inside "
                      "the band; otherwise `undecided`"),
    "ordering": ("ordering",
                 "our interval of the effect, oriented so that the claim lies above the null, against the noise "
                 "band around the null: `established` if above it, `reversed` if below it, `no_effect` if it "
                 "reaches no further than its upper edge; a speedup claimed to be at least N % (null N) has its "
                 "direction judged against 0 and its bound against the band around N (`size_excluded` below it); "
                 "otherwise `undecided`"),
    "equivalent": ("value",
                   "`established` if our interval of the difference lies within ±{margin} of the null (in the "
                   "claim's unit); `statement_false` if wholly outside; otherwise `undecided`"),
    "significance": ("significance",
                     "`established` if p < {alpha} and our interval lies above the noise band (the direction the "
                     "paper reports); `reversed` or `no_effect` as for `ordering`, whatever p; otherwise "
                     "`undecided`"),
    "pvalue": ("structural",
               "a test at alpha = {alpha} (by default; a claim may declare its own): `established` if its outcome "
               "(reject or retain) is the one the claim states, `statement_false` otherwise"),
    "holds": ("structural, qualitative",
              "`established` if the statement holds (checked exhaustively or by construction), `statement_false` "
              "if not"),
    "not_testable": ("any", "`unmeasurable`; the claim row says why"),
}


def meanings_markdown(rules: "dict | None" = None) -> str:
    """The one table of meanings (``verdicts:`` and ``outcomes:`` of ``config/verdicts.yaml``) in Markdown.

    The Methods page and CONTRIBUTING show exactly this text.
    """
    rules = rules or load_rules()
    lines = ["| verdict | meaning | outcomes that give it | counted |", "|---|---|---|---|"]
    for word, entry in rules["verdicts"].items():
        shown = entry.get("shown", word)
        label = f"*{word}*" + (f" (shown \"{shown}\")" if shown != word else "")
        counted = "yes" if entry.get("counted", True) else "apart"
        lines.append(f"| {label} | {entry['meaning']} | {', '.join(f'`{o}`' for o in entry['outcomes'])} "
                     f"| {counted} |")
    lines += ["", "| outcome | the comparison |", "|---|---|"]
    lines += [f"| `{name}` | {text} |" for name, text in rules["outcomes"].items()]
    return "\n".join(lines) + "\n"


def rules_markdown(rules: "dict | None" = None) -> str:
    """The Methods page's statement of every rule and parameter, rendered from ``config/verdicts.yaml``."""
    rules = rules or load_rules()
    paired = rules["speed_pairing"] == "rounds"
    stat_line = (
        f"- Speed statistic: the cases of one measurement are timed in interleaved rounds (every case once per "
        f"round, in a seeded random order). The ratio `old / new` of per-call times is taken **within each round**, "
        f"where both calls ran back to back, and the **{rules['speed_statistic']}** of the rounds' log ratios is "
        "taken in each fresh process; the processes combine by their mean, and the speedup is "
        "`(exp(that) - 1) x 100 %`. A slow spell of the machine that lasts longer than a round (a frequency step, "
        "a neighbour's burst) slows both calls of the round alike and cancels."
        if paired else
        f"- Speed statistic: the **{rules['speed_statistic']}** of the per-call times of each case, compared as a "
        "speedup `(stat(old) / stat(new) - 1) x 100 %` within each fresh process (where both cases were timed "
        "side by side), the processes' ratios combined by their geometric mean.")
    lines = [
        stat_line + f" The interval is a {float(rules['confidence']):.0%} percentile bootstrap "
        f"({int(rules['bootstrap_resamples'])} seeded resamples).",
        "- Fresh processes: the same code can run at a different speed in each fresh interpreter, which a bootstrap "
        "over the trials of one process cannot see. Each chapter's trials are therefore spread over several fresh "
        f"processes, one after another ({_processes_text()}). A process that ran slower as a whole slows both "
        "cases alike and cancels in its ratio. The bootstrap resamples at both levels: the "
        "processes with replacement (the same draw for both cases of a comparison, which were timed in each), "
        + ("then the rounds within each drawn process, each round's pair of calls kept together."
           if paired else "then the trials within each drawn process, independently for the two cases."),
        "- A/A control: every speed comparison also times AES against an identical second AES instance in the "
        "same interleaved run; its interval is this machine's noise band, never narrower than "
        f"±{float(rules['noise_floor_pct']):g} %: that floor stands for what an A/A control of one code path "
        "cannot show, the few percent by which two different code paths differ from code and data layout alone "
        "(Mytkowicz et al., *Producing wrong data without doing anything obviously wrong!*, ASPLOS 2009). "
        "A speed effect counts only beyond the band. Around a non-zero null N (a speedup claimed to be at least "
        "N %) the band is a band of ratios, its half-width scaled by (1 + N / 100), not added in percentage "
        "points. A band wider than "
        f"±{float(rules['max_noise_pct']):g} % is too noisy to decide unless the effect (claimed or measured, the "
        f"larger) is at least {float(rules['decisive_effect_ratio']):g} times its half-width.",
        f"- Operations shorter than {float(rules['min_trial_seconds']) * 1e3:g} ms are timed in batches of k calls "
        "per trial (k fixed per case after the warm-up), and the empty-call overhead is reported apart.",
        "- Condition: a claim row names the condition it is about (`condition`, e.g. `size=5 MB`, alternatives "
        "joined by `|`). Evidence taken at another condition never decides it: the row is *not at the paper's "
        f"condition* and shows what was measured. A size matches within {float(rules['size_tolerance']):.0%}, so "
        "the paper's KB and MB match whether it meant 1000- or 1024-based units.",
        f"- Readings (`readings: {rules['readings']}`): where the paper leaves a condition open (a mode) or "
        "states its claim across several (every size), the chapter measures each reading and the claim row admits "
        "the plausible ones (`decided_by`, alternatives joined by `|`). The claim holds only if it holds under "
        "every reading it admits: the least favourable decides, in the order "
        + ", ".join(f"*{w}*" for w in rules["combine_order"]) + ", and its reading is shown on the row. "
        "One rule, because a claim the paper states without its condition is a claim about each condition it "
        "could mean; a reading its own numbers exclude is not admitted, and the row's note says why.",
        "- A claim another row tests (`covered_by`) is *covered by* that row and counted once, there. A documented "
        "misprint (`data/paper/<paper>_misprints.csv`, each with its evidence) is read as corrected, and shown on "
        "the claim's row.",
        "",
        "The table of meanings, the one place where a comparison's outcome becomes a verdict word:",
        "",
        meanings_markdown(rules),
        "| rule | for claims of kind | comparison | parameters |",
        "|---|---|---|---|",
    ]
    for name in RULES:
        params = rules["rules"].get(name) or {}
        kinds, text = RULE_TEXT[name]
        fill = {k: (f"{float(v):.0%}" if (k, name) == ("margin", "within_margin") else f"{float(v):g}")
                for k, v in params.items()}
        fill.setdefault("margin", "margin")
        fill.setdefault("alpha", "alpha")
        shown = ", ".join(f"{k} = {v}" for k, v in params.items()) or "—"
        lines.append(f"| `{name}` | {kinds} | {text.format(**fill)} | {shown} |")
    return "\n".join(lines) + "\n"


def _processes_text() -> str:
    """How many fresh processes each profile's timing sections use, from the profile configs."""
    parts = []
    for profile in PROFILES:
        cfg = load_config(profile)
        counts = sorted({int(sec["processes"]) for sec in cfg.values() if isinstance(sec, dict) and "processes" in sec})
        if counts:
            parts.append(f"{profile} profile: {' or '.join(map(str, counts))}")
    return "; ".join(parts) + ", set by `processes` in each timing section of the profile's config" if parts else \
        "set by `processes` in each timing section of the profile's config"


def save_verdicts(rows: pd.DataFrame, profile: "str | Profile"):
    """The decided verdicts table: ``data/tables/<profile>/verdicts.csv``."""
    return save_table(rows, "verdicts", profile)
