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

Every chapter package has this form: a docstring and nothing else.  It re-exports nothing, so
that reading the declaration (``chapter.py``, as the Snakefile does for every chapter) imports
no more than the pipeline layer; import each module by its name.  The notebooks
``maes_measure.ipynb`` (timings) and ``maes.ipynb`` (the chapter) call the declaration, the
driver and the views. Modules, one role or topic each:

* :mod:`.chapter`: the declaration (``Params``, ``CHAPTER``);
* :mod:`.driver`: ``measure(run)`` and ``build(run, raw)``, which call the modules below;
* :mod:`.common`: constants, the MAES options and styles of a run, published-value look-ups;
* :mod:`.measure`: timing cases with their A/A controls, batched timing run;
* :mod:`.tables`: Tables I-III, speed-ups with A/A bands, throughput;
* :mod:`.image`: Figure 8: the encrypted images, their histograms, the repeats they keep;
* :mod:`.entropy`: Table IV: entropy, chi-square, MAES against AES with a second-key control;
* :mod:`.dependency`: how many ciphertext bytes one plaintext byte reaches, and which;
* :mod:`.keyspace`: key sizes and the cost of exhaustive search;
* :mod:`.figures`: the chapter's figures;
* :mod:`.evidence`: evidence rows for the decision engine (:mod:`cipherlab.analysis.verdicts`);
* :mod:`.published`: evidence from the published values alone (the tables against each other and their power);
* :mod:`.comparisons`: which published cells each prose ratio is set against (``data/paper/002_comparisons.yaml``,
  checked);
* :mod:`.views`: how the pages show their tables (through :func:`cipherlab.present.display.show_table`);
* :mod:`.findings`: the findings page's paragraphs for paper 002.

The implementation styles come from the parameters (``impls``); the paper's
"original" AES is the style ``original_style`` (byte-oriented: ``reference``)
and its "optimized" AES ``optimized_style`` (T-tables: ``table``).
"""
