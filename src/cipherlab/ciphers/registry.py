"""The cipher registry: each cipher module says what it is, once.

As PyCryptodome keys its ciphers by module (``Crypto.Cipher.AES``, ...), each
cipher module here (:mod:`cipherlab.ciphers.aes`, :mod:`cipherlab.ciphers.aes_2sbox`,
:mod:`cipherlab.ciphers.maes`) ends with one :func:`register` call: its name, key
sizes, options (each with its default and its check), the implementation
styles it has and whether it is a research cipher (not secure: the
:class:`InsecureCipherWarning`). A *variant* (:func:`register_variant`) is a
registered cipher with some options fixed under a name of its own: ``maes-1``
is ``maes`` with ``approach=1``.

Everything that lists or checks ciphers asks here: :func:`cipherlab.new`
(:func:`lookup`, :meth:`CipherInfo.check_options`), the CLI, the self-check,
the bench and the chapters (:func:`cipher_names`), never a list of its own: a chapter that needs its own
subset checks it with ``check_choices("ciphers", names, cipher_names())``, and a variant's fixed option is
``lookup(name).fixed`` (MAES's ``approach``), never parsed from the name. A research cipher registered without
frozen known answers (``vectors/<name with - as _>.json``) fails the self-check.

The public door validates (:func:`cipherlab.new`, :func:`check_key`,
:meth:`CipherInfo.check_options`); the classes that ``build`` names trust their
arguments.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Mapping

from cipherlab._checks import check_bytes, check_choice
from cipherlab.names import AES_KEY_BYTES, OWN_STYLES, STYLES

__all__ = ["Option", "CipherInfo", "InsecureCipherWarning", "register", "register_variant", "lookup",
           "cipher_names", "cipher_entry", "registered", "cipher_options", "check_key", "AES_ROUNDS", "KEY_SIZES", "STYLES"]

#: AES rounds ``Nr`` per key length in bytes (FIPS-197); the variants keep them.
AES_ROUNDS = MappingProxyType(dict(zip(AES_KEY_BYTES, (10, 12, 14))))
KEY_SIZES = AES_KEY_BYTES
# STYLES (every ``impl``) and OWN_STYLES (cipherlab's kernels: every registered cipher has these unless it
# says otherwise) come from cipherlab.names, the one list the pipeline reads too.


class InsecureCipherWarning(UserWarning):
    """Emitted when a research cipher that is not secure is instantiated."""


@dataclass(frozen=True)
class Option:
    """One cipher option: its default, and its check.

    ``choices`` (a tuple) is checked with :func:`cipherlab._checks.check_choice`;
    ``check(name, value, key_len) -> value`` checks anything else (a range
    that depends on the key size, say) and normalises the value.
    """

    default: Any = None
    choices: tuple | None = None
    check: Callable[[str, Any, int], Any] | None = None
    doc: str = ""

    def validate(self, name: str, value: Any, key_len: int) -> Any:
        if self.choices is not None:
            value = check_choice(name, value, self.choices)
        if self.check is not None:
            value = self.check(name, value, key_len)
        return value


@dataclass(frozen=True)
class CipherInfo:
    """A registered cipher.

    Attributes
    ----------
    name : str
        The name :func:`cipherlab.new` takes (``cipher=``).
    build : callable
        ``build(key: bytes, **options)``: the key schedule in kernel form (an
        ``AES``-like object); trusts its arguments.
    options : mapping of str to Option
        The options a user may give (a variant's fixed ones are not among them).
    key_sizes : tuple of int
        Key lengths in bytes.
    styles : tuple of str
        The ``impl`` values the cipher runs in.
    research : bool
        ``True``: not secure; creating one warns.
    fixed : mapping
        The options a variant fixes (``{"approach": 1}`` for ``maes-1``).
    family : str or None
        The registered cipher a variant is made from.
    summary : str
        One line for listings and ``--help``.
    """

    name: str
    build: Callable[..., Any]
    options: Mapping[str, Option] = field(default_factory=dict)
    key_sizes: tuple[int, ...] = KEY_SIZES
    styles: tuple[str, ...] = OWN_STYLES
    research: bool = True
    fixed: Mapping[str, Any] = field(default_factory=dict)
    family: str | None = None
    summary: str = ""

    def check_options(self, options: Mapping[str, Any], key_len: int) -> dict:
        """Every option of this cipher, checked, defaults filled in (the fixed ones left out).

        ``ValueError`` for an unknown option name (listing the allowed ones)
        or a value an option refuses (naming the option).
        """
        if not options:
            return dict(self._defaults[key_len])
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            fixed = sorted(set(unknown) & set(self.fixed))
            hint = (f"; {fixed} fixed by the name {self.name!r} (use cipher {self.family!r} to choose it)"
                    if fixed else "")
            raise ValueError(f"unknown option(s) {unknown} for cipher {self.name!r}; "
                             f"allowed options: {tuple(self.options)}{hint}")
        return {name: opt.validate(name, options.get(name, opt.default), key_len)
                for name, opt in self.options.items()}

    @cached_property
    def _defaults(self) -> dict:
        """``{key_len: every option's default, checked}``: made once per entry (``check_options({})``)."""
        return {n: MappingProxyType({name: opt.validate(name, opt.default, n) for name, opt in self.options.items()})
                for n in self.key_sizes}

    def defaults(self, key_len: int) -> Mapping[str, Any]:
        """``check_options({}, key_len)`` without the copy: a read-only mapping shared by every caller."""
        return self._defaults[key_len]

    @cached_property
    def _build_defaults(self) -> dict:
        """``{key_len: build's keyword arguments with every option at its default}`` (``make(key)``)."""
        return {n: {**self.fixed, **self._defaults[n]} for n in self.key_sizes}

    def make(self, key: bytes, options: "Mapping[str, Any] | None" = None):
        """The key schedule for a checked key and checked options (see :meth:`check_options`);
        ``None``: every option at its default."""
        if options is None:
            return self.build(key, **self._build_defaults[len(key)])
        return self.build(key, **self.fixed, **options)


_REGISTRY: dict[str, CipherInfo] = {}


def register(info: CipherInfo) -> CipherInfo:
    """Add a cipher; ``ValueError`` if its name is taken or a style is unknown."""
    if info.name in _REGISTRY:
        raise ValueError(f"cipher {info.name!r} is already registered")
    for style in info.styles:
        check_choice("styles", style, STYLES)
    for size in info.key_sizes:
        check_choice("key_sizes", size, KEY_SIZES)
    _REGISTRY[info.name] = info
    return info


def register_variant(name: str, of: str, summary: str = "", **fixed) -> CipherInfo:
    """Register ``name`` as cipher ``of`` with the options ``fixed``; the rest stay options."""
    base = lookup(of)
    for option, value in fixed.items():
        check_choice("option", option, tuple(base.options))
        base.options[option].validate(option, value, base.key_sizes[0])
    rest = {k: v for k, v in base.options.items() if k not in fixed}
    return register(CipherInfo(name, base.build, rest, base.key_sizes, base.styles, base.research,
                               {**base.fixed, **fixed}, of, summary or base.summary))


def cipher_names(*, style: str | None = None, research: bool | None = None, families: bool = False) -> tuple[str, ...]:
    """Registered cipher names, in registration order.

    Parameters
    ----------
    style : str, optional
        Only the ciphers that run in this ``impl``.
    research : bool, optional
        ``True``: only research ciphers; ``False``: only secure ones.
    families : bool, default False
        A cipher that has variants is listed as its variants only
        (``maes-1``, ``maes-2``, not ``maes``): one name per distinct cipher,
        as tables and checks want. ``True`` lists it too (every name
        :func:`cipherlab.new` accepts).
    """
    if style is not None:
        check_choice("style", style, STYLES)
    has_variants = {i.family for i in _REGISTRY.values() if i.family}
    return tuple(name for name, i in _REGISTRY.items()
                 if (families or name not in has_variants)
                 and (style is None or style in i.styles)
                 and (research is None or i.research == research))


def lookup(cipher: str) -> CipherInfo:
    """The registered cipher ``cipher``; ``ValueError`` naming ``cipher`` and the names allowed."""
    if type(cipher) is str and cipher in _REGISTRY:
        return _REGISTRY[cipher]
    check_choice("cipher", cipher, tuple(_REGISTRY))
    return _REGISTRY[cipher]


def registered(name: str) -> "CipherInfo | None":
    """The entry registered under ``name`` right now, or None; checks nothing (a memo's freshness test:
    a memo that holds an entry is current while this returns that same entry)."""
    return _REGISTRY.get(name)


def cipher_entry(cipher: "str | CipherInfo") -> CipherInfo:
    """The entry of a registered name, or ``cipher`` itself if it is an entry already.

    An entry need not be registered: ``cipherlab.ciphers.variant_files.build_from_description``
    builds one from a YAML description (the security chapter's ciphers). ``ValueError``
    naming ``cipher`` and the registered names for anything else.
    """
    return cipher if isinstance(cipher, CipherInfo) else lookup(cipher)


def cipher_options(cipher: str) -> dict[str, Any]:
    """``{option: default}`` of ``cipher`` (``None`` for ``rounds`` means the standard ``Nr``)."""
    return {name: opt.default for name, opt in lookup(cipher).options.items()}


def check_key(key, sizes: tuple[int, ...] = KEY_SIZES) -> bytes:
    """``key`` as bytes; ``ValueError`` naming ``key`` unless it is bytes-like with a length in ``sizes``."""
    if type(key) is bytes and len(key) in sizes:
        return key
    text = ", ".join(str(s) for s in sizes[:-1]) + f" or {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
    key = check_bytes("key", key, f"bytes-like or a 1-D uint8 array ({text} bytes)")
    if len(key) not in sizes:
        bits = "/".join(str(8 * s) for s in sizes)
        raise ValueError(f"key must be {text} bytes long (AES-{bits}), got {len(key)} bytes")
    return key


def check_rounds(name: str, rounds, key_len: int) -> int:
    """``rounds`` in ``1..Nr`` (``None``: ``Nr`` for the key size); the ``rounds`` option's check."""
    nr = AES_ROUNDS[key_len]
    if rounds is None:
        return nr
    if isinstance(rounds, bool) or not hasattr(rounds, "__index__") or not 1 <= int(rounds) <= nr:
        raise ValueError(f"{name} must be an integer in 1..{nr} for a {8 * key_len}-bit key, got {rounds!r}")
    return int(rounds)


#: The option every cipher here has: a research option, fewer rounds than AES's are **not secure**.
ROUNDS = Option(None, check=check_rounds, doc="rounds 1..Nr (default Nr); fewer are not secure")
