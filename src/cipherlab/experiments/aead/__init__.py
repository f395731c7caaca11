"""Paper 003: AEAD modes (GCM, CCM, EAX) and EAX with AES, Blowfish and CAST-128.

The chapter's library, one module per part (the notebooks only call and display):

* :mod:`.chapter`: the declaration: parameters, raw files, tables, figures (``CHAPTER``);
* :mod:`.driver`: ``measure(run)`` (every timing of the chapter in one set of fresh processes)
  and ``build(run, raw)`` (every table and figure, by name);
* :mod:`.measure`: ciphers, modes, inputs, the timed runs of phases 1 and 2 with their A/A control;
* :mod:`.tables`: the paper's worded Tables 1-4 derived by a rule, ratios, machines, prose numbers;
* :mod:`.forgery`: tag-forgery trials (Tables 5-7) and the forgery bound (eqs. 1-4);
* :mod:`.wycheproof`, :mod:`.bitflip`: our extensions;
* :mod:`.figures`: the paper's figures from our data;
* :mod:`.linearity`: the fixed-cost-plus-per-byte fit of time over size ("linear scalability");
* :mod:`.evidence`: evidence for the claims of paper 003's tables and figures (``cipherlab.analysis.verdicts`` decides);
* :mod:`.sentence_claims`: evidence for the claims of a sentence-by-sentence reading, built on :mod:`.evidence`;
* :mod:`.findings`: paper 003's paragraphs of the findings page;
* :mod:`.views`: the chapter's tables as the page shows them (through ``cipherlab.analysis.display.show_table``).

The names below are imported when first used, so that reading the declaration
(``cipherlab.experiments.aead.chapter``, as the Snakefile does) stays light.
"""
from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "bitflip": ("AEAD_LOCATIONS", "PLAIN_LOCATIONS", "UNAUTH_MODES", "acceptance_table", "bitflip_aead",
                "bitflip_unauthenticated", "ctr_field_rewrite"),
    "evidence": ("ORDER_CLAIMS", "ORDER_SECTIONS", "RATIO_CLAIMS", "SECTIONS", "TABLE_ORDER_CLAIMS", "claim_coverage",
                 "table_claims", "decide", "decided", "compare", "forgery_bound", "forgery_power",
                 "stability_evidence", "paper_claims", "published_ratio_pct", "section_table", "weakest"),
    "linearity": ("equal_growth_evidence", "fit_linear", "linear_fit_table", "linearity_evidence"),
    "figures": ("plot_forgery_bound", "plot_forgery_times", "plot_size_curves", "prose_marks"),
    "forgery": ("FORGERY_CONTROL", "FORGERY_KINDS", "forged_tags", "forgery_beside_paper", "forgery_bound_table",
                "forgery_cases", "forgery_outcome_table", "forgery_outcomes", "forgery_table", "measure_forgery",
                "trials_to_observe"),
    "measure": ("CIPHERS", "DEFAULT_NONCE_BYTES", "IMPL", "LABELS", "MODES", "PAPER", "PHASE1_CONTROL",
                "PHASE2_CONTROL", "STANDARD_TAG_BYTES", "add_throughput", "aead_cases", "input_name",
                "library_tag_bytes", "main_instance", "mb_to_bytes", "measure_aead", "measure_phase1",
                "measure_phase2", "new_aead", "read_inputs", "seeded_bytes", "throughput_summary"),
    "tables": ("WORDING_CLAIMS", "RankingRule", "machine_comparison", "prose_comparison", "ranking_beside_paper",
               "stability_table", "ranking_table", "throughput_ratios"),
    "wycheproof": ("WYCHEPROOF_OUTCOMES", "load_wycheproof", "run_wycheproof", "run_wycheproof_case",
                   "wycheproof_path", "wycheproof_summary", "wycheproof_unsupported"),
}
_EXPORTS["driver"] = ("collect",)
_MODULES = ("bitflip", "chapter", "driver", "evidence", "figures", "findings", "forgery", "linearity", "measure",
            "sentence_claims", "tables", "views", "wycheproof")
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _WHERE:
        value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE) | set(_MODULES))
