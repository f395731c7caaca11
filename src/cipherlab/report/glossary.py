"""The book's glossary: every term a reader meets, defined once, and marked where the reader meets it.

One source, two files: the verdict words and their meanings are the table of meanings in
``config/verdicts.yaml`` (what the engine decides by); every other term is an entry of
``book/glossary.yml``.  From them:

* :func:`glossary_markdown` renders the Glossary page (``book/glossary.md`` includes it);
* :func:`mark_page` (run by :func:`cipherlab.report.book.build` over every built page) links the
  first use of each term on a page to its entry, with the definition as the link's tooltip, so a
  reader meets no term undefined: "26 covered" on the front page explains *covered* where it
  stands.  Headings, code, links and math are left alone;
* :func:`rule_html` names a decision rule in words, linked to its entry (``within a margin``, not
  ``within_margin``), for the pages that say which rule decided a row;
* :func:`key_html` lists chosen terms with their definitions (the verdict page's key).

``tests/test_book_browser.py`` reads the same glossary to hold the built pages against it.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable, Sequence

import yaml

from cipherlab.analysis.claims import RULES, load_rules
from cipherlab.pipeline.paths import BOOK_DIR

#: The glossary's entries besides the verdict words.
GLOSSARY_FILE = BOOK_DIR / "glossary.yml"
#: The Glossary page (``book/glossary.md``), and the file it includes (written when the book is staged).
PAGE = "glossary"
INCLUDE = "_glossary.md"
_KEYS = {"term", "aliases", "definition", "rule"}


@dataclass(frozen=True)
class Term:
    """One entry: the term as listed, the forms a page writes, its definition (markdown ``code`` allowed)."""

    term: str
    definition: str
    forms: tuple[str, ...]
    rule: str = ""
    verdict: bool = False

    @property
    def slug(self) -> str:
        return slug(self.term)

    @property
    def href(self) -> str:
        return f"{PAGE}.html#{self.slug}"

    @property
    def plain(self) -> str:
        """The definition as plain text (the tooltip)."""
        return self.definition.replace("`", "")


def slug(term: str) -> str:
    """The anchor of a term's entry on the Glossary page: ``term-a-a-control``."""
    return "term-" + (re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-") or "x")


def _values(rules: dict) -> dict[str, str]:
    """The values a definition may name, from ``config/verdicts.yaml``."""
    return {"noise_floor_pct": f"{float(rules['noise_floor_pct']):g}",
            "confidence_pct": f"{float(rules['confidence']) * 100:g}",
            "bootstrap_resamples": str(int(rules["bootstrap_resamples"])),
            "within_margin_pct": f"{float((rules['rules'].get('within_margin') or {}).get('margin', 0)) * 100:g}",
            "size_apart": f"{float((rules.get('across_machines') or {}).get('size_apart', 1.0)):g}"}


def _verdict_terms(rules: dict) -> list[Term]:
    out = []
    for word, spec in rules["verdicts"].items():
        shown = str(spec.get("shown", "") or "")
        forms = [word] + [f for f in (re.sub(r"\s*<[^>]*>\s*$", "", shown).strip(),) if f and f != word]
        counted = spec.get("counted", True)
        definition = str(spec["meaning"]).rstrip(".") + "."
        definition = definition[0].upper() + definition[1:]
        if not counted:
            definition += " Counted apart from the verdicts."
        out.append(Term(word, definition, tuple(forms), verdict=True))
    return out


def _check(entries, path: Path) -> None:
    if not isinstance(entries, dict) or not isinstance(entries.get("terms"), list):
        raise ValueError(f"{path}: needs a 'terms' list")
    for i, e in enumerate(entries["terms"]):
        where = f"{path}: terms[{i}]"
        if not isinstance(e, dict):
            raise ValueError(f"{where} must be a mapping with term, definition and optional aliases, rule")
        unknown = sorted(set(e) - _KEYS)
        if unknown:
            raise ValueError(f"{where} ({e.get('term')!r}): unknown key(s) {unknown}; allowed: {sorted(_KEYS)}")
        if not str(e.get("term", "")).strip() or not str(e.get("definition", "")).strip():
            raise ValueError(f"{where}: term and definition must be non-empty")
        if not isinstance(e.get("aliases", []), list):
            raise ValueError(f"{where} ({e['term']!r}): aliases must be a list")
        if e.get("rule") is not None and e["rule"] not in RULES:
            raise ValueError(f"{where} ({e['term']!r}): rule must be one of {list(RULES)}, got {e['rule']!r}")


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[Term, ...]:
    file = Path(path)
    entries = yaml.safe_load(file.read_text(encoding="utf-8"))
    _check(entries, file)
    rules = load_rules()
    values = _values(rules)
    terms = _verdict_terms(rules)
    for e in entries["terms"]:
        try:
            definition = " ".join(str(e["definition"]).split()).format_map(values)
        except (KeyError, ValueError) as exc:
            raise ValueError(f"{file}: the definition of {e['term']!r} names {exc}, which is not one of "
                             f"{sorted(values)} (config/verdicts.yaml)") from None
        forms = (str(e["term"]),) + tuple(str(a) for a in e.get("aliases", []))
        terms.append(Term(str(e["term"]), definition, forms, rule=str(e.get("rule") or "")))
    seen: dict[str, int] = {}
    for i, t in enumerate(terms):
        for f in dict.fromkeys((t.slug, *(x.lower() for x in t.forms))):
            if f in seen:
                raise ValueError(f"{file}: {f!r} names both {terms[seen[f]].term!r} and {t.term!r} "
                                 "(each form names one entry; the verdict words are config/verdicts.yaml's)")
            seen[f] = i
    ruled = {t.rule for t in terms if t.rule}
    if set(RULES) - ruled:
        raise ValueError(f"{file}: no entry names rule(s) {sorted(set(RULES) - ruled)} in words")
    return tuple(terms)


def terms(path: "str | Path | None" = None) -> tuple[Term, ...]:
    """Every entry: the verdict words (``config/verdicts.yaml``), then ``book/glossary.yml``'s, checked."""
    return _load(str(path or GLOSSARY_FILE))


def lookup(word: str) -> Term:
    """The entry a term or one of its forms names; a ``ValueError`` naming the known terms otherwise."""
    for t in terms():
        if word == t.term or word.lower() in (f.lower() for f in t.forms):
            return t
    raise ValueError(f"term must be one of the glossary's {sorted(t.term for t in terms())}, got {word!r}")


def _inline(text: str) -> str:
    """A definition as HTML: escaped, `code` as <code>."""
    parts = html.escape(text, quote=False).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def term_html(word: str, text: "str | None" = None) -> str:
    """A link to ``word``'s entry, its definition as the tooltip, showing ``text`` (default: the word)."""
    t = lookup(word)
    return (f'<a class="cl-term" data-term="{t.slug}" href="{t.href}" title="{html.escape(t.plain)}">'
            f"{html.escape(text or word)}</a>")


def rule_label(rule: str) -> str:
    """A decision rule's name in words (``within_margin`` -> ``within a margin``)."""
    for t in terms():
        if t.rule == rule:
            return t.term
    raise ValueError(f"rule must be one of {list(RULES)}, got {rule!r}")


def rule_html(rule: str) -> str:
    """A decision rule in words, linked to its entry, with the parameters the verdict row gives it
    (``within_margin (±25%)`` -> *within a margin* (±25%)); an unknown rule is shown as it is, escaped."""
    m = re.match(r"\s*([A-Za-z_]+)(.*)", str(rule), re.S)
    try:
        return term_html(rule_label(m.group(1))) + html.escape(m.group(2)) if m else html.escape(str(rule))
    except ValueError:
        return html.escape(str(rule))


def key_html(words: Iterable[str]) -> str:
    """Chosen terms with their definitions, as a definition list (a page's key to the words it shows)."""
    items = []
    for word in words:
        t = lookup(word)
        items.append(f'<dt><a href="{t.href}">{html.escape(t.term)}</a></dt><dd>{_inline(t.definition)}</dd>')
    return f'<dl class="cl-key">{"".join(items)}</dl>'


def glossary_markdown() -> str:
    """The Glossary page's entries (raw HTML inside the page's markdown), alphabetically."""
    items = []
    for t in sorted(terms(), key=lambda t: t.term.lower().removeprefix("the ").removeprefix("an ").removeprefix("a ")):
        also = [f for f in t.forms if f != t.term]
        extra = f' <span class="cl-also">(also: {html.escape(", ".join(also))})</span>' if also else ""
        kind = (' <span class="cl-kind">a verdict</span>' if t.verdict else
                ' <span class="cl-kind">a decision rule</span>' if t.rule else "")
        items.append(f'<dt id="{t.slug}">{html.escape(t.term)}{kind}{extra}</dt><dd>{_inline(t.definition)}</dd>')
    return '<dl class="cl-glossary">\n' + "\n".join(items) + "\n</dl>\n"


# ----------------------------------------------------------------------------- marking the built pages

#: Elements whose text is never marked: links, code, math, headings (and admonition titles), scripts, form
#: controls, fold captions.
_SKIP = {"a", "code", "pre", "kbd", "samp", "script", "style", "h1", "h2", "h3", "h4", "h5", "h6", "title",
         "button", "select", "option", "textarea", "summary", "svg", "math", "mjx-container", "dt", "label"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_MARKED = re.compile(r'class="cl-term"[^>]*\bdata-term="([^"]+)"')


def _form_pattern(form: str) -> str:
    body = re.escape(form).replace("'", "['’]").replace("\\ ", r"\s+")
    return body if any(c.isupper() for c in form) else f"(?i:{body})"


@lru_cache(maxsize=4)
def _matcher(path: str) -> "tuple[re.Pattern[str], dict[str, Term]]":
    by_form: dict[str, Term] = {}
    for t in terms(path):
        if t.rule:
            continue   # a rule's words are linked where a page names the rule (rule_html), not wherever they occur
        for f in t.forms:
            by_form[f] = t
    forms = sorted(by_form, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w/-])(" + "|".join(_form_pattern(f) for f in forms) + r")(?![\w/-])")
    return pattern, {re.sub(r"\s+", " ", f.lower().replace("’", "'")): t for f, t in by_form.items()}


def find_terms(text: str) -> list[Term]:
    """The glossary's terms (not the rules') that ``text`` uses, in order of first use."""
    pattern, by_form = _matcher(str(GLOSSARY_FILE))
    out: list[Term] = []
    for m in pattern.finditer(text):
        t = by_form[re.sub(r"\s+", " ", m.group(1).lower().replace("’", "'"))]
        if t not in out:
            out.append(t)
    return out


class _Marker(HTMLParser):
    """Re-emits HTML unchanged except the first use of each term in the text outside :data:`_SKIP`."""

    def __init__(self, marked: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.pattern, self.by_form = _matcher(str(GLOSSARY_FILE))
        self.marked = marked
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []
        self.raw = False

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        self.out.append(self.get_starttag_text() or f"<{tag}>")
        if tag in _VOID:
            return
        classes = dict(attrs).get("class") or ""
        skip = tag in _SKIP or bool({"math", "cl-glossary", "admonition-title"} & set(classes.split()))
        self.stack.append((tag, skip))
        self.raw = tag in ("script", "style")

    def handle_startendtag(self, tag, attrs):
        self.out.append(self.get_starttag_text() or f"<{tag}/>")

    def handle_endtag(self, tag):
        self.out.append(f"</{tag}>")
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        self.raw = False

    def handle_data(self, data):
        if self.raw:
            self.out.append(data)
            return
        if self._skipping():
            self.out.append(html.escape(data, quote=False))
            return
        pos = 0
        for m in self.pattern.finditer(data):
            t = self.by_form[re.sub(r"\s+", " ", m.group(1).lower().replace("’", "'"))]
            if t.slug in self.marked:
                continue
            self.marked.add(t.slug)
            self.out.append(html.escape(data[pos:m.start()], quote=False))
            self.out.append(f'<a class="cl-term" data-term="{t.slug}" href="{t.href}" '
                            f'title="{html.escape(t.plain)}">{html.escape(m.group(1), quote=False)}</a>')
            pos = m.end()
        self.out.append(html.escape(data[pos:], quote=False))

    def handle_comment(self, data):
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl):
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data):
        self.out.append(f"<?{data}>")

    def unknown_decl(self, data):
        self.out.append(f"<![{data}]>")


def mark_page(page_html: str) -> str:
    """``page_html`` with the first use of each term in its article linked to the Glossary (idempotent)."""
    start = page_html.find('<article class="bd-article"')
    end = page_html.rfind("</article>")
    if start < 0 or end < start:
        return page_html
    parser = _Marker(set(_MARKED.findall(page_html)))
    parser.feed(page_html[start:end])
    parser.close()
    return page_html[:start] + "".join(parser.out) + page_html[end:]


def mark_book(html_dir: Path, skip: Sequence[str] = (f"{PAGE}.html", "genindex.html", "search.html")) -> int:
    """Mark every page of the built book (not the Glossary itself); returns how many pages changed."""
    changed = 0
    for page in sorted(Path(html_dir).glob("*.html")):
        if page.name in skip or page.name.startswith("_"):
            continue
        text = page.read_text(encoding="utf-8")
        new = mark_page(text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed += 1
    return changed
