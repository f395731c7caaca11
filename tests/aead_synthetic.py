"""Synthetic inputs of the aead chapter's tests (tests/test_aead_*.py): summaries, raw timings as the
measuring notebook writes them, the evidence of a whole run, plaintexts."""
import numpy as np
import pandas as pd

from cipherlab.analysis import verdicts as V
from cipherlab.experiments.aead import bitflip, driver, evidence, forgery

MSG = b"from=alice&to=bob&amount=0100&memo=rent&id=0042&"  # 48 bytes, 3 AES blocks


AAD = b"static header"


def synthetic_summary(speeds: dict, group: str, sizes=(100_000, 1_000_000, 5_000_000), slope=1.0, spread=0.05,
             spreads=None):
    """A throughput_summary()-like frame where ``speeds[name]`` is MB/s (a scalar or one per size)."""
    rows = []
    for op in ("encrypt", "decrypt"):
        for name, sp in speeds.items():
            for i, nb in enumerate(sizes):
                s = sp[i] if isinstance(sp, (list, tuple)) else sp
                sd = (spreads or {}).get(name, spread)
                mb = nb / 1e6
                med = mb ** slope / s
                rows.append({"cipher": name if group == "cipher" else "aes",
                             "mode": name if group == "mode" else "eax",
                             "operation": op, "bytes": nb, "n": 10, "mb": mb,
                             "median_s": med, "q1_s": med * (1 - sd), "q3_s": med * (1 + sd),
                             "mean_s": med, "std_s": med * sd,
                             "median_mb_per_s": mb / med, "q1_mb_per_s": mb / med * (1 - sd),
                             "q3_mb_per_s": mb / med * (1 + sd)})
    return pd.DataFrame(rows)


def texts():
    rng = np.random.default_rng(0)
    return {n: rng.integers(32, 127, size=n, dtype=np.uint8).tobytes() for n in (1000, 3000)}


SIZES = (100_000, 1_000_000, 5_000_000)


#: ns per byte of each case; the fixed cost is 10 us.
PAPER_ORDER = {"gcm": 1.0, "ccm": 3.0, "eax": 3.5, "aes": 1.0, "blowfish": 7.0, "cast": 9.0}


def synthetic_raw(phase, per_byte, sizes=SIZES, n=40, noise=0.01, seed=0):
    """Synthetic raw timings as the measuring notebook writes them (with the A/A control)."""
    rng = np.random.default_rng(seed)
    rows = []
    if phase == "forgery":
        runs = [(m, k, "main") for m in ("gcm", "ccm", "eax") for k in forgery.FORGERY_KINDS] + \
            [(*forgery.FORGERY_CONTROL, "control")]
        for mode, kind, inst in runs:
            for nb in sizes:
                t = (1e-5 + nb * per_byte[mode] * 1e-9) * np.exp(noise * rng.standard_normal(n))  # lognormal: times stay positive
                rows += [{"cipher": "aes", "mode": mode, "operation": f"verify_{kind}", "bytes": nb,
                          "instance": inst, "kind": kind, "trial": i, "seconds": x} for i, x in enumerate(t)]
        return pd.DataFrame(rows)
    names = ("gcm", "ccm", "eax") if phase == 1 else ("aes", "blowfish", "cast")
    control = "gcm" if phase == 1 else "aes"
    for name, inst in [(x, "main") for x in names] + [(control, "control")]:
        for op in ("encrypt", "decrypt"):
            for nb in sizes:
                t = (1e-5 + nb * per_byte[name] * 1e-9) * np.exp(noise * rng.standard_normal(n))  # lognormal: times stay positive
                rows += [{"cipher": "aes" if phase == 1 else name, "mode": name if phase == 1 else "eax",
                          "operation": op, "bytes": nb, "instance": inst, "trial": i, "seconds": x}
                         for i, x in enumerate(t)]
    return pd.DataFrame(rows)


def synthetic_cold(per_byte, sizes=SIZES, processes=6, noise=0.01, fixed=2e-4, seed=0):
    """Raw timings of the paper's protocol (protocol.cold_cases): one call per case and process, a larger fixed
    cost than the warm calls pay (a cold call makes its cipher and touches fresh memory)."""
    rng = np.random.default_rng(seed)
    rows = []
    for phase, names, control in ((1, ("gcm", "ccm", "eax"), "gcm"), (2, ("aes", "blowfish", "cast"), "aes")):
        for name, inst in [(x, "main") for x in names] + [(control, "control")]:
            for op in ("encrypt", "decrypt"):
                for nb in sizes:
                    t = (fixed + nb * per_byte[name] * 1e-9) * np.exp(noise * rng.standard_normal(processes))
                    rows += [{"phase": phase, "cipher": "aes" if phase == 1 else name,
                              "mode": name if phase == 1 else "eax", "operation": op, "bytes": nb, "instance": inst,
                              "process": p, "trial": 0, "seconds": x} for p, x in enumerate(t)]
    return pd.DataFrame(rows)


def synthetic_evidence(per_byte=PAPER_ORDER, noise=0.01, profile="full"):
    outcomes = forgery.forgery_outcomes({n: b"a" * n for n in SIZES}, n_tags=2, aad=AAD, seed=1)
    flips = pd.concat([bitflip.bitflip_aead(MSG, AAD, seed=1), bitflip.bitflip_unauthenticated(MSG, seed=1)])
    wyche = pd.DataFrame({"mode": ["gcm"], "result": ["invalid"], "outcome": ["rejected"], "status": ["pass"]})
    rewrite = bitflip.ctr_field_rewrite(MSG, b"amount=0100", b"amount=9999", seed=1)
    return driver.collect(synthetic_raw(1, per_byte, noise=noise), synthetic_raw(2, per_byte, noise=noise),
                        synthetic_raw("forgery", per_byte, noise=noise), outcomes, flips, wyche, rewrite,
                        profile=profile, seed=3, cold=synthetic_cold(per_byte, noise=noise))


def decide_synthetic(evs):
    frame = V.evidence_frame(evs).assign(chapter="aead")
    return V.decide_all(evidence.paper_claims(), frame).set_index("claim_id")
