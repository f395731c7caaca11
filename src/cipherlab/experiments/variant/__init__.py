"""The variant chapters: the battery that referees an AES variant, one chapter per ``config/variants/<name>.yaml``.

:mod:`.chapter` declares them (parameters, outputs: :data:`.chapter.VARIANTS`), :mod:`.driver` runs the
battery (:func:`.driver.run_battery`) and writes its tables and figures, :mod:`.views` shows them.

Every chapter package has this form: a docstring and nothing else (nothing re-exported, so that
reading the declaration stays light); import each module by its name.
"""
