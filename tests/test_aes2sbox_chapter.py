"""The AES-2SBox chapter's declaration (cipherlab.experiments.aes2sbox.chapter): its parameters are checked at the
door, with one line naming the key; the quick profile names only what it shrinks."""
from __future__ import annotations

import pytest

from cipherlab.ciphers.modes import IMPLS, MODES
from cipherlab.ciphers.sboxes import SECOND_SBOX_CONSTRUCTIONS
from cipherlab.experiments.aes2sbox import common
from cipherlab.experiments.aes2sbox.chapter import CHAPTER, PAPERS, Params
from cipherlab.pipeline import params as P
from cipherlab.pipeline.config import read_config


def test_the_schema_offers_what_the_library_accepts():
    props = P.section_schema(Params)["properties"]
    assert props["construction"]["enum"] == list(SECOND_SBOX_CONSTRUCTIONS)
    assert props["mode"]["enum"] == list(MODES) and set(props["impls"]["items"]["enum"]) <= set(IMPLS)
    assert props["protocols"]["propertyNames"]["enum"] == list(PAPERS) == list(common.PAPERS)


@pytest.mark.parametrize("values, message", [
    ({"xor_byte": 999}, r"aes2sbox.xor_byte: 999 is greater than the maximum of 255"),
    ({"impls": ["fast"]}, r"aes2sbox.impls.0: 'fast' is not one of"),
    ({"impls": []}, r"aes2sbox.impls: \[\] should be non-empty"),
    ({"threads": 0}, r"aes2sbox.threads: 0 is less than the minimum of 1"),
    ({"alpha": 1.0}, r"aes2sbox.alpha: 1.0 is greater than or equal to the maximum of 1"),
    ({"construction": "xor"}, r"aes2sbox.construction: 'xor' is not one of \['xor-index', 'xor-sbox'\]"),
    ({"key_hex": "2b7e"}, r"aes2sbox.key_hex: '2b7e' does not match"),
    ({"protocols": {"000": {"file": "aes2sbox_000_text_60416.txt", "trials": 1, "warmup": 0}}},
     r"aes2sbox.protocols.000.trials: 1 is less than the minimum of 2"),
    ({"protocols": {"002": {"file": "aes2sbox_000_text_60416.txt", "trials": 2, "warmup": 0}}},
     r"aes2sbox.protocols: '002' is not one of \['000', '001'\]"),
    ({"protocols": {"000": {"file": "aes2sbox_000_text_60416.txt", "trials": 2}}},
     r"aes2sbox.protocols.000: 'warmup' is a required property"),
    ({"trials": 5}, r"aes2sbox: Additional properties are not allowed \('trials' was unexpected\)"),
])
def test_a_bad_value_is_refused_naming_its_key(values, message):
    with pytest.raises(ValueError, match=message):
        CHAPTER.make_params(values)


def test_each_protocol_times_a_declared_input():
    with pytest.raises(ValueError, match=r"aes2sbox.protocols: paper 001 times 'other.txt', which is not one of "
                                         r"aes2sbox.inputs \['aes2sbox_000_text_60416.txt'"):
        CHAPTER.make_params({"protocols": {"001": {"file": "other.txt", "trials": 2, "warmup": 0}}})
    one = CHAPTER.make_params({"protocols": {"001": {"file": "x.txt", "trials": 2, "warmup": 0}},
                               "inputs": {"x.txt": {"kind": "text", "bytes": 16}}})
    assert list(one.protocols) == ["001"]


def test_the_quick_profile_names_only_what_it_shrinks():
    section = read_config("quick")[CHAPTER.section]
    quick = CHAPTER.make_params(section)
    assert set(section) == set(P.changed(quick))
    assert quick.impls == Params().impls and quick.processes < Params().processes
    assert all(spec["file"] in quick.inputs for spec in quick.protocols.values())
