"""The variant chapters: the battery that referees an AES variant, one chapter per ``config/variants/<name>.yaml``.

:mod:`.chapter` declares them (parameters, outputs: :data:`.chapter.VARIANTS`), :mod:`.driver` runs the
battery (:func:`.driver.run_battery`) and writes its tables and figures, :mod:`.views` shows them.

Every chapter package has this form: a docstring and nothing else.  It re-exports nothing, so
that reading the declaration (``chapter.py``, as the Snakefile does for every chapter) imports
no more than the pipeline layer; import each module by its name.
"""
