# SPDX-License-Identifier: Apache-2.0
"""Builds tokenring._native with cffi (API mode) against libtokenring, found through
TOKENRING_BUILD_DIR, TOKENRING_PREFIX or pkg-config (see tokenring_cffi_build.py)."""
from setuptools import setup

setup(cffi_modules=["tokenring_cffi_build.py:ffibuilder"])
