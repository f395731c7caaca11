"""The Methods page's statement of the verdict rules, rendered from ``config/verdicts.yaml``.

What the decision engine (:mod:`cipherlab.analysis.verdicts`) applies, in words: every rule and
parameter (:func:`rules_markdown`) and the one table of meanings (:func:`meanings_markdown`), which
CONTRIBUTING shows too (a test keeps the two copies equal).  Presentation only: nothing here decides.
"""
from __future__ import annotations

from cipherlab.analysis.claims import RULES, load_rules
from cipherlab.pipeline.config import load_config
from cipherlab.pipeline.paths import PROFILES

__all__ = ["RULE_TEXT", "meanings_markdown", "rules_markdown"]


#: What each rule compares, in words, with ``{margin}``/``{alpha}`` filled from the rules file.  A rule names
#: an outcome; the table of meanings (:func:`meanings_markdown`) alone gives its verdict word.
RULE_TEXT = {
    "within_margin": ("value, ratio",
                      "our interval against the published value ±{margin} (relative) and, for a directional claim "
                      "(one with a null), against the A/A noise band around the null: `established` if beyond the "
                      "band in the claimed direction and within the margin; `size_excluded` if wholly outside the "
                      "margin and the direction not excluded; `reversed` if beyond the band on the other side; "
                      "`no_effect` if it reaches no further than the band in the claimed direction and the published "
                      "value lies clearly beyond the band (`below_resolution` if it does not); a published value "
                      "inside the band is a small claimed effect (as `small_effect`); a size that belongs to the "
                      "paper's machine (`carries: direction`) is only said to agree or differ on this machine "
                      "(`agrees_here`, `differs_here`, `unclear_here`) once the direction holds; otherwise "
                      "`undecided`"),
    "ordering": ("ordering",
                 "our interval of the effect, oriented so that the claim lies above the null, against the noise "
                 "band around the null: `established` if above it, `reversed` if below it; if it reaches no "
                 "further than its upper edge, `no_effect` where the paper states an effect clearly beyond the band "
                 "(a bound, or the gap its own table prints for this comparison, `stated`), `as_small_as_stated` "
                 "as for `small_effect` where the printed gap lies inside the band, `below_resolution` where it "
                 "states no size or one near the band; a speedup claimed to be at least N % (null N) has its "
                 "direction judged against 0 and its bound against the band around N (`size_excluded` below it; "
                 "a machine-bound bound, `carries: direction`, only agrees or differs on this machine); a gap the "
                 "paper prints between two code paths (`carries: direction`), the order held, only agrees or "
                 "differs on this machine, within the margin of a printed value (a slight gap, within "
                 "`slight_pct`); otherwise `undecided`"),
    "small_effect": ("ordering",
                     "a claim that states a small effect in a direction (\"slightly faster\"): "
                     "`as_small_as_stated` if our interval lies inside the noise band (its sign cannot be told "
                     "there), `size_excluded` if wholly beyond it in the claimed direction (larger than small), "
                     "`reversed` if wholly beyond it on the other side, otherwise `undecided`; beyond the band, a slight "
                     "effect in its direction is as small as stated up to `slight_pct`; a sameness of no direction "
                     "(`expect: either`: \"similar\", \"very close\") is as small as stated when our interval lies "
                     "wholly within ±`slight_pct` whatever its sign, `statement_false` when wholly beyond it"),
    "equivalent": ("value",
                   "`established` if our interval of the difference lies within ±{margin} of the null (in the "
                   "claim's unit); `statement_false` if wholly outside; otherwise `undecided`"),
    "significance": ("significance",
                     "`established` if p < {alpha} and our interval lies above the noise band (the direction the "
                     "paper reports); `reversed`, `no_effect` or `below_resolution` as for `ordering` (the effect "
                     "the paper's own means show sizes the claim), whatever p; otherwise `undecided`"),
    "pvalue": ("structural",
               "a test at alpha = {alpha} (by default; a claim may declare its own): `established` if its outcome "
               "(reject or retain) is the one the claim states, `statement_false` otherwise"),
    "holds": ("structural, qualitative",
              "`established` if the statement holds (checked exhaustively or by construction), `statement_false` "
              "if not"),
    "not_testable": ("any", "`unmeasurable`; the claim row says why (an absolute number of the paper's machine, "
                            "`carries: nothing`, is always this, and counted)"),
}


def meanings_markdown(rules: "dict | None" = None) -> str:
    """The one table of meanings (``verdicts:`` and ``outcomes:`` of ``config/verdicts.yaml``) in Markdown.

    The Methods page and CONTRIBUTING show exactly this text.
    """
    rules = rules or load_rules()
    lines = ["| verdict | meaning | outcomes that give it | counted |", "|---|---|---|---|"]
    for word, entry in rules["verdicts"].items():
        shown = entry.get("shown", word)
        label = f"*{word}*" + (f" (shown \"{shown}\")" if shown != word else "")
        counted = "yes" if entry.get("counted", True) else "apart"
        lines.append(f"| {label} | {entry['meaning']} | {', '.join(f'`{o}`' for o in entry['outcomes'])} "
                     f"| {counted} |")
    lines += ["", "| outcome | the comparison |", "|---|---|"]
    lines += [f"| `{name}` | {text} |" for name, text in rules["outcomes"].items()]
    return "\n".join(lines) + "\n"


def rules_markdown(rules: "dict | None" = None) -> str:
    """The Methods page's statement of every rule and parameter, rendered from ``config/verdicts.yaml``."""
    rules = rules or load_rules()
    paired = rules["speed_pairing"] == "rounds"
    stat_line = (
        f"- Speed statistic: the cases of one measurement are timed in interleaved rounds (every case once per "
        f"round, in a seeded random order). The ratio `old / new` of per-call times is taken **within each round**, "
        f"where both calls ran back to back, and the **{rules['speed_statistic']}** of the rounds' log ratios is "
        "taken in each fresh process; the processes combine by their mean, and the speedup is "
        "`(exp(that) - 1) x 100 %`. A slow spell of the machine that lasts longer than a round (a frequency step, "
        "a neighbour's burst) slows both calls of the round alike and cancels."
        if paired else
        f"- Speed statistic: the **{rules['speed_statistic']}** of the per-call times of each case, compared as a "
        "speedup `(stat(old) / stat(new) - 1) x 100 %` within each fresh process (where both cases were timed "
        "side by side), the processes' ratios combined by their geometric mean.")
    lines = [
        stat_line + f" The interval is a {float(rules['confidence']):.0%} percentile bootstrap "
        f"({int(rules['bootstrap_resamples'])} seeded resamples).",
        "- Fresh processes: the same code can run at a different speed in each fresh interpreter, which a bootstrap "
        "over the trials of one process cannot see. Each chapter's trials are therefore spread over several fresh "
        f"processes, one after another ({_processes_text()}). A process that ran slower as a whole slows both "
        "cases alike and cancels in its ratio. The bootstrap resamples at both levels: the "
        "processes with replacement (the same draw for both cases of a comparison, which were timed in each), "
        + ("then the rounds within each drawn process, each round's pair of calls kept together."
           if paired else "then the trials within each drawn process, independently for the two cases."),
        "- A/A control: every speed comparison also times AES against an identical second AES instance in the "
        "same interleaved run; its interval is this machine's noise band, never narrower than "
        f"±{float(rules['noise_floor_pct']):g} %: that floor stands for what an A/A control of one code path "
        "cannot show, the few percent by which two different code paths differ from code and data layout alone "
        "(Mytkowicz et al., *Producing wrong data without doing anything obviously wrong!*, ASPLOS 2009). "
        "A speed effect counts only beyond the band. A speed-up in percent is a ratio, so its band is a band of "
        "ratios: the factor 1 + h / 100 either way (a half-width h = 14.4 % spans -12.6 % .. +14.4 %), so that a "
        "ratio and its inverse (CAST over Blowfish, Blowfish over CAST) are decided alike; around a non-zero null N "
        "(a speedup claimed to be at least N %) the same factor either way around 1 + N / 100, never percentage "
        "points added. A band wider than "
        f"±{float(rules['max_noise_pct']):g} % is too noisy to decide an interval that meets it, unless the effect "
        f"(claimed or measured, the larger) is at least {float(rules['decisive_effect_ratio']):g} times its "
        "half-width: such a machine cannot show an absence, or a size within its noise. An interval wholly beyond "
        "the band shows the effect on any machine and is decided.",
        "- The noise of each kind of statistic (`noise_by_statistic`): " + "; ".join(
            f"{kind.replace('_', ' ')}: " + ("the A/A band above" if how == "aa" else "no band, its bootstrap "
                                             "interval alone decides")
            for kind, how in rules["noise_by_statistic"].items())
        + ". The A/A band is the noise of a ratio of two code paths timed side by side; a change of one code path "
        "from one size to another (a \"flat\", \"rises\" or \"levels off\" claim) and the misfit of a fit (a "
        "\"linear\" claim) are other statistics, which that band does not measure, except where each side is a "
        "single cold call (paper 003's protocol, below): such a call's time depends on the state its process is in "
        "when it lands, as the twin's single call at the same size does, so that change is decided against the A/A "
        "band of the twin's cold calls.",
        "- One call per process (paper 003's own protocol, one cold call per file): where each process calls each "
        "case once, where a call lands in the order matters (the first calls pay for the interpreter's first "
        "touches), and a random order leaves a case and its A/A twin unbalanced over a dozen processes. The "
        "processes are therefore taken in pairs, the second calling the first's order with every case and its "
        "twin swapped (ABBA): each case precedes its twin in exactly half of the processes, and any position "
        "effect cancels in the A/A control instead of being read as noise. These processes time nothing else, and "
        "each makes every block of memory from the smallest file size up a fresh mapping before it starts (with glibc, "
        "its mmap threshold pinned there): every file's output buffer then costs its first touch whatever ran "
        "before it, as in a "
        "program that times each file once. Left to rise with the largest block freed, the threshold made a 5 MB "
        "call land on recycled or on fresh pages by the order of the calls before it.",
        "- Significance: the trials of one process share its warm-up, memory layout and spell of load, so they are "
        "not independent observations. A p-value is taken at the level of the independent unit, the process: a "
        "two-sided t-test of the processes' log speed ratios (one process gives no test). The papers' own tests "
        "on pooled trials (Welch's t-test of papers 000/001) are reproduced as the papers ran them, labelled so, "
        "and decide nothing beyond the papers' own statement of them.",
        f"- Operations shorter than {float(rules['min_trial_seconds']) * 1e3:g} ms are timed in batches of k calls "
        "per trial (k fixed per case after the warm-up), and the empty-call overhead is reported apart.",
        "- Condition: a claim row names the condition it is about (`condition`, e.g. `size=5 MB`, alternatives "
        "joined by `|`). Evidence taken at another condition never decides it: the row is *not at the paper's "
        f"condition* and shows what was measured. A size matches within {float(rules['size_tolerance']):.0%}, so "
        "the paper's KB and MB match whether it meant 1000- or 1024-based units.",
        f"- Readings (`readings: {rules['readings']}`): where the paper leaves a condition open (a mode) or "
        "states its claim across several (every size), the chapter measures each reading and the claim row admits "
        "the plausible ones (`decided_by`, alternatives joined by `|`). The claim holds only if it holds under "
        "every reading it admits: the least favourable decides, in the order "
        + ", ".join(f"*{w}*" for w in rules["combine_order"]) + ", and its reading is shown on the row. "
        "One rule, because a claim the paper states without its condition is a claim about each condition it "
        "could mean; a reading its own numbers exclude is not admitted, and the row's note says why. A claim the "
        "paper states \"in most measures\", or as an overall ranking over its sizes, declares `readings: most`: "
        "the median reading decides (the most favourable verdict that more than half of the readings reach), "
        "never the single size where the gap is smallest. A same-path speed-up (a modified cipher against AES in one "
        "implementation style, the same code path with one step changed) declares `readings: any`: each style of "
        "ours is a reading the paper leaves open, and the most favourable decides. What the change saves is the "
        "cost of the step it removes against the step in its place, two pieces of code the paper does not publish, "
        "so the saving's size belongs to how the ciphers are written and to the machine (our styles span it): "
        "only its direction carries over (`carries: direction`), and the printed size is said to agree or differ "
        "on this machine. A claim \"at every step\" (a quantity rising at each of m "
        "sizes) declares `readings: monotone`: the end-to-end change decides its direction, and a step "
        "contradicts only when it goes the other way beyond the noise at the family-wise level (each step's "
        "interval widened to 1 - (1 - confidence) / m, Bonferroni), never the minimum of m uncorrected "
        "comparisons; a step inside the noise is no move at that step (a level claim would call it flat), so the "
        "claim is reproduced only where every step goes its way beyond the noise, inconclusive otherwise. Where the paper leaves open which of several fair readings a word means (the key byte an "
        "S-box is built with, the statistic \"stable\" names), the row declares `readings: open`: a verdict "
        "stands only where every reading reaches it (contradicted only when the sentence is false under every "
        "fair reading), and readings that disagree leave the claim inconclusive, its reason giving each; where every "
        "reading reaches the same verdict, the reason leads with the one most favourable to the claim. "
        "Whatever the rule, the reason names every reading's figure and verdict.",
        "- How large a claim says its effect is decides what an effect inside the noise band means (`small_effect` in "
        f"the rules file: small within {float(rules['small_effect']['small']):g} half-width of the band, clearly "
        f"beyond it past {float(rules['small_effect']['clear']):g}). A claim that states a small effect "
        "(\"slightly\", \"very close\", a printed gap below the floor) is reproduced when ours lies inside the "
        "band too; only a claim whose stated effect lies clearly beyond the band is contradicted by no effect "
        "beyond the noise; a claim that states no size is then *inconclusive* (below resolution). Closeness "
        "(\"nearly the same\") is decided by `equivalent` on its declared margin.",
        "- Quantities that belong to a machine (`carries` in the claim row). Absolute times and speeds of the "
        "paper's machine (`nothing`) are *not testable*, and counted. Where only the direction of a stated size "
        "carries over (`direction`: a ratio between different code paths, hardware AES against software "
        "Blowfish or CAST, CLMUL GHASH against CBC-MAC, a protocol's fixed costs, the saving of a step the paper "
        "replaced by code it does not publish), the direction is decided as "
        "any other and the size is shown and said to agree or differ *on this machine*: the status "
        "*machine-bound*, counted apart, never *not reproduced* or *contradicted*. A size declared to carry over "
        "(`size`) is machine-bound *by evidence* when two real machines measured it (this run and a run shipped in "
        "`data/runs/`; an emulated run, such as the machine without AES instructions, never counts): decided with "
        "the size machine-bound, the direction holds beyond the noise on both, and their intervals of the speed "
        "ratio lie apart by more than "
        f"{float((rules.get('across_machines') or {}).get('size_apart', 1.0)):g} times the sum of the two runs' "
        "noise half-widths (`across_machines` in the rules file). The claim is then *machine-bound* on each of "
        "the two, its reason naming both machines' figures; a book built from one shipped run alone has no "
        "second machine, and the declaration decides. Two runs on the same CPU kind (the same CPU id and flags) "
        "are the same CPU kind, another run: never two machines, so they make no verdict machine-dependent and "
        "no size machine-bound by evidence, and a verdict that differs between them is run-to-run variation, "
        "named so. Evidence that is exact (no timing, no noise: a count, a structural fact, a seeded statistic) "
        "is never the machine's: a verdict that differs on it changed with the code or data between the two "
        "runs' commits, both named.",
        "- A stand-in (our own construction where the paper's is unknown) illustrates and never decides: a claim "
        "whose only evidence is a stand-in's is *not testable*, and the stand-in's result is shown as a finding. "
        "A row measured at another condition may stand for the claim's only as a declared proxy, whose label "
        "says so and why; a bound on a quantity decides only in its own direction.",
        "- A claim another row tests (`covered_by`) is *covered by* that row and counted once, there. A documented "
        "misprint (`data/paper/<paper>_misprints.csv`, each with its evidence from outside the line it corrects) "
        "is read as corrected, and shown on the claim's row. Every paper gets the same charity: a printed number "
        "its own arithmetic rules out (a p-value above 1, a share its own bit count contradicts) or that restates "
        "a figure the paper prints elsewhere with a digit dropped, doubled or swapped, and an editorial slip, a "
        "word or label that its own context contradicts and fixes (a caption naming the other operation, a table "
        "number given twice, a pseudocode line naming the phase-1 cipher inside a loop over three, a stored "
        "variable the line above does not assign), is a documented misprint, listed in the paper's report, never "
        "a claim row of its own.",
        "",
        "The table of meanings, the one place where a comparison's outcome becomes a verdict word:",
        "",
        meanings_markdown(rules),
        "| rule | for claims of kind | comparison | parameters |",
        "|---|---|---|---|",
    ]
    for name in RULES:
        params = rules["rules"].get(name) or {}
        kinds, text = RULE_TEXT[name]
        fill = {k: (f"{float(v):.0%}" if (k, name) == ("margin", "within_margin") else f"{float(v):g}")
                for k, v in params.items()}
        fill.setdefault("margin", "margin")
        fill.setdefault("alpha", "alpha")
        shown = ", ".join(f"{k} = {v}" for k, v in params.items()) or "—"
        lines.append(f"| `{name}` | {kinds} | {text.format(**fill)} | {shown} |")
    return "\n".join(lines) + "\n"


def _processes_text() -> str:
    """How many fresh processes each profile's timing sections use, from the profile configs (the chapters'
    ``processes``, and the variant chapters' ``speed_processes`` named apart)."""
    parts = []
    for profile in PROFILES:
        cfg = load_config(profile)
        sections = [sec for sec in cfg.values() if isinstance(sec, dict)]
        counts = sorted({int(sec["processes"]) for sec in sections if "processes" in sec})
        speed = sorted({int(sec["speed_processes"]) for sec in sections if "speed_processes" in sec})
        if counts or speed:
            text = " or ".join(map(str, counts)) if counts else ""
            if speed:
                text += (", " if text else "") + f"the variant chapters' speed trials {' or '.join(map(str, speed))}"
            parts.append(f"{profile} profile: {text}")
    where = "set by `processes` in each timing section of the profile's config (`speed_processes` for the variants)"
    return "; ".join(parts) + ", " + where if parts else where
