"""`cmake --install` puts a package that imports and finds its installed libraries."""

import os
import subprocess
import sys

import pytest

SCRIPT = """
import batchnormgrad as bng, numpy as np
from batchnormgrad import _core
path = _core.library_path("mt7004")
assert path.startswith({prefix!r}), path
x = np.arange(12, dtype=np.float32).reshape(4, 3)
s = np.ones(3, np.float32)
dx, dscale, dbias = bng.grad(x, x, s, s, s)
assert bng.judge(x, x, s, s, s, dx, dscale, dbias).passed
print("installed package OK", path)
"""


def test_installed_package_imports_and_uses_installed_libraries(tmp_path):
    build, cmake = os.environ.get("BNG_BUILD_DIR"), os.environ.get("CMAKE_COMMAND")
    if not build or not cmake:
        pytest.fail("BNG_BUILD_DIR and CMAKE_COMMAND are set by ctest (-L python)")
    prefix = str(tmp_path / "prefix")
    for component in ("bng_runtime", "bng_python"):
        subprocess.run([cmake, "--install", build, "--prefix", prefix, "--component", component],
                       check=True, capture_output=True)
    site = [os.path.join(root) for root, dirs, _ in os.walk(prefix) if "batchnormgrad" in dirs]
    assert len(site) == 1, site
    env = {k: v for k, v in os.environ.items() if not k.startswith("BNG_LIB_")}
    env["PYTHONPATH"] = site[0]
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(prefix=prefix)], env=env,
                          capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
