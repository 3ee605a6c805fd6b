"""`pip install .` (pyproject.toml, setup.py) builds and installs the module offline, from
Debian's packages only. It builds the library from scratch, which takes minutes, so it runs only
when TINKERTOY_TEST_PIP_INSTALL=1."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.environ.get("TINKERTOY_TEST_PIP_INSTALL") != "1",
                                reason="rebuilds the library (minutes): set TINKERTOY_TEST_PIP_INSTALL=1")

CHECK = """
import pathlib, sys
import tinkertoy
assert pathlib.Path(tinkertoy.__file__).is_relative_to(sys.prefix), tinkertoy.__file__
scene = tinkertoy.load_scene(sys.argv[1])
trajectory = tinkertoy.Simulator(scene).run(0.1, every=10)
print("installed", trajectory["q"].shape)
"""


def test_pip_installs_the_module_into_a_venv_offline(tmp_path):
    source = tmp_path / "source"
    # A copy of the working tree, without its builds: pip builds in the tree it is given.
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "build", "out", "__pycache__", "*.egg-info"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_INDEX_URL")}
    environment.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    # --no-index: pip may not reach any package index; the install must need none.
    result = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-index", str(source)],
                            capture_output=True, text=True, env=environment, cwd=tmp_path, timeout=3600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "Downloading" not in output
    check = subprocess.run([str(venv / "bin" / "python"), "-c", CHECK, str(ROOT / "scenes" / "pendulum.json")],
                           capture_output=True, text=True, env=environment, cwd=tmp_path, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "installed (11, 2)" in check.stdout
