"""The claims registry (``data/paper/claims.csv``) and the declared verdict rules (``config/verdicts.yaml``).

:func:`load_claims` validates every row (kind, scope, rule and its parameters)
and fills each claim's published value from the paper's transcription named
in ``source``, so a published number has one source; :func:`load_rules` reads
the rules the decision engine (:mod:`cipherlab.analysis.verdicts`) applies.

The registry's columns (:data:`CLAIM_COLUMNS`; a variant paper's claims file has the same, its ``paper`` the
variant's name, plus ``measure``: :mod:`cipherlab.experiments.variant.claims`):

- ``claim_id`` (stable, ``<paper>-<slug>``), ``paper``, ``where`` (its table, figure or section), ``quote``
  (the claim as the paper states it);
- ``kind`` (:data:`KINDS`); ``scope``: ``claim``, or ``extension`` for our own experiments (a *finding*, never
  a verdict, never counted; one whose outcome decides nothing is shown "finding: inconclusive");
- ``source``: ``<table>|<row>|<column>`` of the paper's transcription (:mod:`cipherlab.analysis.paper`), from
  which ``published`` and ``unit`` are filled; a value the paper quotes from the literature as a yardstick is
  transcribed in the column ``reference`` and named "the reference" value, never "the paper's"
  (:func:`cipherlab.analysis.reasons.owner`);
- ``null`` (the no-effect value of a directional claim: 0 for a speedup in %, 1 for a ratio), ``rule``
  (:data:`RULES`), ``margin``, ``alpha``: the rule and its parameters;
- ``expect``: ``reject``/``retain`` (rule ``pvalue``); ``either`` (rule ``small_effect``: a sameness of no
  direction, "similar", "very close"); ``slight`` (rule ``ordering``: a ranking decided on each printed gap, one
  up to ``small_effect.slight_pct`` a slight effect, though ours within the band refutes a printed gap clearly
  beyond the floor and cannot tell one near it; with ``carries: direction`` the order is decided and each gap's
  size said to agree or differ on this machine); ``at_most`` (rule ``ordering`` with a bound in % as its
  ``null``: an upper bound, "at most N %"; without it such a bound is a lower one, "at least N %");
- ``decided_by`` (which evidence rows decide when there are several) and ``condition`` (the condition the claim
  is about, empty when it names none): terms ``style=...``, ``size=...``, ``mode=...`` (:data:`CONDITION_KEYS`)
  joined by ``;``, alternatives by ``|``; the rows of one published table follow one principle, the style the
  paper's row names;
- ``section``: the MyST label of the book section holding the evidence; its chapter writes the evidence
  (:func:`claims_of_chapter`). A chapter deciding a claim of a paper its declaration's ``paper`` does not name
  declares it in ``OTHER_PAPER_CLAIMS`` of its evidence module (the MixColumns premise of 000/001, decided by MAES);
- ``note`` (why: every ``not_testable`` and every open reading, stated), ``tier`` (:data:`TIERS`),
  ``covered_by`` (the row that tests that very sentence, never a neighbour), ``carries`` (:data:`CARRIES`),
  ``readings`` (empty or a ``readings`` rule of the rules file, :data:`READINGS`: ``most`` for a claim "in most
  measures" or an overall ranking over sizes), ``quantity`` (what the claim is about, in the words its reason
  starts with: "MAES's decryption speed-up over AES"), ``concern`` (:data:`CONCERNS`) and ``reference`` (the
  literature an overclaim is judged by: "NIST SP 800-38D, Appendix C").
"""
from __future__ import annotations

import math
import re
from functools import lru_cache

import numpy as np
import pandas as pd
import yaml

from cipherlab.analysis import paper as _paper
from cipherlab.pipeline.paths import CLAIMS_FILE, VERDICT_RULES_FILE

KINDS = ("value", "ratio", "ordering", "significance", "structural", "qualitative")
SCOPES = ("claim", "extension")
RULES = ("within_margin", "ordering", "small_effect", "equivalent", "significance", "pvalue", "holds",
         "not_testable")
CLAIM_COLUMNS = ("claim_id", "paper", "where", "quote", "kind", "scope", "source", "published", "unit",
                 "null", "rule", "margin", "alpha", "expect", "decided_by", "section", "note",
                 "tier", "condition", "covered_by", "carries", "readings", "quantity", "concern", "reference")
#: ``carries``: which part of a claim carries over from the paper's machine to another one. ``size``: the
#: claim as stated (a structural fact, a count, a probability, a ratio of like code paths, an ordering);
#: ``direction``: only its direction, the size it states belongs to the paper's machine (hardware AES against
#: software Blowfish, CLMUL GHASH against CBC-MAC, a protocol's fixed costs, two ciphers or steps whose code the
#: paper does not publish, e.g. a lookup against xtime arithmetic): decided on its direction, its
#: size said to agree or differ *on this machine*; ``nothing``: an absolute time or speed of the paper's
#: machine, not testable (and counted as such, never covered by a ratio row). Empty for an extension.
CARRIES = ("size", "direction", "nothing")
#: ``concern``: what a referee's report makes of the row beyond its verdict. ``overclaim``: the sentence claims
#: more than its evidence (or the literature, ``reference``) allows; ``defect``: the paper's own numbers or
#: statements disagree among themselves; ``break`` (an extension, a finding): an attack of ours that breaks the
#: cipher the paper proposes, under the attacker model its quote names; ``security``: the paper's security claim;
#: ``method``: the paper's protocol or method cannot decide the sentence it is used for (a forgery test without
#: power, a timing protocol unstated or at odds with itself), weighed in the report as a main concern;
#: ``data``: a result the paper prints (a ciphertext, an avalanche figure) that the cipher it describes cannot
#: produce: its experiments did not run what it describes, so every result resting on them is in doubt (data
#: integrity, not the design's security nor a disagreement of the paper's prose with its tables);
#: ``caution``: a security caution of ours about a design the paper compares, stated on a row the paper's own
#: model decides (GCM's forgery bound for a modified ciphertext beside the paper's tag-guess model): listed
#: among the report's cautions whatever the verdict, weighing neither for nor against the paper.
CONCERNS = ("overclaim", "defect", "break", "security", "method", "data", "caution")
#: ``tier``: ``headline`` (what the paper is about: its speedups, security, entropy, rankings) or
#: ``supporting`` (its arithmetic, its printed tables); ``condition``: the condition the claim is
#: about (e.g. ``size=5 MB``), empty when it names none; ``covered_by``: the claim id of the row
#: that tests the same sentence (this row is then counted once, there).
TIERS = ("headline", "supporting")
#: Keys of a claim's ``condition`` and ``decided_by`` terms: the evidence fields they compare with.
CONDITION_KEYS = ("size", "style", "mode")
#: Verdict words of the table of meanings (``config/verdicts.yaml``): the five verdicts, then the two statuses
#: counted apart.
VERDICT_WORDS = ("reproduced", "not reproduced", "contradicted", "inconclusive", "not testable", "covered",
                 "not at condition", "machine-bound")
VERDICTS = VERDICT_WORDS[:5]
#: Statuses counted apart: a claim another row tests, evidence taken at another condition than the claim's, and a
#: size that belongs to the paper's machine (said to agree or differ on this one).
STATUSES = VERDICT_WORDS[5:]
#: The word of an extension's row: a finding of ours, never counted as a verdict on the paper.
FINDING = "finding"
#: How several readings of one claim combine: ``every`` reading must hold (the least favourable decides), ``most``
#: of them (the median), or ``any`` (the most favourable decides: a same-path speed-up under each
#: implementation style the paper leaves open, :mod:`cipherlab.analysis.verdicts`), or ``monotone`` ("at every
#: step": the end-to-end reading decides, no step reversed at the family-wise level), or ``open`` (the paper leaves
#: open which reading it means: a verdict only where every fair reading reaches it, inconclusive where they disagree).
READINGS = ("every", "most", "any", "monotone", "open")

#: The book's verdict page (one row per claim), beside the chapter pages.
VERDICT_PAGE = "verdicts.html"


def claim_anchor(claim_id: str) -> str:
    """The HTML id of a claim's row on the verdict page: ``claim-<claim_id>``."""
    return "claim-" + "".join(c if c.isalnum() or c in "-_." else "-" for c in str(claim_id))


# ----------------------------------------------------------------------------- rules
@lru_cache(maxsize=None)
def _rules_cached(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        rules = yaml.safe_load(fh)
    _check_rules(rules, path)
    return rules


def load_rules(path=None) -> dict:
    """The declared rules and their default parameters (``config/verdicts.yaml``)."""
    return _rules_cached(str(path or VERDICT_RULES_FILE))


def _check_rules(rules: dict, path: str) -> None:
    if not isinstance(rules, dict) or "rules" not in rules:
        raise ValueError(f"{path}: needs a 'rules' mapping")
    unknown = set(rules["rules"]) - set(RULES)
    missing = set(RULES) - set(rules["rules"])
    if unknown or missing:
        raise ValueError(f"{path}: rules must be exactly {RULES}; unknown {sorted(unknown)}, missing {sorted(missing)}")
    for key in ("speed_statistic", "confidence", "bootstrap_resamples", "noise_floor_pct", "max_noise_pct",
                "min_trial_seconds"):
        if key not in rules:
            raise ValueError(f"{path}: missing key {key!r}")
    if rules["speed_statistic"] not in ("median", "mean", "q25"):
        raise ValueError(f"{path}: speed_statistic must be one of median, mean, q25; got {rules['speed_statistic']!r}")
    if rules.get("speed_pairing") not in ("rounds", "none"):
        raise ValueError(f"{path}: speed_pairing must be one of rounds, none; got {rules.get('speed_pairing')!r}")
    if rules["speed_pairing"] == "rounds" and rules["speed_statistic"] not in ("median", "mean"):
        raise ValueError(f"{path}: speed_pairing: rounds needs speed_statistic median or mean "
                         f"(a quantile of per-round ratios means nothing); got {rules['speed_statistic']!r}")
    if not 0 < float(rules["confidence"]) < 1:
        raise ValueError(f"{path}: confidence must be in (0, 1)")
    _check_meanings(rules, path)


def _check_meanings(rules: dict, path: str) -> None:
    """The table of meanings: every verdict word once, every outcome given to exactly one word."""
    from cipherlab.analysis.compare import OUTCOMES
    table = rules.get("verdicts")
    if not isinstance(table, dict) or tuple(table) != VERDICT_WORDS:
        raise ValueError(f"{path}: 'verdicts' must list exactly {VERDICT_WORDS}, in that order")
    seen = [o for word in table.values() for o in word.get("outcomes", [])]
    if sorted(seen) != sorted(OUTCOMES):
        raise ValueError(f"{path}: the verdicts' outcomes must name each of {OUTCOMES} exactly once; got {seen}")
    if set(rules.get("outcomes", {})) != set(OUTCOMES):
        raise ValueError(f"{path}: 'outcomes' must describe exactly {OUTCOMES}")
    for word, entry in table.items():
        if not str(entry.get("meaning", "")).strip():
            raise ValueError(f"{path}: verdict {word!r} needs a meaning")
    if rules.get("readings") not in READINGS:
        raise ValueError(f"{path}: readings must be one of {READINGS}, got {rules.get('readings')!r}")
    sizes = rules.get("small_effect") or {}
    if not (0 < float(sizes.get("small", 0)) <= float(sizes.get("clear", 0))):
        raise ValueError(f"{path}: small_effect needs 0 < small <= clear (half-widths of the noise band), got {sizes}")
    if sorted(rules.get("combine_order", [])) != sorted(VERDICT_WORDS[:4]):
        raise ValueError(f"{path}: combine_order must order exactly {VERDICT_WORDS[:4]}")


# ----------------------------------------------------------------------------- conditions
_SIZE_UNITS = {"B": 1.0, "KB": 1024.0, "kB": 1000.0, "MB": 2.0**20}


def condition_terms(text: str, what: str = "condition") -> list[tuple[str, tuple[str, ...]]]:
    """``size=5 MB; mode=cbc|ctr`` as ``[("size", ("5 MB",)), ("mode", ("cbc", "ctr"))]``.

    Terms are joined by ``;``, alternatives by ``|``; keys are :data:`CONDITION_KEYS`.
    """
    out = []
    for term in filter(None, (t.strip() for t in str(text).split(";"))):
        key, sep, value = term.partition("=")
        key = key.strip()
        values = tuple(v.strip() for v in value.split("|"))
        if key not in CONDITION_KEYS or not sep or not all(values):
            raise ValueError(f"{what} terms must be key=value (keys {', '.join(CONDITION_KEYS)}; alternatives "
                             f"joined by '|', terms by ';'); got {text!r}")
        if key == "size" and not all(len(size_bytes(v)) == 1 for v in values):
            raise ValueError(f"{what}: a size term names one size per alternative ('<number> B|KB|kB|MB'); "
                             f"got {text!r}")
        out.append((key, values))
    return out


_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(B|KB|kB|MB)\b")


def size_bytes(text: str) -> list[float]:
    """The sizes in bytes a size text names: ``"5 MB"``, ``"60416 B"``, ``"1000 B vs 16000 B"``,
    ``"16 B (one block)"``; KB = 1024, kB = 1000, MB = 2**20 bytes (:data:`_SIZE_UNITS`)."""
    return [float(num) * _SIZE_UNITS[unit] for num, unit in _SIZE.findall(str(text))]


def term_matches(key: str, values: tuple[str, ...], measured: str, size_tolerance: float = 0.0) -> bool:
    """Whether an evidence field matches one term: a size within the tolerance (every size the evidence lists
    must be one the term names), other keys exactly (case-insensitive)."""
    if key != "size":
        return str(measured).strip().lower() in {v.lower() for v in values}
    got = size_bytes(measured)
    want = [b for v in values for b in size_bytes(v)]
    return bool(got) and all(any(abs(g - w) <= size_tolerance * w for w in want) for g in got)


# ----------------------------------------------------------------------------- claims
def _num(text) -> "float | None":
    s = str(text).strip()
    if s == "":
        return None
    v = _paper._parse_number(s)
    return None if math.isnan(v) else float(v)


def _published_from_source(paper: str, source: str) -> tuple[str, str]:
    """``source`` is ``<table>|<row>|<column>`` of the paper's transcription: the value as printed and its unit."""
    parts = source.split("|")
    if len(parts) != 3:
        raise ValueError(f"claims: source must be '<table>|<row>|<column>', got {source!r}")
    table, row, column = parts
    df = _paper.published(paper, table)
    hit = df[(df["row"] == row) & (df["column"] == column)]
    if len(hit) != 1:
        raise ValueError(f"claims: source {source!r} of paper {paper} matches {len(hit)} transcribed values, not 1")
    return str(hit["value"].iloc[0]), str(hit["unit"].iloc[0])


def load_claims(path=None, papers: "tuple[str, ...] | None" = None) -> pd.DataFrame:
    """Every claim, one row each, validated; ``published`` filled in from ``source`` where given.

    Adds ``published_value`` (float or NaN), and resolved ``margin``/``alpha``
    (the claim's own, else the rule's default from ``config/verdicts.yaml``).
    ``papers``: the paper ids the file may name (default the four papers, :data:`cipherlab.analysis.paper.PAPERS`;
    a paper refereed through its variant, ``config/variants/<name>.claims.csv``, names its variant).
    """
    path = path or CLAIMS_FILE
    known = _paper.PAPERS if papers is None else tuple(papers)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = set(CLAIM_COLUMNS) - set(df.columns)
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    dup = df["claim_id"][df["claim_id"].duplicated()]
    if len(dup):
        raise ValueError(f"{path}: duplicate claim_id {sorted(set(dup))}")
    rules = load_rules()
    pub, units, margins, alphas = [], [], [], []
    for r in df.itertuples(index=False):
        where = f"{path}: claim {r.claim_id!r}"
        if not r.claim_id:
            raise ValueError(f"{path}: a row has an empty claim_id")
        if r.paper not in known:
            raise ValueError(f"{where}: paper must be one of {known}, got {r.paper!r}")
        if r.kind not in KINDS:
            raise ValueError(f"{where}: kind must be one of {KINDS}, got {r.kind!r}")
        if r.scope not in SCOPES:
            raise ValueError(f"{where}: scope must be one of {SCOPES}, got {r.scope!r}")
        if r.rule not in RULES:
            raise ValueError(f"{where}: rule must be one of {RULES}, got {r.rule!r}")
        if r.rule == "not_testable" and not r.note:
            raise ValueError(f"{where}: a not_testable claim says why in 'note'")
        value, unit = r.published, r.unit
        if r.source:
            value, src_unit = _published_from_source(r.paper, r.source)
            if r.published and r.published != value:
                raise ValueError(f"{where}: published {r.published!r} differs from its source ({value!r})")
            unit = unit or src_unit
        pub.append(value)
        units.append(unit)
        defaults = rules["rules"][r.rule] or {}
        margins.append(_num(r.margin) if r.margin else _num(defaults.get("margin", "")))
        alphas.append(_num(r.alpha) if r.alpha else _num(defaults.get("alpha", "")))
        if r.rule in ("within_margin", "equivalent") and margins[-1] is None:
            raise ValueError(f"{where}: rule {r.rule} needs a margin")
        if r.rule in ("significance", "pvalue") and alphas[-1] is None:
            raise ValueError(f"{where}: rule {r.rule} needs an alpha")
        if r.rule == "pvalue" and r.expect not in ("reject", "retain"):
            raise ValueError(f"{where}: rule pvalue needs expect = reject | retain, got {r.expect!r}")
        if r.rule == "small_effect" and r.expect not in ("", "either"):
            raise ValueError(f"{where}: rule small_effect takes expect = either (a sameness of no direction) or "
                             f"nothing (a small effect in the claim's direction), got {r.expect!r}")
        if r.rule == "ordering" and r.expect not in ("", "slight", "at_most"):
            raise ValueError(f"{where}: rule ordering takes expect = slight (an order the sentence calls slight, "
                             f"decided on each printed gap), at_most (its null, a bound in %, is an upper bound) "
                             f"or nothing, got {r.expect!r}")
        if r.rule == "within_margin" and _num(value) is None:
            raise ValueError(f"{where}: rule within_margin needs a numeric published value, got {value!r}")
        if r.scope == "claim" and r.carries not in CARRIES:
            raise ValueError(f"{where}: carries must be one of {CARRIES} (which part of the claim carries over to "
                             f"another machine), got {r.carries!r}")
        if r.carries == "nothing" and (r.rule != "not_testable" or r.covered_by):
            raise ValueError(f"{where}: carries nothing (an absolute number of the paper's machine): its rule must "
                             "be not_testable and it is counted there, never covered_by a ratio row")
        if r.carries == "direction" and r.rule not in ("within_margin", "ordering", "small_effect", "not_testable"):
            raise ValueError(f"{where}: carries direction needs a stated size (rule within_margin, small_effect, or ordering "
                             f"with a bound), got rule {r.rule!r}")
        if r.readings not in ("",) + READINGS:
            raise ValueError(f"{where}: readings must be empty (the rules file's) or one of {READINGS}, "
                             f"got {r.readings!r}")
        if r.concern not in ("",) + CONCERNS:
            raise ValueError(f"{where}: concern must be empty or one of {CONCERNS}, got {r.concern!r}")
        if r.concern == "break" and r.scope != "extension":
            raise ValueError(f"{where}: concern break marks a finding of ours (scope extension)")
        if r.scope == "claim" and not r.quantity.strip():
            raise ValueError(f"{where}: quantity must name what the claim is about, in words a referee's reason "
                             "starts with (e.g. \"MAES's decryption speed-up over AES\")")
        if r.tier not in TIERS and (r.scope == "claim" or r.tier):
            raise ValueError(f"{where}: tier must be one of {TIERS}" + (" (or empty, for an extension)"
                             if r.scope == "extension" else "") + f", got {r.tier!r}")
        try:
            condition_terms(r.condition, "condition")
            condition_terms(r.decided_by, "decided_by")
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    _check_covered(df, path)
    df["published"] = pub
    df["unit"] = units
    df["published_value"] = [(_num(v) if v != "" else None) for v in pub]
    df["published_value"] = df["published_value"].astype(float)
    df["margin_value"] = pd.Series(margins, dtype=float)
    df["alpha_value"] = pd.Series(alphas, dtype=float)
    df["null_value"] = [(_num(v) if v != "" else np.nan) for v in df["null"]]
    return df


def _check_covered(df: pd.DataFrame, path) -> None:
    """``covered_by`` names another claim of the same paper, itself not covered (a claim is counted once)."""
    rows = df.set_index("claim_id")
    for cid, target in rows["covered_by"].items():
        if not target:
            continue
        where = f"{path}: claim {cid!r}"
        if target == cid or target not in rows.index:
            raise ValueError(f"{where}: covered_by must name another claim id, got {target!r}")
        if rows.loc[target, "covered_by"]:
            raise ValueError(f"{where}: covered_by {target!r} is itself covered; name the row that decides")
        if rows.loc[target, "paper"] != rows.loc[cid, "paper"] or rows.loc[target, "scope"] != "claim":
            raise ValueError(f"{where}: covered_by {target!r} must be a claim of the same paper")


def claims_of_chapter(chapter: str, claims: "pd.DataFrame | None" = None) -> pd.DataFrame:
    """The claims whose evidence a chapter produces: their ``section`` label starts with ``<chapter>-``."""
    claims = load_claims() if claims is None else claims
    return claims[claims["section"].str.startswith(f"{chapter}-")].reset_index(drop=True)


def rule_label(claim) -> str:
    """The rule with the parameters this claim is decided with, e.g. ``within_margin (±25 %)``."""
    rule = claim["rule"]
    if rule == "within_margin":
        return f"{rule} (±{float(claim['margin_value']) * 100:.3g}%)"
    if rule == "equivalent":
        return f"{rule} (±{float(claim['margin_value']):g} {claim['unit']})".replace(" )", ")")
    if rule in ("significance", "pvalue"):
        return f"{rule} (alpha {float(claim['alpha_value']):g})"
    return rule


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
