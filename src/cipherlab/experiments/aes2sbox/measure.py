"""The AES-2SBox chapter's speed part: Tables 3-5 of papers 000 and 001, with an A/A control.

Every (cipher, implementation style, operation) case is timed under each
paper's protocol, trials interleaved round by round; beside AES and AES-2SBox,
a second, identical AES instance (``instance="control"``) is timed in the same
run, so that the "speedup" of AES over itself shows the machine's own noise
(the A/A band).  Operations shorter than ``min_trial_seconds`` are timed in
batches (``calls`` per trial, :func:`cipherlab.timing.measure`).

* Measuring: :func:`speed_cases`, :func:`run_speed_trials`, :func:`run_protocols`.
* The papers' layout (Welch, shown, never deciding): :func:`welch_side_by_side`, :func:`welch_long`.
* The declared statistic with its interval and the A/A band: :func:`speed_table`,
  :func:`speed_evidence_rows`.
* Figure: :func:`plot_speed_trials`.

The implementation styles come from the chapter's config (``impls``).  A
(cipher, style) pair that cannot be built (today: ``aesni`` for AES-2SBox) is
not timed, and :func:`speed_cases` returns why, so the chapter's table says so.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as _st

from cipherlab import paper as _paper
from cipherlab import stats as _stats
from cipherlab import timing as _timing
from cipherlab import verdicts as _verdicts
from cipherlab.experiments.aes2sbox import _check_choice, _key_bytes

__all__ = ["CIPHERS", "PAPERS", "OPERATIONS", "PAPER_LABELS", "INSTANCES", "speed_cases", "run_speed_trials",
           "run_protocols", "welch_side_by_side", "welch_long", "speed_table", "speed_evidence_rows",
           "plot_speed_trials", "styles_compared"]

PAPERS = ("000", "001")
#: The two ciphers compared, old first (the papers' ``T_old`` and ``T_new``).
CIPHERS = ("aes", "aes-2sbox")
PAPER_LABELS = {"aes": "AES-Rijndael", "aes-2sbox": "AES-2SBox"}
OPERATIONS = ("encrypt", "decrypt")
#: ``main``: the compared objects; ``control``: the second, identical AES instance of the A/A control.
INSTANCES = ("main", "control")
_TABLES = {"000": {"encrypt": "Table 3", "decrypt": "Table 4", "speedup": "Table 5", "speedup_column": "ETPE%"},
           "001": {"encrypt": "Table 3", "decrypt": "Table 4", "speedup": "Table 5",
                   "speedup_column": "SpeedUP (%)"}}
_OPERATION_ROW = {"encrypt": "Encryption", "decrypt": "Decryption"}
#: Claim ids (``data/paper/claims.csv``) of the speed claims, per paper and operation.
SPEEDUP_CLAIM = "{paper}-t5-{op}-speedup"
SIGNIFICANCE_CLAIM = "{paper}-{table}-{op}-significant"
SPEED_SECTION = "aes2sbox-speed"


def speed_cases(data, *, key, impls: Sequence[str], operations: Sequence[str] = OPERATIONS, mode: str = "ecb",
                threads: "int | None" = 1, xor_byte: int = 0x7F, construction: str = "xor-index",
                labels: "Mapping[str, Any] | None" = None, first_calls: "list | None" = None,
                skipped: "list | None" = None) -> list[dict]:
    """Timing cases for :func:`cipherlab.timing.measure`: (cipher, instance) x style x operation.

    For each style: AES, AES-2SBox and a second AES object (``instance="control"``,
    same key, style, mode and data) for the A/A control.  Encrypting means
    encrypting ``data`` (PKCS#7 padding in ECB/CBC, as Java's default ``AES``
    transformation); decrypting means decrypting its ciphertext, prepared here.
    Every case must round-trip before it is returned.

    A (cipher, style) pair that :func:`cipherlab.new` refuses (``ValueError``,
    ``NotImplementedError``) is not timed: a dict ``{cipher, impl, reason}`` is
    appended to ``skipped`` (if given), and the style's control is dropped too
    (no comparison, no A/A band); AES alone is still timed, for scale.
    ``first_calls`` receives the seconds of each first call (JIT compile or
    cache load plus one run).
    """
    from cipherlab.modes import IMPLS, MODES, new

    key = _key_bytes(key)
    if isinstance(impls, str) or not len(impls):
        raise ValueError(f"impls must be a non-empty list of {IMPLS}, got {impls!r}")
    for impl in impls:
        _check_choice("impls", impl, IMPLS)
    for op in operations:
        _check_choice("operations", op, OPERATIONS)
    _check_choice("mode", mode, MODES)
    plain = np.frombuffer(bytes(data), dtype=np.uint8).copy() if not isinstance(data, np.ndarray) \
        else np.ascontiguousarray(data, dtype=np.uint8)
    iv = bytes(range(16)) if mode in ("cbc", "ctr") else None
    extra = dict(labels) if labels else {}
    cases = []
    for impl in impls:
        objects = {}
        for cipher_name in CIPHERS:
            options = {"xor_byte": xor_byte, "construction": construction} if cipher_name == "aes-2sbox" else {}
            try:
                objects[(cipher_name, "main")] = new(key, cipher=cipher_name, mode=mode, iv=iv, impl=impl,
                                                     padding=mode != "ctr", threads=threads, **options)
            except (ValueError, NotImplementedError) as exc:
                if skipped is not None:
                    skipped.append({**extra, "cipher": cipher_name, "impl": impl, "reason": str(exc)})
        if len(objects) == len(CIPHERS):
            objects[("aes", "control")] = new(key, cipher="aes", mode=mode, iv=iv, impl=impl,
                                              padding=mode != "ctr", threads=threads)
        for (cipher_name, instance), obj in objects.items():
            box = {}
            first = {"encrypt": _timing.compile_seconds(lambda: box.setdefault("c", obj.encrypt(plain)))}
            ciphertext = box["c"]
            first["decrypt"] = _timing.compile_seconds(lambda: box.setdefault("p", obj.decrypt(ciphertext)))
            if not np.array_equal(box["p"], plain):
                raise RuntimeError(f"{cipher_name}/{impl}/{mode} does not round-trip; refusing to time it")
            if first_calls is not None:
                first_calls.extend({**extra, "cipher": cipher_name, "instance": instance, "impl": impl,
                                    "operation": op, "first_call_seconds": first[op]} for op in operations)
            for op in operations:
                fn = (lambda o=obj, p=plain: o.encrypt(p)) if op == "encrypt" else \
                    (lambda o=obj, c=ciphertext: o.decrypt(c))
                cases.append({"cipher": cipher_name, "instance": instance, "impl": impl, "mode": mode,
                              "operation": op, "bytes": int(plain.size), **extra, "threads": threads, "fn": fn})
    return cases


def run_speed_trials(data, *, protocol: str, trials: int, warmup: int, key, impls: Sequence[str],
                     mode: str = "ecb", threads: "int | None" = 1, xor_byte: int = 0x7F,
                     construction: str = "xor-index", file: str = "", seed: int = 0,
                     run_id: "str | None" = None, min_trial_seconds: "float | None" = None,
                     processes: int = 1, progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One published protocol: every case of :func:`speed_cases`, trials interleaved, batched.

    ``min_trial_seconds`` defaults to the declared one (``config/verdicts.yaml``).
    The trials are spread over ``processes`` fresh interpreters
    (:func:`cipherlab.timing.measure_in_processes`).

    Returns
    -------
    (trials, first_calls, skipped) : tuple of DataFrame
        ``trials``: one row per case and trial, ``seconds`` per call and
        ``calls`` per trial; ``first_calls``: the first call of each case;
        ``skipped``: ``protocol, file, cipher, impl, reason`` of every pair not timed.
    """
    _check_choice("protocol", protocol, PAPERS)
    if min_trial_seconds is None:
        min_trial_seconds = float(_verdicts.load_rules()["min_trial_seconds"])
    first: list = []
    skipped: list = []
    build = dict(data=np.frombuffer(bytes(data), dtype=np.uint8).copy() if not isinstance(data, np.ndarray)
                 else np.ascontiguousarray(data, dtype=np.uint8),
                 key=key, impls=list(impls), mode=mode, threads=threads, xor_byte=xor_byte,
                 construction=construction, labels={"protocol": protocol, "file": file})
    # Built here once for the first calls (compile or cache load), the round-trip check and the
    # pairs that cannot be timed; then rebuilt and timed in each fresh process.
    speed_cases(**build, first_calls=first, skipped=skipped)
    df = _timing.measure_in_processes(speed_cases, build, processes=processes, trials=trials, warmup=warmup,
                                      run_id=run_id, seed=seed, progress=progress, desc=f"protocol {protocol}",
                                      min_trial_seconds=min_trial_seconds)
    return df, pd.DataFrame(first), pd.DataFrame(skipped, columns=["protocol", "file", "cipher", "impl", "reason"])


def run_protocols(protocols: Mapping[str, Mapping[str, Any]], read_file, *, key, impls: Sequence[str],
                  mode: str = "ecb", threads: "int | None" = 1, xor_byte: int = 0x7F,
                  construction: str = "xor-index", seed: int = 0, run_id: "str | None" = None,
                  min_trial_seconds: "float | None" = None, processes: int = 1,
                  progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """:func:`run_speed_trials` for each protocol ``{paper: {file, trials, warmup}}``; one ``run_id``."""
    from cipherlab.provenance import new_run_id

    run_id = run_id or new_run_id()
    out: list[list] = [[], [], []]
    for protocol in sorted(protocols):
        spec = protocols[protocol]
        for field in ("file", "trials", "warmup"):
            if field not in spec:
                raise ValueError(f"protocols[{protocol!r}] needs {field!r}; has {sorted(spec)}")
        parts = run_speed_trials(read_file(spec["file"]), protocol=str(protocol), trials=int(spec["trials"]),
                                 warmup=int(spec["warmup"]), key=key, impls=impls, mode=mode, threads=threads,
                                 xor_byte=xor_byte, construction=construction, file=spec["file"], seed=seed,
                                 run_id=run_id, min_trial_seconds=min_trial_seconds, processes=processes,
                                 progress=progress)
        for acc, part in zip(out, parts):
            acc.append(part)
    return tuple(pd.concat(acc, ignore_index=True) for acc in out)


def _times_ms(raw: pd.DataFrame, protocol: str, cipher: str, impl: str, operation: str,
              instance: str = "main") -> np.ndarray:
    sel = ((raw["protocol"].astype(str).str.zfill(3) == protocol) & (raw["cipher"] == cipher)
           & (raw["impl"] == impl) & (raw["operation"] == operation) & (raw["instance"] == instance))
    return raw.loc[sel].sort_values("trial")["seconds"].to_numpy(dtype=np.float64) * 1e3


def _times_by_process(raw: pd.DataFrame, protocol: str, cipher: str, impl: str, operation: str,
                      instance: str = "main") -> np.ndarray:
    """Per-call times in ms as processes x trials (:func:`cipherlab.timing.trials_by_process`)."""
    sel = ((raw["protocol"].astype(str).str.zfill(3) == protocol) & (raw["cipher"] == cipher)
           & (raw["impl"] == impl) & (raw["operation"] == operation) & (raw["instance"] == instance))
    return _timing.trials_by_process(raw.loc[sel].sort_values([c for c in ("process", "trial") if c in raw])) * 1e3


def styles_compared(raw: pd.DataFrame, protocol: str, operation: "str | None" = None) -> list[str]:
    """Styles, in the order timed, in which both ciphers and the A/A control were timed."""
    sub = raw[raw["protocol"].astype(str).str.zfill(3) == protocol]
    if operation is not None:
        sub = sub[sub["operation"] == operation]
    out = []
    for impl in dict.fromkeys(sub["impl"]):
        s = sub[sub["impl"] == impl]
        have = set(zip(s["cipher"], s["instance"]))
        if {("aes", "main"), ("aes-2sbox", "main"), ("aes", "control")} <= have:
            out.append(impl)
    return out


def welch_side_by_side(raw: pd.DataFrame, paper: str, operation: str, impl: str,
                       alpha: float = 0.05) -> pd.DataFrame:
    """Table 3 (encrypt) or 4 (decrypt) in the papers' Excel layout: published beside ours.

    Ours is :func:`cipherlab.stats.welch_table` of the per-call times in ms of one
    style.  Shown because it is the papers' own statistic; it decides nothing.
    """
    _check_choice("paper", paper, PAPERS)
    _check_choice("operation", operation, OPERATIONS)
    old = _times_ms(raw, paper, "aes", impl, operation)
    new = _times_ms(raw, paper, "aes-2sbox", impl, operation)
    if old.size < 2 or new.size < 2:
        raise ValueError(f"raw holds fewer than 2 trials for protocol {paper}, impl {impl!r}, {operation}")
    labels = (PAPER_LABELS["aes"], PAPER_LABELS["aes-2sbox"])
    ours = _stats.welch_table(old, new, labels=labels, alpha=alpha)
    pub = _paper.published(paper, _TABLES[paper][operation]).set_index(["row", "column"])
    out = pd.DataFrame(index=ours.index)
    for lab in labels:
        out[f"published {lab}"] = [pub["value"].get((r, lab), "") for r in ours.index]
    for lab in labels:
        out[f"ours {lab}"] = ours[lab]
    return out


def welch_long(raw: pd.DataFrame, papers: Iterable[str] = PAPERS, alpha: float = 0.05) -> pd.DataFrame:
    """Tables 3 and 4 for every protocol and compared style, long format."""
    rows = []
    for paper in papers:
        for operation in OPERATIONS:
            for impl in styles_compared(raw, paper, operation):
                side = welch_side_by_side(raw, paper, operation, impl, alpha=alpha)
                for stat in side.index:
                    for cipher in CIPHERS:
                        lab = PAPER_LABELS[cipher]
                        ours = side.loc[stat, f"ours {lab}"]
                        if pd.isna(ours) and side.loc[stat, f"published {lab}"] == "":
                            continue
                        rows.append({"paper": paper, "table": _TABLES[paper][operation], "operation": operation,
                                     "impl": impl, "statistic": stat, "cipher": lab,
                                     "published": side.loc[stat, f"published {lab}"], "ours": ours})
    return pd.DataFrame(rows, columns=["paper", "table", "operation", "impl", "statistic", "cipher",
                                       "published", "ours"])


def _published_speedup(paper: str, operation: str) -> str:
    pub = _paper.published(paper, _TABLES[paper]["speedup"]).set_index(["row", "column"])
    return str(pub.loc[(_OPERATION_ROW[operation], _TABLES[paper]["speedup_column"]), "value"])


def speed_evidence_rows(raw: pd.DataFrame, *, profile: str, papers: Iterable[str] = PAPERS,
                        seed: int = 0) -> list:
    """Evidence for the speed claims: per paper x operation x compared style, one speedup and one significance row.

    The speedup, its interval and the A/A band come from
    :func:`cipherlab.verdicts.speed_evidence` (the declared statistic); the
    significance row adds the two-sided Mann-Whitney U p-value of the same
    per-call times (a rank test, consistent with a median), which the engine
    requires *together* with an effect beyond the A/A band.
    """
    rows = []
    for paper in papers:
        for operation in OPERATIONS:
            for impl in styles_compared(raw, paper, operation):
                old = _times_by_process(raw, paper, "aes", impl, operation)
                new = _times_by_process(raw, paper, "aes-2sbox", impl, operation)
                ctl = _times_by_process(raw, paper, "aes", impl, operation, instance="control")
                sub = raw[(raw["protocol"].astype(str).str.zfill(3) == paper) & (raw["impl"] == impl)
                          & (raw["operation"] == operation)]
                calls = ", ".join(f"{c}{'' if i == 'main' else ' (control)'} {int(k)}" for (c, i), k in
                                  sub.groupby(["cipher", "instance"], sort=True)["calls"].first().items())
                cond = dict(size=f"{int(sub['bytes'].iloc[0])} B", style=impl, mode=str(sub["mode"].iloc[0]),
                            profile=str(profile), section=SPEED_SECTION)
                ev = _verdicts.speed_evidence(SPEEDUP_CLAIM.format(paper=paper, op=operation[:3]), old, new,
                                              old, ctl, seed=seed,
                                              detail=f"{old.size} interleaved trials of protocol {paper} in "
                                                     f"{old.shape[0]} processes; calls per trial: {calls}", **cond)
                rows.append(ev)
                p = float(_st.mannwhitneyu(old.ravel(), new.ravel(), alternative="two-sided").pvalue)
                table = _TABLES[paper][operation].replace("Table ", "t")
                rows.append(replace(ev, claim_id=SIGNIFICANCE_CLAIM.format(paper=paper, table=table, op=operation[:3]),
                                    p_value=p, detail=ev.detail + "; p: Mann-Whitney U, two-sided"))
    return rows


def speed_table(raw: pd.DataFrame, skipped: "pd.DataFrame | None" = None, *, profile: str,
                papers: Iterable[str] = PAPERS, seed: int = 0, alpha: float = 0.05) -> pd.DataFrame:
    """Table 5 beside ours, one row per paper x operation x style, with the A/A band beside each comparison.

    Columns: ``paper, operation, style, size, trials, published_pct, ours_pct,
    low_pct, high_pct, aa_low_pct, aa_high_pct`` (the declared statistic and
    interval, from :func:`speed_evidence_rows`), ``mannwhitney_p``, the
    papers' mean-based speedup and Welch p (``mean_speedup_pct``,
    ``welch_p``: shown, not deciding), ``aes_ms`` and ``aes_2sbox_ms``
    (medians per call) and ``status``: ``timed`` or why a pair was not timed.
    """
    evs = {(e.claim_id, e.style): e for e in speed_evidence_rows(raw, profile=profile, papers=papers, seed=seed)}
    rows = []
    for paper in papers:
        for operation in OPERATIONS:
            base = {"paper": paper, "operation": operation, "published_pct": _published_speedup(paper, operation)}
            for impl in styles_compared(raw, paper, operation):
                e = evs[(SPEEDUP_CLAIM.format(paper=paper, op=operation[:3]), impl)]
                old = _times_ms(raw, paper, "aes", impl, operation)
                new = _times_ms(raw, paper, "aes-2sbox", impl, operation)
                rows.append({**base, "style": impl, "size": e.size, "trials": e.n, "ours_pct": e.estimate,
                             "low_pct": e.low, "high_pct": e.high, "aa_low_pct": e.control_low,
                             "aa_high_pct": e.control_high,
                             "mannwhitney_p": float(_st.mannwhitneyu(old, new, alternative="two-sided").pvalue),
                             "mean_speedup_pct": float(_stats.speedup(old.mean(), new.mean())),
                             "welch_p": float(_st.ttest_ind(old, new, equal_var=False).pvalue),
                             "aes_ms": float(np.median(old)), "aes_2sbox_ms": float(np.median(new)),
                             "status": "timed"})
            if skipped is not None and len(skipped):
                sk = skipped[skipped["protocol"].astype(str).str.zfill(3) == paper]
                for r in sk.itertuples():
                    rows.append({**base, "style": r.impl, "status": f"{r.cipher} not timed in this style: {r.reason}"})
    return pd.DataFrame(rows, columns=["paper", "operation", "style", "size", "trials", "published_pct", "ours_pct",
                                       "low_pct", "high_pct", "aa_low_pct", "aa_high_pct", "mannwhitney_p",
                                       "mean_speedup_pct", "welch_p", "aes_ms", "aes_2sbox_ms", "status"])


def plot_speed_trials(raw: pd.DataFrame, papers: Iterable[str] = PAPERS):
    """Per-call times (box plus the trials as dots): one panel per protocol x operation.

    x: implementation style; colour: cipher (the A/A control in grey); y: ms (log scale).
    """
    import matplotlib.pyplot as plt

    from cipherlab.plotting import PALETTE, style

    style()
    papers = list(papers)
    fig, axes = plt.subplots(len(OPERATIONS), len(papers), figsize=(4.2 * len(papers), 6.4), squeeze=False,
                             sharey=True)
    series = [("aes", "main"), ("aes", "control"), ("aes-2sbox", "main")]
    colours = {("aes", "main"): PALETTE["aes"], ("aes", "control"): "#9a9a9a", ("aes-2sbox", "main"): PALETTE["aes-2sbox"]}
    for j, paper in enumerate(papers):
        sub = raw[raw["protocol"].astype(str).str.zfill(3) == paper]
        for i, operation in enumerate(OPERATIONS):
            ax = axes[i][j]
            pos, ticks, labels = 0.0, [], []
            for impl in dict.fromkeys(sub["impl"]):
                start = pos
                for cipher, instance in series:
                    ms = _times_ms(sub, paper, cipher, impl, operation, instance)
                    if not ms.size:
                        continue
                    colour = colours[(cipher, instance)]
                    ax.boxplot([ms], positions=[pos], widths=0.6, showfliers=False,
                               medianprops={"color": colour}, boxprops={"color": colour},
                               whiskerprops={"color": colour}, capprops={"color": colour})
                    ax.plot(pos + np.linspace(-0.2, 0.2, ms.size), ms, "o", ms=2.5, alpha=0.6, color=colour)
                    pos += 1.0
                if pos > start:
                    ticks.append((start + pos - 1) / 2)
                    labels.append(impl)
                    pos += 0.5
            ax.set_xticks(ticks, labels)
            ax.set_yscale("log")
            ax.set_title(f"paper {paper} protocol, {operation}")
            if j == 0:
                ax.set_ylabel("time per call (ms)")
    names = {("aes", "main"): "AES-Rijndael", ("aes", "control"): "AES, second instance (A/A control)",
             ("aes-2sbox", "main"): "AES-2SBox"}
    handles = [plt.Line2D([], [], marker="o", ls="", color=colours[s], label=names[s]) for s in series]
    fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
