"""The aead chapter: paper 003, AEAD modes (GCM, CCM, EAX) and EAX with AES, Blowfish and CAST-128.

Every chapter package has this form: a docstring and nothing else.  It re-exports nothing, so
that reading the declaration (``chapter.py``, as the Snakefile does for every chapter) imports
no more than the pipeline layer; import each module by its name.  The notebooks call the
declaration, the driver and the views.

* :mod:`.chapter`: the declaration (``CHAPTER``, ``Params``, the MB and the inputs one per size);
* :mod:`.driver`: ``measure(run)`` (every timing of the chapter in one set of fresh processes) and
  ``build(run, raw)`` (every table and figure, by name);
* :mod:`.measure`: ciphers, modes, inputs, the timed runs of phases 1 and 2 with their A/A control;
* :mod:`.protocol`: the paper's own protocol, one cold call per file;
* :mod:`.tables`: the paper's worded Tables 1-4 derived by a rule, ratios, machines, prose numbers;
* :mod:`.forgery`: tag-forgery trials (Tables 5-7) and the forgery bound (eqs. 1-4);
* :mod:`.wycheproof`, :mod:`.bitflip`: our extensions;
* :mod:`.figures`: the paper's figures from our data;
* :mod:`.linearity`: the fixed-cost-plus-per-byte fit of time over size ("linear scalability");
* :mod:`.statements`: the paper's words against the library and its own tables;
* :mod:`.comparisons`: which measured cases each claim compares (``data/paper/003_comparisons.yaml``, checked);
* :mod:`.evidence`, :mod:`.sentence_claims`, :mod:`.consistency`, :mod:`.stability`, :mod:`.reread`: evidence
  for the claims of paper 003 (:mod:`cipherlab.analysis.verdicts` decides); :mod:`.reread` holds the claims a
  sentence-by-sentence re-reading found with no row;
* :mod:`.findings`: paper 003's paragraphs of the findings page;
* :mod:`.views`: the chapter's tables and verdicts as the page shows them.
"""
