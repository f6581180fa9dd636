# SPDX-License-Identifier: Apache-2.0
"""The package's version is the library's: tokenring.__version__, the loaded library,
the headers it was built from, the Meson project version and the pip metadata agree."""
import json
import os
import subprocess
import sys

import pytest

import tokenring
from conftest import REPO

BUILD_DIR = os.environ.get("TOKENRING_BUILD_DIR")
PKG_SRC = os.path.join(REPO, "bindings", "python")


def test_version_is_the_loaded_library_version():
    assert tokenring.__version__ == tokenring.library_version
    assert tokenring.library_version == tokenring.header_version
    major, minor, patch = (int(x) for x in tokenring.__version__.split("."))
    assert tokenring._lib.tokenring_version_number() == major * 10000 + minor * 100 + patch


@pytest.mark.skipif(not BUILD_DIR, reason="needs TOKENRING_BUILD_DIR (a Meson build)")
def test_version_is_the_meson_project_version():
    with open(os.path.join(BUILD_DIR, "meson-info", "intro-projectinfo.json"),
              encoding="utf-8") as f:
        assert tokenring.__version__ == json.load(f)["version"]


def test_pyproject_takes_the_version_from_the_library():
    with open(os.path.join(PKG_SRC, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    assert 'dynamic = ["version"]' in text
    assert not any(line.strip().startswith("version") for line in text.splitlines())


@pytest.mark.skipif(not BUILD_DIR, reason="needs TOKENRING_BUILD_DIR (a Meson build)")
def test_package_metadata_version():
    env = dict(os.environ, TOKENRING_BUILD_DIR=os.path.abspath(BUILD_DIR))
    r = subprocess.run([sys.executable, "setup.py", "--version"], cwd=PKG_SRC, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == tokenring.__version__
