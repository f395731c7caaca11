"""A paper refereed through its variant: its claims beside the variant file, decided by the verdict engine.

A paper is added to the book by two files in ``config/variants/``: the variant
``<name>.yaml`` (its cipher, with ``paper: {citation: ...}``) and
``<name>.claims.csv``, the paper's claims in the registry's format (the columns
of ``data/paper/claims.csv``: the sentence, its place in the paper, the
published value and unit written in the row, the rule, the condition ...) and
one more column, ``measure``: which measurement of the battery decides the
claim (:data:`cipherlab.experiments.variant.measures.MEASURES`; empty for a
``not_testable`` claim, whose ``note`` says why).  The paper's id is the
variant's name.

:func:`paper_verdicts` builds each claim's evidence from the battery's results
and has the one engine (:func:`cipherlab.analysis.verdicts.decide_all`, the
rules and the table of meanings of ``config/verdicts.yaml``) decide every claim.
The verdicts are the chapter's tables ``variant_<name>_evidence`` and
``variant_<name>_verdicts``; the verdict page and the front page show them,
counted apart from the four papers of the registry.

:func:`cipherlab.analysis.claims.load_claims` (``papers=(name,)``) validates the file as the registry is
validated.  A row of ``scope`` ``extension`` is a finding of ours about the paper's own text or numbers
(e.g. whether its times lie on one line in the length), never a verdict against it.  A reading an exact
identity of the battery settles (evidence with ``holds`` for a claim whose rule compares a size) is decided
as a statement, the other readings by the claim's rule, and the least favourable decides
(:func:`decide_readings`).
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from cipherlab.analysis.claims import CLAIM_COLUMNS, load_claims
from cipherlab.analysis.evidence import EVIDENCE_COLUMNS, evidence_frame
from cipherlab.analysis.verdicts import (VERDICT_COLUMNS, combine_verdicts, decide_all, load_rules, readings_rule,
                                         shown_label, verdict_of)
from cipherlab.ciphers.variant_files import load_variant
from cipherlab.experiments.variant.equivalence import NONE_FOUND
from cipherlab.experiments.variant.measures import check_measure, evidence_for
from cipherlab.pipeline.chapters import VARIANT_CLAIMS_SUFFIX
from cipherlab.pipeline.paths import Profile, as_profile, variant_file

__all__ = ["CLAIMS_SUFFIX", "claims_path", "has_claims", "load_paper_claims", "paper_verdicts", "empty_evidence",
           "empty_verdicts", "load_variant_verdicts", "paper_facts", "decide_readings"]

#: the claims file beside ``config/variants/<name>.yaml``
CLAIMS_SUFFIX = VARIANT_CLAIMS_SUFFIX
MEASURE = "measure"


def claims_path(variant_path: "str | Path") -> Path:
    """``<folder>/<name>.claims.csv`` beside the variant file ``<folder>/<name>.yaml``."""
    path = Path(variant_path)
    return path.with_name(path.stem + CLAIMS_SUFFIX)


def has_claims(name: str) -> bool:
    """Whether the variant ``name`` (a file of ``config/variants/``) comes with its paper's claims."""
    return claims_path(variant_file(name)).is_file()


def load_paper_claims(name: str, variant_path: "str | Path | None" = None) -> "pd.DataFrame | None":
    """The claims of the paper whose cipher variant ``name`` describes, validated; None without a claims file.

    As :func:`cipherlab.analysis.claims.load_claims`, with the paper id the variant's name, every published
    value in its row (``source`` empty: a variant paper's transcription is its claims file), the ``section``
    left to the measure, and ``measure`` one of the battery's measures in the claim's unit (or empty for a
    ``not_testable`` claim). ``ValueError`` naming the file, the claim and the column.
    """
    path = claims_path(variant_path if variant_path is not None else variant_file(name))
    if not path.is_file():
        return None
    claims = load_claims(path, papers=(name,))
    if MEASURE not in claims.columns:
        raise ValueError(f"{path}: needs the column {MEASURE!r} (the battery's measurement each claim is decided "
                         f"on); columns: {', '.join(CLAIM_COLUMNS)}, {MEASURE}")
    for _, c in claims.iterrows():
        where = f"{path}: claim {c['claim_id']!r}"
        if c["source"] or c["section"]:
            raise ValueError(f"{where}: 'source' and 'section' stay empty in a variant paper's claims (the "
                             "published value is written in the row; the measure names its section)")
        if c["rule"] == "not_testable":
            continue
        if not c[MEASURE]:
            raise ValueError(f"{where}: column {MEASURE!r} is empty; name the measurement that decides it, or make "
                             "the rule not_testable with its reason in 'note'")
        try:
            check_measure(c[MEASURE], c["unit"])
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    return claims


def empty_evidence() -> pd.DataFrame:
    return pd.DataFrame(columns=["chapter", *EVIDENCE_COLUMNS])


def empty_verdicts() -> pd.DataFrame:
    return pd.DataFrame(columns=list(VERDICT_COLUMNS))


def paper_verdicts(results: dict, claims: "pd.DataFrame | None", *, profile: str = "",
                   page: str = "") -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(evidence, verdicts)`` of a variant paper's claims on the battery's ``results`` (empty frames, with
    their columns, for a variant without claims). ``page`` is the variant's page (the evidence's chapter)."""
    if claims is None or claims.empty:
        return empty_evidence(), empty_verdicts()
    rows = [ev for _, c in claims.iterrows() if c["rule"] != "not_testable"
            for ev in evidence_for(results, c, profile)]
    evidence = evidence_frame(rows)
    evidence.insert(0, "chapter", page)
    for col in ("size", "style", "mode", "profile", "unit", "detail", "section", "reading"):
        evidence[col] = evidence[col].fillna("")
    return evidence, decide_readings(claims, evidence)


def _statement_rows(claims: pd.DataFrame, evidence: pd.DataFrame) -> pd.Series:
    """Which evidence rows decide a reading as a statement (``holds`` set) for a claim whose rule compares an
    interval: an exact identity of the battery settles that reading whatever the interval would say."""
    rule = evidence["claim_id"].map(claims.set_index("claim_id")["rule"])
    return evidence["holds"].notna() & ~rule.isin(("holds", "not_testable"))


def decide_readings(claims: pd.DataFrame, evidence: pd.DataFrame) -> pd.DataFrame:
    """The engine's verdicts (:func:`~cipherlab.analysis.verdicts.decide_all`), where a claim's readings may be
    decided differently: a reading the battery settles by an exact identity (evidence with ``holds``, e.g. the
    S-box's SAC of a cipher whose S-boxes are Rijndael's up to XOR constants) as a statement (rule ``holds``),
    the others by the claim's own rule on their measurement.  The readings then combine as the engine combines
    them (``readings`` of the claim or the rules file: the least favourable decides), and the row says under
    which reading, and what each reading gave."""
    mixed = _statement_rows(claims, evidence) if len(evidence) else pd.Series(False, index=evidence.index)
    ids = list(dict.fromkeys(evidence.loc[mixed, "claim_id"]))
    if not ids:
        return decide_all(claims, evidence)
    rest = claims[~claims["claim_id"].isin(ids)]
    rows = [decide_all(rest, evidence[~evidence["claim_id"].isin(ids)])]
    rules = load_rules()
    for cid in ids:
        claim = claims[claims["claim_id"] == cid]
        evs = evidence[evidence["claim_id"] == cid]
        parts = [decide_all(claim.assign(rule="holds"), evs[mixed.loc[evs.index]])]
        if (~mixed.loc[evs.index]).any():
            parts.append(decide_all(claim, evs[~mixed.loc[evs.index]]))
        details = dict(zip(evs["reading"], evs["detail"]))
        rows.append(_combined(claim.iloc[0], [p.iloc[0] for p in parts], rules, details))
    order = {c: i for i, c in enumerate(claims["claim_id"])}
    every = pd.concat(rows, ignore_index=True)
    return every.sort_values("claim_id", key=lambda c: c.map(order), kind="stable").reset_index(drop=True)


def _combined(claim: pd.Series, parts: list, rules: dict, details: "dict | None" = None) -> pd.DataFrame:
    """One verdict row from the rows of one claim decided reading by reading (each part's ``reading``), under the
    claim's own rule; its reason gives every reading's figure and verdict, and the evidence's ``details`` (by
    reading) of those it was not decided under."""
    labels = [p["reading"] or "its one reading" for p in parts]
    decided = ", ".join(f"{lab} {'as a statement (an exact identity)' if p['rule'] != claim['rule'] else 'by the rule'}"
                        for lab, p in zip(labels, parts))
    if len(parts) == 1:   # one reading, settled by an identity: its row as decided, under the registry's rule
        pick = parts[0].copy()
        pick["basis"] = f"{decided}: {pick['basis']}"
        pick["rule"] = claim["rule"]
        return pd.DataFrame([pick], columns=list(VERDICT_COLUMNS))
    how = readings_rule(claim, rules)
    order = list(rules["combine_order"])
    verdicts = [p["verdict"] if p["verdict"] in order else "reproduced" for p in parts]
    if how == "open":
        return _open(claim, parts, labels, verdicts, order, rules, decided, details or {})
    pick = parts[combine_verdicts(verdicts, how, order)].copy()
    each = ", ".join(f"{lab}: {p['verdict']}" for lab, p in zip(labels, parts))
    which = "the least favourable" if how == "every" else "the median"
    others = [f"{lab}: {p['ours']} → {p['verdict']}" for lab, p in zip(labels, parts) if lab != pick["reading"]]
    details = details or {}
    figures = "; ".join(f"{lab}: {p['ours']}, {p['verdict']}"
                        + (f" ({details[lab]})" if lab != pick["reading"] and details.get(lab) else "")
                        for lab, p in zip(labels, parts))
    same = len({p["verdict"] for p in parts}) == 1
    pick["reason"] = (f"{str(pick['reason']).rstrip('.')} (under {pick['reading']}, "
                      f"{'the same under every reading' if same else f'{which} of {len(parts)} readings'}; "
                      f"each reading: {figures}).")
    pick["basis"] = (f"under {pick['reading']}, {which} of {len(parts)} readings ({each}; decided {decided}): "
                     f"{pick['basis']}")
    pick["rule"] = claim["rule"]
    pick["other"] = "; ".join(o for o in [*others, pick["other"]] if o)
    return pd.DataFrame([pick], columns=list(VERDICT_COLUMNS))


def _open(claim: pd.Series, parts: list, labels: list, verdicts: list, order: list, rules: dict,
          decided: str, details: dict) -> pd.DataFrame:
    """Readings the paper leaves open (``readings: open``), some decided as statements: as the engine combines
    them (``config/verdicts.yaml``): a verdict every reading reaches stands; every reading against the claim, the
    mildest decides; otherwise the readings disagree and the row is ``readings_disagree``'s verdict."""
    each = ", ".join(f"{lab}: {v}" for lab, v in zip(labels, verdicts))
    figures = "; ".join(f"{lab}: {p['ours']}"
                        + (f" (A/A control {p.get('control')})" if str(p.get("control", "")) not in ("", "\u2014") else "")
                        + f", {p['verdict']}" + (f" ({details[lab]})" if details.get(lab) else "")
                        for lab, p in zip(labels, parts))
    ranks = [order.index(v) for v in verdicts]
    if len(set(verdicts)) == 1 or max(ranks) <= order.index("not reproduced"):
        i = max(range(len(parts)), key=lambda j: ranks[j])   # the same everywhere, or the mildest against the claim
        pick = parts[i].copy()
        how = "the same under every reading" if len(set(verdicts)) == 1 else \
            f"the mildest of {len(parts)} readings the paper leaves open, each against the claim"
        pick["reason"] = f"{str(pick['reason']).rstrip('.')} (under {labels[i]}, {how}; each reading: {figures})."
        pick["basis"] = f"under {labels[i]}, {how} ({each}; decided {decided}): {pick['basis']}"
    else:
        pick = parts[0].copy()
        quantity = str(claim.get("quantity") or claim["quote"])
        pick["verdict"] = verdict_of("readings_disagree", rules)
        pick["outcome"] = "readings_disagree"
        pick["reading"] = "every reading (" + ", ".join(labels) + ")"
        pick["reason"] = (f"{quantity[:1].upper() + quantity[1:]}: the paper leaves open which of {len(parts)} "
                          f"readings it means, and they disagree ({each}), so the evidence cannot decide the sentence; "
                          f"each reading: {figures}.")
        pick["basis"] = f"readings the paper leaves open disagree ({each}; decided {decided})"
        # every reading's figure (one reading's alone beside "inconclusive" reads as a contradiction), and the A/A
        # control of the reading that has one, as the engine's own open readings show them
        pick["ours"] = "; ".join(f"{lab}: {p['ours']}" for lab, p in zip(labels, parts))
        pick["control"] = next((p["control"] for p in parts if str(p.get("control", "")) not in ("", "\u2014")), pick["control"])
        pick["shown"] = shown_label(pick["verdict"], "readings_disagree", claim["covered_by"], rules)
    pick["rule"] = claim["rule"]
    pick["other"] = "; ".join(f"{lab}: {p['ours']} → {p['verdict']}" for lab, p in zip(labels, parts))
    return pd.DataFrame([pick], columns=list(VERDICT_COLUMNS))


def load_variant_verdicts(profile: "str | Profile", names) -> pd.DataFrame:
    """The verdict rows of every variant paper among ``names`` whose chapter wrote them (the verdict page and the
    front page list them apart from the four papers)."""
    prof = as_profile(profile)
    frames = []
    for name in names:
        path = prof.table(f"variant_{name}_verdicts")
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: build the chapter of variant {name} first")
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
        if len(df):
            frames.append(df)
    return pd.concat(frames, ignore_index=True) if frames else empty_verdicts()


def paper_facts(profile: "str | Profile", name: str) -> str:
    """One or two sentences on a variant paper for the front page: its citation, whether its construction is a
    stand-in, and its structural equivalence to AES where its chapter found one (``variant_<name>_equivalence``)."""
    desc = load_variant(variant_file(name))
    paper = dict(desc.paper)
    text = f"The paper: {html.escape(paper.get('citation', name))}."
    if paper.get("stand_in"):
        text += " The text read leaves its construction open: the chapter's cipher is a stand-in."
    path = as_profile(profile).table(f"variant_{name}_equivalence")
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: build the chapter of variant {name} first")
    eq = pd.read_csv(path, keep_default_na=False).iloc[0]
    if eq["equivalent_to"] != NONE_FOUND and str(eq["confirmed"]) == "True":
        text += f" Its cipher is {html.escape(str(eq['equivalent_to']))}, decided from its structure and confirmed."
    return text
