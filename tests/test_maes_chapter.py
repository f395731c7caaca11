"""The maes chapter's declaration (cipherlab.experiments.maes.chapter): parameters checked once, at the door."""
from __future__ import annotations

import dataclasses

import pytest

from cipherlab.experiments.maes.chapter import CHAPTER, Params
from cipherlab.pipeline import params as P


def test_defaults_are_the_full_profile_and_quick_shrinks_only_what_it_names():
    assert CHAPTER.run("full").params == Params()
    quick = CHAPTER.run("quick").params
    assert set(P.changed(quick)) == {"processes", "trials_keyexp", "trials_stage", "trials_steps", "steps_states",
                                     "trials_block", "trials_bulk", "warmup", "dependency_blocks", "inputs",
                                     "bulk_file"}
    assert quick.bulk_file in quick.inputs and quick.trials_block < Params().trials_block
    assert isinstance(quick.impls, tuple) and isinstance(quick.image_modes, tuple)


def test_overrides_are_checked_like_the_profile():
    run = CHAPTER.run("quick", {"trials_block": 50, "image_modes": ["ecb"]})
    assert run.params.trials_block == 50 and run.params.image_modes == ("ecb",)
    assert run.config["image_modes"] == ["ecb"]          # JSON values for the provenance record
    with pytest.raises(ValueError, match=r"overrides: maes\.trials_block: 1 is less than the minimum of 2"):
        CHAPTER.run("quick", {"trials_block": 1})


@pytest.mark.parametrize("key, value, message", [
    ("key_hex", "2b7e", "does not match"),
    ("iv_hex", "00" * 24, "does not match"),
    ("iv_source", "hash", "is not one of"),
    ("sha3", "md5", "is not one of"),
    ("impls", ["table", "table"], "non-unique"),
    ("impls", [], "should be non-empty|is too short"),
    ("processes", 0, "less than the minimum"),
    ("trials_bulk", True, "is not of type 'integer'"),
    ("stage_blocks", 0, "less than the minimum"),
    ("warmup", -1, "less than the minimum"),
    ("bulk_modes", ["ofb"], "is not one of"),
    ("alpha", 1, "greater than or equal to the maximum"),
    ("keys_per_second", 0, "less than or equal to the minimum"),
    ("inputs", {"maes_image.npy": {"kind": "photo"}}, "is not one of"),
    ("bulk_file", "../x.bin", "does not match"),
    ("trials_bogus", 3, "Additional properties are not allowed"),
])
def test_the_schema_refuses_what_the_old_section_refused(key, value, message):
    with pytest.raises(ValueError, match=rf"maes\.?{key if key != 'trials_bogus' else ''}.*({message})"):
        CHAPTER.make_params({key: value}, where="maes")


@pytest.mark.parametrize("values, message", [
    ({"bulk_file": "other.bin"}, r"maes\.bulk_file: 'other\.bin' is not declared in maes\.inputs"),
    ({"bulk_file": "maes_image.npy"}, r"maes\.bulk_file: 'maes_image\.npy' must be a byte file"),
    ({"image_file": "maes_bulk_1048576.bin"}, r"maes\.image_file: .* kind image"),
    ({"impls": ["table"]}, r"maes\.original_style: 'reference' must be one of maes\.impls \['table'\]"),
    ({"impls": ["reference"]}, r"maes\.optimized_style: 'table' must be one of maes\.impls"),
])
def test_cross_field_rules(values, message):
    with pytest.raises(ValueError, match=message):
        CHAPTER.make_params(values, where="maes")


def test_declared_outputs_are_the_old_manifest_entry():
    assert CHAPTER.raw == ("maes_keyexp", "maes_stage", "maes_block", "maes_bulk", "maes_steps", "maes_compile",
                           "maes_overhead")
    assert "evidence_maes" in CHAPTER.timing_tables and CHAPTER.evidence == "evidence_maes"
    assert not set(CHAPTER.tables) & set(CHAPTER.timing_tables)
    assert len(set(CHAPTER.outputs)) == len(CHAPTER.outputs)   # build returns one object per name
    assert CHAPTER.paper == ("002_*.csv", "002_comparisons.yaml") and CHAPTER.papers == ("002",)
    assert [f.name for f in dataclasses.fields(Params)][:2] == ["key_hex", "iv_hex"]
    assert all(P.doc_of(f) for f in dataclasses.fields(Params))
