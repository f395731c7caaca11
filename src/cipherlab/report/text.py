"""The small text helpers every report module writes with: a cell as text, data text as literal markdown, a link
to a claim's verdict row, and a counted noun. One home, so that a report's sections cannot drift apart."""
from __future__ import annotations

import pandas as pd

from cipherlab.analysis.claims import VERDICT_PAGE, claim_anchor
from cipherlab.present.page_text import page_text

__all__ = ["cell", "literal", "claim_link", "plural"]


def cell(v) -> str:
    """A table cell as text: empty for a missing value (None, NaN, the string 'nan')."""
    return "" if v is None or (isinstance(v, float) and pd.isna(v)) or str(v) == "nan" else str(v)


def literal(v) -> str:
    """Data text (a reason, a quote, a note) as literal markdown: never read as markup."""
    return page_text(cell(v))


def claim_link(cid: str) -> str:
    """A markdown link to the claim's row on the verdicts page."""
    return f"[{cid}]({VERDICT_PAGE}#{claim_anchor(cid)})"


def plural(n: int, one: str, many: "str | None" = None) -> str:
    """'1 row', '3 rows' (or ``many``)."""
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"
