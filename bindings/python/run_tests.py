#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Meson test entry point for the Python binding.

    run_tests.py --build-dir BUILD [--data-dir tests/data] [-- pytest args...]

Compiles the cffi extension against BUILD's fresh libtokenring into
BUILD/bindings/python/ext, then runs the pytest suite with TOKENRING_BUILD_DIR=BUILD.
Exits 77 (Meson's "skipped") when cffi or pytest cannot be imported; set TOKENRING_PYTHON
to a virtual environment's interpreter to run with that one instead.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    want = os.environ.get("TOKENRING_PYTHON")
    if want and os.path.abspath(want) != os.path.abspath(sys.executable) \
            and not os.environ.get("TOKENRING_PYTHON_REEXEC"):
        os.environ["TOKENRING_PYTHON_REEXEC"] = "1"
        os.execv(want, [want, os.path.abspath(__file__), *sys.argv[1:]])

    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--data-dir")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args()

    missing = []
    for mod in ("cffi", "pytest"):
        try:
            __import__(mod)
        except ImportError:
            missing.append(mod)
    if missing:
        print(f"SKIP: {sys.executable} cannot import {', '.join(missing)}; create a venv: "
              f"python3 -m venv .venv && .venv/bin/pip install -r "
              f"bindings/python/requirements-test.txt, then set TOKENRING_PYTHON="
              f".venv/bin/python (or activate it before meson setup)")
        return 77

    sys.path.insert(0, HERE)
    import tokenring_cffi_build as tb  # noqa: E402

    build_dir = os.path.abspath(args.build_dir)
    try:
        path = tb.build(tb.config_from_build_dir(build_dir))
    except tb.BuildConfigError as e:
        print(f"cannot build the cffi extension: {e}", file=sys.stderr)
        return 1
    print(f"built {path} with {sys.executable} {sys.version.split()[0]}")

    env = dict(os.environ)
    env["TOKENRING_BUILD_DIR"] = build_dir
    env["PYTHONPATH"] = os.pathsep.join([HERE, *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("MPLBACKEND", "Agg")
    if args.data_dir:
        env["TOKENRING_TEST_DATA"] = os.path.abspath(args.data_dir)
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rs",
           os.path.join(HERE, "tests"), *args.pytest_args]
    return subprocess.call(cmd, env=env, cwd=build_dir)


if __name__ == "__main__":
    sys.exit(main())
