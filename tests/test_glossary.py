"""The book's glossary (cipherlab.report.glossary): one source for every term, the verdict words read from
the table of meanings, and the marking of a term's first use on a built page."""
from __future__ import annotations

import html
import re

import pytest
import yaml

from cipherlab.analysis.claims import RULES, load_rules
from cipherlab.report import glossary


def test_every_verdict_word_is_defined_by_the_table_of_meanings():
    rules = load_rules()
    for word, spec in rules["verdicts"].items():
        t = glossary.lookup(word)
        assert t.verdict
        assert " ".join(str(spec["meaning"]).split()).rstrip(".").lower() in t.definition.lower(), word
    # the forms a page shows: "covered by <id>", "not at the paper's condition"
    assert glossary.lookup("covered by").term == "covered"
    assert glossary.lookup("not at the paper's condition").term == "not at condition"


def test_every_rule_has_words_and_a_linked_name():
    for rule in RULES:
        label = glossary.rule_label(rule)
        assert "_" not in label and label
        link = glossary.rule_html(rule)
        assert f'href="glossary.html#{glossary.slug(label)}"' in link and f">{html.escape(label)}</a>" in link
        if "_" in rule or rule in ("pvalue", "holds", "equivalent"):   # not words a reader would write
            assert re.sub(r"<[^>]+>", "", link) != rule, f"{rule}: the internal name shows"
    assert glossary.rule_html("no_such_rule") == "no_such_rule"
    # a verdict row's rule carries its parameters: they follow the rule's words
    assert glossary.rule_html("within_margin (±25%)") == glossary.rule_html("within_margin") + " (±25%)"
    assert glossary.rule_html("pvalue (alpha 0.01)").endswith(">a test&#x27;s outcome</a> (alpha 0.01)")
    with pytest.raises(ValueError, match="rule must be one of"):
        glossary.rule_label("no_such_rule")


def test_definitions_name_config_values_not_copies():
    rules = load_rules()
    band = glossary.lookup("noise band").definition
    assert f"±{float(rules['noise_floor_pct']):g} %" in band and "{" not in band
    assert all("{" not in t.definition for t in glossary.terms())


def test_the_glossary_page_lists_every_term_with_its_anchor():
    page = glossary.glossary_markdown()
    for t in glossary.terms():
        assert f'<dt id="{t.slug}">' in page, t.term
    assert page.count("<dt ") == len(glossary.terms())
    assert "<code>data/paper/claims.csv</code>" in page     # `code` in a definition


def test_key_html_defines_the_words_asked_for():
    key = glossary.key_html(["covered", "finding", "headline claim"])
    assert key.count("<dt>") == 3 and 'href="glossary.html#term-covered"' in key
    with pytest.raises(ValueError, match="term must be one of"):
        glossary.key_html(["no such term"])


PAGE = ('<html><head><title>t</title></head><body><nav>covered</nav>'
        '<article class="bd-article" role="main"><h1>Covered claims</h1>'
        '<p>This run found 26 covered and 56 not at the paper’s condition, beyond the A/A noise &amp; more.</p>'
        '<p class="admonition-title">Quick profile</p>'
        '<p>covered again, <code>covered</code>, <a href="x.html">inconclusive</a>, '
        '<span class="math">\\(covered\\)</span></p>'
        '<table class="cl-counts"><tr><th><span class="cl-verdict">inconclusive</span></th></tr></table>'
        '<script>var s = "<p>reproduced</p>";</script></article><footer>claims</footer></body></html>')


def test_mark_page_links_the_first_use_of_each_term_only():
    out = glossary.mark_page(PAGE)
    marked = re.findall(r'data-term="([^"]+)"', out)
    assert marked == ["term-covered", "term-not-at-condition", "term-noise-band", "term-inconclusive"]
    assert '<h1>Covered claims</h1>' in out and "<nav>covered</nav>" in out and "<footer>claims</footer>" in out
    assert "<code>covered</code>" in out and '<a href="x.html">inconclusive</a>' in out
    assert 'var s = "<p>reproduced</p>";' in out                  # a script is left as it is
    assert "&amp; more" in out
    # the tooltip is the definition
    title = re.search(r'data-term="term-covered" href="glossary.html#term-covered" title="([^"]+)"', out).group(1)
    assert title == glossary.lookup("covered").plain.replace("'", "&#x27;")


def test_mark_page_is_idempotent_and_leaves_pages_without_an_article():
    once = glossary.mark_page(PAGE)
    assert glossary.mark_page(once) == once
    plain = "<html><body><p>covered</p></body></html>"
    assert glossary.mark_page(plain) == plain


def test_mark_book_marks_every_page_but_the_glossary(tmp_path):
    for name in ("findings.html", "glossary.html", "search.html"):
        (tmp_path / name).write_text(PAGE, encoding="utf-8")
    assert glossary.mark_book(tmp_path) == 1
    assert 'class="cl-term"' in (tmp_path / "findings.html").read_text(encoding="utf-8")
    assert 'class="cl-term"' not in (tmp_path / "glossary.html").read_text(encoding="utf-8")


def test_find_terms_in_order_of_first_use():
    found = [t.term for t in glossary.find_terms("26 covered and 56 not at condition; the A/A control")]
    assert found == ["covered", "not at condition", "A/A control"]


@pytest.mark.parametrize("entry, message", [
    ({"term": "x", "definition": "y", "colour": "red"}, "unknown key"),
    ({"term": "x", "definition": ""}, "non-empty"),
    ({"term": "x", "definition": "y", "rule": "nope"}, "rule must be one of"),
    ({"term": "x", "definition": "{nope} y"}, "names 'nope'"),
    ({"term": "claim", "definition": "twice"}, "names both"),
])
def test_a_bad_glossary_file_names_the_entry(tmp_path, entry, message):
    good = yaml.safe_load(glossary.GLOSSARY_FILE.read_text(encoding="utf-8"))
    bad = tmp_path / "glossary.yml"
    bad.write_text(yaml.safe_dump({"terms": good["terms"] + [entry]}), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        glossary.terms(bad)


def test_every_rule_must_have_an_entry(tmp_path):
    good = yaml.safe_load(glossary.GLOSSARY_FILE.read_text(encoding="utf-8"))
    bad = tmp_path / "glossary.yml"
    bad.write_text(yaml.safe_dump({"terms": [e for e in good["terms"] if e.get("rule") != "holds"]}), encoding="utf-8")
    with pytest.raises(ValueError, match="holds"):
        glossary.terms(bad)


def test_every_status_the_verdict_and_machines_pages_show_across_machines_has_an_entry():
    """The words of a claim's portability (the verdict page's column, the Machines page) and the Machines
    page's own marks, each as the code writes it, are found by the glossary as the entry that defines them."""
    import numpy as np
    import pandas as pd

    from cipherlab.analysis import machines as M
    from cipherlab.report import machines as page

    def runs(cid, *verdicts, bound=False):
        return [{"claim_id": cid, "paper": "002", "tier": "headline", "run": run, "machine": run, "emulated": "",
                 "commit": "", "verdict": v, "reason": "", "speed": True, "estimate": 1.5, "low": 1.4, "high": 1.6,
                 "ratio_to_this": np.nan, "size_differs": bound, "verdict_differs": False, "bound_by_evidence": bound}
                for run, v in zip((M.THIS_RUN, "box-b"), verdicts)]
    expected = {"a": "portable", "b": "machine-dependent", "c": "undecided on a machine", "d": "not measured",
                "e": "not measured", "f": "machine-bound by evidence"}
    table = pd.DataFrame(runs("a", "reproduced", "reproduced") + runs("b", "reproduced", "contradicted")
                         + runs("c", "reproduced", "inconclusive") + runs("d", M.NOT_MEASURED, "reproduced")
                         + runs("e", "reproduced", M.NOT_MEASURED)
                         + runs("f", "machine-bound", "machine-bound", bound=True), columns=list(M.COMPARISON_COLUMNS))
    port = M.portability(table).set_index("claim_id")["portability"]
    for cid, term in expected.items():
        assert glossary.find_terms(port[cid])[0].term == term, port[cid]
    shown = {t.term for t in glossary.find_terms(page.differing_html(table))}   # "yes: decided differently", ...
    assert {"machine-dependent", "undecided on a machine"} <= shown
    assert glossary.lookup(M.NOT_MEASURED).term == "not measured"
    assert glossary.lookup("emulated").term == "emulated machine" and glossary.lookup("shipped runs")
    assert "1 times the sum" in glossary.lookup("machine-bound by evidence").definition   # from the rules file
