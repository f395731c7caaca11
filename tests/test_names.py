"""cipherlab.names: the names every layer shares have one owner.

The styles, modes, key sizes and MAES option values are typed once, in :mod:`cipherlab.names`; the cipher
core, the parameter schemas and the tests read them from there.  A literal copy elsewhere in ``src`` can
drift from it unseen: the scan below finds every tuple, list or set literal in the library equal to one of
the names' tuples.  ``KNOWN_COPIES`` lists the copies that remain in files being reworked apart (issue 38);
it only shrinks: a new copy fails, and so does a listed one that is gone (remove its entry).
"""
from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from cipherlab import names
from cipherlab.ciphers import aes, modes, registry
from cipherlab.pipeline import params

SRC = Path(names.__file__).parent
#: The tuples a copy of which is searched for (``MAES_APPROACHES``, ``(1, 2)``, is too common a literal).
SCANNED = ("SOFTWARE_STYLES", "OWN_STYLES", "STYLES", "MODES", "AES_KEY_BYTES", "MAES_IV_SOURCES",
           "SHA3_VARIANTS", "SHA3_CHAINS")
#: (file under src/cipherlab, name): how many literal copies it still holds.
KNOWN_COPIES: dict = {}


def literal_copies(root: Path = SRC) -> Counter:
    """``{(file, name): count}`` of the literals under ``root`` equal to a scanned tuple of :mod:`cipherlab.names`."""
    wanted = {tuple(getattr(names, n)): n for n in SCANNED}
    found: Counter = Counter()
    for path in sorted(root.rglob("*.py")):
        if path == Path(names.__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts \
                    and all(isinstance(e, ast.Constant) for e in node.elts):
                name = wanted.get(tuple(e.value for e in node.elts))
                if name:
                    found[(path.relative_to(root).as_posix(), name)] += 1
    return found


def test_the_names_are_built_from_each_other():
    assert names.OWN_STYLES[:len(names.SOFTWARE_STYLES)] == names.SOFTWARE_STYLES
    assert names.STYLES == names.OWN_STYLES + ("pycryptodome",)
    assert names.AUTO not in names.STYLES
    for n in names.__all__:
        value = getattr(names, n)
        assert not isinstance(value, tuple) or len(set(value)) == len(value), f"{n} repeats a value"


def test_the_core_and_the_pipeline_read_the_one_tuple():
    # the same object, not an equal copy
    assert registry.STYLES is names.STYLES and registry.OWN_STYLES is names.OWN_STYLES
    assert aes.STEP_IMPLS is names.SOFTWARE_STYLES
    assert modes.MODES is names.MODES
    assert params.MODE["enum"] == list(names.MODES) and params.IMPL["enum"] == list(names.OWN_STYLES)


def test_no_new_literal_copy_of_a_shared_name_in_the_library():
    found = literal_copies()
    new = {k: v for k, v in found.items() if v > KNOWN_COPIES.get(k, 0)}
    assert not new, f"literal copies of cipherlab.names tuples (read them from cipherlab.names): {new}"
    gone = {k: v for k, v in KNOWN_COPIES.items() if found.get(k, 0) < v}
    assert not gone, f"these copies are gone or fewer: lower or remove their KNOWN_COPIES entries: {gone}"


def test_the_scan_finds_a_copy(tmp_path):
    (tmp_path / "m.py").write_text('STYLES = ("reference", "table")\n"""("ecb", "cbc", "ctr") in a docstring"""\n',
                                   encoding="utf-8")
    assert literal_copies(tmp_path) == Counter({("m.py", "SOFTWARE_STYLES"): 1})
