"""The CMake build behind `pip install .` (pyproject.toml holds the package's metadata).

build_ext configures the project into build/pip (or $TINKERTOY_BUILD_DIR) for the interpreter
that runs pip, builds only the module's target (tinkertoy_python, with the library under it)
and copies the module into the wheel beside python/tinkertoy/'s files. Nothing is downloaded:
CMake finds pybind11, Eigen and the rest among the system's packages (scripts/install-deps.sh).
"""

import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(os.environ.get("TINKERTOY_BUILD_DIR", ROOT / "build" / "pip"))
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.run(
            ["cmake", "-S", str(ROOT), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
             f"-DPython_EXECUTABLE={sys.executable}", "-DTINKERTOY_BUILD_TESTS=OFF", "-DTINKERTOY_BUILD_BENCH=OFF",
             "-DTINKERTOY_BUILD_STUDIO=OFF", "-DTINKERTOY_BUILD_PYTHON=ON"],
            check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "tinkertoy_python"], check=True)
        (module,) = (build / "python" / "tinkertoy").glob("_tinkertoy*.so")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(module, target)


# setuptools' own files (tinkertoy.egg-info) go under build/ too, which git ignores, not into python/.
(ROOT / "build").mkdir(exist_ok=True)
setup(ext_modules=[Extension("tinkertoy._tinkertoy", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"egg_info": {"egg_base": "build"}})
