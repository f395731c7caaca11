"""The chapter manifest (workflow/chapters.yaml) and what follows from it: the rules, the
config sections, the verdict inputs, the book's table of contents; a fresh clone plans
without an activated venv; and a toy chapter, added in a temporary tree as one manifest
entry, one package and its notebooks, is built into the book."""
from __future__ import annotations

import copy
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

from cipherlab.pipeline import chapters, config, paths

from cipherlab.report import book, findings
from pipeline_tree import CHECKOUT, Tree, copy_tree

MANIFEST = chapters.read()


def _bad(mutate):
    data = copy.deepcopy(MANIFEST)
    mutate(data)
    return data


# --- the manifest ------------------------------------------------------------------------------------

def test_the_manifest_lists_the_four_chapters_in_reading_order():
    m = chapters.load()
    assert m.names == ("aes2sbox", "maes", "aead", "security")
    assert [c.name for c in m.chapters if c.measure] == ["aes2sbox", "maes", "aead"]
    assert chapters.evidence_chapters() == m.names
    assert m.chapter("security").threads == 2
    with pytest.raises(ValueError, match="chapter must be one of"):
        m.chapter("nope")


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["chapters"][0].pop("tables"), "chapters.0: 'tables' is a required property"),
    (lambda d: d["chapters"][1].update(name="Maes"), "chapters.1.name: 'Maes' does not match"),
    (lambda d: d["chapters"][1].update(name="maes_measure"), "chapters.1.name"),
    (lambda d: d["chapters"][2].update(threads=0), "chapters.2.threads: 0 is less than the minimum"),
    (lambda d: d["chapters"][0]["measure"].update(raw=[]), "chapters.0.measure.raw: [] should be non-empty"),
    (lambda d: d["chapters"][3].update(colour="red"), "Additional properties are not allowed ('colour'"),
    (lambda d: d.pop("pipeline"), "(top level): 'pipeline' is a required property"),
])
def test_a_bad_manifest_is_rejected_naming_the_key(mutate, message):
    with pytest.raises(ValueError) as err:
        chapters.from_data(_bad(mutate))
    assert message in str(err.value), str(err.value)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["chapters"][1]["tables"].append("aes2sbox_table1"),
     "table 'aes2sbox_table1' is declared 2 times (aes2sbox, maes)"),
    (lambda d: d["chapters"][3]["timing_tables"].append("verdicts"), "table 'verdicts' is declared 2 times"),
    (lambda d: d["chapters"].append(copy.deepcopy(d["chapters"][3])), "chapter 'security' is declared 2 times"),
    (lambda d: d["chapters"][1]["figures"].append("aead_fig11_forgery"), "figure 'aead_fig11_forgery'"),
    (lambda d: d["chapters"][3].update(measure={"about": "x", "raw": ["maes_bulk"]}),
     "notebook notebooks/security_measure.ipynb does not exist"),
    (lambda d: d["chapters"][0].pop("measure"), "aes2sbox_measure.ipynb exists but the entry has no `measure:`"),
    (lambda d: d["chapters"].append({**d["chapters"][3], "name": "toy", "tables": [], "figures": []}),
     "chapter 'toy': notebook notebooks/toy.ipynb does not exist"),
    (lambda d: d["chapters"].append({**d["chapters"][3], "name": "book", "tables": [], "figures": []}),
     "the name is taken"),
])
def test_what_the_schema_cannot_say_is_checked(mutate, message):
    with pytest.raises(ValueError) as err:
        chapters.from_data(_bad(mutate))
    assert message in str(err.value), str(err.value)


def test_timing_tables_are_decided_by_the_manifest_alone():
    assert chapters.is_timing_table("aes2sbox_speedup") and chapters.is_timing_table("verdicts")
    assert not chapters.is_timing_table("selfcheck") and not chapters.is_timing_table("evidence_security")
    assert not chapters.is_timing_table("maes_entropy")
    with pytest.raises(ValueError, match="'aes2sbox_table9' is not declared"):
        chapters.is_timing_table("aes2sbox_table9")


def test_config_sections_are_required_for_every_chapter():
    variants = ("variant",) if chapters.load().variants else ()
    assert config.chapter_sections() == chapters.names() + variants
    required = config.schema()["required"]
    assert required[:2] == ["profile", "seed"] and set(chapters.names()) <= set(required)
    cfg = config.read_config("quick")
    del cfg["aead"]
    with pytest.raises(ValueError, match="aead: 'aead' is a required property"):
        config.validate(cfg)
    assert config.book_parameters(config.load_config("quick"))["chapters"] == list(chapters.evidence_chapters())


def test_findings_name_only_manifest_chapters_and_their_tables():
    m = chapters.load()
    for name, (chapter, _) in findings.TABLES.items():
        if chapter != "book":
            assert name in m.chapter(chapter).all_tables, f"findings.TABLES: {name} is not a table of {chapter}"
    assert findings.FIGURE[1] in m.chapter(findings.FIGURE[0]).figures
    assert {chapter for chapter, _ in findings.PAPERS.values()} <= set(m.names)


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
    expected = {"all", "book", "verdicts", "report", "findings", "environment", "bench_sweep", "selfcheck", "input_file"}
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


# --- a toy chapter: one manifest entry, one package, its notebooks --------------------------------------

TOY_ENTRY = {
    "name": "toy",
    "about": "A toy chapter: squares of the first n integers, a table and a figure.",
    "measure": {"about": "Time n squarings (a toy timing).", "raw": ["toy_trials"]},
    "tables": ["toy_squares"],
    "timing_tables": ["toy_summary"],
    "figures": ["toy_squares"],
}

TOY_PACKAGE = '''\
"""A toy chapter for the tests: squares of the first n integers."""
from __future__ import annotations

import numpy as np
import pandas as pd


def squares(n: int) -> pd.DataFrame:
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    x = np.arange(n)
    return pd.DataFrame({"x": x, "square": x * x})


def summary(trials: pd.DataFrame) -> pd.DataFrame:
    return trials.groupby("n", as_index=False)["seconds"].median()
'''

TOY_MEASURE_CELLS = ['''\
import time
import pandas as pd
from cipherlab.pipeline import provenance, results
from cipherlab.experiments import toy
rows = []
for trial in range(3):
    start = time.perf_counter_ns()
    toy.squares(n)
    rows.append({"n": n, "trial": trial, "seconds": (time.perf_counter_ns() - start) / 1e9})
results.save_raw(pd.DataFrame(rows), "toy_trials", profile, meta=provenance.run_metadata(profile=profile, seed=seed))
''']

TOY_CHAPTER_CELLS = ['''\
import matplotlib.pyplot as plt
from IPython.display import display
from cipherlab.analysis import plotting
from cipherlab.pipeline import results
from cipherlab.analysis.display import show_table
from cipherlab.experiments import toy
table = toy.squares(n)
results.save_table(table, "toy_squares", profile)
results.save_table(toy.summary(results.read_raw("toy_trials", profile)), "toy_summary", profile)
fig, ax = plt.subplots()
ax.plot(table["x"], table["square"])
plotting.save_figure(fig, "toy_squares", profile)
display(fig)
show_table(table)
''']


def _toy_notebook(path: Path, title: str, cells: list[str]) -> None:
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('profile = "quick"\nseed = 0\nn = 4')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell(f"# {title}"), params] + [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def add_toy_chapter(tree: Tree) -> None:
    """What README "Adding an experiment" asks: a manifest entry, a package, its notebooks, a config section."""
    manifest = tree.root / "workflow" / "chapters.yaml"
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    data["chapters"].append(TOY_ENTRY)     # the last chapter (the variants' block stays after the list)
    manifest.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    package = tree.root / "src" / "cipherlab" / "experiments" / "toy"
    package.mkdir()
    (package / "__init__.py").write_text(TOY_PACKAGE, encoding="utf-8")
    _toy_notebook(tree.root / "notebooks" / "toy_measure.ipynb", "Toy: measuring", TOY_MEASURE_CELLS)
    _toy_notebook(tree.root / "notebooks" / "toy.ipynb", "Toy chapter", TOY_CHAPTER_CELLS)
    for name in ("config.yaml", "quick.yaml"):
        path = tree.root / "config" / name
        path.write_text(path.read_text(encoding="utf-8") + "\ntoy:\n  n: 8\n", encoding="utf-8")
    schema = tree.root / "workflow" / "schemas" / "config.schema.yaml"
    text = schema.read_text(encoding="utf-8")
    schema.write_text(text.replace("\n$defs:\n", "\n  toy:\n    type: object\n    required: [n]\n    properties:\n"
                                   "      n: {type: integer, minimum: 1}\n\n$defs:\n", 1), encoding="utf-8")


@pytest.mark.pipeline
def test_a_toy_chapter_is_built_into_the_book(quick_tree, tmp_path):
    tree = copy_tree(quick_tree, tmp_path / "tree", src="copy")
    add_toy_chapter(tree)
    q = paths.Profile("quick")

    # Only the new chapter and the book are planned (and the Environment page, which shows the
    # edited config file): no other chapter, no timing is re-run.
    assert tree.plan() == {"toy_measure": 1, "toy": 1, "environment": 1, "book": 1, "all": 1}

    # Its config section is required: without it the run stops before any job, naming it.
    quick_cfg = tree.root / "config" / "quick.yaml"
    kept = quick_cfg.read_text(encoding="utf-8")
    quick_cfg.write_text(kept.replace("\ntoy:\n  n: 8\n", "\n"), encoding="utf-8")
    proc = tree.snakemake("-n", check=False)
    assert proc.returncode != 0 and "toy: 'toy' is a required property" in proc.stdout + proc.stderr
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
    assert tree.at(q.raw_meta("toy_trials")).is_file()


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


def test_the_how_to_page_shows_a_description_that_loads_and_is_the_shipped_one(tmp_path):
    from cipherlab.ciphers import described

    text = (paths.BOOK_DIR / "howto_variant.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, flags=re.S).group(1)
    shown = tmp_path / "aes-affine-sbox.yaml"
    shown.write_text(block, encoding="utf-8")
    ours, shipped = described.load_variant(shown), described.load_variant(paths.variant_file("aes-affine-sbox"))
    assert (ours.sbox, ours.linear, ours.linear_map, ours.key_sizes, ours.rounds) == \
        (shipped.sbox, shipped.linear, shipped.linear_map, shipped.key_sizes, shipped.rounds)
