"""An installed cipherlab, outside any checkout, has the package data it needs (issue 27, point 5).

The wheel is built from a copy of the checkout's sources (nothing is written into the checkout),
unpacked as an installer would, and run from a directory that is no checkout: it loads a variant
file with its schema and encrypts with it, and decodes the test photograph, exactly as the
checkout does.  The dependencies are this interpreter's; a fresh virtual environment
(``pip install .``, a few minutes) is the same check with them installed too (README, "Install").
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import warnings
import zipfile

import pytest

import cipherlab
from cipherlab.ciphers.variant_files import register_variant_file
from cipherlab.pipeline import inputs, paths

VARIANT = "aes-affine-sbox"
KEY = bytes(range(16))
MESSAGE = b"an installed wheel encrypts too"

# Run in the unpacked wheel; prints what it found as JSON.
SCRIPT = f"""
import hashlib, json, warnings
import cipherlab
from cipherlab.ciphers.variant_files import SCHEMA_FILE, register_variant_file
from cipherlab.pipeline import inputs, paths

info = register_variant_file("{VARIANT}.yaml")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ct = cipherlab.new({KEY!r}, cipher=info.name, mode="ecb").encrypt({MESSAGE!r})
print(json.dumps({{"package": cipherlab.__file__, "root": str(paths.ROOT), "schema": str(SCHEMA_FILE),
                   "same_schema": SCHEMA_FILE == paths.VARIANT_SCHEMA, "name": info.name,
                   "ciphertext": bytes(ct).hex(), "warnings": [w.category.__name__ for w in caught],
                   "image": hashlib.sha256(inputs.test_image().tobytes()).hexdigest()}}))
"""

pytestmark = pytest.mark.usefixtures("module_registry")   # the variant registered below is dropped after


def test_an_installed_wheel_loads_a_variant_file_and_encrypts_with_it(tmp_path):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(paths.ROOT / name, checkout / name)
    shutil.copytree(paths.ROOT / "src", checkout / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--wheel-dir", str(tmp_path / "dist"), str(checkout)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = (tmp_path / "dist").glob("cipherlab-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        assert "cipherlab/py.typed" in zf.namelist()   # PEP 561: type checkers read the package's annotations
        zf.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy2(paths.variant_file(VARIANT), elsewhere)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIPHERLAB_")}
    env.update(PYTHONPATH=str(site), NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=elsewhere, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])

    # the wheel's package, its own data files, no checkout in sight
    assert got["package"].startswith(str(site)) and got["schema"].startswith(str(site)) and got["same_schema"]
    assert got["root"] == str(elsewhere.resolve())
    # the same cipher and the same photograph as the checkout's
    info = register_variant_file(paths.variant_file(VARIANT))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.InsecureCipherWarning)
        expected = cipherlab.new(KEY, cipher=info.name, mode="ecb").encrypt(MESSAGE)
    assert got["name"] == VARIANT and got["ciphertext"] == bytes(expected).hex()
    assert got["warnings"] == ["InsecureCipherWarning"]     # a research cipher says so
    assert got["image"] == hashlib.sha256(inputs.test_image().tobytes()).hexdigest()
