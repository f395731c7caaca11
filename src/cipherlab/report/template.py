"""The referee's report of any paper, as sections: the one template every report follows.

:func:`report_sections` takes a paper's facts, its verdict rows (``verdicts.csv``
rows of its claims, with the registry's ``quantity``, ``tier``, ``concern`` and
``reference``), the findings of our own that bear on it (security findings: a
``break`` is an attack that reads its cipher without the key) and where our
protocol differs from the paper's, and returns the sections of a referee's
report, in order:

1. ``summary``: what the paper claims, what the run found, the recommendation;
2. ``concerns``: the main concerns, most important first, in the order the rules file
   declares (``report.concerns``: a break, the design's security, refuted headline
   claims, overclaims, the paper's own defects ...);
3. ``headline``: each headline claim in plain words, published against ours, its verdict and reason;
4. ``methodology``: how the claims were tested, and every place our protocol differs from the
   paper's (machine, library, warm-up, batching, one cold call against medians);
5. ``defects``: the paper's own defects (numbers or statements that disagree, documented misprints);
6. ``overclaims``: sentences that claim more than their evidence allows, each with its reference;
7. ``supporting``: the supporting checks, counted, the ones that failed named;
8. ``findings``: our own findings about the paper's subject (an attack is stated once, as
   the first concern; another paper's record about the same cipher is said to be its own);
9. ``machines``: which claims keep their verdict on every machine a shipped run
   measured and which differ (the rows' ``portability``,
   :mod:`cipherlab.analysis.machines`): a verdict that differs between machines
   belongs to the machine and never counts as the paper's error, in any section;
10. ``recommendation``: the grade, by the rule written once in
   ``config/verdicts.yaml`` (``report.recommendation``, shown on the Methods page).

Its users: the four seed papers, and any paper refereed from a variant file and a claims
file. Every sentence is a template filled from the rows: no result is typed here.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Mapping, Sequence

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor, load_rules
from cipherlab.analysis.reasons import is_reference
from cipherlab.analysis.verdicts import FINDING
from cipherlab.analysis.machines import RunNoise, machine_dependent
from cipherlab.report import concern_lines, tiers
from cipherlab.report.across_section import machines_section
from cipherlab.report.concern_lines import fallen_to_break
from cipherlab.report.text import cell as _s, claim_link as _link, literal as _t, plural as _plural

__all__ = ["Section", "SECTION_KEYS", "report_sections", "recommendation", "recommendation_rule_markdown",
           "tested_sentence",
           "concern_rows", "PROTOCOL_COLUMNS"]

#: The sections of every report, in order.
SECTION_KEYS = ("summary", "concerns", "headline", "methodology", "defects", "overclaims", "supporting", "findings",
                "machines", "recommendation")
TITLES = {"summary": "Summary", "concerns": "Main concerns", "headline": "The headline claims",
          "methodology": "Methodology", "defects": "The paper's own defects", "overclaims": "Overclaims",
          "supporting": "Supporting checks", "findings": "Our own findings", "machines": "Across machines",
          "recommendation": "Recommendation"}
#: Columns of a protocol table: the aspect, the paper's protocol (with its place), ours.
PROTOCOL_COLUMNS = ("aspect", "paper", "ours")
REFUTED = ("contradicted", "not reproduced")
#: How many headline claims the summary names (the rest are counted; every concern is listed).
SUMMARY_CLAIMS = 6
UNDECIDED = ("inconclusive", "not testable")


@dataclass(frozen=True)
class Section:
    """One section of a report: its key (:data:`SECTION_KEYS`), its title and its body (Markdown, which may
    hold HTML blocks)."""

    key: str
    title: str
    body: str


def _claims(rows: pd.DataFrame) -> pd.DataFrame:
    return tiers.claims_only(rows) if len(rows) else rows.assign(tier=[])


#: How the report labels a published value that is a reference the paper quotes (the claim's ``source`` names the
#: transcription column ``reference``, :func:`cipherlab.analysis.reasons.is_reference`), not a result of its own.
DASH = "\u2014"
REFERENCE_LABEL = "the reference value the paper quotes, not a result of its own"


def published_label(row) -> str:
    """The published value as the report shows it: the paper's figure as printed, or a reference value the paper
    quotes (the avalanche criterion's 50 %) said to be one; empty or a dash where the claim has none."""
    pub = _s(row.get("published"))
    if pub in ("", DASH) or not is_reference(row):
        return pub
    return f"{pub}, {REFERENCE_LABEL}"


def _holds(row) -> bool:
    """A finding holds when its evidence says so (outcome ``established``)."""
    return _s(row.get("outcome")) == "established" or _s(row.get("ours")) == "holds"


# ----------------------------------------------------------------------------- the conditions of the rule
def conditions(rows: pd.DataFrame, findings: pd.DataFrame, rules: "dict | None" = None) -> dict[str, pd.DataFrame]:
    """The rows behind each condition the recommendation rule and the concerns name.

    A claim whose verdict two machines decided differently (``machine-dependent``, from the rows'
    ``portability``) meets no condition of the paper's error: it is the machine's, listed apart."""
    every = _claims(rows)
    dependent = every["claim_id"].isin(machine_dependent(every))
    claims = every[~dependent]
    head = claims[claims["tier"] == "headline"]
    sup = claims[claims["tier"] != "headline"]
    concern = claims["concern"].fillna("") if "concern" in claims else pd.Series("", index=claims.index)
    fnd = findings if findings is not None else pd.DataFrame(columns=["concern"])
    fconcern = fnd["concern"].fillna("") if "concern" in fnd else pd.Series("", index=fnd.index)
    breaks = fnd[(fconcern == "break") & fnd.apply(_holds, axis=1)] if len(fnd) else fnd
    weak = fnd[(fconcern == "security") & fnd.apply(_holds, axis=1)] if len(fnd) else fnd
    # a paper that proposes no design: our security findings about what it compares are cautions, not its design's
    no_design = {str(p) for p in (rules or load_rules())["report"].get("proposes_no_design", ())}
    paper = weak["paper"] if "paper" in weak else weak.get("claim_id", pd.Series(dtype=str)).astype(str).str[:3]
    offered = (paper.astype(str).isin(no_design) if len(weak)
               else pd.Series(False, index=weak.index, dtype=bool))
    caution, weak = weak[offered], weak[~offered]
    return {
        "break": breaks,
        # a caution stated on a claim row (concern: caution) is listed whatever its verdict, and decides nothing
        "caution": pd.concat([caution, claims[concern == "caution"]]),
        # the design's own security: a weakness our analysis shows (a security finding that holds), then the
        # paper's security statements and security evidence (concern: security) refuted, whatever their tier
        "security": pd.concat([weak, claims[(concern == "security") & claims["verdict"].isin(REFUTED)]]),
        # a design that adds nothing to the cipher it modifies (equivalent to AES): no weakness, no possible gain
        "ineffective": fnd[(fconcern == "ineffective") & fnd.apply(_holds, axis=1)] if len(fnd) else fnd[:0],
        "contradicted": head[head["verdict"] == "contradicted"],
        "not reproduced": head[head["verdict"] == "not reproduced"],
        "headline_refuted": head[head["verdict"].isin(REFUTED)],
        "headline_undecided": every[(every["tier"] == "headline") & every["verdict"].isin(UNDECIDED)],
        # not testable (or inconclusive) counts neither for nor against: only a refuted overclaim weighs
        "overclaim": claims[(concern == "overclaim") & claims["verdict"].isin(REFUTED)],
        "overclaim_untested": claims[(concern == "overclaim") & claims["verdict"].isin(UNDECIDED)],
        "defect": claims[(concern == "defect") & claims["verdict"].isin(REFUTED)],
        # a printed result the described cipher cannot produce: data integrity, weighed as a flaw of the method
        "data": claims[(concern == "data") & claims["verdict"].isin(REFUTED)],
        # the paper's method cannot decide what it is used for: weighs whatever the row's verdict but reproduced
        # (our evidence then stands for the sentence without the paper's method), and a finding of ours that holds
        "method": pd.concat([claims[(concern == "method") & (claims["verdict"] != "reproduced")],
                             fnd[(fconcern == "method") & fnd.apply(_holds, axis=1)] if len(fnd) else fnd[:0]]),
        "supporting_refuted": sup[sup["verdict"].isin(REFUTED) & (concern.reindex(sup.index) != "defect")],
        "machine-bound": claims[(claims["verdict"] == "machine-bound")
                                & (claims.get("outcome", pd.Series("", index=claims.index)) == "differs_here")],
        "machine-dependent": every[dependent],
    }


def recommendation(rows: pd.DataFrame, findings: "pd.DataFrame | None" = None,
                   rules: "dict | None" = None) -> tuple[str, str, pd.DataFrame]:
    """(grade, what it says, the rows that gave it): the first grade of ``report.recommendation`` in the rules
    file whose conditions (any of ``when``) hold; ``always`` holds always. What it says names the conditions that
    hold for this paper (:func:`because`), then the grade's ``says``: never a condition the paper does not meet
    (a paper that proposes no design is never told of a design's security)."""
    rules = rules or load_rules()
    cond = conditions(rows, findings if findings is not None else pd.DataFrame(), rules)
    for entry in rules["report"]["recommendation"]:
        when = entry["when"]
        when = [when] if isinstance(when, str) else list(when)
        held = [w for w in when if w != "always" and len(cond[w])]
        if held or "always" in when:
            why = pd.concat([cond[w] for w in held]) if held else pd.DataFrame()
            lead = because(held, rules)
            return entry["grade"], (f"{lead}: {entry['says']}" if lead else entry["says"]), why
    raise ValueError("report.recommendation in the rules file needs a last entry with when: always")


def _unbracketed(text: str) -> str:
    """``text`` without its parenthesised parts (nested ones too), spaces tidied."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "("
        if not depth:
            out.append(ch)
        depth -= ch == ")" and depth > 0
    return " ".join("".join(out).split()).replace(" ,", ",").replace(" ;", ";").rstrip(":;, ")


def because(held: Sequence[str], rules: "dict | None" = None) -> str:
    """The conditions that hold, in the words the Methods page names them (``report.condition_text``, without its
    parentheses, which say how the rows are marked), joined by "and"."""
    names = (rules or load_rules())["report"]["condition_text"]
    parts = [_unbracketed(names[w]) for w in held]
    return "; and ".join(parts) if any(";" in p or "," in p for p in parts) else " and ".join(parts)


def recommendation_rule_markdown(rules: "dict | None" = None) -> str:
    """The recommendation rule as the Methods page shows it: the grades in order, each with its conditions."""
    rep = (rules or load_rules())["report"]
    names = rep["condition_text"]
    lines = ["The recommendation of every referee's report is the first grade below whose condition holds "
             "(the same rule for every paper, read from `report:` in `config/verdicts.yaml`):", ""]
    for i, e in enumerate(rep["recommendation"], 1):
        when = [e["when"]] if isinstance(e["when"], str) else list(e["when"])
        cond = " or ".join(names[w] for w in when)
        lines.append(f"{i}. **{e['grade']}**, when {cond}. {e['says'][:1].upper()}{e['says'][1:]}")
    lines += ["", "A claim whose verdict two machines decided differently, and a size bound to the machine "
              "(machine-bound: said only to agree or differ here), meet no condition above: they are the machine's, "
              "never the paper's error. A grade reached by a break names the attack and its attacker model.",
              "", "The main concerns are listed most important first, in this order: "
              + "; ".join(names[c] for c in rep["concerns"]) + "; within one kind, our own findings first, then "
              "headline claims before supporting checks, and contradicted before not reproduced before inconclusive "
              "before not testable."]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- sentences
def _reason(row) -> str:
    return _t(row.get("reason")).rstrip(".") + "."


def concern_rows(rows: pd.DataFrame, findings: "pd.DataFrame | None" = None,
                 rules: "dict | None" = None) -> list[tuple[str, pd.Series]]:
    """The main concerns, most important first: ``(kind, row)`` in the order of ``report.concerns``; a row is
    named once, under its first kind."""
    rules = rules or load_rules()
    cond = conditions(rows, findings if findings is not None else pd.DataFrame(), rules)
    seen, out = set(), []
    for kind in rules["report"]["concerns"]:
        for _, r in concern_lines.by_weight(cond[kind]).iterrows():
            if r["claim_id"] not in seen:
                seen.add(r["claim_id"])
                out.append((kind, r))
    return out


def split_findings(paper_id: str, findings: "pd.DataFrame | None") -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the paper's own findings, those recorded with another paper that describes the same subject).

    A finding row names its paper (``paper``; a row without one is the report's own): the reports of papers 000
    and 001, which describe one cipher, share the security analysis made once, under paper 000's ids. A shared
    finding weighs in this report as in its own (it is about the same cipher), but is listed as the other paper's;
    one that repeats a finding of this paper's own (the same id after the paper's prefix) is left out."""
    if findings is None or findings.empty or "paper" not in findings.columns:
        empty = findings if findings is not None else pd.DataFrame(columns=["claim_id", "concern", "outcome", "ours"])
        return empty, empty.iloc[0:0]
    paper = findings["paper"].fillna("").astype(str)
    own = findings[paper.isin(("", str(paper_id)))]
    other = findings[~paper.isin(("", str(paper_id)))]
    stem = own["claim_id"].astype(str).str.split("-", n=1).str[-1]
    other = other[~other["claim_id"].astype(str).str.split("-", n=1).str[-1].isin(set(stem))]
    return own, other


def _shared_note(paper, shared: pd.DataFrame) -> str:
    """Once per report: whose the shared findings are, in words."""
    others = sorted(set(shared["paper"].astype(str)))
    whose = " and ".join(f"paper {o}" for o in others)
    return (f"{whose[:1].upper()}{whose[1:]} {'describes' if len(others) == 1 else 'describe'} the same subject as "
            f"this paper ({_t(paper.subject)}): our findings about it were made once and are recorded with {whose}, "
            "under its claim ids; they bear on this paper as on that one")


def _concerns(concerns: "list[tuple[str, pd.Series]]", names: Mapping[str, str], claims: pd.DataFrame,
              shared: pd.DataFrame, rules: "dict | None" = None) -> str:
    """Every main concern, numbered, most important first, each one line (:mod:`cipherlab.report.concern_lines`)."""
    no_design = {str(p) for p in (rules or load_rules())["report"].get("proposes_no_design", ())}
    items = concern_lines.concerns_markdown(concerns, names, shared, no_design)
    if not items:
        return ("None: no headline claim is refuted here, and nothing else of concern was found. "
                + tested_sentence(claims))
    return "\n".join(f"{i}. {t}" for i, t in enumerate(items, 1))


def _summary(paper, claims: pd.DataFrame, grade: str, findings: pd.DataFrame) -> str:
    head = claims[claims["tier"] == "headline"]
    shown = head.head(SUMMARY_CLAIMS)
    what = "; ".join(f"{_t(r['quantity'])} ({_t(published_label(r)).strip(DASH) or 'as stated'})"
                     for _, r in shown.iterrows()) or "no headline claim"
    if len(head) > len(shown):
        what += f"; and {len(head) - len(shown)} more (the table below)"
    untestable = int((claims["verdict"] == "not testable").sum())
    text = (f"Paper {paper.id} ({paper.subject}) makes {_plural(len(claims), 'claim')} with a row here"
            + (f" ({untestable} of them not testable)" if untestable else "") + ", "
            f"{_plural(len(head), 'of them a headline claim', 'of them headline claims')}: {what}. ")
    text += (f"This run decided its headline claims: {tiers.verdict_phrase(head['verdict'])}; "
             f"its supporting checks: {tiers.verdict_phrase(claims.loc[claims['tier'] != 'headline', 'verdict'])}. ")
    breaks = conditions(claims, findings)["break"]
    if len(breaks):
        text += ("Our own security analysis breaks the cipher: an attack reads it without the key (the first main "
                 "concern below, with its attacker model). ")
    return text + f"Recommendation: **{grade}**."


def _headline_html(head: pd.DataFrame, fallen: "Mapping[str, str] | None" = None) -> str:
    """The headline claims in plain words; a row a break decides (``fallen``) refers to the attack, stated once as
    the first main concern, instead of restating it."""
    esc = html.escape
    body = []
    for _, r in head.iterrows():
        cid = _s(r["claim_id"])
        why = (esc(_s(r.get("reason"))) if not fallen or cid not in fallen else
               f'The attack stated as the first main concern (<a href="{VERDICT_PAGE}#{claim_anchor(fallen[cid])}">'
               f"{esc(fallen[cid])}</a>) refutes it.")
        measured = _s(r.get("measured"))
        ours = esc(_s(r.get("ours")) or "—") + (f"<br><small>{esc(measured)}</small>" if measured else "")
        body.append(
            f'<tr data-verdict="{esc(_s(r["verdict"]))}"><td>{esc(_s(r.get("quantity")))}<br><small>'
            f'\u201c{esc(_s(r.get("claim")))}\u201d ({esc(_s(r.get("where")))}), '
            f'<a href="{VERDICT_PAGE}#{claim_anchor(r["claim_id"])}">{esc(_s(r["claim_id"]))}</a></small></td>'
            f"<td>{esc(published_label(r) or '—')}</td><td>{ours}</td>"
            f"<td>{_badge(r)}{_styles(r)}</td><td><small>{why}</small></td></tr>")
    if not body:
        return "<p>The registry marks no headline claim of this paper.</p>"
    cols = "".join(f"<th>{h}</th>" for h in ("the claim, in plain words", "published", "ours", "verdict", "why"))
    return f'<table class="cl-report-results"><thead><tr>{cols}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _badge(r) -> str:
    from cipherlab.report.verdict_page import badge
    return badge(r)


def _styles(r) -> str:
    """Under the verdict, where it differs between implementation styles (the row's readings in other styles)."""
    from cipherlab.report.verdict_page import style_note
    note = style_note(r)
    return f'<br><small class="cl-style-dependence">{html.escape(note)}</small>' if note else ""


def _methodology(paper, claims: pd.DataFrame, protocol: "pd.DataFrame | None") -> str:
    kinds = ", ".join(f"{int(n)} {k}" for k, n in claims["kind"].value_counts().items())
    text = (f"Each claim of paper {paper.id} is a row of the claims registry ({kinds} by kind), with the "
            f"published value, its place in the paper, the part of it that carries over to another machine, and "
            f"a declared rule. The [{paper.chapter} chapter]({paper.chapter}.html) measures; one engine decides "
            "every verdict by the rules of the [Methods](methods.html) page, the same for every paper: a speed "
            "effect counts only beyond this machine's noise band (an A/A control, never narrower than the declared "
            "floor); an absolute time of the paper's machine is not testable; a size that belongs to that machine "
            "is only said to agree or differ on this one.")
    if protocol is not None and len(protocol):
        esc = html.escape
        rows = "".join(f"<tr><td>{esc(_s(r['aspect']))}</td><td>{esc(_s(r['paper']))}</td>"
                       f"<td>{esc(_s(r['ours']))}</td></tr>" for _, r in protocol.iterrows())
        text += ("\n\nWhere our protocol differs from the paper's:\n\n"
                 '<table class="cl-protocol"><thead><tr><th>aspect</th><th>the paper</th><th>this run</th></tr>'
                 f"</thead><tbody>{rows}</tbody></table>")
    return text


def _listed(part: pd.DataFrame, empty: str, with_reference: bool = False,
            fallen: "Mapping[str, str] | None" = None) -> str:
    """A list of rows, each with its quote, place, reason and (``with_reference``) reference; a row a break decides
    (``fallen``) refers to the attack, stated once as the first main concern, instead of restating it."""
    if part.empty:
        return empty
    out = []
    for _, r in part.iterrows():
        ref = f" Reference: {_t(r.get('reference')).rstrip('.')}." if with_reference and _s(r.get("reference")) else ""
        cid = _s(r["claim_id"])
        why = (f"the attack stated as the first main concern ({_link(fallen[cid])}) refutes it."
               if fallen and cid in fallen else _reason(r))
        out.append(f"- \u201c{_t(r.get('claim'))}\u201d ({_t(r.get('where'))}): {why}{ref} {_link(cid)}")
    return "\n".join(out)


def _defects(paper_id: str, claims: pd.DataFrame, misprints: "pd.DataFrame | None") -> str:
    text = _listed(concern_lines.by_weight(conditions(claims, None)["defect"]), "No disagreement of the paper with itself was found in this run.")
    if misprints is not None and len(misprints):
        cells = "\n".join(f"- {_t(_s(r['table']).replace(' (misprints)', ''))}, {_t(r['row'])}, {_t(r['column'])}: "
                          f"read as {_t(r['value'])} {_t(r.get('unit'))}".rstrip() + f" ({_t(r['note'])})"
                          for _, r in misprints.iterrows())
        text += (f"\n\nDocumented misprints ({len(misprints)}, `data/paper/{paper_id}_misprints.csv`), each read as "
                 f"corrected where a claim uses it:\n\n{cells}")
    return text


def _overclaims(cond: Mapping[str, pd.DataFrame], fallen: "Mapping[str, str] | None" = None) -> str:
    """The overclaims our evidence refutes (they weigh in the recommendation), then those stated beyond what this
    project can test (listed with their reference; counted neither for nor against the paper)."""
    untested = cond["overclaim_untested"]
    none = "None refuted by this run's evidence." + (
        f" {len(untested)} {'is' if len(untested) == 1 else 'are'} stated beyond what can be tested here (below): not "
        "refuted, and not supported either." if len(untested) else "")
    text = _listed(cond["overclaim"], none, with_reference=True, fallen=fallen)
    caution = cond["caution"]
    caution = caution[caution["verdict"].astype(str) != FINDING] if len(caution) else caution
    caution = caution[~caution["claim_id"].isin(cond["overclaim"]["claim_id"])] if len(caution) else caution
    if len(caution):
        text += ("\n\nCautions on the paper's security sentences, each with the reference that says what they leave "
                 "out (the paper's own model decides the row, so a caution weighs neither for nor against the paper):"
                 "\n\n" + _listed(caution, "", with_reference=True, fallen=fallen))
    if len(untested):
        text += ("\n\nStated beyond what can be tested here (not testable or inconclusive: neither for nor against "
                 "the paper in the recommendation; the reference says what the literature allows):\n\n"
                 + _listed(untested, "", with_reference=True))
    return text


def _cautions(caution: pd.DataFrame, rules: "dict | None" = None) -> str:
    """What the recommendation says of cautions, each named and said to weigh neither way: our security findings
    about designs a paper that proposes none compares or offers, apart from cautions on the paper's own claims."""
    if caution.empty:
        return ""
    no_design = {str(p) for p in (rules or load_rules())["report"].get("proposes_no_design", ())}
    compared = [_s(r["claim_id"]) for _, r in caution.iterrows() if concern_lines.is_compared_design(r, no_design)]
    own = [c for c in dict.fromkeys(caution["claim_id"].astype(str)) if c not in compared]
    parts = []
    if compared:
        parts.append("our cautions about designs the paper compares or offers, not a design of its own ("
                     + "; ".join(_link(c) for c in dict.fromkeys(compared)) + ")")
    if own:
        parts.append("our cautions on the paper's own claims, decided under its own model ("
                     + "; ".join(_link(c) for c in own) + ")")
    text = " and ".join(parts)
    return f" {text[:1].upper()}{text[1:]} are cautions: they weigh neither for nor against it."


def tested_sentence(claims: pd.DataFrame) -> str:
    """How many headline claims could be tested and decided here (reproduced, not reproduced, contradicted), how
    many are machine-bound (a size of the paper's machine, only said to agree or differ on this one, never
    reproduced or refuted: named apart), and how many not (inconclusive, not testable; covered rows are counted at
    the row that covers them)."""
    head = claims[claims["tier"] == "headline"]
    counted = head[~head["verdict"].astype(str).str.startswith("covered") & (head["verdict"] != "not at condition")]
    if counted.empty:
        return "The registry marks no headline claim of this paper to test."
    bound = counted[counted["verdict"] == "machine-bound"]
    decided = counted[~counted["verdict"].isin(UNDECIDED) & (counted["verdict"] != "machine-bound")]
    untestable = int((counted["verdict"] == "not testable").sum())
    undecided = int((counted["verdict"] == "inconclusive").sum())
    apart = (f"; {len(bound)} {'is' if len(bound) == 1 else 'are'} machine-bound (a size of the paper's machine, "
             "said only to agree or differ on this one, never the paper's error: "
             + "; ".join(_link(_s(c)) for c in bound["claim_id"]) + ")") if len(bound) else ""
    return (f"Of the paper's {_plural(len(counted), 'headline claim')} (covered rows counted once), "
            f"{len(decided)} could be tested and decided here{apart}; {untestable} "
            f"{'is' if untestable == 1 else 'are'} not testable and {undecided} inconclusive, which count neither "
            "for nor against the paper.")


def _supporting(claims: pd.DataFrame, fallen: "Mapping[str, str] | None" = None) -> str:
    sup = claims[claims["tier"] != "headline"]
    if sup.empty:
        return "No supporting check."
    text = f"{_plural(len(sup), 'supporting check')}: {tiers.verdict_phrase(sup['verdict'])}."
    failed = sup[sup["verdict"].isin(REFUTED) & ~sup["claim_id"].isin(machine_dependent(sup))]
    if len(failed):
        text += "\n\n" + _listed(failed, "", with_reference=True, fallen=fallen)
    return text


def _findings(findings: "pd.DataFrame | None", claims: pd.DataFrame, paper=None,
              shared: "pd.DataFrame | None" = None) -> str:
    """Our own findings about the paper's subject: the paper's own, then (said once, in words) those recorded with
    another paper that describes the same subject. A break is stated as the first main concern and referred to."""
    def item(r) -> str:
        if _s(r.get("concern")) == "break" and _holds(r):
            return f"- The attack stated as the first main concern: it reads the cipher without the key. {_link(_s(r['claim_id']))}"
        ref = f" Reference: {_t(r.get('reference')).rstrip('.')}." if _s(r.get("reference")) else ""
        return f"- {_reason(r)}{ref} {_link(_s(r['claim_id']))}"
    parts = []
    if findings is not None and len(findings):
        parts += [item(r) for _, r in findings.iterrows()]
    if shared is not None and len(shared) and paper is not None:
        parts += ["", _shared_note(paper, shared) + ":", ""] + [item(r) for _, r in shared.iterrows()]
    stand = claims[claims.get("outcome", pd.Series("", index=claims.index)) == "stand_in"]
    for _, r in stand.iterrows():
        parts.append(f"- Our stand-in: {_reason(r)} {_link(_s(r['claim_id']))}")
    return "\n".join(parts) if parts else "None bearing on this paper in this run."


def _attack(why: pd.DataFrame, grade: str, rules: dict) -> str:
    """The attack a break grade rests on, with its attacker model, in the recommendation itself: the break's claim
    in plain words (its ``quantity``, "whether an attacker with ... and no key reads ..."), else its reason."""
    breaks = rules["report"]["recommendation"][0]
    if why.empty or "concern" not in why or grade != breaks["grade"]:
        return ""
    out = []
    for _, r in why[why["concern"].astype(str) == "break"].iterrows():
        what = _s(r.get("quantity"))
        what = what[len("whether "):] if what.lower().startswith("whether ") else ""
        out.append(_t(what) if what else _reason(r).rstrip("."))
    return (" The attack: " + "; ".join(out) + ".") if out else ""


def _with_row_findings(paper, rows: pd.DataFrame, findings: pd.DataFrame) -> pd.DataFrame:
    """``findings`` with the findings among the paper's own ``rows`` (verdict ``finding``: a variant's claims file
    records its extensions beside its claims) that it does not hold yet, as the paper's own: a finding is never
    dropped between the chapter and the report."""
    if rows.empty or "verdict" not in rows.columns:
        return findings
    mine = rows[rows["verdict"] == FINDING]
    known = set(findings["claim_id"].astype(str)) if len(findings) else set()
    mine = mine[~mine["claim_id"].astype(str).isin(known)]
    if mine.empty:
        return findings
    return pd.concat([findings, mine.assign(paper=str(paper.id))], ignore_index=True) if len(findings) else \
        mine.assign(paper=str(paper.id))


def report_sections(paper, rows: pd.DataFrame, findings: "pd.DataFrame | None" = None,
                    protocol: "pd.DataFrame | None" = None, misprints: "pd.DataFrame | None" = None,
                    rules: "dict | None" = None, extra: "Sequence[Section]" = (),
                    noise: "RunNoise | None" = None, reference: str = "",
                    machines: Sequence[str] = ()) -> tuple[Section, ...]:
    """The sections of a referee's report on ``paper`` (any object with ``id``, ``subject``, ``chapter``).

    ``rows``: the paper's verdict rows (its claims; a finding among them is listed with ``findings``, once);
    ``findings``: verdict rows of our own findings bearing on it (``concern = "break"`` marks an attack that breaks its cipher); ``protocol``:
    :data:`PROTOCOL_COLUMNS`; ``misprints``: the paper's documented misprints; ``extra``: sections a caller adds
    before the recommendation; ``noise``: the run-to-run noise of the paper's speed rows against a shipped run of
    the same CPU kind (said in the machines paragraph); ``reference``: the name of the shipped run that IS this
    run, no other run compared (the machines paragraph then compares nothing); ``machines``: the CPUs of the runs
    compared (this run's and the shipped runs'), named with the paper's own machine from ``protocol``.
    """
    rules = rules or load_rules()
    claims = _claims(rows)
    for col in ("concern", "reference", "quantity", "outcome", "measured"):
        if col not in claims.columns:
            claims = claims.assign(**{col: ""})
    findings = findings if findings is not None else pd.DataFrame(columns=["claim_id", "concern", "outcome", "ours"])
    findings = _with_row_findings(paper, rows, findings)
    own, shared = split_findings(paper.id, findings)
    findings = pd.concat([own, shared]) if len(shared) else own
    grade, says, why = recommendation(claims, findings, rules)
    names = rules["report"]["condition_text"]
    concerns = concern_rows(claims, findings, rules)
    fallen = fallen_to_break(concerns)
    body = {
        "summary": _summary(paper, claims, grade, findings),
        "concerns": _concerns(concerns, names, claims, shared, rules),
        "headline": _headline_html(claims[claims["tier"] == "headline"], fallen),
        "methodology": _methodology(paper, claims, protocol),
        "defects": _defects(paper.id, claims, misprints),
        "overclaims": _overclaims(conditions(claims, findings), fallen),
        "supporting": _supporting(claims, fallen),
        "findings": _findings(own, claims, paper, shared),
        "machines": machines_section(claims, noise, reference, machines, protocol),
        "recommendation": (f"**{grade.capitalize()}.** {says[:1].upper()}{says[1:]}" + _attack(why, grade, rules)
                           + (" It rests on: " + "; ".join(_link(c) for c in dict.fromkeys(why["claim_id"])) + "."
                              if len(why) else "") + _cautions(conditions(claims, findings, rules)["caution"], rules)
                           + " " + tested_sentence(claims)
                           + " (The rule, the same for every paper, is on the [Methods](methods.html) page.)"),
    }
    out = [Section(k, TITLES[k], body[k]) for k in SECTION_KEYS if k != "recommendation"]
    return tuple(out) + tuple(extra) + (Section("recommendation", TITLES["recommendation"], body["recommendation"]),)
