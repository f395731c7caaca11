"""cipherlab.pipeline.provenance: the run metadata every raw file carries."""
from __future__ import annotations

import numpy as np

from cipherlab.pipeline import provenance
def test_run_metadata_has_the_provenance_fields():
    meta = provenance.run_metadata(profile="quick", seed=3, config={"a": 1}, compile_seconds=0.5)
    for key in ("run_id", "profile", "date_utc", "seed", "config", "cpu_model", "logical_cores",
                "numba_threads", "python", "packages", "git_commit", "compile_seconds"):
        assert key in meta
    assert meta["packages"]["numpy"] == np.__version__
    assert provenance.new_run_id() != provenance.new_run_id()
