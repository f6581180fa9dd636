# SPDX-License-Identifier: Apache-2.0
"""The binding and the public header must not diverge.

1. The cdef compiled into the extension equals a fresh generation from the header.
2. Every function the header declares is called by the package, or listed in
   tokenring.UNWRAPPED with a reason (and nothing stale is listed there).
3. Every public header (include/tokenring/meson.build's public_headers) is reachable from
   tokenring.h, so the generator sees it.
"""
import difflib
import os
import re
import sys

import pytest

import tokenring
from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "bindings", "python"))
import tokenring_cffi_build as tb  # noqa: E402

BUILD_DIR = os.environ.get("TOKENRING_BUILD_DIR")
pytestmark = pytest.mark.skipif(not BUILD_DIR, reason="needs TOKENRING_BUILD_DIR (the "
                                "libtokenring build the extension was generated from)")
PKG = os.path.dirname(tokenring.__file__)


@pytest.fixture(scope="module")
def fresh_cdef():
    return tb.generate_cdef(tb.config_from_build_dir(BUILD_DIR))


def test_compiled_cdef_matches_header(fresh_cdef):
    used = tokenring._ffi.string(getattr(tokenring._lib, tb.CDEF_FUNCTION)()).decode()
    if used != fresh_cdef:
        diff = "\n".join(difflib.unified_diff(used.splitlines(), fresh_cdef.splitlines(),
                                              "compiled extension", "header now", lineterm=""))
        pytest.fail("the header changed since the extension was built; rebuild it "
                    f"(tokenring_cffi_build.py --build-dir):\n{diff}")


def _package_calls():
    calls = set()
    for fn in os.listdir(PKG):
        if fn.endswith(".py"):
            with open(os.path.join(PKG, fn), encoding="utf-8") as f:
                calls |= set(re.findall(r"\blib\.(tokenring_\w+)", f.read()))
    return calls


def test_every_header_function_is_wrapped(fresh_cdef):
    declared = set(tb.declared_functions(fresh_cdef))
    assert len(declared) > 50
    calls = _package_calls()
    missing = sorted(declared - calls - set(tokenring.UNWRAPPED))
    assert not missing, ("header functions neither wrapped by the Python package nor listed "
                         f"in tokenring.UNWRAPPED with a reason: {missing}")
    stale = sorted(set(tokenring.UNWRAPPED) - declared)
    assert not stale, f"tokenring.UNWRAPPED lists functions the header no longer has: {stale}"
    wrapped_and_listed = sorted(set(tokenring.UNWRAPPED) & calls)
    assert not wrapped_and_listed, f"listed as unwrapped but used: {wrapped_and_listed}"
    assert all(len(reason) > 20 for reason in tokenring.UNWRAPPED.values())
    unknown = sorted(calls - declared)
    assert not unknown, f"the package calls functions the header does not declare: {unknown}"


def test_every_public_header_reaches_the_generator():
    config = tb.config_from_build_dir(BUILD_DIR)
    with open(os.path.join(REPO, "include", "tokenring", "meson.build"), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"public_headers\s*=\s*files\((.*?)\)", text, re.S)
    assert block, "include/tokenring/meson.build has no public_headers = files(...)"
    public = set(re.findall(r"'([\w.]+\.h)'", block.group(1)))
    included = set(tb.included_headers(config))
    missing = sorted(public - included - {"tokenring.h"})
    assert not missing, f"public headers not included by tokenring.h: {missing}"


def test_declared_function_parser():
    cdef = ("typedef struct x{void *(*f)(size_t n);int y;}x;\n"
            "int tokenring_a(int *out);\nconst char *tokenring_b(void);\n"
            "#define TOKENRING_C ...\nstatic const char *const TOKENRING_D;\n")
    assert tb.declared_functions(cdef) == ["tokenring_a", "tokenring_b"]
