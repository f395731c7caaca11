"""The book's front page: what this run found, per paper, written from this run's tables.

Every number on the findings page comes from a table the pipeline wrote
(``data/tables/<profile>/*.csv``); the functions here are sentence templates
that take those tables and return markdown, never numbers typed by hand.

The tables and the columns each template reads are declared once, in
:data:`TABLES`; :func:`load_tables` reads them by name and fails with a
:class:`FindingsError` naming the missing table or column, so that a renamed
table stops the page instead of printing wrong text.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import pandas as pd

from cipherlab.analysis.display import format_number, table_html
from cipherlab.pipeline.paths import PAPER_DATA_DIR, Profile, as_profile
from cipherlab.analysis.verdicts import FINDING
from cipherlab.report import tiers
from cipherlab.report.tiers import ALL_VERDICTS as VERDICTS

#: Every table the findings page reads: name -> (chapter that writes it, columns read).
#: The chapter ``"book"`` is the verdict page's own table, always required.
TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "verdicts": ("book", ("claim_id", "paper", "kind", "verdict", "section")),
    "security_sbox_properties": ("security", ("sbox", "nonlinearity", "differential_uniformity",
                                              "algebraic_degree")),
    "security_attack": ("security", ("cipher", "mode", "target", "queries", "bytes", "bytes_recovered",
                                     "byte_local")),
    "aes2sbox_speedup": ("aes2sbox", ("paper", "operation", "style", "size", "published_pct", "ours_pct",
                                      "low_pct", "high_pct", "aa_low_pct", "aa_high_pct")),
    "maes_speedups_block": ("maes", ("impl", "operation", "cipher", "bytes", "speedup_pct", "low_pct",
                                     "high_pct", "control_low_pct", "control_high_pct",
                                     "published_speedup_pct")),
    "maes_speedups_bulk": ("maes", ("impl", "operation", "cipher", "bytes", "speedup_pct", "low_pct",
                                    "high_pct", "control_low_pct", "control_high_pct")),
    "aead_ranking_vs_paper": ("aead", ("table", "row", "column", "published", "ours", "claim_id")),
    "aead_bitflip_acceptance": ("aead", ("family", "mode", "location", "flips", "accepted")),
}

#: The figure the page shows: the image the key-free codebook attack recovered (security chapter).
FIGURE = ("security", "security_recovered_image")

#: Papers in page order, with the cipher names the security tables use and the chapter of each.
PAPERS = {
    "000": ("aes2sbox", ("aes-2sbox",)),
    "001": ("aes2sbox", ("aes-2sbox",)),
    "002": ("maes", ("maes-1", "maes-2")),
    "003": ("aead", ()),
}

#: The per-paper coverage table (each published table and figure, where it is rebuilt or why not).
COVERAGE_FILE = PAPER_DATA_DIR / "coverage.csv"
COVERAGE_COLUMNS = ("paper", "item", "rebuilt", "where", "note")


class FindingsError(ValueError):
    """A table or column the findings page reads is missing (renamed?): the page is not written."""


# --------------------------------------------------------------------------- reading


def tables_for(chapters: Sequence[str]) -> list[str]:
    """Names of the tables the page reads when ``chapters`` were built (for the pipeline's inputs)."""
    return [name for name, (chapter, _) in TABLES.items() if chapter == "book" or chapter in chapters]


def check_table(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """``df`` if it has every column :data:`TABLES` declares for ``name``; else a :class:`FindingsError`."""
    if name not in TABLES:
        raise FindingsError(f"findings: unknown table {name!r}; known: {sorted(TABLES)}")
    missing = [c for c in TABLES[name][1] if c not in df.columns]
    if missing:
        raise FindingsError(f"findings: table {name!r} lacks column(s) {missing} "
                            f"(it has {list(map(str, df.columns))}); update cipherlab.report.findings.TABLES")
    return df


def load_tables(profile: "str | Profile", chapters: Sequence[str]) -> dict[str, pd.DataFrame]:
    """Read every table of :data:`TABLES` whose chapter is in ``chapters`` (and the verdicts)."""
    prof = as_profile(profile)
    out = {}
    for name in tables_for(chapters):
        path = prof.table(name)
        if not path.is_file():
            raise FindingsError(f"findings: table {name!r} ({TABLES[name][0]} chapter) is missing: "
                                f"{path.name} not found in data/tables/{prof.name}/; "
                                f"was it renamed? update cipherlab.report.findings.TABLES")
        out[name] = check_table(name, pd.read_csv(path, keep_default_na=False, na_values=[""],
                                                  dtype={"paper": str}))
    return out


def figure_path(profile: "str | Profile", chapters: Sequence[str]) -> "Path | None":
    """The recovered-image PNG, or None when the security chapter was not built; missing file: an error."""
    chapter, name = FIGURE
    if chapter not in chapters:
        return None
    path = as_profile(profile).figure(name, "png")
    if not path.is_file():
        raise FindingsError(f"findings: figure {name!r} of the {chapter} chapter is missing ({path.name}); "
                            "was it renamed? update cipherlab.report.findings.FIGURE")
    return path


def _table(tables: Mapping[str, pd.DataFrame], name: str) -> "pd.DataFrame | None":
    """The checked table, or None when its chapter was not built in this run."""
    df = tables.get(name)
    return None if df is None else check_table(name, df)


def _page_link(chapter: str, tables: Mapping[str, pd.DataFrame]) -> str:
    """A link to a chapter page, or its name alone when the chapter was not built (no table of it read)."""
    built = any(TABLES[n][0] == chapter for n in tables if n in TABLES)
    return f"the [{chapter} chapter]({chapter}.html)" if built else f"the {chapter} chapter (not built in this run)"


def _not_built(name: str) -> str:
    return f"*(The {TABLES[name][0]} chapter was not built in this run.)*"


# --------------------------------------------------------------------------- wording


def num(x, digits: int = 3) -> str:
    """A number as the page prints it (significant digits, the book's one number format)."""
    return format_number(float(x), digits) if pd.notna(x) else "—"


def pct(x, digits: int = 3) -> str:
    s = num(x, digits)
    return s if s == "—" else (f"+{s} %" if float(x) > 0 else f"{s} %".replace("-", "−"))


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _span(values: Sequence[float], fmt=pct) -> str:
    """One value, or "lo to hi" for several."""
    vals = sorted(float(v) for v in values if pd.notna(v))
    if not vals:
        return "—"
    lo, hi = fmt(vals[0]), fmt(vals[-1])
    return lo if lo == hi else f"{lo} to {hi}"


def _truthy(series: pd.Series) -> pd.Series:
    return series.map(lambda v: str(v).strip().lower() in ("true", "1", "yes"))


def verdict_counts(verdicts: pd.DataFrame, paper: str) -> dict[str, int]:
    """The paper's claims per verdict (extensions, i.e. findings, apart under ``"finding"``)."""
    check_table("verdicts", verdicts)
    rows = verdicts[verdicts["paper"].astype(str) == paper]
    unknown = sorted(set(rows["verdict"]) - set(VERDICTS) - {FINDING})
    if unknown:
        raise FindingsError(f"findings: verdicts of paper {paper} has unknown verdict(s) {unknown}; "
                            f"known: {list(VERDICTS) + [FINDING]}")
    counts = rows["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in (*VERDICTS, FINDING)}


def tier_counts_sentence(verdicts: pd.DataFrame, paper: str) -> str:
    """"Paper 000. Headline claims (5): 3 contradicted, 2 inconclusive. Supporting checks (12): ..." (and findings)."""
    check_table("verdicts", verdicts)
    counts = verdict_counts(verdicts, paper)
    if not sum(n for v, n in counts.items() if v != FINDING):
        text = f"**Paper {paper}.** No claim was decided in this run."
    else:
        text = f"**Paper {paper}.** " + tiers.tier_sentence(verdicts, paper)
    extra = counts.get(FINDING, 0)
    if extra:
        text += f" Our own experiments add {_plural(extra, 'finding')}, not counted among them."
    return text


def verdict_sentence(counts: Mapping[str, int], paper: str) -> str:
    """"Of the 17 claims of paper 000, 8 were reproduced, ..." in every count case (none, one, all alike)."""
    claims = {v: counts.get(v, 0) for v in VERDICTS}
    total = sum(claims.values())
    given = [(v, n) for v, n in claims.items() if n]
    if total == 0:
        text = f"No claim of paper {paper} was decided in this run."
    elif len(given) == 1 and total == 1:
        text = f"The one claim of paper {paper} we test was {given[0][0]}."
    elif len(given) == 1:
        text = f"All {total} claims of paper {paper} we test were {given[0][0]}."
    else:
        parts = [f"{n} {'was' if n == 1 else 'were'} {v}" if i == 0 else f"{n} {v}" for i, (v, n) in enumerate(given)]
        text = f"Of the {total} claims of paper {paper} we test, {_join(parts)}."
    extra = counts.get(FINDING, 0)
    if extra:
        text += f" Our own experiments add {_plural(extra, 'finding')}, not counted among them."
    return text


# --------------------------------------------------------------------------- papers 000 and 001


def _sbox_row(props: pd.DataFrame, prefix: str) -> "pd.Series | None":
    rows = props[props["sbox"].astype(str).str.lower().str.startswith(prefix)]
    return None if rows.empty else rows.iloc[0]


def sbox_sentence(props: "pd.DataFrame | None") -> str:
    """The second S-box is affine: its degree, nonlinearity and uniformity against Rijndael's."""
    if props is None:
        return _not_built("security_sbox_properties")
    check_table("security_sbox_properties", props)
    rijndael, second = _sbox_row(props, "rijndael"), _sbox_row(props, "second")
    if rijndael is None or second is None:
        raise FindingsError("findings: security_sbox_properties needs a 'rijndael' row and a 'second ...' row; "
                            f"it has {props['sbox'].tolist()}")
    rnd = _sbox_row(props, "aes-2sbox round")
    degree = int(second["algebraic_degree"])
    kind = "affine" if degree <= 1 else f"of algebraic degree {degree}"
    text = (f"**The second S-box is {kind}.** The S-box the papers print as Table 1 ({second['sbox']}) "
            f"has algebraic degree {degree}, nonlinearity {num(second['nonlinearity'])} and differential "
            f"uniformity {num(second['differential_uniformity'])}; Rijndael's has "
            f"{num(rijndael['algebraic_degree'])}, {num(rijndael['nonlinearity'])} and "
            f"{num(rijndael['differential_uniformity'])}.")
    if rnd is not None:
        text += (f" Composed with the Rijndael S-box, the byte map each round applies has nonlinearity "
                 f"{num(rnd['nonlinearity'])}: the substitution is not what makes the cipher weak; "
                 "the missing diffusion is.")
    return text


def attack_sentence(attack: "pd.DataFrame | None", ciphers: Sequence[str], name: str) -> str:
    """Byte-local ciphers and the key-free chosen-plaintext codebook (queries, bytes recovered)."""
    if attack is None:
        return _not_built("security_attack")
    check_table("security_attack", attack)
    rows = attack[attack["cipher"].isin(ciphers)]
    if rows.empty:
        raise FindingsError(f"findings: security_attack has no row for {list(ciphers)}; "
                            f"ciphers: {sorted(attack['cipher'].unique())}")
    local = bool(_truthy(rows["byte_local"]).all())
    queries = _span(rows["queries"], num)
    got, total = int(rows["bytes_recovered"].sum()), int(rows["bytes"].sum())
    share = 100.0 * got / total if total else float("nan")
    modes = _join(sorted(m.upper() for m in rows["mode"].astype(str).unique()))
    targets = _join(sorted(rows["target"].astype(str).unique()))
    head = (f"**{name} {'is' if len(ciphers) == 1 else 'are'} byte-local.**" if local else
            f"**{name} {'is' if len(ciphers) == 1 else 'are'} not byte-local in every case tested.**")
    text = (f"{head} Without MixColumns each output byte depends on one input byte, so a chosen-plaintext "
            f"codebook of {queries} blocks per key decrypts any ciphertext without the key: it recovered "
            f"{num(got)} of {num(total)} bytes ({num(share)} %) of the {targets} in {modes}.")
    aes = attack[attack["cipher"].astype(str).str.lower() == "aes"]
    if not aes.empty:
        worst = 100.0 * (aes["bytes_recovered"] / aes["bytes"]).max()
        text += f" Against AES the same attack recovered at most {num(worst)} % of the bytes."
    return text


def _within_noise(low, high, aa_low, aa_high) -> bool:
    """Whether the measured interval overlaps this machine's A/A noise band."""
    return bool(pd.notna(aa_low) and pd.notna(aa_high) and float(low) <= float(aa_high)
                and float(high) >= float(aa_low))


def _interval(low, high) -> str:
    return "—" if pd.isna(low) or pd.isna(high) else f"[{num(low)}, {num(high)}]"


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A small table inside the page's markdown, drawn by the book's one table renderer (an HTML block:
    the notebook's markdown outputs are CommonMark, which has no tables)."""
    return table_html(pd.DataFrame([list(map(str, r)) for r in rows], columns=list(header)))


def aes2sbox_speed_sentence(speed: "pd.DataFrame | None", paper: str) -> str:
    """Published speedups of one paper against ours, as a lead sentence and a small table (style x operation)."""
    if speed is None:
        return _not_built("aes2sbox_speedup")
    check_table("aes2sbox_speedup", speed)
    rows = speed[speed["paper"].astype(str) == paper]
    if rows.empty:
        raise FindingsError(f"findings: aes2sbox_speedup has no row for paper {paper}")
    ops = [op for op in ("encrypt", "decrypt") if op in set(rows["operation"])]
    published = _join([f"{pct(rows[rows['operation'] == op]['published_pct'].iloc[0], 5)} ({op}ion)"
                       for op in ops])
    table, untimed = [], []
    for style, g in rows.groupby("style", sort=False):
        timed = g[g["ours_pct"].notna()]
        if timed.empty:
            untimed.append(str(style))
            continue
        for op in ops:
            r = timed[timed["operation"] == op]
            if r.empty:
                continue
            r = r.iloc[0]
            noise = _within_noise(r["low_pct"], r["high_pct"], r["aa_low_pct"], r["aa_high_pct"])
            table.append([str(style), f"{op}ion", str(r["size"]), pct(r["published_pct"], 5), pct(r["ours_pct"]),
                          _interval(r["low_pct"], r["high_pct"]), "yes" if noise else "no"])
    text = (f"Paper {paper} reports AES-2SBox faster than AES by {published}. **The speedup depends on how the "
            "ciphers are written:**\n\n"
            + _md_table(("style", "operation", "size", "published", "ours", "ours: 95 % interval (%)",
                         "within A/A noise"), table))
    if untimed:
        text += f"\n\nNot timed in the {_join(untimed)} style{'s' if len(untimed) > 1 else ''}."
    return text


# --------------------------------------------------------------------------- paper 002


def maes_speed_sentence(block: "pd.DataFrame | None", bulk: "pd.DataFrame | None") -> str:
    """The MAES speed claims (Table III, one block) against ours, one table row per style, approach and operation,
    with our bulk test beside them."""
    if block is None:
        return _not_built("maes_speedups_block")
    check_table("maes_speedups_block", block)
    if bulk is not None:
        check_table("maes_speedups_bulk", bulk)
    size = _join(sorted({f"{num(b)} B" for b in block["bytes"]}))
    bulk_size = _join(sorted({f"{num(b)} B" for b in bulk["bytes"]})) if bulk is not None else ""
    header = ["style", "cipher", "operation", "published", f"ours, {size}", "95 % interval (%)"]
    if bulk is not None:
        header.append(f"ours, {bulk_size} (bulk)")
    table = []
    for (impl, cipher, op), g in block.groupby(["impl", "cipher", "operation"], sort=False):
        r = g.iloc[0]
        pub = pct(r["published_speedup_pct"])
        row = [str(impl), str(cipher), f"{op}ion", "not claimed" if pub == "—" else pub, pct(r["speedup_pct"]),
               _interval(r["low_pct"], r["high_pct"])]
        if bulk is not None:
            b = bulk[(bulk["impl"] == impl) & (bulk["cipher"] == cipher) & (bulk["operation"] == op)]
            row.append(pct(b["speedup_pct"].iloc[0]) if len(b) else "not measured")
        table.append(row)
    return (f"**Speed.** Paper 002 claims MAES (approaches 1 and 2) faster than AES on one block ({size}); "
            "our speedups per style, cipher and operation:\n\n" + _md_table(header, table))


# --------------------------------------------------------------------------- paper 003


def ranking_sentence(verdicts: pd.DataFrame, ranking: "pd.DataFrame | None", paper: str = "003") -> str:
    """Verdicts of the paper's ordering claims (mode and cipher rankings), with the contradicted rows."""
    check_table("verdicts", verdicts)
    rows = verdicts[(verdicts["paper"].astype(str) == paper) & (verdicts["kind"] == "ordering")
                    & (verdicts["verdict"] != FINDING)]
    if rows.empty:
        return f"No ranking claim of paper {paper} was decided in this run."
    counts = rows["verdict"].value_counts()
    parts = [f"{int(counts[v])} {v}" for v in VERDICTS if counts.get(v, 0)]
    text = (f"**Rankings.** Of the paper's {_plural(len(rows), 'claim')} ranking the modes (GCM, CCM, EAX) and "
            f"the ciphers (AES, Blowfish, CAST) by time, throughput and tag-rejection time, {_join(parts)}.")
    if ranking is None:
        return text
    check_table("aead_ranking_vs_paper", ranking)
    contradicted = set(rows.loc[rows["verdict"] == "contradicted", "claim_id"])
    shown: dict[tuple, list[str]] = {}
    for r in ranking.itertuples(index=False):
        ids = {c.strip() for c in str(r.claim_id).split(",")}
        if ids & contradicted and pd.notna(r.ours):
            shown.setdefault((r.table, r.row, r.published, r.ours), []).append(str(r.column).lower())
    if shown:
        text += " Contradicted, among them: " + "; ".join(
            f"{t}, {row} ({_join(cols)}): the paper *{pub}*, we *{ours}*"
            for (t, row, pub, ours), cols in shown.items()) + "."
    return text


def bitflip_sentence(bitflip: "pd.DataFrame | None") -> str:
    """The bit-flipping experiment the paper leaves to future work: AEAD rejects, bare modes accept."""
    if bitflip is None:
        return _not_built("aead_bitflip_acceptance")
    check_table("aead_bitflip_acceptance", bitflip)
    fam = bitflip["family"].astype(str)
    aead, bare = bitflip[fam == "aead"], bitflip[fam != "aead"]
    if aead.empty or bare.empty:
        raise FindingsError("findings: aead_bitflip_acceptance needs 'aead' rows and unauthenticated rows; "
                            f"families: {sorted(fam.unique())}")
    a_acc, a_n = int(aead["accepted"].sum()), int(aead["flips"].sum())
    modes = _join(sorted(aead["mode"].astype(str).str.upper().unique()))
    where = _join(sorted(aead["location"].astype(str).unique()))
    text = (f"**Bit flipping** (the paper's future work): {modes} accepted {num(a_acc)} of {num(a_n)} "
            f"single-bit flips of {where}.")
    per_mode = []
    for mode, g in bare.groupby("mode", sort=True):
        share = 100.0 * g["accepted"].sum() / g["flips"].sum()
        per_mode.append(f"{str(mode).upper()} {num(share)} %")
    text += (f" Without authentication the flips pass: accepted {_join(per_mode)} of them, "
             "so an attacker changes the plaintext unseen.")
    return text


# --------------------------------------------------------------------------- the page


def overview_markdown(tables: Mapping[str, pd.DataFrame]) -> str:
    """One sentence over all papers: how many claims, and their verdicts."""
    verdicts = _table(tables, "verdicts")
    if verdicts is None:
        raise FindingsError("findings: the verdicts table is required")
    check_table("verdicts", verdicts)
    claims = verdicts[verdicts["verdict"] != FINDING]
    counts = claims["verdict"].value_counts()
    parts = [f"{int(counts[v])} {v}" for v in VERDICTS if counts.get(v, 0)]
    papers = claims["paper"].astype(str).nunique()
    return (f"This run tested {_plural(len(claims), 'claim')} of {_plural(papers, 'paper')}: {_join(parts)}. "
            f"By tier: {tiers.tier_sentence(verdicts)} "
            "Each verdict, its rule and its evidence are on the [verdicts](verdicts.html) page; each paper has a "
            "referee's report at the head of its part of the book.")


def section_markdown(papers: Sequence[str], tables: Mapping[str, pd.DataFrame]) -> str:
    """The findings for one cipher (one or two papers), as markdown."""
    unknown = [p for p in papers if p not in PAPERS]
    if unknown or not papers:
        raise ValueError(f"papers must be among {sorted(PAPERS)}, got {list(papers)!r}")
    verdicts = _table(tables, "verdicts")
    if verdicts is None:
        raise FindingsError("findings: the verdicts table is required")
    chapter, ciphers = PAPERS[papers[0]]
    lines = [" ".join(tier_counts_sentence(verdicts, p) for p in papers)]
    if chapter == "aes2sbox":
        lines.append(sbox_sentence(_table(tables, "security_sbox_properties")))
        lines.append(attack_sentence(_table(tables, "security_attack"), ciphers, "AES-2SBox"))
        lines += [aes2sbox_speed_sentence(_table(tables, "aes2sbox_speedup"), p) for p in papers]
    elif chapter == "maes":
        lines.append(attack_sentence(_table(tables, "security_attack"), ciphers, "MAES (approaches 1 and 2)"))
        lines.append(maes_speed_sentence(_table(tables, "maes_speedups_block"),
                                         _table(tables, "maes_speedups_bulk")))
    else:
        for p in papers:
            lines.append(ranking_sentence(verdicts, _table(tables, "aead_ranking_vs_paper"), p))
        lines.append(bitflip_sentence(_table(tables, "aead_bitflip_acceptance")))
    lines.append("Details: " + _join([_page_link(c, tables) for c in (chapter, "security")
                                      if c != "security" or chapter != "aead"]) + ".")
    return "\n\n".join(lines)


def figure_caption(attack: "pd.DataFrame | None") -> str:
    """Caption of the recovered-image figure, its numbers from the attack table."""
    if attack is None:
        return ""
    check_table("security_attack", attack)
    rows = attack[attack["target"].astype(str) == "image"]
    broken = rows[_truthy(rows["byte_local"])]
    queries = _span(broken["queries"], num) if not broken.empty else "—"
    return (f"*The key-free chosen-plaintext codebook attack ({queries} chosen blocks per key) on an image: "
            "the plaintext, its ciphertext, and what the attack recovers without the key, for each cipher "
            "named above the panels.*")


# --------------------------------------------------------------------------- coverage


def load_coverage(path=None) -> pd.DataFrame:
    """``data/paper/coverage.csv``: each published table and figure, where it is rebuilt or why not."""
    path = Path(path or COVERAGE_FILE)
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in COVERAGE_COLUMNS if c not in df.columns]
    if missing:
        raise FindingsError(f"findings: {path.name} lacks column(s) {missing}")
    bad = sorted(set(df["rebuilt"]) - {"yes", "partly", "no"})
    if bad:
        raise ValueError(f"{path.name}: rebuilt must be yes, partly or no, got {bad}")
    return df[list(COVERAGE_COLUMNS)]


def coverage_html(coverage: pd.DataFrame, paper: str) -> str:
    """One paper's coverage rows as an HTML table whose "where" cells are links to the chapter's section."""
    import html as _html
    rows = coverage_view(coverage, paper)
    esc = _html.escape

    def where(value: str) -> str:
        value = str(value).strip()
        if not value or value in ("—", "-") or ".html" not in value:
            return esc(value or "—")
        page, _, section = value.partition("#")
        text = page.removesuffix(".html") + (f" › {section}" if section else "")
        return f'<a href="{esc(value)}">{esc(text)}</a>'

    body = "".join(f"<tr><td>{esc(r.item)}</td><td>{esc(r.rebuilt)}</td><td>{where(r.where)}</td>"
                   f"<td>{esc(r.note)}</td></tr>" for r in rows.itertuples())
    head = "".join(f"<th>{h}</th>" for h in ("item", "rebuilt", "where", "note"))
    return (f'<table class="cipherlab-table cl-coverage"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def coverage_view(coverage: pd.DataFrame, paper: str) -> pd.DataFrame:
    """One paper's coverage rows for the page (item names kept on one line)."""
    rows = coverage[coverage["paper"] == paper][["item", "rebuilt", "where", "note"]]
    return rows.assign(item=rows["item"].str.replace(" ", "\u00a0", regex=False)).reset_index(drop=True)
