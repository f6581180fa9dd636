# SPDX-License-Identifier: Apache-2.0
"""Builds tokenring._native with cffi (API mode): by default with the library's bundled
single-file source compiled in; against an installed libtokenring only when asked, with
TOKENRING_BUILD_DIR, TOKENRING_PREFIX or TOKENRING_PKG_CONFIG=1 (see
tokenring_cffi_build.py). Every build happens in a fresh temporary directory, never in
build/, so that a reinstall with other settings cannot reuse an extension built for
another library. The
package's version is the version of that library's headers (pyproject.toml declares the
version dynamic), so pip metadata and tokenring.__version__ name the same release."""
import atexit
import os
import shutil
import sys
import tempfile

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tokenring_cffi_build as tb  # noqa: E402

build_base = tempfile.mkdtemp(prefix="tokenring-build-")
atexit.register(shutil.rmtree, build_base, ignore_errors=True)

setup(version=tb.header_version(tb.locate()),
      cffi_modules=["tokenring_cffi_build.py:ffibuilder"],
      ext_modules=tb.speedups_extensions(),
      options={"build": {"build_base": build_base}})
