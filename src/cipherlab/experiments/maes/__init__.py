"""Experiments of the MAES chapter (paper 002): Tables I-IV, Figure 8, key space, evidence for its claims.

Paper 002 replaces AES's MixColumns by an XOR with key-derived IV vectors
("MAES": one IV for all rounds in approach 1, one IV per round in
approach 2) and claims large speed-ups of encryption and decryption
"while maintaining the complexity of AES" (the published figures are in
``data/paper/002_*.csv``, its claims in ``data/paper/claims.csv``).

.. warning::
   MAES is **not a secure cipher**. Without MixColumns every byte of a
   ciphertext block depends on one byte of the plaintext block only: the
   cipher is sixteen independent key-dependent byte substitutions. It is
   studied here as a research object, never to protect data.

The notebooks ``maes_measure.ipynb`` (timings) and ``maes.ipynb`` (the
chapter) only call these functions, display and save. Modules:

* :mod:`.common`: constants, input checks, published-value look-ups;
* :mod:`.measure`: timing cases with their A/A controls, batched timing run;
* :mod:`.tables`: Tables I-III, speed-ups with A/A bands, throughput;
* :mod:`.image`: Figure 8, Table IV, byte dependency, key space (deterministic);
* :mod:`.figures`: the chapter's figures;
* :mod:`.evidence`: evidence rows for the decision engine (:mod:`cipherlab.analysis.verdicts`).
* :mod:`.pages`: how the pages show their tables (through :func:`cipherlab.analysis.display.show_table`).

The implementation styles come from the config (``impls``); the paper's
"original" AES is the style ``original_style`` (byte-oriented: ``reference``)
and its "optimized" AES ``optimized_style`` (T-tables: ``table``).
"""
from cipherlab.experiments.maes.common import (CHAPTER, CIPHERS, DEFAULT_IMPLS, IMAGE_MODES, IV_SOURCES, OPERATION_COLUMNS, PAPER, ROLES,
                     SECURITY_WARNING, STYLES, TABLE1_COLUMNS, TABLE1_ROWS, TABLE2_ROWS, TABLE3_ROWS, TABLE4_ROWS,
                     check_impls, check_paper_styles, maes_options, parse_hex, published_map)
from cipherlab.experiments.maes.common import NOT_MEASURED_NO_AESNI, measured_impls
from cipherlab.experiments.maes.evidence import (Frames, evidence_frame_for_display, evidence_rows, mixcolumns_share_evidence, paper_claim_ids, table1_evidence,
                       table2_evidence)
from cipherlab.experiments.maes.figures import histogram_figure, image_figure, repeat_map_figure, speedup_figure
from cipherlab.experiments.maes.image import (KEY_SPACE_NOTE, byte_dependency, byte_routes, bytes_for_expected_entropy, encrypt_image,
                    entropy_comparison, entropy_sd_uniform, entropy_table, expected_entropy_uniform,
                    histogram_frame, image_ciphertexts, image_digest, keyspace_table, leak_table, load_test_image,
                    repeat_map, second_key)
from cipherlab.experiments.maes.measure import (RAW_EXPERIMENTS, TABLE1_LANGUAGES, bulk_cases, compile_times, measure_all, stage_impls, table1_cases,
                      table2_cases, table3_cases)
from cipherlab.experiments.maes.tables import (overhead_us, paper_label, speed_case, speedup_headlines, speedup_table, summary_us, table1,
                     table2, table3, throughput_table)
from cipherlab.experiments.maes.pages import (compile_summary, compile_view, evidence_view, keyspace_view, options_text, routes_frame,
                    saved_raw_table, show, show_evidence)
