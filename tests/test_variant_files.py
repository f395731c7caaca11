"""Variants described in YAML (cipherlab.ciphers.variant_files): the file format's errors, the shipped
variants in every style and mode, and the papers' ciphers described the same way."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings, strategies as st

import cipherlab
import custom_variant
import naive
from cipherlab.ciphers import registry, variant_files
from cipherlab.ciphers.variant_files import (build_from_description, load_variant, register_variant_file,
                                         variant_byte_maps)
from cipherlab.ciphers.registry import lookup
from cipherlab.ciphers.sboxes import second_sbox
from cipherlab.pipeline.paths import CIPHER_DESCRIPTIONS_DIR, VARIANTS_DIR, variant_file
from conftest import OWN_STYLES

pytestmark = pytest.mark.usefixtures("module_registry", "quiet_research_warning")

VARIANTS = ("aes-affine-sbox", "aes-random-sbox", "aes-4-rounds")
PAPER_CIPHERS = ("aes", "aes-2sbox", "maes-1", "maes-2")
IV = bytes(range(100, 116))


def _iv(mode):
    return None if mode == "ecb" else IV


def _styles(name):
    return [s for s in lookup(name).styles if s in OWN_STYLES]


@pytest.fixture(scope="module")
def registered():
    """The shipped variants, in a copy of the registry."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
        for name in VARIANTS:
            register_variant_file(variant_file(name))
        yield


#: The papers' ciphers built from their descriptions (entries, not registered: ``cipherlab.new`` takes them).
DESCRIBED = {name: build_from_description(load_variant(CIPHER_DESCRIPTIONS_DIR / f"{name}.yaml"))
             for name in PAPER_CIPHERS}


@pytest.fixture
def scratch_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


def _write(tmp_path, doc, stem=None):
    path = tmp_path / f"{stem or doc['name']}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def _base():
    return {"name": "toy", "summary": "a toy", "key_bytes": 16,
            "sbox": {"kind": "rijndael"}, "linear": {"kind": "mixcolumns"}}


def _naive_encrypt(key, block, sbox, middle, rounds=None):
    """FIPS-197's cipher from tests/naive.py's steps with another S-box and middle step (``middle(s, r)``)."""
    rk = naive.round_keys(key)
    rounds = rounds or naive.NR[len(key)]
    s = [a ^ b for a, b in zip(block, rk[0])]
    for r in range(1, rounds + 1):
        s = naive._shift_rows([int(sbox[b]) for b in s])
        if r < rounds:
            s = middle(s, r)
        s = [a ^ b for a, b in zip(s, rk[r])]
    return bytes(s)


# --- the file format: each mistake a ValueError naming the file and the key ----------------------

TABLE_OK = " ".join(f"{x:02x}" for x in range(255, -1, -1))


@pytest.mark.parametrize("change, table, match", [
    (lambda d: d.update(colour="red"), None, r"unknown key 'colour'"),
    (lambda d: d.pop("summary"), None, r"'summary' is a required property"),
    (lambda d: d.pop("linear"), None, r"'linear' is a required property"),
    (lambda d: d["sbox"].update(colour=1), None, r"unknown key 'sbox.colour'"),
    (lambda d: d.update(sbox={"kind": "magic"}), None, r"key 'sbox.kind': 'magic' is not one of"),
    (lambda d: d.update(sbox="rijndael"), None, r"key 'sbox': 'rijndael' is not of type 'object'"),
    (lambda d: d.update(sbox={"kind": "second-sbox", "construction": "xor-index"}), None,
     r"key 'sbox': 'xor_byte' is a required property"),
    (lambda d: d.update(sbox={"kind": "second-sbox", "construction": "xor-index", "xor_byte": 300}), None,
     r"key 'sbox.xor_byte': xor_byte must be an integer in 0..255"),
    (lambda d: d.update(sbox={"kind": "second-sbox", "construction": "rot", "xor_byte": 1}), None,
     r"key 'sbox.construction': construction must be one of \('xor-index', 'xor-sbox'\)"),
    (lambda d: d.update(sbox={"kind": "random", "seed": -1}), None, r"key 'sbox.seed'"),
    (lambda d: d.update(sbox={"kind": "table", "file": "t.txt"}), "00 " * 256, r"key 'sbox.file'.*not a permutation"),
    (lambda d: d.update(sbox={"kind": "table", "file": "t.txt"}), "00 01", r"key 'sbox.file'.*must hold 256 hex bytes, holds 2"),
    (lambda d: d.update(sbox={"kind": "table", "file": "t.txt"}), "zz " + TABLE_OK, r"key 'sbox.file'.*entry 1 is not a hex byte"),
    (lambda d: d.update(sbox={"kind": "table", "file": "missing.txt"}), None, r"key 'sbox.file'.*cannot be read"),
    (lambda d: d.update(linear={"kind": "byte-map", "map": {"kind": "table", "file": "t.txt"}}), "01 " * 256,
     r"key 'linear.map.file'.*not a permutation"),
    (lambda d: d.update(linear={"kind": "byte-map"}), None, r"key 'linear': 'map' is a required property"),
    (lambda d: d.update(linear={"kind": "none", "approach": 1}), None, r"unknown key 'linear.approach'"),
    (lambda d: d.update(linear={"kind": "xor-iv", "iv_source": "md5"}), None,
     r"key 'linear.iv_source': iv_source must be one of \('sha3', 'keyexp'\)"),
    (lambda d: d.update(linear={"kind": "xor-iv", "approach": 3}), None, r"key 'linear.approach'"),
    (lambda d: d.update(rounds=11), None, r"key 'rounds': rounds must be an integer in 1..10"),
    (lambda d: d.update(rounds=0), None, r"key 'rounds'"),
    (lambda d: d.update(key_bytes=[16, 32], rounds=12), None, r"key 'rounds': rounds must be an integer in 1..10"),
    (lambda d: d.update(key_bytes=20), None, r"key 'key_bytes': key_bytes must be one of \(16, 24, 32\)"),
    (lambda d: d.update(name="other"), None, r"key 'name' must equal the file's stem 'toy'"),
    (lambda d: d.update(custom="no_such_module_here:build"), None, r"key 'custom' replaces the blocks"),
    (lambda d: [d.pop("sbox"), d.pop("linear"), d.update(custom="no_such_module_here:build")], None,
     r"key 'custom': cannot import module 'no_such_module_here'"),
    (lambda d: [d.pop("sbox"), d.pop("linear"), d.update(custom="custom_variant:missing")], None,
     r"key 'custom': module 'custom_variant' has no callable 'missing'"),
    (lambda d: [d.pop("sbox"), d.pop("linear"), d.update(custom="custom_variant:NOT_CALLABLE")], None,
     r"key 'custom': module 'custom_variant' has no callable"),
    (lambda d: [d.pop("sbox"), d.pop("linear"), d.update(custom="not a path")], None, r"key 'custom'"),
    # the families without code (cipherlab.ciphers.keyed): a derived S-box that is not always a permutation
    (lambda d: d.update(sbox={"kind": "derived", "from": "key",
                              "steps": [{"affine": {"matrix": "circulant", "matrix_byte": 2}}]}), None,
     r"key 'sbox.steps\[0\].affine': the circulant matrix of a key byte is singular .* not a permutation"),
    (lambda d: d.update(sbox={"kind": "derived", "steps": [{"affine": {"matrix": [1, 1, 4, 8, 16, 32, 64, 128]}}]}),
     None, r"key 'sbox.steps\[0\].affine': the matrix .* is singular over GF\(2\)"),
    (lambda d: d.update(sbox={"kind": "derived", "steps": [{"spin": {}}]}), None,
     r"unknown key 'sbox.steps.0.spin' \(allowed here: shuffle, rotate, affine, xor\)"),
    (lambda d: d.update(sbox={"kind": "derived", "steps": []}), None, r"key 'sbox.steps'"),
    (lambda d: d.update(sbox={"kind": "derived", "steps": [{"xor": {"byte": 0}}]}), None,
     r"key 'sbox.steps\[0\].xor': reads key bytes \(0\); say where they come from with 'from'"),
    (lambda d: d.update(additional_key=7), None, r"key 'additional_key': no S-box step reads it"),
    (lambda d: d.update(additional_key=300), None, r"key 'additional_key'"),
    (lambda d: d.update(sbox={"kind": "per-round", "maps": [{"kind": "table", "file": "t.txt"}]}), "00 " * 256,
     r"key 'sbox.maps\[0\].file'.*not a permutation"),
    (lambda d: d.update(shift_rows={"kind": "permutation", "permutation": list(range(15)) + [0]}), None,
     r"key 'shift_rows.permutation': must hold each of 0..15 once"),
    (lambda d: d.update(shift_rows={"kind": "derived", "from": "key"}), None, r"'method' is a required property"),
    (lambda d: [d.pop("sbox"), d.pop("linear"), d.update(custom="custom_variant:build", shift_rows={"kind": "aes"})],
     None, r"key 'custom' replaces the blocks: remove \['shift_rows'\]"),
])
def test_a_bad_description_names_the_file_and_the_key(tmp_path, change, table, match):
    doc = _base()
    change(doc)
    if table is not None:
        (tmp_path / "t.txt").write_text(table)
    path = _write(tmp_path, doc, stem="toy")
    with pytest.raises(ValueError, match=match) as err:
        load_variant(path, allow_custom=True)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("text", ["", "[1, 2]", "name: [unclosed"])
def test_a_file_that_is_no_mapping_is_refused(tmp_path, text):
    path = tmp_path / "toy.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(str(path))):
        load_variant(path)


def test_a_custom_callable_must_return_a_key_schedule(tmp_path):
    doc = {"name": "toy", "summary": "s", "key_bytes": 16, "custom": "custom_variant:not_a_schedule"}
    desc = load_variant(_write(tmp_path, doc), allow_custom=True)
    with pytest.raises(ValueError, match=r"toy.yaml: key 'custom': custom_variant:not_a_schedule returned str"):
        build_from_description(desc)


def test_a_table_file_is_read_relative_to_the_description(tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "rev.txt").write_text("# the byte reversal x -> 255 - x\n" + TABLE_OK.replace(" ", ", "))
    doc = {**_base(), "sbox": {"kind": "table", "file": "maps/rev.txt"}}
    desc = load_variant(_write(tmp_path, doc))
    assert list(desc.sbox.forward) == list(range(255, -1, -1))
    assert list(desc.sbox.inverse) == list(range(255, -1, -1))


def test_the_schema_lists_the_blocks_the_code_builds():
    schema = yaml.safe_load(variant_files.SCHEMA_FILE.read_text())
    assert tuple(schema["$defs"]["byte_map"]["properties"]["kind"]["enum"]) == variant_files.BYTE_MAPS
    assert tuple(schema["$defs"]["linear"]["properties"]["kind"]["enum"]) == variant_files.LINEAR_LAYERS


@pytest.mark.parametrize("path", sorted(VARIANTS_DIR.glob("*.yaml")) + sorted(CIPHER_DESCRIPTIONS_DIR.glob("*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_description_loads(path):
    desc = load_variant(path)
    assert desc.name == path.stem and desc.summary and desc.about


def test_the_shipped_files_are_there():
    assert {p.stem for p in CIPHER_DESCRIPTIONS_DIR.glob("*.yaml")} == set(PAPER_CIPHERS)
    assert set(VARIANTS) <= {p.stem for p in VARIANTS_DIR.glob("*.yaml")}
    assert variant_file("aes-4-rounds") == VARIANTS_DIR / "aes-4-rounds.yaml"


# --- registering -----------------------------------------------------------------------------------

def test_registering_is_idempotent_and_refuses_a_taken_name(scratch_registry, tmp_path):
    info = register_variant_file(variant_file("aes-4-rounds"))
    assert register_variant_file(variant_file("aes-4-rounds")) is info is lookup("aes-4-rounds")
    other = yaml.safe_load(variant_file("aes-4-rounds").read_text())
    other["rounds"] = 5
    with pytest.raises(ValueError, match=r"key 'name': cipher 'aes-4-rounds' is already registered as a different"):
        register_variant_file(_write(tmp_path, other))
    with pytest.raises(ValueError, match=r"aes.yaml: key 'name': 'aes' is the name of a cipher built into cipherlab"):
        register_variant_file(CIPHER_DESCRIPTIONS_DIR / "aes.yaml")


def test_a_variant_is_a_research_cipher_with_rounds_as_an_option(registered):
    info = lookup("aes-4-rounds")
    assert info.research and "NOT secure" in info.summary and info.key_sizes == (16,)
    assert cipherlab.cipher_options("aes-4-rounds") == {"rounds": 4}
    with pytest.warns(cipherlab.InsecureCipherWarning, match="'aes-affine-sbox' is a research cipher"):
        cipherlab.new(bytes(16), "aes-affine-sbox")
    assert cipherlab.new(bytes(16), "aes-4-rounds").rounds == 4
    assert cipherlab.new(bytes(32), "aes-random-sbox").rounds == 14
    with pytest.raises(ValueError, match="key must be 16 bytes long"):
        cipherlab.new(bytes(24), "aes-4-rounds")


def test_the_styles_are_computed(registered, tmp_path):
    assert lookup("aes-4-rounds").styles == ("reference", "table", "aesni")
    assert lookup("aes-affine-sbox").styles == lookup("aes-random-sbox").styles == ("reference", "table")
    for name in PAPER_CIPHERS:
        assert DESCRIBED[name].styles == tuple(s for s in lookup(name).styles if s != "pycryptodome")
    random_map = {**_base(), "linear": {"kind": "byte-map", "map": {"kind": "random", "seed": 1}}}
    none = {**_base(), "linear": {"kind": "none"}}
    for doc, styles in ((random_map, ("reference", "table")), (none, ("reference", "table", "aesni"))):
        assert build_from_description(load_variant(_write(tmp_path, doc))).styles == styles


def test_the_byte_maps_are_exposed(registered):
    affine, _ = second_sbox(0x7F, "xor-index")
    assert np.array_equal(variant_byte_maps("aes-affine-sbox")["sbox"], affine)
    assert np.array_equal(lookup("aes-random-sbox").byte_maps["sbox"], np.random.default_rng(2024).permutation(256))
    assert set(variant_byte_maps("aes-4-rounds")) == {"sbox"}
    assert np.array_equal(variant_byte_maps("aes-2sbox")["linear"], affine)
    desc = load_variant(CIPHER_DESCRIPTIONS_DIR / "aes-2sbox.yaml")
    assert np.array_equal(variant_byte_maps(desc)["sbox"], cipherlab.rijndael_sbox())


# --- the shipped variants ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode", cipherlab.MODES)
@pytest.mark.parametrize("name", VARIANTS)
def test_round_trip_in_every_style_and_the_styles_agree(registered, name, mode):
    rng = np.random.default_rng([len(name), len(mode)])
    for size in lookup(name).key_sizes:
        key, data = rng.bytes(size), rng.bytes(1000)
        outputs = set()
        for impl in _styles(name):
            c = cipherlab.new(key, name, mode, iv=_iv(mode), impl=impl)
            ct = c.encrypt(data)
            assert c.decrypt(ct) == data and ct[:16] != data[:16]
            outputs.add(ct)
        assert len(outputs) == 1, f"the styles {_styles(name)} disagree"


@pytest.mark.skipif("aesni" not in OWN_STYLES, reason="needs AES-NI")
def test_a_variant_s_own_round_count_gets_the_hardware_style_s_fixed_kernel(registered):
    """aes-4-rounds runs the unrolled kernel compiled for its 4 rounds, as AES does for 10 (so its speed
    against AES compares like with like); the rounds option (any count) keeps the one shared kernel."""
    from cipherlab.ciphers import _aesni

    info = lookup("aes-4-rounds")
    spec = info.make(bytes(16), info.check_options({}, 16))
    assert spec.own_rounds == 4 and len(_aesni.plan(spec, False).rk) == 5          # k0..k4, the fixed form
    reduced = info.make(bytes(16), info.check_options({"rounds": 2}, 16))
    assert len(_aesni.plan(reduced, False).rk) == 4                                # (k0, middle, n, k_last)
    aes4 = lookup("aes").make(bytes(16), lookup("aes").check_options({"rounds": 4}, 16))
    assert aes4.own_rounds is None and len(_aesni.plan(aes4, True).rk) == 4
    data = bytes(range(256)) * 3
    for mode in cipherlab.MODES:
        fixed = cipherlab.new(bytes(16), "aes-4-rounds", mode, iv=_iv(mode), impl="aesni")
        counted = cipherlab.new(bytes(16), "aes", mode, iv=_iv(mode), impl="aesni", rounds=4)
        assert fixed.encrypt(data) == counted.encrypt(data) and fixed.decrypt(counted.encrypt(data)) == data


@pytest.mark.parametrize("impl", [s for s in ("reference", "table", "aesni") if s in OWN_STYLES])
def test_aes_4_rounds_is_aes_with_4_rounds(registered, impl):
    rng = np.random.default_rng(4)
    for _ in range(3):
        key, block = rng.bytes(16), rng.bytes(16)
        ours = cipherlab.new(key, "aes-4-rounds", impl=impl, padding=False).encrypt(block)
        assert ours == cipherlab.new(key, "aes", rounds=4, impl=impl, padding=False).encrypt(block)
        assert ours == naive.encrypt_block(key, block, "aes", rounds=4)


@pytest.mark.parametrize("impl", ["reference", "table"])
@pytest.mark.parametrize("name", ["aes-affine-sbox", "aes-random-sbox"])
def test_the_sbox_variants_match_a_naive_cipher_with_their_sbox(registered, name, impl):
    sbox = variant_byte_maps(name)["sbox"]
    rng = np.random.default_rng(len(name))
    for size in (16, 24, 32):
        for rounds in (None, 2):
            key, block = rng.bytes(size), rng.bytes(16)
            options = {} if rounds is None else {"rounds": rounds}
            ours = cipherlab.new(key, name, impl=impl, padding=False, **options).encrypt(block)
            assert ours == _naive_encrypt(key, block, sbox, lambda s, r: naive._mix_columns(s), rounds)


def _ecb_blocks(name, key, blocks, impl="table"):
    c = cipherlab.new(key, name, impl=impl, padding=False)
    return np.frombuffer(c.encrypt(blocks.tobytes()), dtype=np.uint8).reshape(-1, 16)


@pytest.mark.parametrize("size", [16, 24, 32])
def test_aes_affine_sbox_is_affine_and_aes_random_sbox_is_not(registered, size):
    """E(a) ^ E(b) ^ E(c) == E(a ^ b ^ c) for a fixed key: what the affinity attack relies on."""
    rng = np.random.default_rng(size)
    key = rng.bytes(size)
    a, b, c = (rng.integers(0, 256, (64, 16), dtype=np.uint8) for _ in range(3))
    for name, affine in (("aes-affine-sbox", True), ("aes-random-sbox", False)):
        lhs = _ecb_blocks(name, key, a) ^ _ecb_blocks(name, key, b) ^ _ecb_blocks(name, key, c)
        rhs = _ecb_blocks(name, key, a ^ b ^ c)
        if affine:
            assert np.array_equal(lhs, rhs)
        else:
            assert (lhs != rhs).any(axis=1).all()


def test_a_custom_variant_runs_in_the_styles_it_maps_to(scratch_registry, tmp_path):
    doc = {"name": "aes-blake2-ivs", "summary": "IVs from BLAKE2b", "key_bytes": [16, 32], "rounds": 6,
           "custom": "custom_variant:build"}
    info = register_variant_file(_write(tmp_path, doc), allow_custom=True)
    assert info.styles == ("reference", "table", "aesni") and info.key_sizes == (16, 32)
    key, data = bytes(range(32)), bytes(range(64))
    ivs = custom_variant.Blake2IVs(key, 6).round_ivs
    expected = b"".join(_naive_encrypt(key, data[i:i + 16], naive.SBOX, lambda s, r: [x ^ int(y) for x, y in zip(s, ivs[r])], 6)
                        for i in range(0, 64, 16))
    for impl in _styles("aes-blake2-ivs"):
        c = cipherlab.new(key, "aes-blake2-ivs", impl=impl, padding=False)
        assert c.encrypt(data) == expected and c.decrypt(expected) == data


# --- the papers' ciphers, described ------------------------------------------------------------------

def test_the_papers_descriptions_are_not_registered():
    before = cipherlab.cipher_names(families=True)
    for name in PAPER_CIPHERS:
        info = build_from_description(load_variant(CIPHER_DESCRIPTIONS_DIR / f"{name}.yaml"))
        assert info.name == name and lookup(name) is not info
        assert not isinstance(lookup(name), variant_files.VariantInfo)
    assert cipherlab.cipher_names(families=True) == before


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(PAPER_CIPHERS), size=st.sampled_from((16, 24, 32)), mode=st.sampled_from(cipherlab.MODES),
       rounds=st.integers(1, 10), seed=st.integers(0, 2**32 - 1), data=st.binary(max_size=200))
def test_the_papers_descriptions_equal_the_registered_ciphers(name, size, mode, rounds, seed, data):
    key = np.random.default_rng(seed).bytes(size)
    assert set(DESCRIBED[name].styles) == set(lookup(name).styles) & set(OWN_STYLES)
    for impl in [s for s in DESCRIBED[name].styles if s in OWN_STYLES]:
        for options in ({}, {"rounds": rounds}):
            ours = cipherlab.new(key, DESCRIBED[name], mode, iv=_iv(mode), impl=impl, **options)
            theirs = cipherlab.new(key, name, mode, iv=_iv(mode), impl=impl, **options)
            assert ours.encrypt(data) == theirs.encrypt(data)


def test_new_takes_a_described_entry_without_registering_it():
    before = cipherlab.cipher_names(families=True)
    info = DESCRIBED["aes-2sbox"]
    with pytest.warns(cipherlab.InsecureCipherWarning, match="'aes-2sbox' is a research cipher, NOT secure"):
        c = cipherlab.new(bytes(16), info, "ecb", padding=False)
    assert c.cipher == "aes-2sbox" and not c.secure
    assert cipherlab.cipher_names(families=True) == before
    with pytest.raises(ValueError, match=r"cipher must be one of \('aes'"):
        cipherlab.new(bytes(16), 3)
    with pytest.raises(ValueError, match="unknown option"):
        cipherlab.new(bytes(16), info, xor_byte=1)   # a description fixes its byte maps


# --- a variant file is code only when the user allows it; the YAML is strict (issue 23) -----------

CUSTOM_DOC = {"name": "toy", "summary": "s", "key_bytes": 16, "custom": "custom_variant:build"}


def test_custom_is_refused_unless_allowed_and_nothing_is_imported(tmp_path, monkeypatch):
    monkeypatch.delenv(variant_files.ALLOW_CUSTOM_ENV, raising=False)
    path = tmp_path / "toy.yaml"
    path.write_text("name: toy\nsummary: s\nkey_bytes: 16\ncustom: 'this:s'\n")  # 'import this' prints the Zen
    monkeypatch.delitem(__import__("sys").modules, "this", raising=False)
    with pytest.raises(ValueError, match=r"toy.yaml: key 'custom': 'this:s' would run Python code; refused "
                                         r"unless allowed \(CIPHERLAB_ALLOW_CUSTOM=1"):
        load_variant(path)
    assert "this" not in __import__("sys").modules


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_custom_runs_when_the_user_allows_it(tmp_path, monkeypatch, how):
    monkeypatch.delenv(variant_files.ALLOW_CUSTOM_ENV, raising=False)
    path = _write(tmp_path, CUSTOM_DOC)
    if how == "flag":
        desc = load_variant(path, allow_custom=True)
    else:
        monkeypatch.setenv(variant_files.ALLOW_CUSTOM_ENV, "1")
        desc = load_variant(path)
    assert desc.custom == "custom_variant:build"
    with pytest.raises(ValueError, match="refused unless allowed"):
        load_variant(path, allow_custom=False)  # the flag wins over the environment


@pytest.mark.parametrize("text, match", [
    ("key_bytes: 16.0\n", r"key 'key_bytes': must be an integer, got 16.0"),
    ("key_bytes: 16\nrounds: 4.0\n", r"key 'rounds': must be an integer, got 4.0"),
    ("key_bytes: 16\nkey_bytes: 32\n", r"key 'key_bytes' is given twice \(lines 3 and 4\)"),
    ("key_bytes: 16\nsummary: again\n", r"key 'summary' is given twice"),
    ("key_bytes: &k 16\nrounds: *k\n", r"anchors and aliases .* are not allowed"),
])
def test_strict_yaml_numbers_duplicates_and_aliases(tmp_path, text, match):
    path = tmp_path / "toy.yaml"
    path.write_text("name: toy\nsummary: s\n" + text + "sbox: {kind: rijndael}\nlinear: {kind: mixcolumns}\n")
    with pytest.raises(ValueError, match=match) as err:
        load_variant(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_a_random_seed_must_be_an_integer(tmp_path):
    path = _write(tmp_path, {**_base(), "sbox": {"kind": "random", "seed": 99.0}})
    with pytest.raises(ValueError, match=r"toy.yaml: key 'sbox.seed': must be an integer, got 99.0"):
        load_variant(path)


def test_an_alias_bomb_is_refused_at_once(tmp_path):
    import time
    rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    rows += [f"{b}: &{b} [{', '.join(['*' + a] * 9)}]" for a, b in zip("abcdefgh", "bcdefghi")]
    path = tmp_path / "toy.yaml"
    path.write_text("\n".join(rows) + "\n")
    start = time.perf_counter()
    with pytest.raises(ValueError, match="anchors and aliases"):
        load_variant(path)
    assert time.perf_counter() - start < 10  # before: over 120 s (9^9 strings)


@pytest.mark.parametrize("file", ["../secret.txt", "/etc/passwd", "maps/../../secret.txt", "link.txt"])
def test_a_table_file_outside_the_variant_folder_is_refused_without_echo(tmp_path, file):
    folder = tmp_path / "variants"
    folder.mkdir()
    (tmp_path / "secret.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (folder / "link.txt").symlink_to(tmp_path / "secret.txt")
    path = _write(folder, {**_base(), "sbox": {"kind": "table", "file": file}})
    with pytest.raises(ValueError, match=r"key 'sbox.file': a table file must lie in the variant file's folder") as err:
        load_variant(path)
    assert "root:" not in str(err.value)


def test_a_bad_table_entry_is_named_by_position_not_echoed(tmp_path):
    (tmp_path / "t.txt").write_text("secretword " + " ".join(f"{i:02x}" for i in range(255)))
    path = _write(tmp_path, {**_base(), "sbox": {"kind": "table", "file": "t.txt"}})
    with pytest.raises(ValueError, match=r"entry 1 is not a hex byte") as err:
        load_variant(path)
    assert "secretword" not in str(err.value)


# --- linear: {matrix: ...}: any invertible 4 x 4 matrix over GF(2^8) --------------------------------

AES_ROWS = [[2, 3, 1, 1], [1, 2, 3, 1], [1, 1, 2, 3], [3, 1, 1, 2]]
CIRC_1112 = [[1, 1, 1, 2], [2, 1, 1, 1], [1, 2, 1, 1], [1, 1, 2, 1]]


def _matrix_variant(tmp_path, rows, name="toy-matrix", kind=False):
    linear = {"kind": "matrix", "matrix": rows} if kind else {"matrix": rows}
    return build_from_description(load_variant(_write(tmp_path, {**_base(), "name": name, "key_bytes": [16, 24, 32],
                                                                 "linear": linear})))


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from((16, 24, 32)), mode=st.sampled_from(cipherlab.MODES), impl=st.sampled_from(("reference", "table")),
       rounds=st.one_of(st.none(), st.integers(1, 10)), seed=st.integers(0, 2**32 - 1), kind=st.booleans())
def test_the_aes_matrix_described_as_a_matrix_encrypts_bit_for_bit_like_aes(tmp_path_factory, size, mode, impl, rounds,
                                                                             seed, kind):
    info = _matrix_variant(tmp_path_factory.mktemp("m"), AES_ROWS, kind=kind)
    assert info.description.linear == "matrix" and info.styles == ("reference", "table")
    rng = np.random.default_rng(seed)
    key, msg = rng.bytes(size), rng.bytes(int(rng.integers(0, 80)))
    options = {} if rounds is None else {"rounds": rounds}
    ours = cipherlab.new(key, info, mode=mode, iv=_iv(mode), impl=impl, **options)
    theirs = cipherlab.new(key, "aes", mode=mode, iv=_iv(mode), impl=impl, **options)
    ct = ours.encrypt(msg)
    assert ct == theirs.encrypt(msg)
    assert cipherlab.new(key, info, mode=mode, iv=_iv(mode), impl=impl, **options).decrypt(ct) == msg


@pytest.mark.parametrize("impl", ["reference", "table"])
def test_a_non_mds_matrix_matches_a_naive_cipher_and_decrypts(tmp_path, impl):
    info = _matrix_variant(tmp_path, CIRC_1112)
    rng = np.random.default_rng(7)
    for size in (16, 24, 32):
        for rounds in (None, 1, 3):
            key, block = rng.bytes(size), rng.bytes(16)
            options = {} if rounds is None else {"rounds": rounds}
            ours = cipherlab.new(key, info, impl=impl, padding=False, **options).encrypt(block)
            assert ours == _naive_encrypt(key, block, naive.rijndael_sbox_naive(),
                                          lambda s, r: naive._mix_columns(s, CIRC_1112), rounds)
            assert cipherlab.new(key, info, impl=impl, padding=False, **options).decrypt(ours) == block


@pytest.mark.parametrize("rows, match", [
    ([[1, 1, 1, 1], [1, 1, 1, 1], [1, 2, 1, 1], [1, 1, 2, 1]], r"key 'linear.matrix': the matrix .* is singular"),
    ([[0] * 4 for _ in range(4)], r"key 'linear.matrix': the matrix .* is singular"),   # rows written out: no YAML aliases
    ([[1, 2], [3, 4]], r"key 'linear.matrix': .* is too short"),
    ([[1, 2, 3, 256] for _ in range(4)], r"key 'linear.matrix.0.3': 256 is greater than the maximum"),
])
def test_a_bad_matrix_is_one_error_naming_the_key(tmp_path, rows, match):
    path = _write(tmp_path, {**_base(), "linear": {"matrix": rows}})
    with pytest.raises(ValueError, match=match) as err:
        load_variant(path)
    assert str(path) in str(err.value)


def test_a_matrix_with_another_kind_is_refused(tmp_path):
    path = _write(tmp_path, {**_base(), "linear": {"kind": "mixcolumns", "matrix": AES_ROWS}})
    with pytest.raises(ValueError, match=r"key 'linear"):
        load_variant(path)


# --- what the loader refuses (issue 33: items 6 and 7, and the minor ones of the variant files) --------------


def _in_subprocess(code: str, timeout: int = 60) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with a timeout: a loader that hangs fails the test, never the run."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                          cwd=Path(__file__).parent)


def test_a_variant_named_like_a_built_in_cipher_is_refused_everywhere(scratch_registry, tmp_path, monkeypatch):
    """The probe: config/variants/aes.yaml with rounds: 1 made `make variant VARIANT=aes` measure the real AES."""
    from cipherlab import _variant_check
    from cipherlab.experiments.variant import driver

    doc = {**_base(), "name": "aes", "rounds": 1}
    path = _write(tmp_path, doc)
    message = r"key 'name': 'aes' is the name of a cipher built into cipherlab; a variant needs a name"
    with pytest.raises(ValueError, match=message):
        register_variant_file(path)
    monkeypatch.setattr(driver, "variant_file", lambda name: tmp_path / f"{name}.yaml")
    with pytest.raises(ValueError, match=message):
        driver.resolve("aes")
    monkeypatch.setattr(_variant_check, "variant_names", lambda: ("aes",))
    monkeypatch.setattr(_variant_check, "variant_file", lambda name: tmp_path / f"{name}.yaml")
    with pytest.raises(ValueError, match=message):
        _variant_check.check("aes")
    assert not lookup("aes").research   # the built-in AES stays what the name means


@pytest.mark.parametrize("which", ["table", "variant"])
def test_a_fifo_is_refused_at_once(tmp_path, which):
    """The probe: a FIFO as `sbox.file` hung the loader for more than 75 s (the variant file itself too)."""
    if which == "table":
        os.mkfifo(tmp_path / "t.txt")
        path = _write(tmp_path, {**_base(), "sbox": {"kind": "table", "file": "t.txt"}})
        message = "key 'sbox.file': table file"
    else:
        path = tmp_path / "toy.yaml"
        os.mkfifo(path)
        message = "variant file"
    proc = _in_subprocess("from cipherlab.ciphers.variant_files import load_variant\n"
                          f"try:\n    load_variant({str(path)!r})\nexcept ValueError as e:\n    print(e)\n", timeout=30)
    assert message in proc.stdout and "must be a regular file, got a FIFO" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize("what", ["huge table", "huge variant", "directory table"])
def test_only_small_regular_files_are_read(tmp_path, what):
    if what == "huge variant":
        path = _write(tmp_path, _base())
        path.write_text(path.read_text() + "#" * (300 * 1024) + "\n")
        message = r"toy.yaml is \d+ bytes; at most 262144 are read"
    else:
        table = tmp_path / "t.txt"
        if what == "huge table":
            table.write_text("00 " * 40_000)
            message = r"table file .*t.txt is 120000 bytes; at most 65536 are read"
        else:
            table.mkdir()
            message = "table file .*t.txt must be a regular file, got a directory"
        path = _write(tmp_path, {**_base(), "sbox": {"kind": "table", "file": "t.txt"}})
    with pytest.raises(ValueError, match=message) as err:
        load_variant(path)
    assert "\n" not in str(err.value)


def test_deep_nesting_is_one_line_not_a_recursion_error(tmp_path):
    path = tmp_path / "toy.yaml"
    path.write_text("name: toy\nsummary: " + "[" * 50_000 + "]" * 50_000 + "\n")
    with pytest.raises(ValueError, match=r"toy.yaml: not valid YAML: nested more than 16 levels deep") as err:
        load_variant(path)
    assert "\n" not in str(err.value)


def test_many_unknown_keys_give_a_short_error_quickly(tmp_path):
    path = _write(tmp_path, _base())
    path.write_text(path.read_text() + "".join(f"k{i}: 1\n" for i in range(25_000)))
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"unknown key 'k0', 'k1', .* and 24995 more \(allowed here") as err:
        load_variant(path)
    assert len(str(err.value)) < 2000 and time.perf_counter() - start < 30
    path.write_text("\n".join(f"k{i}: 1" for i in range(300_000)))   # the probe's 300k: refused by size
    with pytest.raises(ValueError, match="at most 262144 are read"):
        load_variant(path)


def test_a_custom_callable_with_the_wrong_signature_is_refused_at_load(tmp_path):
    doc = {"name": "toy", "summary": "s", "key_bytes": 16, "custom": "custom_variant:wrong_signature"}
    with pytest.raises(ValueError, match=r"toy.yaml: key 'custom': custom_variant:wrong_signature must take "
                                         r"\(key: bytes, rounds: int \| None\), its signature is "
                                         r"wrong_signature\(key"):
        load_variant(_write(tmp_path, doc), allow_custom=True)


@pytest.mark.parametrize("name", ["aes-2sbox", "maes-1", "maes"])
def test_a_variant_named_like_a_built_in_cipher_is_refused_in_a_fresh_process(tmp_path, name):
    """The built-in ciphers register on import; a fresh process that imports only the loader must still know
    all of them (a probe registered ``aes-2sbox.yaml`` there, and ``cipherlab.new`` then crashed)."""
    doc = {**_base(), "name": name}
    path = _write(tmp_path, doc)
    code = ("import sys\nfrom cipherlab.ciphers.variant_files import register_variant_file\n"
            "try:\n    register_variant_file(sys.argv[1])\nexcept ValueError as e:\n    print(e); sys.exit(2)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "is the name of a cipher built into cipherlab" in proc.stdout
