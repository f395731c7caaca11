"""The aes2sbox chapter: papers 000 and 001 (Wenceslao), AES-2SBox, every published table rebuilt.

Papers 000 and 001 replace AES's MixColumns by a second, byte-wise S-box ("SubBytesXOR") and
claim 23-28 % faster encryption and 108-110 % faster decryption, plus avalanche figures.

Every chapter package has this form: a docstring and nothing else.  It re-exports nothing, so
that reading the declaration (``chapter.py``, as the Snakefile does for every chapter) imports
no more than the pipeline layer; import each module by its name.  The notebooks
``aes2sbox_measure.ipynb`` and ``aes2sbox.ipynb`` call the declaration, the driver and the views.

* :mod:`.chapter`: the declaration (``CHAPTER``, ``Params``: the full profile's values as defaults);
* :mod:`.driver`: ``measure(run)`` and ``build(run, raw)``, what the two notebooks compute, by output name;
* :mod:`.common`: papers, ciphers, labels, table names, the insecure-cipher warning;
* :mod:`.sboxes`: Tables 1-2, the second S-box against print;
* :mod:`.audit`: the papers' own statistics recomputed from their printed numbers;
* :mod:`.avalanche`: the printed avalanche pairs and every single-bit flip;
* :mod:`.measure`: timing cases with the A/A control (Tables 3-5), the timed runs;
* :mod:`.tables`: Tables 3-4 in the papers' layout, Table 5 beside the declared statistic;
* :mod:`.figures`: the chapter's figures;
* :mod:`.evidence`: evidence for the claims registry (:mod:`cipherlab.analysis.verdicts` decides);
* :mod:`.views`: how the page shows the tables;
* :mod:`.findings`: the findings page's paragraphs of papers 000 and 001.

.. warning::
   AES-2SBox is a research cipher and **not secure**: every step of its round acts on single
   bytes or moves bytes, so one input byte reaches exactly one output byte.
   :func:`cipherlab.new` warns (``InsecureCipherWarning``) each time one is made.
"""
