"""The cipher registry (cipherlab.ciphers.registry) and the one-value checks (cipherlab._checks)."""
from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import cipherlab
from cipherlab.ciphers import registry
from cipherlab._checks import check_bytes, check_choice, check_choices
from cipherlab.ciphers.aes import AES
from cipherlab.ciphers.registry import STYLES, CipherInfo, Option, cipher_names, cipher_options, lookup


# --- what is registered ------------------------------------------------------------------------

def test_the_registered_ciphers():
    assert cipher_names() == ("aes", "aes-2sbox", "maes-1", "maes-2")
    assert cipher_names(families=True) == ("aes", "aes-2sbox", "maes", "maes-1", "maes-2")
    assert cipher_names(research=False) == ("aes",)
    assert cipher_names(style="pycryptodome") == ("aes",)
    assert cipher_names(style="aesni", families=True) == cipher_names(families=True)
    assert set(cipher_options("maes")) == {"rounds", "approach", "iv_source", "sha3", "sha3_chain"}
    assert lookup("maes-1").fixed == {"approach": 1} and lookup("maes-1").family == "maes"
    assert cipherlab.cipher_names is cipher_names and cipherlab.lookup is lookup


def test_every_entry_is_complete(cipher):
    info = lookup(cipher)
    assert info.name == cipher and info.summary
    assert set(info.styles) <= set(STYLES) and {"reference", "table", "aesni"} <= set(info.styles)
    assert info.key_sizes == (16, 24, 32)
    assert info.research == (cipher != "aes")
    # the defaults pass their own checks, for every key size
    for size in info.key_sizes:
        checked = info.check_options({}, size)
        assert set(checked) == set(info.options)
        assert checked["rounds"] == registry.AES_ROUNDS[size]


def test_new_reports_the_checked_options(cipher):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        c = cipherlab.new(bytes(24), cipher)
    assert c.options == lookup(cipher).check_options({}, 24)
    assert c.secure == (not lookup(cipher).research)


@pytest.mark.parametrize("name, match", [
    ("des", r"cipher must be one of \('aes', 'aes-2sbox', 'maes', 'maes-1', 'maes-2'\), got 'des'"),
    ("AES", "cipher must be one of"),
])
def test_lookup_names_the_allowed_ciphers(name, match):
    with pytest.raises(ValueError, match=match):
        lookup(name)


def test_style_filter_is_checked():
    with pytest.raises(ValueError, match="style must be one of"):
        cipher_names(style="fast")


# --- registering -------------------------------------------------------------------------------

@pytest.fixture
def scratch_registry(monkeypatch):
    """A copy of the registry that the test may add to; the real one is restored after."""
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))


def test_a_newly_registered_cipher_is_dispatched_listed_and_checked(scratch_registry):
    registry.register(CipherInfo(
        "aes-toy", lambda key, rounds, colour: AES(key, rounds), {"rounds": registry.ROUNDS, "colour": Option("red", ("red", "blue"))},
        styles=("reference", "table"), research=True, summary="a test cipher"))
    assert "aes-toy" in cipher_names() and "aes-toy" not in cipher_names(style="aesni")
    key, block = bytes(range(16)), bytes(16)
    with pytest.warns(cipherlab.InsecureCipherWarning, match="'aes-toy' is a research cipher"):
        toy = cipherlab.new(key, "aes-toy", impl="reference", rounds=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        assert toy.encrypt_block(block) == cipherlab.new(key, rounds=4).encrypt_block(block)
    assert toy.options == {"rounds": 4, "colour": "red"}
    with pytest.raises(ValueError, match=r"colour must be one of \('red', 'blue'\), got 'green'"):
        cipherlab.new(key, "aes-toy", colour="green")
    with pytest.raises(ValueError, match=r"impl 'aesni' is not a style of cipher 'aes-toy'"):
        cipherlab.new(key, "aes-toy", impl="aesni")


def test_register_refuses_a_taken_name_and_unknown_styles(scratch_registry):
    with pytest.raises(ValueError, match="cipher 'aes' is already registered"):
        registry.register(CipherInfo("aes", AES))
    with pytest.raises(ValueError, match="styles must be one of"):
        registry.register(CipherInfo("x", AES, styles=("gpu",)))
    with pytest.raises(ValueError, match="option must be one of"):
        registry.register_variant("maes-9", "maes", colour=1)
    with pytest.raises(ValueError, match=r"approach must be one of \(1, 2\)"):
        registry.register_variant("maes-3", "maes", approach=3)


def test_the_memo_of_checked_arguments_never_outlives_the_registry(scratch_registry, monkeypatch):
    """new() checks (cipher, mode, impl, padding, threads) once per combination: a later registration,
    a swapped registry or a name bound to another entry is seen on the very next call."""
    key, block = bytes(range(16)), bytes(16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        plain = cipherlab.new(key, "aes", impl="table").encrypt_block(block)  # a cached success
        with pytest.raises(ValueError, match="cipher must be one of"):
            cipherlab.new(key, "maes-x", impl="table")
        registry.register_variant("maes-x", "maes", approach=1)  # registered after the cached look-ups
        assert cipherlab.new(key, "maes-x", impl="table").encrypt_block(block) == \
            cipherlab.new(key, "maes-1", impl="table").encrypt_block(block)
        # the name's entry gone (the registry swapped, as this fixture does), then bound to another one
        monkeypatch.setattr(registry, "_REGISTRY", {n: i for n, i in registry._REGISTRY.items() if n != "maes-x"})
        with pytest.raises(ValueError, match="cipher must be one of"):
            cipherlab.new(key, "maes-x", impl="table")
        registry.register_variant("maes-x", "maes", approach=2)
        assert cipherlab.new(key, "maes-x", impl="table").encrypt_block(block) == \
            cipherlab.new(key, "maes-2", impl="table").encrypt_block(block)
        registry.register(CipherInfo("aes-y", AES, {"rounds": registry.ROUNDS}, styles=("reference",)))
        with pytest.raises(ValueError, match=r"impl 'table' is not a style of cipher 'aes-y'"):
            cipherlab.new(key, "aes-y", impl="table")
    assert cipherlab.new(key, "aes", impl="table").encrypt_block(block) == plain


@pytest.mark.parametrize("changes, match", [
    ({"threads": True}, r"threads must be None \(all cores\) or an integer in 1\.\.\d+"),
    ({"threads": np.True_}, r"threads must be None \(all cores\) or an integer"),
    ({"threads": 0}, r"threads must be None \(all cores\) or an integer"),
    ({"padding": 1}, r"padding must be True or False, got 1"),
    ({"mode": "gcm"}, r"mode must be one of \('ecb', 'cbc', 'ctr'\), got 'gcm'"),
    ({"impl": "fast"}, r"impl must be one of"),
    ({"cipher": "des"}, r"cipher must be one of"),
    ({"key": bytes(15)}, r"key must be 16, 24 or 32 bytes long \(AES-128/192/256\), got 15 bytes"),
    ({"key": "k" * 16}, r"key must be bytes-like"),
    ({"iv": bytes(16)}, r"iv must be None for mode 'ecb'"),
    ({"mode": "ctr"}, r"iv is required for mode 'ctr'"),
    ({"rounds": 11}, r"rounds must be an integer in 1\.\.10 for a 128-bit key, got 11"),
    ({"colour": "red"}, r"unknown option\(s\) \['colour'\] for cipher 'aes'"),
])
def test_bad_input_after_a_cached_success_gets_the_same_one_line_error(changes, match):
    args = {"key": bytes(16), "cipher": "aes", "mode": "ecb", "impl": "table", "padding": True, "threads": 1}
    cipherlab.new(**args)  # the same combination, checked and remembered
    with pytest.raises(ValueError, match=match) as error:
        cipherlab.new(**{**args, **changes})
    assert "\n" not in str(error.value)
    assert cipherlab.new(**args).threads == 1


def test_an_insecure_cipher_warns_on_every_creation_memo_or_not():
    for _ in range(2):
        with pytest.warns(cipherlab.InsecureCipherWarning, match="reduced to 4 of 10 rounds"):
            c = cipherlab.new(bytes(16), rounds=4)
        assert not c.secure and c.rounds == 4
        with pytest.warns(cipherlab.InsecureCipherWarning, match="'maes-1' is a research cipher"):
            assert not cipherlab.new(bytes(16), "maes-1").secure
    assert cipherlab.new(bytes(16)).secure


# --- the one-value checks ----------------------------------------------------------------------

def test_check_choice():
    assert check_choice("mode", "ecb", ("ecb", "cbc")) == "ecb"
    assert check_choice("approach", np.int64(2), (1, 2)) == 2
    for bad in ("gcm", True, [1], np.zeros(2)):
        with pytest.raises(ValueError, match=r"must be one of \("):
            check_choice("x", bad, (1, 2, "ecb"))


def test_check_choices():
    assert check_choices("ciphers", ["aes", "maes-1"], cipher_names()) == ("aes", "maes-1")
    for bad, match in (("aes", "must be a list .* got the string"), ([], "must hold at least one"), (["aes", "aes"], "must not repeat"),
                       (["rot13"], "must be one of"), (3, "must be a list")):
        with pytest.raises(ValueError, match=f"ciphers {match}"):
            check_choices("ciphers", bad, cipher_names())


def test_check_bytes():
    assert check_bytes("key", bytearray(b"ab"), "bytes") == b"ab"
    assert check_bytes("key", np.frombuffer(b"ab", dtype=np.uint8), "bytes") == b"ab"
    with pytest.raises(ValueError, match="key must be bytes, got str"):
        check_bytes("key", "ab", "bytes")


# --- import cost -------------------------------------------------------------------------------

def test_import_compiles_no_kernel():
    """``import cipherlab`` (and the CLI) loads the registry without compiling or loading one kernel."""
    code = (
        "import numba.core.registry as r, cipherlab, cipherlab.cli\n"
        "from cipherlab.ciphers import _kernels, _aesni_kernels\n"
        "ds = [v for m in (_kernels, _aesni_kernels) for v in vars(m).values()"
        " if isinstance(v, numba.core.dispatcher.Dispatcher)]\n"
        "assert ds, 'no dispatchers found'\n"
        "print(sum(len(d.signatures) for d in ds))\n"
    )
    out = subprocess.run([sys.executable, "-c", "import numba\n" + code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"
