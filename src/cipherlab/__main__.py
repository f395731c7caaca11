"""``python -m cipherlab ...``: the same as the ``cipherlab`` command (:mod:`cipherlab.cli`)."""
from cipherlab.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
