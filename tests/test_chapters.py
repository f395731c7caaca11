"""cipherlab.pipeline.chapters: the chapter packages follow one template and are cheap to read.

The Snakefile reads every chapter's declaration (``experiments/<name>/chapter.py``) to plan a run; a
chapter package that imported its modules eagerly would pull Numba, IPython and matplotlib into that
process (seconds of start-up for every ``make`` command).  These checks run in a fresh interpreter, so
what an earlier test imported cannot hide an import.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from cipherlab.pipeline import chapters

#: Modules that reading the declarations must never import: the JIT and the notebook/plotting stack,
#: and the cipher core (which imports Numba).
HEAVY = ("numba", "llvmlite", "IPython", "matplotlib", "cipherlab.ciphers", "cipherlab.analysis",
         "cipherlab.report")

#: What the Snakefile imports and calls to plan a run, then every chapter package and its declaration.
_READ_DECLARATIONS = """
import importlib, json, sys
from cipherlab.pipeline import chapters, paths
from cipherlab.pipeline import runs
from cipherlab.pipeline.config import book_parameters, built_variants, input_specs, one_line, resolve_overrides
from cipherlab.pipeline.results import remove_stale_parts
manifest = chapters.load()
for name in chapters.declared_packages():
    importlib.import_module(f"{chapters.PACKAGE}.{name}")
    importlib.import_module(f"{chapters.PACKAGE}.{name}.chapter")
for name in manifest.names:
    manifest.chapter(name).make_params()
print(json.dumps(sorted(sys.modules)))
"""


def test_every_chapter_package_init_is_a_docstring_and_nothing_else():
    packages = chapters.declared_packages()
    assert {"aead", "aes2sbox", "maes", "security", "variant"} <= set(packages)
    for name in packages:
        init = Path(chapters._package_dirs()[0]) / name / "__init__.py"
        body = ast.parse(init.read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str), f"{init.name} of {name}: a docstring and nothing else"


def test_reading_the_declarations_imports_no_jit_notebook_or_plotting_module():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(chapters.__file__).parents[2])]
                                                      + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    out = subprocess.run([sys.executable, "-c", _READ_DECLARATIONS], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert "cipherlab.experiments.aead.chapter" in loaded   # the check read the declarations
    pulled = sorted(h for h in HEAVY if any(m == h or m.startswith(h + ".") for m in loaded))
    assert not pulled, f"reading the declarations imported {pulled}"
