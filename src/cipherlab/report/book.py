"""Stage and build the jupyter-book of one profile.

``python -m cipherlab.report.book PROFILE`` copies ``book/`` into
``build/<profile>/book/``, adds the executed notebooks of that profile, writes
the table of contents (``book/_toc.yml`` with the pages of the chapters each package
declares, :func:`cipherlab.pipeline.chapters.load`, in place of its ``manifest:`` entries; a page it
names that does not exist is an error), writes the run banner
(``_run.md``) that the front page (the findings notebook) includes and the run record (``run.json``,
beside the pages) that the PDFs' title pages read, renders the glossary (``_glossary.md``), builds the
HTML with jupyter-book 1.x (offline, ``execute_notebooks: off``), and links each term's first use on
every page to its definition (:mod:`cipherlab.report.glossary`).
"""
from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import yaml

from cipherlab.pipeline import chapters, overrides
from cipherlab.pipeline.config import load_config, variant_list
from cipherlab.pipeline.paths import BOOK_DIR, DATA_DIR, ROOT, Profile, config_file
from cipherlab.pipeline.provenance import environment_summary, git_commit, new_run_id, package_versions
from cipherlab.pipeline.results import write_text
from cipherlab.report.methods_text import rules_markdown
from cipherlab.report import glossary, referee
from cipherlab.report import machines as machine_cards
from cipherlab.report.template import recommendation_rule_markdown


def _page_exists(root: Path, entry: str) -> bool:
    return any((root / f"{entry}{ext}").exists() for ext in ("", ".md", ".ipynb"))


def _paper_chapters() -> set[str]:
    """The chapters a paper's part of the book holds (:func:`cipherlab.report.referee.parts`)."""
    return {chapter for _, _, chapter in referee.parts()}


#: What each ``manifest:`` entry of ``book/_toc.yml`` becomes: the pages of every declared chapter
#: (``chapters``: those no paper's part holds; ``papers``, an entry of ``parts``: one part per paper group).
TOC_SLOTS = {
    "chapters": lambda manifest, variants: [c.name for c in manifest.chapters if c.name not in _paper_chapters()],
    "measuring": lambda manifest, variants: [c.measure_name for c in manifest.chapters if c.measure],
    "variants": lambda manifest, variants: [manifest.variants.page(v) for v in variants] if manifest.variants else [],
}


def toc_pages(toc: dict) -> list[str]:
    """Every page (``file:``) the table of contents names, in order."""
    pages: list[str] = []

    def walk(items):
        for item in items or []:
            if "file" in item:
                pages.append(item["file"])
            walk(item.get("sections"))

    if toc.get("root"):
        pages.append(toc["root"])
    for part in toc.get("parts", []):
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return pages


def chapter_toc(toc: dict, manifest: "chapters.Manifest | None" = None, variants: "tuple[str, ...]" = ()) -> dict:
    """``toc`` with each ``{"manifest": slot}`` entry replaced by the declared chapters' pages; empty parts dropped.

    ``variants``: the variants whose chapters the book shows (slot ``variants``).
    """
    manifest = manifest or chapters.load()

    def expand(items):
        out = []
        for item in items or []:
            if "manifest" in item:
                slot = item["manifest"]
                if slot not in TOC_SLOTS:
                    raise ValueError(f"_toc.yml: manifest must be one of {sorted(TOC_SLOTS)}, got {slot!r}")
                out += [{"file": page} for page in TOC_SLOTS[slot](manifest, variants)]
                continue
            if "sections" in item:
                item = dict(item, sections=expand(item["sections"]))
            out.append(item)
        return out

    toc = dict(toc)
    if "parts" in toc:
        parts = []
        for p in toc["parts"]:
            if p.get("manifest") == "papers":
                parts += paper_parts(manifest)
            elif "manifest" in p:
                raise ValueError(f"_toc.yml: a part's manifest entry must be 'papers', got {p['manifest']!r}")
            else:
                parts.append(p)
        toc["parts"] = [dict(p, chapters=expand(p.get("chapters"))) for p in parts]
        toc["parts"] = [p for p in toc["parts"] if p["chapters"]]
    if "chapters" in toc:
        toc["chapters"] = expand(toc["chapters"])
    return toc


def paper_parts(manifest: "chapters.Manifest") -> list[dict]:
    """One part of the book per paper group: its referee's reports first, then its chapter (when it is declared)."""
    names = {c.name for c in manifest.chapters}
    return [{"caption": caption,
             "chapters": [{"file": referee.page_name(p)} for p in papers] + ([{"file": chapter}] if chapter in names
                                                                             else [])}
            for caption, papers, chapter in referee.parts()]


def page_titles(profile: str, manifest: "chapters.Manifest | None" = None) -> dict[str, str]:
    """The title each parameterised page gets in the staged book (sidebar, next/previous, search):
    a variant's chapter is titled by its variant, a referee's report by its paper."""
    manifest = manifest or chapters.load()
    titles = {referee.page_name(p): f"Referee's report: paper {p} ({info.subject})"
              for p, info in referee.papers().items()}
    if manifest.variants:
        for v in book_variants(profile):
            titles[manifest.variants.page(v)] = f"Refereeing a variant: {v}"
    return titles


def retitle(path: Path, title: str) -> bool:
    """Give a staged notebook the title ``title`` (its first markdown heading); False if it has none."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("# "):
                lines[i] = f"# {title}"
                cell.source = "\n".join(lines)
                nbformat.write(nb, path)
                return True
        break
    return False


def check_toc(toc: dict, root: Path) -> None:
    """Every page the table of contents names exists under ``root``; else a ``ValueError`` naming them."""
    missing = [p for p in toc_pages(toc) if not _page_exists(root, p)]
    if missing:
        raise ValueError(f"the table of contents names page(s) {missing} that do not exist in {root} "
                         "(run their rules first, or remove them from book/_toc.yml or their chapter's declaration)")


_DOC_ROLE = re.compile(r"\{doc\}`(?:([^`<]*?)\s*<)?([^`>]+)>?`")


def _unlink_missing_pages(root: Path) -> None:
    """Turn ``{doc}`` links to chapters not built yet into plain text.

    The front page names every chapter; while a chapter has no executed
    notebook (it has not landed, or the run skipped it) its link would be a
    broken reference, so it becomes "<name> (not built in this run)".  Static
    pages and the markdown cells of the staged notebooks are both rewritten.
    """
    def repl(m: "re.Match[str]") -> str:
        title, target = m.group(1), m.group(2).strip()
        if _page_exists(root, target):
            return m.group(0)
        return f"*{title or target}* (not built in this run)"

    for md in sorted(root.glob("*.md")):
        text = md.read_text(encoding="utf-8")
        new = _DOC_ROLE.sub(repl, text)
        if new != text:
            md.write_text(new, encoding="utf-8")
    for path in sorted(root.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        changed = False
        for cell in nb.cells:
            if cell.cell_type == "markdown" and _DOC_ROLE.search(cell.source):
                new = _DOC_ROLE.sub(repl, cell.source)
                changed |= new != cell.source
                cell.source = new
        if changed:
            nbformat.write(nb, path)


def raw_records(profile: str) -> list[dict]:
    """The provenance records (``.meta.json``) of the raw measurements this profile's book is built from."""
    out = []
    for meta in sorted(Profile(profile).raw.glob("*.meta.json")):
        try:
            record = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(record, dict):
            out.append(record)
    return out


def measurement_runs(profile: str) -> list[str]:
    """Run ids of the raw measurements this profile's book is built from (from their ``.meta.json``)."""
    return sorted({str(r.get("run_id", "")) for r in raw_records(profile)} - {""})


def machines(profile: str) -> list[str]:
    """The machines the measurements ran on, as a reader names them: CPU model, logical cores, host name
    (and the Slurm job's cluster), from the raw files' provenance; one entry per distinct machine."""
    seen: list[str] = []
    for r in raw_records(profile):
        node = r.get("node") if isinstance(r.get("node"), dict) else {}
        parts = [str(r.get("cpu_model", "") or "unknown CPU")]
        if r.get("logical_cores"):
            parts.append(f"{r['logical_cores']} logical cores")
        if r.get("memory_gib"):
            parts.append(f"{r['memory_gib']} GiB")
        where = str(node.get("hostname", "") or "")
        if node.get("slurm_cluster"):
            where += f" (Slurm cluster {node['slurm_cluster']})"
        text = ", ".join(parts) + (f", host {where}" if where else "")
        if text not in seen:
            seen.append(text)
    return seen


def measured_on(profile: str) -> str:
    """Which run the book's numbers come from and on what machine, in one sentence (every page's banner):
    a shipped run's card, or this tree's raw records (:func:`cipherlab.report.machines.this_card`, else
    :func:`machines`)."""
    prof = Profile(profile)
    card = machine_cards.this_card(prof)
    if card is None:   # records of more than one machine, or none: each one as the raw records name it
        where = "; ".join(machines(profile)) or "no recorded machine"
    else:
        cpu = card.get("cpu", {})
        where = (f"{cpu.get('model')}, {cpu.get('logical_cores')} cores"
                 + (", without AES instructions (emulated)" if card.get("emulated") else "")
                 + f", measured {str(card.get('dates', {}).get('last', ''))[:10]} at commit "
                 + str(card.get("commit", ""))[:12])
    if prof.shipped_run:
        return (f"Built without timing from the shipped run {prof.shipped_run} (data/runs/{prof.shipped_run}/): "
                f"{where}.")
    whose = f"the run of the emulated machine {prof.machine}" if prof.machine else "this machine's run"
    return f"Built from {whose}: {where}."


#: The run's identity, written beside the built book as ``run.json``: the front page's banner and the
#: PDFs' title pages read it, so both name the same build.
RUN_INFO_NAME = "run.json"


def run_info(profile: str) -> dict:
    """Who built this book from what: profile, cipherlab version, commit, build id and date, the measurement
    runs and the machines they ran on, and the one sentence every page says about them (:func:`measured_on`)."""
    return {
        "profile": profile,
        "config": f"config/{'config' if profile == 'full' else profile}.yaml",
        "cipherlab_version": package_versions()["cipherlab"],
        "git_commit": git_commit(),
        "build_id": new_run_id(),
        "built_utc": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "measurement_runs": measurement_runs(profile),
        "machines": machines(profile),
        "measured_on": measured_on(profile),
    }


def run_banner(profile: str, info: "dict | None" = None) -> str:
    """The note at the top of the front page: which profile, commit and runs built this book."""
    info = info or run_info(profile)
    runs = info["measurement_runs"]
    shown = ", ".join(f"`{r}`" for r in runs[:8]) + (f" and {len(runs) - 8} more" if len(runs) > 8 else "")
    lines = [
        f"This book was built by the **{profile}** profile (`{info['config']}`) "
        f"on {info['built_utc']} from git commit `{info['git_commit']}` "
        f"(cipherlab {info['cipherlab_version']}, build `{info['build_id']}`).",
        info.get("measured_on") or measured_on(profile),
        f"Its measurements come from the runs {shown}; each raw file's `.meta.json` in "
        f"`{Profile(profile).raw.relative_to(ROOT)}/` holds a run's machine, versions, seed and config." if runs else
        "No raw measurement was present when it was built.",
    ]
    if profile == "quick":
        lines.append("**Quick profile:** its numbers come from tiny trials and sizes meant for testing; "
                     "run `make reproduce` for the full results.")
    else:
        lines.append("Every number in it was measured or computed by the pipeline; see {doc}`environment`.")
    return ("```{admonition} Provenance of this book: profile, commit and runs\n:class: dropdown note\n"
            + "\n\n".join(lines) + "\n```\n")


#: The banner on every page of a quick-profile book.
QUICK_ANNOUNCEMENT = ("Quick profile: tiny samples for testing, not the papers' protocols. "
                      "Its numbers and verdicts are not results; <code>make reproduce</code> builds the full book.")


#: Where the Environment page looks for the CSV of ``cipherlab bench --out`` (provenance in ``<csv>.meta.json``).
BENCH_CSV = DATA_DIR / "bench" / "bench.csv"
#: The columns of the bench table's short view, when they are there.
BENCH_SHORT = ("cipher", "impl", "mode", "operation", "data", "object", "threads", "mb_per_s")
#: Provenance fields of the bench run shown on the Environment page.
BENCH_META = ("run_id", "date_utc", "cpu_model", "cpu_aes_ni", "logical_cores", "git_commit", "config")


def machine_table(profile: str, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The Environment page's two tables: this run's machine and software (name, value), and package versions.

    In the book of a shipped run, the run's machine card (``data/runs/<run>/card.json``): the machine that
    measured, not the one that built the book."""
    prof = Profile(profile)
    if prof.shipped_run:
        card = machine_cards.this_card(prof)
        packages = dict(card.get("packages", {}))
        facts = {"shipped run": f"data/runs/{prof.shipped_run}/ (this book was built from it, without timing)",
                 "profile": profile, "seed": seed, "machine": card.get("machine"),
                 **{f"cpu_{k}": v for k, v in card.get("cpu", {}).items()},
                 **{k: card.get(k) for k in ("memory_gib", "os", "platform", "python", "openssl", "jit_target",
                                             "numba_threads", "commit", "dates", "emulated")}}
        machine = pd.DataFrame({"name": list(facts), "value": [str(v) for v in facts.values()]})
        versions = pd.DataFrame({"package": list(packages), "version": [str(v) for v in packages.values()]})
        return machine, versions
    env = environment_summary()
    packages = env.pop("packages")
    run = {"profile": profile, "seed": seed,
           "date_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
    machine = pd.DataFrame({"name": list({**run, **env}), "value": [str(v) for v in {**run, **env}.values()]})
    versions = pd.DataFrame({"package": list(packages), "version": [str(v) for v in packages.values()]})
    return machine, versions


def config_html(profile: str) -> str:
    """The profile's config file, folded, with its path relative to the repository, and the overrides of
    its values the run was given on the command line (``--config``/``--configfile``), when any."""
    path = config_file(profile)
    given = overrides.current()
    told = ("" if not given else "<p>Overridden on the command line (<code>--config</code>/<code>--configfile</code>), "
            f"and so in effect for this run:</p><pre>{html.escape(json.dumps(given, indent=1, sort_keys=True))}</pre>")
    return (f"<details><summary>{html.escape(str(path.relative_to(ROOT)))} (as the pipeline read it)</summary>"
            f"<pre>{html.escape(path.read_text(encoding='utf-8'))}</pre></details>" + told)


def bench_results(path: "str | os.PathLike[str] | None" = None) -> "tuple[pd.DataFrame, pd.DataFrame] | None":
    """The ``cipherlab bench`` rows and their provenance (name, value), or None when no bench CSV is there."""
    path = Path(path or BENCH_CSV)
    if not path.is_file():
        return None
    rows = pd.read_csv(path)
    meta_path = path.with_name(path.name + ".meta.json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    prov = pd.DataFrame({"name": [k for k in BENCH_META if k in meta],
                         "value": [json.dumps(meta[k], sort_keys=True) if isinstance(meta[k], dict) else str(meta[k])
                                   for k in BENCH_META if k in meta]})
    return rows, prov


def bench_short(rows: pd.DataFrame) -> list[str]:
    """The short view of the bench table: the usual columns, or the first ones when they were renamed."""
    short = [c for c in BENCH_SHORT if c in rows.columns]
    return short if len(short) >= 3 else list(map(str, rows.columns[:6]))


def book_variants(profile: str) -> tuple[str, ...]:
    """The variant chapters of the book: those ``variant.names`` lists, then any other variant whose
    chapter was built on request (``snakemake variant_<name>``) and whose description still exists."""
    manifest = chapters.load()
    if not manifest.variants:
        return ()
    listed = variant_list(load_config(profile))
    built = [v for v in chapters.variant_names()
             if v not in listed and Profile(profile).executed_notebook(manifest.variants.page(v)).is_file()]
    return tuple(listed) + tuple(built)


def stage(profile: str) -> Path:
    """Assemble the book source of ``profile`` and return its directory."""
    prof = Profile(profile)
    dst = prof.book_src
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(BOOK_DIR, dst, ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints"))
    for nb in sorted(prof.notebooks.glob("*.ipynb")):
        if nb.name.endswith(".failed.ipynb"):
            continue
        shutil.copy2(nb, dst / nb.name)
    toc_path = dst / "_toc.yml"
    toc = yaml.safe_load(toc_path.read_text(encoding="utf-8"))
    toc = chapter_toc(toc, variants=book_variants(profile))
    check_toc(toc, dst)
    toc_path.write_text(yaml.safe_dump(toc, sort_keys=False), encoding="utf-8")
    _unlink_missing_pages(dst)
    for page, title in page_titles(profile).items():
        if (dst / f"{page}.ipynb").is_file():
            retitle(dst / f"{page}.ipynb", title)
    # verdicts.csv beside the pages, for the verdict page's download link
    extra = dst / "_extra"
    extra.mkdir(exist_ok=True)
    if prof.table("verdicts").is_file():
        shutil.copy2(prof.table("verdicts"), extra / "verdicts.csv")
    cfg_path = dst / "_config.yml"
    cfg = yaml.safe_load(cfg_path.read_text(encoding="utf-8"))
    cfg.setdefault("sphinx", {}).setdefault("config", {})["html_extra_path"] = ["_extra"]
    info = run_info(profile)
    # every page says which run it was built from and on what machine (and, in the quick profile, what it is)
    cfg.setdefault("html", {})["announcement"] = ((QUICK_ANNOUNCEMENT + " ") if profile != "full" else "") + \
        html.escape(info["measured_on"])
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False), encoding="utf-8")
    write_text(extra / RUN_INFO_NAME, json.dumps(info, indent=1) + "\n")
    write_text(dst / "_run.md", run_banner(profile, info))
    write_text(dst / "_rules.md", rules_markdown())
    write_text(dst / glossary.INCLUDE, glossary.glossary_markdown())
    write_text(dst / "_report_rules.md", recommendation_rule_markdown())
    return dst


def build(profile: str) -> Path:
    """Stage and build; returns the path of ``index.html``."""
    src = stage(profile)
    exe = Path(sys.executable).with_name("jupyter-book")
    cmd = [str(exe) if exe.exists() else "jupyter-book", "build", str(src), "--builder", "html"]
    env = dict(os.environ, PYDEVD_DISABLE_FILE_VALIDATION="1")
    subprocess.run(cmd, check=True, env=env)
    index = Profile(profile).html / "index.html"
    if not index.is_file():
        raise RuntimeError(f"jupyter-book finished but {index} is missing")
    # Every term a page uses is linked, at its first use, to its definition (cipherlab.report.glossary).
    glossary.mark_book(Profile(profile).html)
    # Sphinx rewrites only the pages whose sources changed: after a change to the book's CSS or script
    # alone it rewrites none, and index.html (the rule's output, which the PDFs are printed after) would
    # stay older than its inputs. The whole book is current now, so its output says so.
    index.touch()
    return index


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] not in ("full", "quick"):
        print("usage: python -m cipherlab.report.book {full,quick}", file=sys.stderr)
        return 2
    try:
        index = build(argv[0])
    except (subprocess.CalledProcessError, RuntimeError, ValueError) as exc:
        print(f"error: book build failed: {exc}", file=sys.stderr)
        return 1
    print(f"book: {index}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
