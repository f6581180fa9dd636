# SPDX-License-Identifier: Apache-2.0
"""Builds tokenring._native with cffi (API mode) against libtokenring, found through
TOKENRING_BUILD_DIR, TOKENRING_PREFIX or pkg-config (see tokenring_cffi_build.py). The
package's version is the version of that library's headers (pyproject.toml declares the
version dynamic), so pip metadata and tokenring.__version__ name the same release."""
import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tokenring_cffi_build as tb  # noqa: E402

setup(version=tb.header_version(tb.locate()),
      cffi_modules=["tokenring_cffi_build.py:ffibuilder"])
