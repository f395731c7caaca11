"""A chosen-plaintext codebook attack on byte-local ciphers, without the key.

Why it works
------------
AES-2SBox replaces MixColumns with a second S-box and MAES replaces it with
an XOR; both steps act on each byte alone, and so do SubBytes, ShiftRows (a
byte permutation) and AddRoundKey. The whole cipher is therefore, for a
fixed key, sixteen independent byte substitutions plus a byte permutation::

    E_K(P)[j] = g_j(P[src(j)])      with g_j a bijection of 0..255

(the diffusion chapter measures this: each row of the dependency matrix has
exactly one non-zero entry). An attacker who can encrypt chosen plaintexts
needs only 256 blocks, block ``v`` being sixteen copies of byte ``v``, to read
every ``g_j`` at once, and one more block ``(0, 1, ..., 15)`` to read
``src``. Inverting the sixteen tables decrypts any ECB ciphertext under that
key; for CBC with a known IV the attacker undoes the chaining itself,
``P_i = D(C_i) ^ C_(i-1)``. The MAES round "IV" is a key-dependent constant
XORed inside the rounds and is absorbed into ``g_j``; it plays no role here.

Against AES the same queries give sixteen tables that describe nothing (each
output byte depends on all sixteen input bytes after two rounds), so the
"recovered" bytes match the plaintext only by chance.

The attacker code below never sees the key: :class:`EncryptionOracle` holds
the keyed cipher object in a closure and counts the blocks it encrypts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from cipherlab._checks import check_choice
from cipherlab.ciphers.registry import CipherInfo, cipher_names

from cipherlab.experiments.security.quiet import BLOCK, check_cipher, new_quiet

MODES = ("ecb", "cbc")


def as_bytes_array(data) -> np.ndarray:
    """Bytes or any uint8 array (e.g. an image) -> flat contiguous ``uint8`` array."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(data), dtype=np.uint8).copy()
    arr = np.asarray(data)
    if arr.dtype != np.uint8:
        raise ValueError(f"plaintext: expected bytes or a uint8 array, got dtype {arr.dtype}")
    return np.ascontiguousarray(arr.reshape(-1))



class EncryptionOracle:
    """Chosen-plaintext encryption oracle: encrypts what it is given, counts blocks.

    Parameters
    ----------
    cipher : str or CipherInfo
        A registered name or a registry entry (a described cipher).
    key : bytes
        Held privately; there is no accessor.
    mode : {"ecb", "cbc"}
    iv : bytes or None
        CBC only: the fixed IV the oracle uses for every message (known to
        the attacker, as when a system reuses a fixed or transmitted IV).
    **options
        Passed to :func:`cipherlab.new` (e.g. the MAES IV source).

    Attributes
    ----------
    queries : int
        Plaintext blocks encrypted so far.
    calls : int
        Messages submitted so far.
    """

    def __init__(self, cipher: "str | CipherInfo", key: bytes, mode: str = "ecb", iv: "bytes | None" = None,
                 **options):
        cipher = check_cipher(cipher)
        check_choice("mode", mode, MODES)
        if mode == "cbc" and iv is None:
            raise ValueError("iv: CBC oracle needs a 16-byte IV")

        def encrypt(message: np.ndarray) -> np.ndarray:
            # a fresh object per message: CBC restarts from the fixed IV
            obj = new_quiet(key, cipher, mode, iv=iv, padding=False, **options)
            return np.asarray(obj.encrypt(message), dtype=np.uint8)

        self._encrypt = encrypt
        self.cipher = cipher.name
        self.mode = mode
        self.iv = None if iv is None else bytes(iv)
        self.queries = 0
        self.calls = 0

    def __call__(self, message) -> np.ndarray:
        msg = np.ascontiguousarray(np.asarray(message, dtype=np.uint8).reshape(-1))
        if msg.size % BLOCK:
            raise ValueError("message: length must be a multiple of 16 bytes")
        self.queries += msg.size // BLOCK
        self.calls += 1
        return self._encrypt(msg)


def codebook_queries() -> np.ndarray:
    """The 256 chosen blocks: block ``v`` is sixteen copies of byte ``v``."""
    return np.repeat(np.arange(256, dtype=np.uint8), BLOCK).reshape(256, BLOCK)


def position_query() -> np.ndarray:
    """The block ``(0, 1, ..., 15)``, which reveals the byte permutation."""
    return np.arange(BLOCK, dtype=np.uint8)


#: The chosen blocks the codebook attack asks the oracle for: the 256 codebook blocks and the position probe.
CODEBOOK_BLOCKS = len(codebook_queries()) + 1


def attacker_model(queries: int, modes) -> str:
    """The codebook attack's attacker model in words, from its own parameters: ``queries`` chosen blocks
    encrypted under the key by an oracle, no key; in CBC (one of ``modes``), the IV the oracle uses known in
    advance (fixed, or sent before the message), which :func:`_ecb_encrypt_blocks` XORs into each chosen block."""
    text = f"an encryption oracle for {int(queries)} chosen blocks under the key, and no key"
    if "cbc" in {str(m).lower() for m in modes}:
        text += "; in CBC, the IV the oracle uses known in advance (fixed, or sent before the message)"
    return text


def _ecb_encrypt_blocks(oracle: EncryptionOracle, blocks: np.ndarray) -> np.ndarray:
    """Single-block ECB encryptions ``E(x)`` for every row of ``blocks`` via the oracle."""
    if oracle.mode == "ecb":
        return oracle(blocks).reshape(-1, BLOCK)
    # CBC with a fixed known IV: the one-block message x ^ IV encrypts to E(x)
    iv = np.frombuffer(oracle.iv, dtype=np.uint8)
    return np.stack([oracle(b ^ iv) for b in blocks])


class Codebook:
    """What the attacker learns: ``forward[j, v] = E(v, ..., v)[j]`` and ``source[j]``.

    ``inverse[j, c]`` is the input byte that produced output byte ``c`` at
    position ``j``, or -1 where no query produced ``c`` (only possible when
    the cipher is not byte-local).
    """

    def __init__(self, forward: np.ndarray, source: np.ndarray):
        self.forward = forward
        self.source = source
        inverse = np.full((BLOCK, 256), -1, dtype=np.int16)
        for j in range(BLOCK):
            inverse[j, forward[j]] = np.arange(256, dtype=np.int16)
        self.inverse = inverse

    @property
    def byte_local(self) -> bool:
        """True when every table is a bijection and ``source`` a permutation."""
        return bool((self.inverse >= 0).all()
                    and np.array_equal(np.sort(self.source), np.arange(BLOCK)))

    def decrypt_blocks(self, blocks: np.ndarray) -> np.ndarray:
        """Invert single-block encryptions; unknown bytes come out as -1."""
        blocks = np.asarray(blocks, dtype=np.uint8).reshape(-1, BLOCK)
        out = np.full(blocks.shape, -1, dtype=np.int16)
        for j in range(BLOCK):
            # output byte j reveals the plaintext byte at position source[j]
            out[:, self.source[j]] = self.inverse[j, blocks[:, j]]
        return out


def learn_codebook(oracle: EncryptionOracle) -> Codebook:
    """Build the 16 byte codebooks and the byte permutation with 257 oracle blocks."""
    forward = _ecb_encrypt_blocks(oracle, codebook_queries()).T.copy()  # [j, v]
    probe = _ecb_encrypt_blocks(oracle, position_query()[None, :])[0]
    partial = Codebook(forward, np.arange(BLOCK))
    # position_query holds value p at position p, so decoding output j gives src(j)
    source = partial.inverse[np.arange(BLOCK), probe].astype(np.int64)
    source = np.where(source >= 0, source, np.arange(BLOCK)) % BLOCK
    return Codebook(forward, source)


def decrypt_with_codebook(codebook: Codebook, ciphertext, mode: str = "ecb",
                          iv: "bytes | None" = None) -> np.ndarray:
    """Recover plaintext bytes (int16, -1 = unknown) from a ciphertext.

    Parameters
    ----------
    mode : {"ecb", "cbc"}
    iv : bytes
        CBC only: the IV sent with the ciphertext.
    """
    return _decrypt_with_codebook(codebook, ciphertext, check_choice("mode", mode, MODES), iv)


def _decrypt_with_codebook(codebook: Codebook, ciphertext, mode: str, iv: "bytes | None") -> np.ndarray:
    """:func:`decrypt_with_codebook` trusting ``mode`` (its caller checked it)."""
    blocks = np.asarray(ciphertext, dtype=np.uint8).reshape(-1, BLOCK)
    decoded = codebook.decrypt_blocks(blocks)
    if mode == "cbc":
        decoded = np.where(decoded >= 0, decoded ^ cbc_chaining_blocks(blocks, iv).astype(np.int16), -1)
    return decoded.reshape(-1)


def cbc_chaining_blocks(blocks: np.ndarray, iv) -> np.ndarray:
    """``uint8[n, 16]``: what CBC XORs into each decrypted block, the IV then each previous ciphertext block.

    The attacks undo the chaining with it: ``P_i = D(C_i) ^ C_(i-1)``.
    """
    if iv is None:
        raise ValueError("iv: CBC decryption needs the 16-byte IV")
    return np.vstack([np.frombuffer(bytes(iv), dtype=np.uint8)[None, :], blocks[:-1]])


def strip_pkcs7(recovered: np.ndarray) -> np.ndarray:
    """Remove PKCS#7 padding if the recovered tail is valid padding, else return as is."""
    if recovered.size == 0:
        return recovered
    n = int(recovered[-1])
    if 1 <= n <= BLOCK and n <= recovered.size and np.all(recovered[-n:] == n):
        return recovered[:-n]
    return recovered


def run_attack(cipher: "str | CipherInfo", key: bytes, plaintext, mode: str = "ecb", iv: "bytes | None" = None,
               **options) -> dict:
    """Encrypt ``plaintext`` (PKCS#7) with the key, then attack it without the key.

    The target ciphertext is produced by the victim; the attacker sees only
    the ciphertext, the IV (CBC) and an encryption oracle under the same key.

    Returns
    -------
    dict
        ``recovered`` (uint8, -1 bytes set to 0), ``queries``, ``calls``,
        ``match_fraction`` (recovered byte == plaintext byte, over the
        plaintext length), ``exact`` and ``byte_local``.
    """
    cipher = check_cipher(cipher)
    oracle = EncryptionOracle(cipher, key, mode=mode, iv=iv, **options)   # checks mode, before anything is encrypted
    plain = as_bytes_array(plaintext)
    victim = new_quiet(key, cipher, mode, iv=iv, padding=True, **options)
    target = np.asarray(victim.encrypt(plain), dtype=np.uint8)

    codebook = learn_codebook(oracle)
    recovered = _decrypt_with_codebook(codebook, target, mode, iv)
    if codebook.byte_local:
        recovered = strip_pkcs7(recovered)
    recovered = recovered[: plain.size]
    if recovered.size < plain.size:
        recovered = np.concatenate([recovered, np.full(plain.size - recovered.size, -1, np.int16)])
    match = recovered == plain
    return {
        "cipher": cipher.name,
        "mode": mode,
        "queries": oracle.queries,
        "calls": oracle.calls,
        "bytes": int(plain.size),
        "bytes_recovered": int(match.sum()),
        "match_fraction": float(match.mean()) if plain.size else 1.0,
        "exact": bool(match.all()),
        "byte_local": codebook.byte_local,
        "unknown_bytes": int((recovered < 0).sum()),
        # among bytes the codebook did decode: 1/256 is what guessing gives
        "match_fraction_decoded": float(match.sum() / max(1, int((recovered >= 0).sum()))),
        "decoded_bytes": int((recovered >= 0).sum()),
        "recovered": np.where(recovered >= 0, recovered, 0).astype(np.uint8),
        "ciphertext": target,
    }


def attack_table(targets: dict, ciphers=None,
                 modes=MODES, *, seed: int = 0, **options) -> tuple[pd.DataFrame, dict, dict]:
    """Run :func:`run_attack` for each cipher x mode x named target.

    Parameters
    ----------
    targets : dict
        ``name -> uint8 array or bytes``: the plaintexts the victim encrypts.
    ciphers : sequence of str or CipherInfo, optional
        Registered names or entries (default :func:`cipherlab.ciphers.registry.cipher_names`).
    seed : int
        Seeds the victim's key and IV (one key per cipher, as a victim would).

    Returns
    -------
    table : DataFrame
        One row per cipher x mode x target: queries, calls, bytes,
        bytes_recovered, match_fraction, decoded_bytes, match_fraction_decoded,
        chance (1/256), chance_p_value (two-sided binomial test of the decoded
        bytes' hit rate against 1/256), exact, byte_local.
    recovered : dict
        ``(cipher, mode, target) -> uint8 array`` of recovered plaintexts.
    ciphertexts : dict
        ``(cipher, mode, target) -> uint8 array``: the attacked ciphertexts.
    """
    rng = np.random.default_rng(seed)
    rows, recovered, ciphertexts = [], {}, {}
    for cipher in cipher_names() if ciphers is None else ciphers:
        key = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        iv = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
        for mode in modes:
            for name, data in targets.items():
                res = run_attack(cipher, key, data, mode=mode, iv=iv if mode == "cbc" else None,
                                 **options)
                recovered[(res["cipher"], mode, name)] = res.pop("recovered")
                ciphertexts[(res["cipher"], mode, name)] = res.pop("ciphertext")
                # two-sided binomial test: are the decoded bytes right more (or less)
                # often than a guess?
                chance_p = stats.binomtest(res["bytes_recovered"], max(1, res["decoded_bytes"]),
                                           1 / 256).pvalue
                rows.append({"target": name, **res, "chance": 1 / 256,
                             "chance_p_value": float(chance_p)})
    cols = ["cipher", "mode", "target", "queries", "calls", "bytes", "bytes_recovered",
            "match_fraction", "decoded_bytes", "match_fraction_decoded", "chance",
            "chance_p_value", "exact", "byte_local", "unknown_bytes"]
    return pd.DataFrame(rows)[cols], recovered, ciphertexts
