"""The security chapter: what the research ciphers' structure does to their security, AES the control.

Every chapter package has this form: a docstring and nothing else.  It re-exports nothing, so
that reading the declaration (``chapter.py``, as the Snakefile does for every chapter) imports
no more than the pipeline layer; import each module by its name.  The notebook
``security.ipynb`` calls the declaration, the driver and the views.

* :mod:`.chapter`: the declaration (``CHAPTER``, ``Params``);
* :mod:`.driver`: ``build(run, raw)``, every measurement, then the tables and figures by name;
* :mod:`.summary`: the S-boxes under study and the chapter's summary table;
* :mod:`.sbox_properties`: cryptographic properties of 8-bit S-boxes;
* :mod:`.diffusion`: diffusion of the full and round-reduced ciphers, measured;
* :mod:`.attack`: the chosen-plaintext codebook attack on byte-local ciphers, without the key;
* :mod:`.randomness`: a subset of NIST SP 800-22 and a ciphertext runner;
* :mod:`.quiet`: ``cipherlab.new`` without the research-cipher warning, for the runners;
* :mod:`.figures`: the chapter's figures;
* :mod:`.evidence`: evidence for the claims registry and the sentences rendered from the tables;
* :mod:`.views`: how the page shows the tables.
"""
