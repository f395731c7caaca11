"""The AES-2SBox chapter: papers 000 and 001 (Wenceslao), every table rebuilt.

Papers 000 and 001 replace AES's MixColumns by a second, byte-wise S-box
("SubBytesXOR") and claim 23-28 % faster encryption and 108-110 % faster
decryption, plus avalanche figures. The notebooks ``aes2sbox_measure.ipynb``
(timings) and ``aes2sbox.ipynb`` (the chapter) only call the chapter's
declaration, its driver and its views. Modules:

* :mod:`.chapter`: the declaration (``CHAPTER``): parameters (``Params``, the full profile's
  values as defaults), outputs, papers, the findings tables;
* :mod:`.driver`: ``measure(run)`` and ``build(run, raw)``, what the two notebooks compute, by output name;
* :mod:`.common`: papers, ciphers, labels, table names, input checks, the insecure-cipher warning;
* :mod:`.sboxes`: Tables 1-2, the second S-box against print;
* :mod:`.audit`: the papers' own statistics recomputed from their printed numbers;
* :mod:`.avalanche`: the printed avalanche pairs and every single-bit flip;
* :mod:`.measure`: timing cases with the A/A control (Tables 3-5), the timed runs;
* :mod:`.tables`: Tables 3-4 in the papers' layout, Table 5 beside the declared statistic;
* :mod:`.figures`: the chapter's figures;
* :mod:`.evidence`: evidence for the claims registry (``data/paper/claims.csv``); the decision
  engine (:mod:`cipherlab.analysis.verdicts`) alone turns it into verdicts;
* :mod:`.views`: how the page shows the tables (through :func:`cipherlab.analysis.display.show_table`);
* :mod:`.findings`: the findings page's paragraphs of papers 000 and 001.

Published numbers are read from ``data/paper/`` through :mod:`cipherlab.analysis.paper`;
none is written here.

.. warning::
   AES-2SBox is a research cipher and **not secure**: every step of its round
   acts on single bytes or moves bytes, so one input byte reaches exactly one
   output byte. :func:`cipherlab.new` warns (``InsecureCipherWarning``) each
   time one is made; this package lets the warning through.
"""
from cipherlab.experiments.aes2sbox import views
from cipherlab.experiments.aes2sbox.audit import agrees_as_printed, audit_published_stats
from cipherlab.experiments.aes2sbox.avalanche import (avalanche_by_position, avalanche_distribution, avalanche_histogram, avalanche_pairs,
                        avalanche_summary, changed_bits, published_avalanche_pairs)
from cipherlab.experiments.aes2sbox.common import (BLOCK_BITS, CIPHERS, INSTANCES, OPERATIONS, PAPER_LABELS, PAPERS, SIGNIFICANCE_CLAIM,
                     SPEED_SECTION, SPEEDUP_CLAIM, TABLES, insecure_warning_text)
from cipherlab.experiments.aes2sbox.evidence import (SECTIONS, audit_evidence, avalanche_evidence, chapter_evidence, documented_misprints,
                       sbox_differences, sbox_evidence, speed_evidence_rows)
from cipherlab.experiments.aes2sbox.figures import plot_avalanche, plot_speed_trials
from cipherlab.experiments.aes2sbox.measure import run_protocols, run_speed_trials, speed_cases, styles_compared
from cipherlab.experiments.aes2sbox.sboxes import (construction_match_table, published_key_byte, published_sboxes, sbox_diff, sbox_diff_table,
                     sbox_grid)
from cipherlab.experiments.aes2sbox.tables import speed_table, welch_long, welch_side_by_side
