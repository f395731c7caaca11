"""A report's section across machines (cipherlab.report.across_section, through the template): the machines
compared are named, and their agreement is said apart from the paper's own machine."""
from __future__ import annotations

import pandas as pd

from cipherlab.report import template
from cipherlab.report.referee import Paper

from report_rows import verdict_row as _row




def test_the_section_across_machines_names_the_machines_and_the_papers_own_apart():
    rows = [{**_row("000-t5", "reproduced"), "portability": "portable: the same verdict on all 2 machines"}]
    protocol = pd.DataFrame({"aspect": ["machine"], "paper": ["Intel Core i3-4010U at 1.70 GHz (Section 6.2)"],
                             "ours": ["an EPYC"]})
    out = template.report_sections(Paper("000", "s", "aes2sbox", ""), pd.DataFrame(rows), protocol=protocol,
                                   machines=("AMD EPYC 9454P", "AMD EPYC 9B45"))
    text = {s.key: s.body for s in out}["machines"]
    assert ("The machines compared (this run's and the shipped runs') are AMD EPYC 9454P; AMD EPYC 9B45: a verdict "
            "that agrees on all of them says nothing about the paper's own (Intel Core i3-4010U at 1.70 GHz "
            "(Section 6.2))") in text
    unstated = protocol.assign(paper="not stated")
    out = template.report_sections(Paper("001", "s", "aes2sbox", ""), pd.DataFrame(rows).assign(claim_id="001-t5",
                                   paper="001"), protocol=unstated)
    assert "the paper's own, which it does not state" in {s.key: s.body for s in out}["machines"]
