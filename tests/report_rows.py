"""Verdict rows and a report built from them, shared by the tests of the report's sections (the template, the
concern lines, the section across machines)."""
from __future__ import annotations

import pandas as pd

from cipherlab.report import template
from cipherlab.report.referee import Paper


def verdict_row(cid, verdict, *, tier="headline", concern="", kind="ratio", ours="12 % [10, 14]", published="50 %",
                detail="", outcome=""):
    """One verdict row of ``claim_id`` ``cid`` (its paper the id's first three characters) with every column the
    report reads."""
    return {"claim_id": cid, "paper": cid[:3], "where": "Sec. 1", "claim": f"quote of {cid}", "kind": kind,
            "rule": "holds", "published": published, "ours": ours, "verdict": verdict,
            "reason": f"a long machine reason of {cid}, with every clause the engine wrote", "tier": tier,
            "concern": concern, "section": "s", "quantity": f"the quantity of {cid}", "reference": "",
            "outcome": outcome, "measured": "", "covered_by": "", "detail": detail}


def report_bodies(paper, rows, findings=None) -> dict:
    """The report's sections for ``paper`` from verdict rows: section key -> its body."""
    out = template.report_sections(Paper(paper, "subject", "aes2sbox", ""), pd.DataFrame(rows),
                                   pd.DataFrame(findings) if findings is not None else None)
    return {s.key: s.body for s in out}
