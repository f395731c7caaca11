"""What a variant's page says before its battery: the variant's own words, the claims it tests, its paper's report.

:func:`header_html` shows the variant file's ``about:`` paragraph, the paper it
comes from (citation, address, what the text leaves open: the stand-in) and the
claims it was written to test (``tests:``, and a paper's own claims), each
linked to its row on the verdict page.  For a paper refereed through its
variant, :func:`methodology_markdown` and :func:`findings_markdown` are the
sections its referee's report adds to the one template every report follows
(``cipherlab.report.template``), and :func:`break_findings` gives the
template the battery's attacks: they take the battery's results, so that the
report can say what the structure means for the claims.  Every
text that comes from a file is escaped: nothing a variant file says is run or
rendered as markup.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor, load_claims
from cipherlab.analysis.verdicts import FINDING
from cipherlab.ciphers.registry import lookup
from cipherlab.experiments.variant.card import STANDINGS, design_concerns, standing, weaknesses
from cipherlab.experiments.variant.equivalence import short_transformation
from cipherlab.experiments.variant.measures import CONTROL, added_key_bits, carries_over, short_of_ideal
from cipherlab.experiments.variant.measures import confirmed_equivalence as _equivalent

__all__ = ["VariantPaper", "paper", "paper_of", "header_html", "passages_html", "methodology_markdown",
           "findings_markdown", "read_markdown", "what_was_read", "tested_claims", "break_findings", "own_findings"]


#: the columns of the report's findings (the template's): each a finding of ours, ``verdict`` "finding"
FINDING_COLUMNS = ["claim_id", "concern", "outcome", "ours", "verdict", "reason"]


def _text(value: str) -> str:
    """File text as safe HTML: escaped, `code` spans kept as code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(str(value)))


@dataclass(frozen=True)
class VariantPaper:
    """A variant paper's facts as a report needs them (the fields of ``cipherlab.report.referee.Paper``): its id
    (the variant's name), its subject, its chapter (the variant's page) and its citation."""

    id: str
    subject: str
    chapter: str
    citation: str


def paper(results: dict) -> VariantPaper:
    """The facts of the paper a variant describes (``paper:`` of its file; the name stands in for a citation); its
    subject is the file's own ``summary`` (the registry's, which adds the research-cipher warning of every described
    variant, where the file has none): the report describes the paper's cipher, it never judges it by that label."""
    cipher = results["cipher"]
    facts = paper_of(results)
    desc = getattr(lookup(cipher), "description", None)
    subject = desc.summary if desc is not None and desc.summary else lookup(cipher).summary
    return VariantPaper(cipher, subject, f"variant_{cipher}", facts.get("citation", cipher))


def title_html(results: dict) -> str:
    """The page's title: the cipher's name, the file's own summary and its standing, the one label
    :func:`cipherlab.experiments.variant.card.standing` gives from the battery's findings (never the registry's
    research-cipher warning, which a cipher proven to be AES's round function under offset round keys would contradict)."""
    cipher = results["cipher"]
    return (f"<h2><code>{html.escape(cipher)}</code></h2><p>{html.escape(paper(results).subject)}: "
            f"<b>{html.escape(STANDINGS[standing(results)])}</b>.</p>")


def stand_in_only(results: dict) -> bool:
    """Whether the battery measured only the chapter's stand-in for a construction the paper leaves open: its
    numbers illustrate and decide nothing (a stand-in the battery proves equivalent to AES is not: the equivalence
    holds for every reading of what the text leaves open, and decides)."""
    return bool(paper_of(results).get("stand_in")) and _equivalent(results) is None


def card_markdown(results: dict, after_claims: bool) -> str:
    """The summary card where it belongs: at the top of the page (``after_claims`` False) for the paper's cipher;
    after the claims of the paper (``after_claims`` True), labelled, for a stand-in, whose numbers decide nothing;
    an empty string in the other place."""
    if stand_in_only(results) != after_claims:
        return ""
    if not after_claims:
        return "### Summary card\n\n" + results["card"]
    return ("### Our stand-in's summary card (an illustration: it decides nothing)\n\n"
            "The text read leaves the construction open, so the cipher measured here is the chapter's stand-in for "
            "it (the header above says how it decides what the text leaves open). Its numbers illustrate one "
            "reading of the paper; no verdict above rests on them.\n\n" + results["card"])


def paper_of(results: dict) -> dict:
    """The variant's ``paper:`` block (``citation``, ``url``, ``passages``, ``stand_in``), empty without one."""
    desc = getattr(lookup(results["cipher"]), "description", None)
    return dict(desc.paper) if desc is not None else {}


def tested_claims(results: dict) -> pd.DataFrame:
    """The claims the variant tests: its ``tests:`` ids (of ``data/paper/claims.csv`` or its own claims), then its
    paper's claims; ``claim_id``, ``paper``, ``quote``, ``where``. ``ValueError`` naming an unknown id."""
    desc = getattr(lookup(results["cipher"]), "description", None)
    own = results.get("paper_claims")
    frames = [load_claims()] + ([own] if own is not None else [])
    known = pd.concat([f[["claim_id", "paper", "quote", "where"]] for f in frames], ignore_index=True)
    ids = list(desc.tests) if desc is not None else []
    unknown = [c for c in ids if c not in set(known["claim_id"])]
    if unknown:
        raise ValueError(f"{desc.source}: key 'tests': unknown claim id(s) {unknown}; name claims of "
                         "data/paper/claims.csv or of the variant's claims file")
    picked = known.set_index("claim_id").loc[ids].reset_index() if ids else known.iloc[:0]
    return picked


def header_html(results: dict) -> str:
    """The ``about:`` paragraph, the paper (citation, address, stand-in) and the claims tested, as safe HTML."""
    desc = getattr(lookup(results["cipher"]), "description", None)
    out = []
    if desc is not None and desc.about:
        out.append(f"<p>{_text(desc.about)}</p>")
    paper = paper_of(results)
    if paper:
        url = paper.get("url", "")
        link = f' (<a href="{html.escape(url)}">{html.escape(url)}</a>)' if url.startswith("https://") else ""
        out.append(f"<p><b>Paper</b>: {_text(paper['citation'])}{link}.</p>")
        if paper.get("stand_in"):
            out.append("<p><b>A stand-in.</b> What the text read leaves open, and how this file decides it: "
                       f"{_text(str(paper['stand_in']).rstrip('. '))}. Its measurements are findings; a claim is "
                       "decided only where "
                       "it holds or fails under every reading of the construction.</p>")
    tested = tested_claims(results)
    if len(tested):
        items = "".join(f'<li><a href="{VERDICT_PAGE}#{claim_anchor(r.claim_id)}">{html.escape(r.claim_id)}</a> '
                        f"({html.escape(str(r.where))}): {_text(r.quote)}</li>" for r in tested.itertuples())
        out.append(f"<p><b>The claims this variant tests</b> (each linked to its verdict):</p><ul>{items}</ul>")
    own = results.get("paper_claims")
    if own is not None and len(own):
        found = int((own["scope"] == "extension").sum()) if "scope" in own.columns else 0
        also = (f" With them, {found} finding{'s' if found != 1 else ''} of ours about the paper's own text or "
                "numbers, a statement of what was found, not a verdict." if found else "")
        out.append(f"<p><b>Its paper's {len(own) - found} claims</b> are decided below by the verdict engine, on "
                   "this run's measurements, and listed on the <a href=\"verdicts.html\">verdict page</a> apart "
                   f"from the four papers of the registry.{also}</p>")
    return "\n".join(out)


def passages_html(results: dict, folder: "Path | None" = None) -> str:
    """The passages of the paper that were read (the ``passages:`` file beside the variant file), escaped, folded."""
    name = paper_of(results).get("passages")
    source = results.get("variant_file")
    if not name or source is None:
        return ""
    path = (Path(folder) if folder else Path(source).parent) / name
    text = path.read_text(encoding="utf-8")
    return (f"<details><summary>The passages of the paper that were read ({html.escape(name)})</summary>"
            f'<pre style="white-space:pre-wrap">{html.escape(text)}</pre></details>')


def methodology_markdown(results: dict) -> str:
    """How the claims were tested: the claims file, the battery, the engine, and what the text read leaves open."""
    cipher = results["cipher"]
    paper = paper_of(results)
    read = (f"the passages read (`config/variants/{paper['passages']}`, shown below)"
            if paper.get("passages") else "the paper")
    return (f"Each claim was transcribed from {read} into `config/variants/{cipher}.claims.csv`, in the registry's "
            "format, with the measurement of the battery that decides it. The battery below measures the cipher "
            "this run built from the variant file, AES beside it with the same settings; one engine decides every "
            "claim by the rules stated in [Methods](methods.html), the same as for the four papers. A claim the "
            "battery cannot measure, or one that would rest on a construction the text leaves open, is *not "
            "testable*, with its reason; the stand-in's numbers are findings, not verdicts."
            + (" Only those passages were read, not the whole paper: every verdict and the recommendation below rest "
               "on them alone." if paper.get("passages") else ""))


def what_was_read(results: dict, folder: "Path | None" = None) -> str:
    """What of the paper was read, in the passages file's own words (its header's sentences from "Only", before the
    first passage), or an empty string without a passages file or without such a sentence."""
    name = paper_of(results).get("passages")
    source = results.get("variant_file")
    if not name or source is None:
        return ""
    head = ((Path(folder) if folder else Path(source).parent) / name).read_text(encoding="utf-8").split("\n---", 1)[0]
    found = re.search(r"(?:^|\s)(Only\b.*?)(?:\n\s*\n|$)", head, flags=re.S)
    return " ".join(found.group(1).split()) if found else ""


def read_markdown(results: dict, folder: "Path | None" = None) -> str:
    """What the recommendation rests on, said beside it: only the passages read (the passages file's own account of
    what could be read), and, for a stand-in, that the construction they leave open is measured only through it; an
    empty string for a variant without a passages file."""
    name = paper_of(results).get("passages")
    if not name or results.get("variant_file") is None:
        return ""
    said = what_was_read(results, folder)
    return (f"**Only part of the paper was read.** The verdicts above and the recommendation below rest on the "
            f"passages shown above alone (`config/variants/{name}`)"
            + (f": {said[:1].lower() + said[1:].rstrip('.')}." if said else ".")
            + (" The construction they leave open is measured here only through the chapter's stand-in, which "
               "decides nothing." if stand_in_only(results) else ""))


def findings_markdown(results: dict) -> str:
    """What the battery's structural findings mean for the paper's claims: equivalence to AES, attacks that broke it.
    A stand-in's weaknesses are not among them: a stand-in illustrates and decides nothing (other fair readings of
    the construction keep AES's bounds), and its numbers stay in the chapter, after the claims, labelled."""
    out = []
    eq = _equivalent(results)
    if eq is not None:
        out.append(f"**The cipher is {eq['equivalent_to']}** ({_short(eq['transformation'])}), "
                   "decided from its structure and confirmed by encrypting (section *Structural equivalence to AES "
                   "and the key*). For its claims this means: every property of the S-box that an XOR constant "
                   "cannot change (nonlinearity, differential uniformity, degree, SAC, BIC) is exactly AES's; "
                   f"{carries_over(results)}; the trail bounds and the design margin, properties of the round "
                   "function, are AES's; a statistical measure of the cipher (avalanche, SAC, SP 800-22, entropy) "
                   "measures AES's round function under the offset round keys, so a difference from AES's must first "
                   "be told from the noise by its control and says nothing of the S-box change; "
                   f"and {_key_space(results)}.")
    if stand_in_only(results):
        out.append("The battery measured the chapter's stand-in for a construction the text read leaves open, which "
                   "decides nothing: its numbers are shown in the chapter, after the claims, as the stand-in's.")
        aes = results.get("key_avalanche", {}).get(CONTROL)
        if aes is not None:   # AES's own measurement holds whatever the construction
            short = short_of_ideal(aes, "key")
            lead = ("" if short["holds"] else "the aim of making one flipped key bit change the ciphertext more has "
                    "nothing to gain on AES: ")
            out.append(f"Whatever the construction, {lead}in this run, {short['detail']}.")
        return "\n\n".join(out)
    found = weaknesses(results)
    if found:
        out.append("**Broken by the battery**: " + "; ".join(f"{w['what']} ({w['cost']})" for w in found) + ".")
    weaker = design_concerns(results)
    if weaker:
        out.append("**Its design is weaker than AES's** (the same battery and settings): " + "; ".join(weaker) + ".")
    if not out:
        out.append("The battery recognised no structure that decides the claims by itself: neither an equivalence "
                   "to AES nor an attack that recovers plaintexts.")
    return "\n\n".join(out)


def _short(transformation: str) -> str:
    """The round-key transformation without the list of the bytes decided (the section's table gives it once)."""
    return short_transformation(transformation) or "no transformation"


def _key_space(results: dict) -> str:
    """The one gain a modification that is AES with transformed round keys can give, from the key spaces: kept secret, an exhaustive key search
    2^(the added bits) times as long; none added, AES's key space."""
    bits = results["key_bits"]
    sizes = sorted(bits)
    extra = sorted({bits[s] - 8 * s for s in sizes})
    ours, aes = (", ".join(f"2^{b}" for b in values) for values in ([bits[s] for s in sizes], [8 * s for s in sizes]))
    if extra[-1] <= 0:
        return f"it adds no key material either: its key space is AES's ({aes} keys)"
    return (f"the only gain is the key material the modification adds, when kept secret with the key: {ours} keys "
            f"against AES's {aes}, an exhaustive key search 2^{extra[0]} times as long")


def own_findings(results: dict) -> pd.DataFrame:
    """Every decisive finding of the battery, as the template's findings (its section *Our own findings*): the
    attacks that read the cipher (:func:`break_findings`, ``concern = "break"``), the structural equivalence to
    AES and, apart, the key material it leaves to gain, and where the design is weaker than AES's (design margin,
    active S-boxes, S-box, SP 800-22), never a stand-in's (:func:`stand_in_only`: it illustrates and decides nothing,
    and its numbers stay in the chapter, after the claims); then the findings of ours about the paper's own text or
    numbers (its claims file's rows of scope ``extension``, whose verdict rows are findings), which bear on the paper
    whatever its construction. The labels follow the one rule of :func:`cipherlab.experiments.variant.card.standing`:
    an attack (``concern = "break"``) and a weaker design of the paper's own construction (``concern = "security"``)
    are findings against the design's security; the equivalence (AES's round function under AES's round keys offset)
    is never a security concern but ``concern = "ineffective"``: no weakness of the round function, yet the
    modification adds nothing but the key material it adds, which the recommendation weighs
    (``report.condition_text.ineffective`` of the rules file)."""
    stand_in = stand_in_only(results)   # a stand-in's attacks and weaknesses decide nothing: not findings
    rows = [] if stand_in else break_findings(results).to_dict("records")
    cid = f"variant_{results['cipher']}"
    eq = _equivalent(results)
    if eq is not None:   # the decisive fact about the design: AES's round function, the S-box change adds nothing
        # never a security concern (AES's round function is not weaker than AES's), but the S-box change adds
        # nothing: concern ineffective, which weighs in the recommendation
        rows.append({"claim_id": cid, "concern": "ineffective",
                     "outcome": "established", "ours": "holds", "verdict": FINDING,
                     "reason": "The modification of the S-box adds nothing to AES's round function and takes nothing "
                               f"from it: the cipher is {eq['equivalent_to']} ({_short(eq['transformation'])}), "
                               f"decided from its structure and confirmed by encrypting ({int(eq['blocks_equal'])} of "
                               f"{int(eq['blocks_confirmed'])} blocks equal, keys of {eq['key_sizes']}), so every S-box "
                               "property an XOR cannot change (nonlinearity, differential uniformity, degree, SAC, "
                               f"BIC) and every trail bound is AES's, and {carries_over(results)}"})
        if added_key_bits(results) > 0:   # the one gain, a fact of the key space: a finding, no verdict
            rows.append({"claim_id": cid, "concern": "", "outcome": "established", "ours": "holds",
                         "verdict": FINDING, "reason": f"The additional key: {_key_space(results)}"})
    weaker = [] if stand_in else design_concerns(results)
    if weaker:   # a security concern of the paper's own construction
        rows.append({"claim_id": cid, "concern": "security", "outcome": "established",
                     "ours": "holds", "verdict": FINDING,
                     "reason": "Its design is weaker than AES's, measured by the same battery: " + "; ".join(weaker)})
    verdicts = results.get("verdicts")
    if verdicts is not None and len(verdicts):   # our findings about the paper's own text or numbers
        about = verdicts[verdicts["verdict"].astype(str) == FINDING]
        rows += about.reindex(columns=FINDING_COLUMNS).fillna("").to_dict("records")
    return pd.DataFrame(rows, columns=FINDING_COLUMNS)


def break_findings(results: dict) -> pd.DataFrame:
    """The battery's attacks that read the variant without the key, as the template's findings
    (``concern = "break"``, established): the report's recommendation weighs them as it weighs the security
    chapter's attacks on the four papers' ciphers."""
    rows = [{"claim_id": f"variant_{results['cipher']}", "concern": "break", "outcome": "established",
             "ours": "holds", "verdict": FINDING,
             "reason": f"{w['what']}: {w['cost']} (an encryption oracle for the chosen plaintexts)"}
            for w in weaknesses(results)]
    return pd.DataFrame(rows, columns=FINDING_COLUMNS)

