"""The chapters' declarations (src/cipherlab/experiments/<name>/chapter.py) and what follows from
them: the rules, the config schema's sections, the verdict inputs, the findings page, the book's
table of contents; a fresh clone plans without an activated venv; and a toy chapter, added in a
temporary tree as one package and its notebooks, is built into the book."""
from __future__ import annotations

import dataclasses
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import pandas as pd
import yaml

from cipherlab.pipeline import chapters, config, paths, params

from cipherlab.report import book, findings
from pipeline_tree import CHECKOUT, Tree, copy_tree


# --- the declarations --------------------------------------------------------------------------------

def test_the_chapters_declare_themselves_in_reading_order():
    m = chapters.load()
    assert m.names == ("aes2sbox", "maes", "aead", "security")
    assert [c.name for c in m.chapters if c.measure] == ["aes2sbox", "maes", "aead"]
    assert chapters.evidence_chapters() == m.names
    assert m.chapter("security").threads == 2
    assert [p for c in m.chapters for p in c.papers] == ["000", "001", "002", "003"]
    assert m.variants is not None and m.variants.section == "variant"
    with pytest.raises(ValueError, match="chapter must be one of"):
        m.chapter("nope")


def _with(index: int, **changes) -> chapters.Manifest:
    m = chapters.load()
    cs = list(m.chapters)
    cs[index] = dataclasses.replace(cs[index], **changes)
    return dataclasses.replace(m, chapters=tuple(cs))


@pytest.mark.parametrize("make, message", [
    (lambda: _with(1, tables=chapters.load().chapters[1].tables + ("aes2sbox_table1",)),
     "table 'aes2sbox_table1' is declared 2 times (aes2sbox, maes)"),
    (lambda: _with(3, timing_tables=("verdicts",)), "table 'verdicts' is declared 2 times"),
    (lambda: dataclasses.replace(chapters.load(), chapters=chapters.load().chapters + chapters.load().chapters[3:]),
     "chapter 'security' is declared 2 times"),
    (lambda: _with(1, figures=("aead_fig11_forgery",)), "figure 'aead_fig11_forgery'"),
    (lambda: _with(3, measure=chapters.Measure("x", ("maes_bulk",), run=print)),
     "notebook notebooks/security_measure.ipynb does not exist"),
    (lambda: _with(0, measure=None), "aes2sbox_measure.ipynb exists but the chapter declares no `measure`"),
    (lambda: _with(3, name="toy"), "chapter 'toy': notebook notebooks/toy.ipynb does not exist"),
    (lambda: _with(3, name="book"), "the name is taken"),
    (lambda: _with(2, build=None), "chapter 'aead': declares no build function"),
    (lambda: _with(2, findings=None), "declares no findings function"),
    (lambda: _with(1, figures=("maes_table1",)), "['maes_table1'] named both a table and a figure"),
    (lambda: _with(2, build="drivr:build"), "names drivr:build, but its package has no module 'drivr'"),
])
def test_what_a_declaration_alone_cannot_say_is_checked(make, message):
    with pytest.raises(ValueError) as err:
        chapters.check(make())
    assert message in str(err.value), str(err.value)


def test_a_params_class_must_give_every_parameter_a_default_and_a_json_type():
    @dataclasses.dataclass(frozen=True)
    class NoDefault:
        n: int

    @dataclasses.dataclass(frozen=True)
    class BadType:
        when: complex = params.param(1j, "a complex number has no JSON type")

    with pytest.raises(ValueError, match="parameter 'n' has no default"):
        chapters.check(_with(3, params=NoDefault))
    with pytest.raises(ValueError, match="has no JSON-schema type"):
        chapters.check(_with(3, params=BadType))


def test_timing_tables_are_decided_by_the_declarations_alone():
    assert chapters.is_timing_table("aes2sbox_speedup") and chapters.is_timing_table("verdicts")
    assert not chapters.is_timing_table("selfcheck") and not chapters.is_timing_table("evidence_security")
    assert not chapters.is_timing_table("maes_entropy")
    with pytest.raises(ValueError, match="'aes2sbox_table9' is not declared"):
        chapters.is_timing_table("aes2sbox_table9")


def test_the_config_schema_has_one_section_per_chapter_derived_from_its_params():
    variants = ("variant",) if chapters.load().variants else ()
    assert config.chapter_sections() == chapters.names() + variants
    sch = config.schema()
    assert sch["required"] == ["profile", "seed", "bench_sweep_repeats"] and sch["additionalProperties"] is False
    for section, decl in chapters.load().sections.items():
        assert sch["properties"][section] == params.section_schema(decl.params)
        assert sch["properties"][section]["additionalProperties"] is False
    cfg = config.read_config("quick")
    cfg["aead"] = {**cfg.get("aead", {}), "phase2_trials": 1}
    with pytest.raises(ValueError, match=r"aead.phase2_trials: 1 is less than the minimum of 2"):
        config.validate(cfg)
    cfg = config.read_config("quick")
    cfg["aaed"] = {}
    with pytest.raises(ValueError, match=r"aaed: unknown key \(allowed: profile, seed, "):
        config.validate(cfg)
    assert config.book_parameters(config.load_config("quick"))["chapters"] == list(chapters.evidence_chapters())


def test_the_full_profile_is_the_chapters_defaults_and_quick_names_only_what_it_shrinks():
    full, quick = config.read_config("full"), config.read_config("quick")
    for section, decl in chapters.load().sections.items():
        defaults = params.to_config(decl.make_params())
        assert section not in full, f"config/config.yaml: section {section} (the defaults are in its package)"
        for key, value in (quick.get(section) or {}).items():
            assert value != defaults[key], f"config/quick.yaml: {section}.{key} repeats the default {value!r}"


def test_a_run_resolves_defaults_then_the_profile_then_overrides_once():
    aead = chapters.load().chapter("aead")
    quick = config.read_config("quick")["aead"]
    run = aead.run("quick")
    assert run.seed == config.read_config("quick")["seed"] and run.profile.name == "quick"
    assert all(run.config[k] == v for k, v in quick.items())
    assert aead.run("full").params == aead.make_params()
    assert aead.run("quick", {"phase2_trials": 7}).params.phase2_trials == 7
    with pytest.raises(ValueError, match=r"overrides: aead.phase2_trials: 1 is less than the minimum of 2"):
        aead.run("quick", {"phase2_trials": 1})
    with pytest.raises(ValueError, match="'phase3_trials' was unexpected"):
        aead.run("quick", {"phase3_trials": 7})


def test_the_findings_page_reads_only_declared_tables_and_figures():
    m = chapters.load()
    read = chapters.findings_tables(m.names)
    for name in read:
        owner = chapters.table_owner(name)
        assert owner == "book" or name in m.chapter(owner).all_tables
    assert set(chapters.findings_figures(m.names)) <= {f for c in m.chapters for f in c.figures}
    source = Path(findings.__file__).read_text(encoding="utf-8")
    named = [n for n in m.names + tuple(p for c in m.chapters for p in c.papers) if f'"{n}"' in source]
    assert not named, f"report/findings.py names {named}"


# --- the book's table of contents ---------------------------------------------------------------------

def test_the_staged_toc_lists_the_manifest_chapters_in_order():
    toc = book.chapter_toc(yaml.safe_load((paths.BOOK_DIR / "_toc.yml").read_text(encoding="utf-8")))
    pages = book.toc_pages(toc)
    names = chapters.names()
    assert [p for p in pages if p in names] == list(names)
    assert pages.index("verdicts") < pages.index(names[0])
    measuring = [c.measure_name for c in chapters.load().chapters if c.measure]
    assert pages[-len(measuring):] == measuring
    assert "security_measure" not in pages
    source = (paths.BOOK_DIR / "_toc.yml").read_text(encoding="utf-8")
    assert not any(f"file: {n}\n" in source for n in names), "book/_toc.yml lists a chapter by hand"


def test_a_missing_page_stops_the_book(tmp_path):
    toc = {"format": "jb-book", "root": "findings", "parts": [{"caption": "R", "chapters": [
        {"file": "intro"}, {"manifest": "chapters"}]}]}
    for page in ("findings.ipynb", "intro.md", *(f"{n}.ipynb" for n in chapters.names()[:-1])):
        (tmp_path / page).write_text("")
    staged = book.chapter_toc(toc)
    with pytest.raises(ValueError, match=rf"\['{chapters.names()[-1]}'\] that do not exist"):
        book.check_toc(staged, tmp_path)
    (tmp_path / f"{chapters.names()[-1]}.ipynb").write_text("")
    book.check_toc(staged, tmp_path)
    with pytest.raises(ValueError, match="manifest must be one of"):
        book.chapter_toc({"chapters": [{"manifest": "appendix"}]})


# --- a fresh clone plans with the venv's snakemake, nothing activated ----------------------------------

def _tracked_files() -> list[str]:
    git = shutil.which("git")
    proc = subprocess.run([git, "ls-files", "-z"], cwd=CHECKOUT, capture_output=True, text=True) if git else None
    if proc is None or proc.returncode != 0:
        pytest.skip("not a git checkout: cannot tell what a fresh clone holds")
    return [f for f in proc.stdout.split("\0") if f and (CHECKOUT / f).is_file()]


def test_venv_snakemake_plans_in_a_fresh_clone_without_activation(tmp_path):
    """``.venv/bin/snakemake -n --config profile=quick`` in a clone (tracked files only, no outputs,
    no Snakemake state) with a bare environment: no venv on PATH, no CIPHERLAB_ROOT, no PYTHONPATH."""
    venv_snakemake = Path(sys.executable).with_name("snakemake")
    if not venv_snakemake.exists():
        pytest.skip(f"no snakemake script beside {sys.executable}")
    clone = tmp_path / "clone"
    for f in _tracked_files():
        (clone / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(CHECKOUT / f, clone / f)
    (clone / ".venv").symlink_to(Path(sys.executable).parent.parent, target_is_directory=True)
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([".venv/bin/snakemake", "-n", "-p", "--config", "profile=quick"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    planned = set(re.findall(r"^(?:local)?rule (\w+):", out, flags=re.M))
    expected = {"all", "book", "verdicts", "machines", "report", "findings", "environment", "bench_sweep", "selfcheck",
                "input_file"}
    expected |= {n for c in chapters.load().chapters for n in (c.name, c.measure_name) if n}
    expected |= {"variant_chapter"} if config.variant_list(config.load_config("quick")) else set()
    assert planned == expected, f"planned {sorted(planned)}, expected {sorted(expected)}"
    commands = [ln.split(":", 1)[1].strip() for ln in out.splitlines()
                if ln.startswith("Shell command:") and ln.strip() != "Shell command: None"]   # `all` has none
    assert commands and all(c.startswith(shlex.quote(sys.executable) + " -m cipherlab.") for c in commands), \
        commands[:3]
    assert not (clone / "data" / "inputs").exists() and not (clone / "build").exists(), "a dry run wrote outputs"
    # the papers' cipher descriptions are inputs of the selfcheck (it checks them against the registered
    # ciphers) and of the security chapter (it analyses them, manifest key `config`)
    inputs = dict(re.findall(r"^(?:local)?rule (\w+):\n\s+input: (.*)$", out, flags=re.M))
    descriptions = [f"config/ciphers/{p.name}" for p in sorted((CHECKOUT / "config" / "ciphers").glob("*.yaml"))]
    assert descriptions
    for rule in ("selfcheck", "security"):
        assert set(descriptions) <= set(inputs[rule].split(", ")), (rule, inputs[rule][-500:])


# --- a toy chapter: one package, its notebooks -----------------------------------------------------------

TOY_PACKAGE = '''\
"""A toy chapter for the tests: squares of the first n integers."""
from __future__ import annotations

import numpy as np
import pandas as pd


def squares(n: int) -> pd.DataFrame:
    x = np.arange(n)
    return pd.DataFrame({"x": x, "square": x * x})


def summary(trials: pd.DataFrame) -> pd.DataFrame:
    return trials.groupby("n", as_index=False)["seconds"].median()
'''

TOY_DRIVER = '''\
"""The toy chapter's functions: what its notebooks run."""
from __future__ import annotations

import time

import matplotlib.pyplot as plt
import pandas as pd

from cipherlab.experiments import toy


def measure(run):
    rows = []
    for trial in range(3):
        start = time.perf_counter_ns()
        toy.squares(run.params.n)
        rows.append({"n": run.params.n, "trial": trial, "seconds": (time.perf_counter_ns() - start) / 1e9})
    return {"toy_trials": (pd.DataFrame(rows), {"trials": 3})}


def build(run, raw):
    table = toy.squares(run.params.n)
    fig, ax = plt.subplots()
    ax.plot(table["x"], table["square"])
    return {"toy_squares": table, "toy_summary": toy.summary(raw["toy_trials"]), "toy_figure": fig}
'''

TOY_CHAPTER = '''\
"""The toy chapter's declaration: its parameter, its outputs, its functions."""
from __future__ import annotations

from dataclasses import dataclass

from cipherlab.pipeline.chapters import Chapter, Measure
from cipherlab.pipeline.params import param


@dataclass(frozen=True)
class Params:
    n: int = param(8, "how many integers to square", minimum=1)


CHAPTER = Chapter(
    name="toy", order=90, about="A toy chapter: squares of the first n integers, a table and a figure.",
    params=Params,
    measure=Measure(about="Time n squarings (a toy timing).", raw=("toy_trials",), run="driver:measure"),
    build="driver:build", tables=("toy_squares",), timing_tables=("toy_summary",), figures=("toy_figure",),
)
'''

TOY_MEASURE_CELLS = ['''\
from cipherlab.experiments import outputs
from cipherlab.experiments.toy.chapter import CHAPTER
run = CHAPTER.run(profile, overrides)
outputs.save_raw(CHAPTER, run, CHAPTER.measure.run(run))
''']

TOY_CHAPTER_CELLS = ['''\
from cipherlab.present.display import show_table
from cipherlab.experiments import outputs
from cipherlab.experiments.toy.chapter import CHAPTER
run = CHAPTER.run(profile, overrides)
built = outputs.save(CHAPTER, run, CHAPTER.build(run, outputs.read_raw(CHAPTER, run)))
for name in CHAPTER.figures:
    outputs.show_figure(run, name)
show_table(built[CHAPTER.tables[0]])
''']


def _toy_notebook(path: Path, title: str, cells: list[str]) -> None:
    nb = nbformat.v4.new_notebook()
    params_cell = nbformat.v4.new_code_cell('profile = "quick"\noverrides = {}')
    params_cell.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}"), params_cell] + [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def add_toy_chapter(tree: Tree) -> None:
    """What README "Adding an experiment" asks: one package (its declaration) and its notebooks."""
    package = tree.root / "src" / "cipherlab" / "experiments" / "toy"
    package.mkdir()
    (package / "__init__.py").write_text(TOY_PACKAGE, encoding="utf-8")
    (package / "chapter.py").write_text(TOY_CHAPTER, encoding="utf-8")
    (package / "driver.py").write_text(TOY_DRIVER, encoding="utf-8")
    _toy_notebook(tree.root / "notebooks" / "toy_measure.ipynb", "Toy: measuring", TOY_MEASURE_CELLS)
    _toy_notebook(tree.root / "notebooks" / "toy.ipynb", "Toy chapter", TOY_CHAPTER_CELLS)


@pytest.mark.pipeline
def test_a_toy_chapter_is_built_into_the_book(quick_tree, tmp_path):
    tree = copy_tree(quick_tree, tmp_path / "tree", src="copy")
    before = {str(p.relative_to(tree.root)) for p in tree.root.rglob("*") if p.is_file()}
    add_toy_chapter(tree)
    added = {str(p.relative_to(tree.root)) for p in tree.root.rglob("*") if p.is_file()} - before
    assert added == {"src/cipherlab/experiments/toy/__init__.py", "src/cipherlab/experiments/toy/chapter.py",
                     "src/cipherlab/experiments/toy/driver.py", "notebooks/toy_measure.ipynb", "notebooks/toy.ipynb"}
    q = paths.Profile("quick")

    # Only the new chapter and the book are planned: no other chapter, no timing is re-run.
    assert tree.plan() == {"toy_measure": 1, "toy": 1, "book": 1, "all": 1}

    # Its parameter is checked at the door: a bad value in the profile stops the run before any job.
    quick_cfg = tree.root / "config" / "quick.yaml"
    kept = quick_cfg.read_text(encoding="utf-8")
    quick_cfg.write_text(kept + "\ntoy:\n  n: 0\n", encoding="utf-8")
    proc = tree.snakemake("-n", check=False)
    out = proc.stdout + proc.stderr   # the profile checked once, against the schema derived from the declaration
    assert proc.returncode != 0 and "toy.n: 0 is less than the minimum of 1" in out, out[-2000:]
    quick_cfg.write_text(kept, encoding="utf-8")

    tree.snakemake("--cores", "2")
    assert tree.plan() == {}
    html = tree.at(q.html)
    for page in ("toy", "toy_measure"):
        assert (html / f"{page}.html").is_file(), f"{page}.html was not built"
    staged = yaml.safe_load(tree.at(q.book_src / "_toc.yml").read_text(encoding="utf-8"))
    pages = book.toc_pages(staged)
    assert pages.index("security") + 1 == pages.index("toy") and pages[-1] == "toy_measure", pages
    assert 'href="toy.html"' in (html / "findings.html").read_text(encoding="utf-8"), "toy is not in the navigation"
    toy_page = (html / "toy.html").read_text(encoding="utf-8")
    assert "<img" in toy_page and "Toy chapter" in toy_page
    assert tree.at(q.table("toy_squares")).read_text(encoding="utf-8").splitlines()[-1] == "7,49"
    meta = tree.at(q.raw_meta("toy_trials")).read_text(encoding="utf-8")
    assert '"n": 8' in meta and '"trials": 3' in meta   # the parameters that ran, from the declaration


# --- a new variant: one file, one command ---------------------------------------------------------------------------
NEW_VARIANT = """\
name: aes-xor-iv-sbox
summary: AES whose MixColumns is replaced by MAES's per-round IVs, with a seeded random S-box
key_bytes: 16
sbox:
  kind: random
  seed: 7
linear:
  kind: xor-iv
"""


@pytest.mark.pipeline
def test_a_new_variant_is_one_file_and_one_command(quick_tree, tmp_path):
    tree = copy_tree(quick_tree, tmp_path / "tree")
    (tree.root / "config" / "variants" / "aes-xor-iv-sbox.yaml").write_text(NEW_VARIANT, encoding="utf-8")
    q = paths.Profile("quick")
    # Its chapter and the book; nothing else re-runs (the variant is not in variant.names).
    assert tree.plan("variant_aes-xor-iv-sbox") == {"variant_chapter": 1, "variant_aes-xor-iv-sbox": 1}
    tree.snakemake("--cores", "2", "variant_aes-xor-iv-sbox")
    assert tree.at(q.executed_notebook("variant_aes-xor-iv-sbox")).is_file()
    # no MixColumns: byte-local, and the codebook attack reads every byte back
    attack = pd.read_csv(tree.at(q.table("variant_aes-xor-iv-sbox_codebook")))
    assert len(attack) and attack["ran"].all() and attack["exact"].all(), attack
    html = tree.at(q.html)
    assert (html / "variant_aes-xor-iv-sbox.html").is_file()
    staged = yaml.safe_load(tree.at(q.book_src / "_toc.yml").read_text(encoding="utf-8"))
    pages = book.toc_pages(staged)
    assert pages.index("howto_variant") < pages.index("variant_aes-xor-iv-sbox"), pages
    assert tree.plan("variant_aes-xor-iv-sbox") in ({}, {"variant_aes-xor-iv-sbox": 1})   # up to date but the book


# --- a new paper: a variant file and its claims file, one command (issue 36) ---------------------------------------
TOY_PAPER = """\
name: toy-paper
summary: AES with its S-box XORed with 0x5A, a toy paper
about: A paper that claims its S-box, Rijndael's XORed with a constant, has a better SAC.
paper: {citation: 'A. Toy, "A better S-box by one XOR", Journal of Toys 1, 2026'}
key_bytes: 16
sbox: {kind: derived, steps: [{xor: {value: 0x5A}}]}
linear: {kind: mixcolumns}
"""
TOY_CLAIMS = """\
claim_id,paper,where,quote,kind,scope,source,published,unit,null,rule,margin,alpha,expect,decided_by,section,note,\
tier,condition,covered_by,carries,readings,quantity,concern,reference,measure
toy-paper-sac,toy-paper,Abstract,the S-box's SAC is improved,ordering,claim,,,,0,ordering,,,,,,\
read as a larger mean SAC than AES's S-box,headline,,,size,,the S-box's SAC,,,sbox-sac-mean-vs-aes
toy-paper-new,toy-paper,Section 3,it is AES under a new key schedule,structural,claim,,,,,holds,,,,,,\
read as: AES with transformed round keys,headline,,,size,,what the cipher is,,,equivalent-to-aes
toy-paper-fast,toy-paper,Section 4,fast on every machine,qualitative,claim,,,,,not_testable,,,,,,\
names no machine or size,supporting,,,size,,its speed,,,
"""


def _source_files(root: Path) -> dict[str, bytes]:
    """Every file of a tree that is not an output (the sources a user edits), with its bytes."""
    skip = {"data/inputs", "data/raw", "data/tables", "data/figures", "build", "logs", ".snakemake", "src"}
    out = {}
    for p in root.rglob("*"):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and not any(rel == s or rel.startswith(s + "/") for s in skip) and "__pycache__" not in rel:
            out[rel] = p.read_bytes()
    return out


@pytest.mark.pipeline
def test_a_new_paper_is_a_variant_file_and_a_claims_file(quick_tree, tmp_path):
    """Adding a paper is adding two files: its chapter decides every claim and carries a report, and the verdict
    page and the front page list it apart from the four papers; nothing else in the tree changes."""
    tree = copy_tree(quick_tree, tmp_path / "tree")
    before = _source_files(tree.root)
    (tree.root / "config" / "variants" / "toy-paper.yaml").write_text(TOY_PAPER, encoding="utf-8")
    (tree.root / "config" / "variants" / "toy-paper.claims.csv").write_text(TOY_CLAIMS, encoding="utf-8")
    plan = tree.plan("variant_toy-paper")
    assert plan["variant_chapter"] == 1 and set(plan) <= {"variant_chapter", "verdicts", "machines", "findings",
                                                          "report", "variant_toy-paper"}, plan
    tree.snakemake("--cores", "2", "variant_toy-paper")
    q = paths.Profile("quick")
    verdicts = pd.read_csv(tree.at(q.table("variant_toy-paper_verdicts")), dtype=str, keep_default_na=False)
    got = dict(zip(verdicts["claim_id"], verdicts["verdict"]))
    assert got == {"toy-paper-sac": "contradicted", "toy-paper-new": "reproduced", "toy-paper-fast": "not testable"}
    html = tree.at(q.html)
    page = (html / "variant_toy-paper.html").read_text(encoding="utf-8")
    assert "Referee" in page and "Recommendation" in page and "toy-paper-sac" in page
    assert "equivalent to AES with transformed round keys" in page
    assert 'id="claim-toy-paper-sac"' in (html / "verdicts.html").read_text(encoding="utf-8")
    assert "variant_toy-paper.html" in (html / "findings.html").read_text(encoding="utf-8")
    after = _source_files(tree.root)
    assert sorted(set(after) - set(before)) == ["config/variants/toy-paper.claims.csv", "config/variants/toy-paper.yaml"]
    assert sorted(k for k in before if after.get(k) != before[k]) == [], "a source file changed"


def test_the_how_to_page_shows_a_description_that_loads_and_is_the_shipped_one(tmp_path):
    from cipherlab.ciphers import variant_files

    text = (paths.BOOK_DIR / "howto_variant.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, flags=re.S).group(1)
    shown = tmp_path / "aes-affine-sbox.yaml"
    shown.write_text(block, encoding="utf-8")
    ours, shipped = variant_files.load_variant(shown), variant_files.load_variant(paths.variant_file("aes-affine-sbox"))
    assert (ours.sbox, ours.linear, ours.linear_map, ours.key_sizes, ours.rounds) == \
        (shipped.sbox, shipped.linear, shipped.linear_map, shipped.key_sizes, shipped.rounds)
