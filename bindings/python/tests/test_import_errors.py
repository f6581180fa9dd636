# SPDX-License-Identifier: Apache-2.0
"""What a user sees when something is missing: the ImportError and build errors say what
is missing and how to fix it."""
import os
import subprocess
import sys

import pytest

from conftest import REPO

PKG_PARENT = os.path.join(REPO, "bindings", "python")
sys.path.insert(0, PKG_PARENT)
import tokenring_cffi_build as tb  # noqa: E402


def _import_in_subprocess(tmp_path, env_extra, drop=("TOKENRING_BUILD_DIR",)):
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra)
    # a copy of the pure-Python package without any compiled extension next to it
    dst = tmp_path / "tokenring"
    dst.mkdir()
    for fn in os.listdir(os.path.join(PKG_PARENT, "tokenring")):
        if fn.endswith(".py"):
            with open(os.path.join(PKG_PARENT, "tokenring", fn), "rb") as f:
                (dst / fn).write_bytes(f.read())
    env["PYTHONPATH"] = str(tmp_path)
    return subprocess.run([sys.executable, "-c", "import tokenring"], env=env, cwd=tmp_path,
                          capture_output=True, text=True)


def test_missing_extension_message(tmp_path):
    r = _import_in_subprocess(tmp_path, {})
    assert r.returncode != 0
    assert "ImportError" in r.stderr
    assert "tokenring._native is missing" in r.stderr
    assert "tokenring_cffi_build.py --build-dir" in r.stderr and "PKG_CONFIG_PATH" in r.stderr


def test_build_dir_without_extension_message(tmp_path):
    r = _import_in_subprocess(tmp_path, {"TOKENRING_BUILD_DIR": str(tmp_path / "nobuild")})
    assert r.returncode != 0
    assert "TOKENRING_BUILD_DIR=" in r.stderr and "has not been built there" in r.stderr


def test_build_config_errors(tmp_path, monkeypatch):
    with pytest.raises(tb.BuildConfigError, match="meson setup"):
        tb.config_from_build_dir(str(tmp_path))
    with pytest.raises(tb.BuildConfigError, match="no libtokenring.so"):
        tb.config_from_prefix(str(tmp_path))
    monkeypatch.setenv("PKG_CONFIG_PATH", str(tmp_path))
    monkeypatch.setenv("PKG_CONFIG_LIBDIR", str(tmp_path))
    with pytest.raises(tb.BuildConfigError, match="TOKENRING_PREFIX"):
        tb.config_from_pkgconfig()
