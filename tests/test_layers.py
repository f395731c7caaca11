"""The layers point down (CONTRIBUTING "Layers"): what each layer of ``src/cipherlab`` may import, read from the source.

The analysis layer decides and renders nothing, so it imports neither IPython nor matplotlib nor a layer above it;
the presentation layer (``present/``) imports neither the chapters nor the book's pages.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cipherlab

SRC = Path(cipherlab.__file__).parent

#: Per layer, the top-level names and cipherlab subpackages its modules must not import.
FORBIDDEN = {
    "analysis": ("IPython", "matplotlib", "cipherlab.present", "cipherlab.report", "cipherlab.experiments"),
    "present": ("cipherlab.report", "cipherlab.experiments"),
}


def imported_names(source: str) -> set[str]:
    """Every module a source imports, at any depth (a function's local import counts too)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def breaches(source: str, forbidden) -> list[str]:
    return sorted(n for n in imported_names(source) if any(n == f or n.startswith(f + ".") for f in forbidden))


def test_the_scan_sees_every_form_of_import():
    src = "import matplotlib.pyplot as plt\ndef f():\n    from IPython.display import HTML\nfrom cipherlab import report\n"
    assert breaches(src, FORBIDDEN["analysis"]) == ["IPython.display", "IPython.display.HTML", "cipherlab.report",
                                                    "matplotlib.pyplot"]
    assert breaches("import matplotlibx\nfrom cipherlab.analysis import stats\n", FORBIDDEN["analysis"]) == []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    modules = sorted((SRC / layer).glob("*.py"))
    assert modules, f"no module found in {layer}/"
    found = {m.name: b for m in modules if (b := breaches(m.read_text(encoding="utf-8"), FORBIDDEN[layer]))}
    assert not found, f"{layer}/ imports what its layer may not: {found}"
