"""``python -m cipherlab._variant_check NAME``: is ``config/variants/<NAME>.yaml`` a variant the pipeline can run?

``make variant`` and the ``variant_chapter`` rule call it before any lock is
taken and before any timing: a bad name (``../ciphers/aes``), a file that does
not exist, the name of a cipher built into cipherlab (``aes``: its chapter would
measure the built-in cipher, not the file), a description that
:func:`cipherlab.ciphers.variant_files.load_variant` refuses (a bad key, ``custom:``
without ``CIPHERLAB_ALLOW_CUSTOM=1``, a table file that is not a small regular
file...), or a claims file beside it that
:func:`cipherlab.experiments.variant.claims.load_paper_claims` refuses, gives
one line on stderr and exit status 2; a good one exits 0 silently.
"""
from __future__ import annotations

import sys

from cipherlab.ciphers.variant_files import check_variant_name, load_variant
from cipherlab.experiments.variant.claims import load_paper_claims
from cipherlab.pipeline.chapters import variant_names
from cipherlab.pipeline.paths import variant_file


def check(name: str) -> None:
    """``ValueError`` in one line when ``name`` is not a variant the pipeline can run."""
    described = variant_names()
    if name not in described:
        raise ValueError(f"VARIANT: no file config/variants/<name>.yaml for {name!r}; described variants: "
                         + (", ".join(described) or "none"))
    path = variant_file(name)
    check_variant_name(name, f"config/variants/{path.name}")
    load_variant(path)
    load_paper_claims(name)   # its paper's claims, if it comes with them


def main(argv: "list[str] | None" = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) != 1:
        print("usage: python -m cipherlab._variant_check NAME", file=sys.stderr)
        return 2
    try:
        check(argv[0])
    except ValueError as exc:
        print(f"variant: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
