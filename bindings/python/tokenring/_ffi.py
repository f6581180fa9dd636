# SPDX-License-Identifier: Apache-2.0
"""Loads the compiled cffi extension ``tokenring._native`` and checks its version.

The extension is found, in order:

* in ``$TOKENRING_BUILD_DIR/bindings/python/ext/tokenring`` when ``TOKENRING_BUILD_DIR``
  names a libtokenring Meson build directory (the extension built by
  ``tokenring_cffi_build.py --build-dir``, linked against that build's fresh library);
* inside the installed package (``pip install bindings/python``).
"""
import importlib
import os
import sys
from typing import Any

__all__ = ["ffi", "lib", "EXTENSION_PATH"]

_HOW_TO_BUILD = (
    "Build it with `python bindings/python/tokenring_cffi_build.py --build-dir BUILD` "
    "(BUILD: a libtokenring Meson build directory, after `meson compile -C BUILD`) and set "
    "TOKENRING_BUILD_DIR=BUILD, or install the package with `pip install bindings/python` "
    "where pkg-config finds tokenring.pc (set PKG_CONFIG_PATH) or TOKENRING_PREFIX names the "
    "libtokenring installation prefix.")


def _load() -> Any:
    pkg = sys.modules[__name__.rpartition(".")[0]]
    build_dir = os.environ.get("TOKENRING_BUILD_DIR")
    if build_dir:
        ext_dir = os.path.join(os.path.abspath(build_dir), "bindings", "python", "ext",
                               "tokenring")
        if not os.path.isdir(ext_dir):
            raise ImportError(
                f"tokenring: TOKENRING_BUILD_DIR={build_dir} is set but the cffi extension "
                f"has not been built there (no {ext_dir}). {_HOW_TO_BUILD}")
        if ext_dir not in pkg.__path__:
            pkg.__path__.insert(0, ext_dir)
    try:
        _native = importlib.import_module(pkg.__name__ + "._native")
    except ModuleNotFoundError as e:
        if e.name != pkg.__name__ + "._native":
            raise
        raise ImportError(
            "tokenring: the compiled extension tokenring._native is missing (searched "
            f"{list(pkg.__path__)}). {_HOW_TO_BUILD}") from None
    except ImportError as e:
        raise ImportError(
            f"tokenring: the extension tokenring._native exists but cannot be loaded: {e}. "
            "If libtokenring.so.1 is not found, the library it was built against has moved: "
            "rebuild the extension, or add the library's directory to LD_LIBRARY_PATH. An "
            "'undefined symbol' means the library is older than the headers the extension "
            f"was built from: rebuild libtokenring or the extension. {_HOW_TO_BUILD}") from e
    return _native


_native = _load()
ffi: Any = _native.ffi
lib: Any = _native.lib
EXTENSION_PATH: str = _native.__file__

_runtime_major = lib.tokenring_version_number() // 10000
if _runtime_major != lib.TOKENRING_VERSION_MAJOR:
    raise ImportError(
        f"tokenring: the extension was built against libtokenring headers "
        f"{ffi.string(lib.TOKENRING_VERSION_STRING).decode()} but loaded library "
        f"{ffi.string(lib.tokenring_version_string()).decode()} has another major version; "
        f"rebuild the extension ({_HOW_TO_BUILD})")
