"""Overrides of a profile's values given on Snakemake's command line (``--config``, ``--configfile``).

Snakemake puts every ``--config KEY=VALUE`` (and every key of a ``--configfile``) into the
workflow's ``config``; the Snakefile checks them against the profiles' schema
(:func:`cipherlab.pipeline.config.resolve_overrides`) and hands the valid ones to every job
through the environment variable :data:`ENV` (JSON), which the jobs and their notebooks'
kernels inherit, as they inherit ``CIPHERLAB_ROOT``. The one reader of a profile
(:func:`cipherlab.pipeline.params.read_profile`) applies them with :func:`merge`:

* a key of the profile's own (``seed``, ``bench_sweep_repeats``) is replaced;
* a chapter's section is merged parameter by parameter: ``--config 'maes={trials_block: 50}'``
  changes ``trials_block`` and keeps the profile's other ``maes`` values; a parameter's value is
  replaced whole (a list or a mapping too).

So the run's resolved parameters, which its rules depend on (Snakemake's ``params``), its raw
files record and its chapters read back, are the overridden ones, and every record of the run
names the overrides (``config_overrides``, :func:`cipherlab.pipeline.provenance.run_metadata`).
"""
from __future__ import annotations

import copy
import json
import os
from typing import Any, Mapping

#: The environment variable holding the overrides of this run (a JSON object), set by the Snakefile.
ENV = "CIPHERLAB_OVERRIDES"


def current() -> dict[str, Any]:
    """The overrides in effect: the JSON object in :data:`ENV`, or ``{}``; ``ValueError`` in one line
    when it holds anything else."""
    text = os.environ.get(ENV, "").strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{ENV} must hold a JSON object of config overrides, got invalid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise ValueError(f"{ENV} must hold a JSON object of config overrides, got {type(value).__name__}")
    return value


def export(overrides: Mapping[str, Any]) -> None:
    """Hand ``overrides`` to this process's readers and to every job it starts (:data:`ENV`)."""
    if overrides:
        os.environ[ENV] = json.dumps(dict(overrides), sort_keys=True, separators=(",", ":"))
    else:
        os.environ.pop(ENV, None)


def merge(profile: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The profile's values with ``overrides`` applied: a section (a mapping in both) parameter by
    parameter, any other key replaced; neither argument is changed."""
    out = copy.deepcopy(dict(profile))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = {**out[key], **copy.deepcopy(dict(value))}
        else:
            out[key] = copy.deepcopy(value)
    return out
