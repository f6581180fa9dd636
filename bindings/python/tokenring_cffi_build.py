# SPDX-License-Identifier: Apache-2.0
"""Build the ``tokenring._native`` cffi extension from libtokenring's public header.

Nothing here is hand-copied from the C headers: the cffi declarations (the "cdef") are
generated at build time by preprocessing ``tokenring/tokenring.h`` with ``TOKENRING_API``
defined empty and keeping only what the tokenring headers themselves declare (the system
headers they include are dropped), plus every object-like ``TOKENRING_*`` macro as a cffi
constant whose value the compiler supplies. The extension is built in cffi's out-of-line
API mode, so the C compiler checks every declaration against the real header.

Where libtokenring comes from, first match wins:

0. by default (none of the three below asked for): the library's single-file source
   bundled with the package (``csrc/tokenring/``, written by the repository's
   ``scripts/amalgamate.py`` when building from a checkout, shipped in the sdist),
   compiled into the extension itself: nothing to install, nothing to find at run time.
1. ``--build-dir DIR`` or ``TOKENRING_BUILD_DIR=DIR``: a Meson build directory of
   libtokenring (headers from its source tree and ``DIR/include``, the library from
   ``DIR/lib``, an rpath to it). The extension is written to ``DIR/bindings/python/ext``,
   where ``import tokenring`` looks when ``TOKENRING_BUILD_DIR`` is set.
2. ``--prefix P`` or ``TOKENRING_PREFIX=P``: an installation prefix (``P/include``,
   ``P/lib`` or ``P/lib/<multiarch>``, with an rpath).
3. ``TOKENRING_PKG_CONFIG=1``: ``pkg-config tokenring`` (set ``PKG_CONFIG_PATH`` for a
   non-system prefix).

Used three ways: by ``setup.py`` (``cffi_modules``), by the Meson test (``--build-dir``),
and by hand: ``python tokenring_cffi_build.py --build-dir build`` or
``python tokenring_cffi_build.py --print-cdef``.
"""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

MODULE_NAME = "tokenring._native"
UMBRELLA = os.path.join("tokenring", "tokenring.h")
# Name of the extra C function compiled into the extension that returns the cdef it was
# built from (the divergence test compares it with a fresh generation).
CDEF_FUNCTION = "pytokenring_cdef_text"


class BuildConfigError(RuntimeError):
    """libtokenring (or a tool needed to build the binding) could not be found."""


# --------------------------------------------------------------------------- locate

@dataclass
class LibConfig:
    """Where the headers and the library are, and how the extension was configured."""

    include_dirs: List[str]
    library_dirs: List[str]
    libraries: List[str] = field(default_factory=lambda: ["tokenring"])
    rpath: List[str] = field(default_factory=list)
    extra_compile_args: List[str] = field(default_factory=list)
    source: str = ""  # human-readable origin, for messages
    ext_dir: Optional[str] = None  # where to write the extension (None: in place)
    sources: List[str] = field(default_factory=list)  # C sources compiled into it

    def header(self) -> str:
        """Absolute path of ``tokenring/tokenring.h``."""
        for d in self.include_dirs:
            p = os.path.join(d, UMBRELLA)
            if os.path.isfile(p):
                return p
        raise BuildConfigError(
            f"libtokenring's header {UMBRELLA} is not in any include directory "
            f"{self.include_dirs} (from {self.source})")


def _meson_source_dir(build_dir: str) -> str:
    info = os.path.join(build_dir, "meson-info", "meson-info.json")
    try:
        with open(info, encoding="utf-8") as f:
            return json.load(f)["directories"]["source"]
    except (OSError, KeyError, ValueError) as e:
        raise BuildConfigError(
            f"{build_dir} is not a configured Meson build directory of libtokenring "
            f"({info}: {e}); run `meson setup {build_dir}` in the source tree first") from e


def config_from_build_dir(build_dir: str) -> LibConfig:
    """Configuration for a libtokenring Meson build directory (uses its fresh .so)."""
    build_dir = os.path.abspath(build_dir)
    src = _meson_source_dir(build_dir)
    libdir = os.path.join(build_dir, "lib")
    if not glob.glob(os.path.join(libdir, "libtokenring.so*")) and not glob.glob(
            os.path.join(libdir, "libtokenring*.dylib")):
        raise BuildConfigError(
            f"no libtokenring shared library in {libdir}; run `meson compile -C {build_dir}`")
    return LibConfig(
        include_dirs=[os.path.join(src, "include"), os.path.join(build_dir, "include")],
        library_dirs=[libdir], rpath=[libdir], source=f"Meson build directory {build_dir}",
        ext_dir=os.path.join(build_dir, "bindings", "python", "ext"))


def config_from_prefix(prefix: str) -> LibConfig:
    """Configuration for an installation prefix (``meson install --destdir`` or ``--prefix``)."""
    prefix = os.path.abspath(prefix)
    candidates = sorted(glob.glob(os.path.join(prefix, "lib*", "libtokenring.so*"))
                        + glob.glob(os.path.join(prefix, "lib*", "*", "libtokenring.so*")))
    if not candidates:
        raise BuildConfigError(
            f"TOKENRING_PREFIX={prefix}: no libtokenring.so under {prefix}/lib*; "
            f"install libtokenring there (`meson install -C BUILD` with --prefix {prefix})")
    libdir = os.path.dirname(candidates[0])
    return LibConfig(include_dirs=[os.path.join(prefix, "include")], library_dirs=[libdir],
                     rpath=[libdir], source=f"prefix {prefix}")


def config_from_pkgconfig(pkg: str = "tokenring") -> LibConfig:
    """Configuration from ``pkg-config tokenring``."""
    exe = os.environ.get("PKG_CONFIG") or shutil.which("pkg-config") or shutil.which("pkgconf")
    hint = ("install libtokenring (`meson install -C BUILD`) and point PKG_CONFIG_PATH at the "
            "directory holding tokenring.pc, or set TOKENRING_PREFIX=<install prefix>, or "
            "TOKENRING_BUILD_DIR=<libtokenring Meson build directory>")
    if not exe:
        raise BuildConfigError(f"pkg-config is not installed, so libtokenring cannot be "
                               f"located; install pkg-config (apt-get install pkg-config), or {hint}")

    def run(*args: str) -> List[str]:
        r = subprocess.run([exe, *args, pkg], capture_output=True, text=True)
        if r.returncode != 0:
            raise BuildConfigError(
                f"pkg-config cannot find {pkg}.pc (PKG_CONFIG_PATH="
                f"{os.environ.get('PKG_CONFIG_PATH', '')!r}): {r.stderr.strip()}; {hint}")
        return shlex.split(r.stdout)

    cflags = run("--cflags")
    libs = run("--libs")
    libdir_var = run("--variable=libdir")
    inc = [a[2:] for a in cflags if a.startswith("-I")]
    extra = [a for a in cflags if not a.startswith("-I")]
    libdirs = [a[2:] for a in libs if a.startswith("-L")]
    names = [a[2:] for a in libs if a.startswith("-l")] or ["tokenring"]
    rpath = libdirs or libdir_var
    if not inc:  # headers in a default location
        inc = ["/usr/include", "/usr/local/include"]
    return LibConfig(include_dirs=inc, library_dirs=libdirs, libraries=names, rpath=rpath,
                     extra_compile_args=extra, source=f"pkg-config {pkg}")


HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE_DIR = os.path.join(HERE, "csrc")
AMALGAMATE = os.path.join(HERE, "..", "..", "scripts", "amalgamate.py")


def config_from_bundle() -> LibConfig:
    """The bundled single-file source, compiled into the extension. In a checkout of the
    repository it is generated afresh from lib/ and include/ on every build (so it is never
    stale); in an unpacked sdist the copy the sdist carries is used."""
    target = os.path.join(BUNDLE_DIR, "tokenring")
    if os.path.isfile(AMALGAMATE):
        r = subprocess.run([sys.executable, AMALGAMATE, target], capture_output=True, text=True)
        if r.returncode != 0:
            raise BuildConfigError(f"generating the single-file source failed: {r.stderr}")
    source = os.path.join(target, "tokenring.c")
    if not os.path.isfile(source):
        raise BuildConfigError(
            f"the bundled source {source} is missing: build from a checkout of libtokenring "
            f"or from its sdist, or set TOKENRING_PKG_CONFIG=1, TOKENRING_PREFIX or "
            f"TOKENRING_BUILD_DIR to use an installed or built library")
    if os.path.abspath(os.getcwd()) == HERE:  # setuptools wants relative sources
        source = os.path.relpath(source, HERE)
    return LibConfig(include_dirs=[BUNDLE_DIR], library_dirs=[], libraries=[],
                     sources=[source], source=f"bundled single-file source {target}")


def locate(build_dir: Optional[str] = None, prefix: Optional[str] = None) -> LibConfig:
    """Find libtokenring: explicit arguments, then the environment (TOKENRING_BUILD_DIR,
    TOKENRING_PREFIX, TOKENRING_PKG_CONFIG=1), else the bundled source."""
    build_dir = build_dir or os.environ.get("TOKENRING_BUILD_DIR")
    if build_dir:
        return config_from_build_dir(build_dir)
    prefix = prefix or os.environ.get("TOKENRING_PREFIX")
    if prefix:
        return config_from_prefix(prefix)
    if os.environ.get("TOKENRING_PKG_CONFIG", "") not in ("", "0"):
        return config_from_pkgconfig()
    return config_from_bundle()


def header_version(config: LibConfig) -> str:
    """The version of the libtokenring headers the extension is built against
    (``TOKENRING_VERSION_STRING`` of ``tokenring/version.h``): the package's version, so
    that pip metadata, ``tokenring.__version__`` and the library agree."""
    paths = [os.path.join(d, "tokenring", "version.h") for d in config.include_dirs]
    if not any(os.path.isfile(p) for p in paths):  # the single header of the bundled source
        paths = [os.path.join(d, "tokenring", "tokenring.h") for d in config.include_dirs]
    for path in paths:
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                m = re.search(r'#define\s+TOKENRING_VERSION_STRING\s+"([^"]+)"', f.read())
            if not m:
                raise BuildConfigError(f"{path} defines no TOKENRING_VERSION_STRING")
            return m.group(1)
    raise BuildConfigError(f"tokenring/version.h is not in any include directory "
                           f"{config.include_dirs} (from {config.source})")


# ---------------------------------------------------------------------- generate cdef

def _compiler() -> List[str]:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        raise BuildConfigError("no C compiler found (cc, gcc or clang): cffi's API mode "
                               "compiles the extension; install one (apt-get install gcc)")
    return shlex.split(cc)


def _preprocess(header: str, include_dirs: Sequence[str], extra: Sequence[str]) -> str:
    cmd = [*_compiler(), "-E", "-std=c11", "-DTOKENRING_API=", *extra,
           *[f"-I{d}" for d in include_dirs], header]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildConfigError(f"preprocessing {header} failed ({' '.join(cmd)}):\n{r.stderr}")
    return r.stdout


def _own_file(path: str, header_dirs: Sequence[str]) -> bool:
    real = os.path.realpath(path)
    return any(real.startswith(d + os.sep) for d in header_dirs)


def _header_dirs(include_dirs: Sequence[str]) -> List[str]:
    return [os.path.realpath(os.path.join(d, "tokenring")) for d in include_dirs
            if os.path.isdir(os.path.join(d, "tokenring"))]


_LINEMARK = re.compile(r'^#\s*(?:line\s+)?\d+\s+"([^"]*)"')


def extract_declarations(preprocessed: str, include_dirs: Sequence[str]) -> str:
    """Keep only the text that comes from tokenring's own headers (linemarkers tell)."""
    own = _header_dirs(include_dirs)
    keep = False
    out: List[str] = []
    for line in preprocessed.splitlines():
        m = _LINEMARK.match(line)
        if m:
            keep = _own_file(m.group(1), own)
            continue
        if line.startswith("#"):
            continue  # #pragma and the like
        if keep:
            out.append(line)
    return "\n".join(out)


def split_statements(text: str) -> List[str]:
    """Split normalized C declarations into top-level statements (depth-aware on braces)."""
    stmts, depth, cur = [], 0, []
    for ch in text:
        cur.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            s = "".join(cur).strip()
            if s != ";":
                stmts.append(s)
            cur = []
    rest = "".join(cur).strip()
    if rest:
        stmts.append(rest)
    return stmts


def normalize(text: str) -> List[str]:
    """Whitespace-normalized top-level declarations, one per list entry."""
    flat = re.sub(r"\s+", " ", text).strip()
    flat = re.sub(r"\s*([(){}\[\],;*])\s*", r"\1", flat)
    # Re-insert the spaces C needs between identifiers and '*' for readability.
    flat = re.sub(r"(\w)\*", r"\1 *", flat)
    flat = re.sub(r",", ", ", flat)
    return split_statements(flat)


_DEFINE = re.compile(r"^#define (TOKENRING_\w+)(\(| |$)(.*)$")


def extract_constants(header: str, include_dirs: Sequence[str],
                      extra: Sequence[str]) -> Tuple[List[str], List[str]]:
    """Object-like TOKENRING_* macros: (integer constants, string constants), sorted.

    Include guards (empty), TOKENRING_API and function-like macros are skipped. A macro
    whose value is a string literal becomes a ``static const char *const`` constant.
    """
    cmd = [*_compiler(), "-E", "-dM", "-std=c11", "-DTOKENRING_API=", *extra,
           *[f"-I{d}" for d in include_dirs], header]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildConfigError(f"listing macros of {header} failed:\n{r.stderr}")
    ints, strings = [], []
    for line in r.stdout.splitlines():
        m = _DEFINE.match(line)
        if not m or m.group(2) == "(":
            continue
        name, value = m.group(1), m.group(3).strip()
        if not value or name == "TOKENRING_API":
            continue
        if value.startswith('"'):
            strings.append(name)
        else:
            ints.append(name)
    return sorted(ints), sorted(strings)


def generate_cdef(config: LibConfig) -> str:
    """The complete cdef for libtokenring's public header, deterministic text."""
    header = config.header()
    pre = _preprocess(header, config.include_dirs, config.extra_compile_args)
    decls = normalize(extract_declarations(pre, config.include_dirs))
    ints, strings = extract_constants(header, config.include_dirs, config.extra_compile_args)
    lines = ["/* Generated from tokenring/tokenring.h by tokenring_cffi_build.py. */"]
    lines += [f"{d};" if not d.endswith(";") else d for d in decls]
    lines += [f"#define {n} ..." for n in ints]
    lines += [f"static const char *const {n};" for n in strings]
    return "\n".join(lines) + "\n"


def included_headers(config: LibConfig) -> List[str]:
    """Base names of the tokenring headers the umbrella header pulls in."""
    pre = _preprocess(config.header(), config.include_dirs, config.extra_compile_args)
    own = _header_dirs(config.include_dirs)
    seen = set()
    for line in pre.splitlines():
        m = _LINEMARK.match(line)
        if m and _own_file(m.group(1), own):
            seen.add(os.path.basename(m.group(1)))
    return sorted(seen)


def declared_functions(cdef: str) -> List[str]:
    """Names of the functions a cdef declares (top-level, non-typedef statements)."""
    names = []
    for line in cdef.splitlines():
        if line.startswith(("#", "/*", "typedef", "static")):
            continue
        # the declarator name is the identifier right before the first '(' not
        # preceded by '*' (a function pointer variable would be "(*name)").
        m = re.search(r"(\w+)\(", line)
        if m:
            names.append(m.group(1))
    return sorted(names)


# -------------------------------------------------------------------------- build

def _c_string(text: str) -> str:
    parts = []
    for line in text.splitlines(keepends=True):
        esc = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        parts.append(f'"{esc}"')
    return "\n    ".join(parts) or '""'


def make_ffibuilder(config: Optional[LibConfig] = None):
    """A cffi FFI builder for ``tokenring._native`` (API mode)."""
    try:
        import cffi  # noqa: PLC0415
    except ImportError as e:  # pragma: no cover - environment
        raise BuildConfigError("the cffi package is needed to build the binding: "
                               "pip install cffi") from e
    config = config or locate()
    cdef = generate_cdef(config)
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    ffi.cdef(f"const char *{CDEF_FUNCTION}(void);")
    source = (
        "#include <tokenring/tokenring.h>\n"
        f"static const char pytokenring_cdef[] =\n    {_c_string(cdef)};\n"
        f"static const char *{CDEF_FUNCTION}(void) {{ return pytokenring_cdef; }}\n")
    link_args = [f"-Wl,-rpath,{d}" for d in config.rpath]
    ffi.set_source(MODULE_NAME, source, include_dirs=config.include_dirs,
                   library_dirs=config.library_dirs, libraries=config.libraries,
                   extra_compile_args=config.extra_compile_args,
                   extra_link_args=link_args, sources=config.sources)
    ffi._tokenring_config = config  # for build()
    return ffi


SPEEDUPS_MODULE = "tokenring._speedups"
SPEEDUPS_SOURCE = os.path.join("tokenring", "_speedups.c")  # relative to this directory


def speedups_extensions() -> list:
    """The optional CPython extension ``tokenring._speedups`` (per-key fast paths of
    ``token`` and ``tokens``; it links against nothing: the cffi module hands it the
    library's function). Empty on other Pythons (PyPy's cffi calls are already cheap).
    ``optional``: a failure to compile it leaves the pure-cffi paths, never a failed
    install."""
    import platform  # noqa: PLC0415
    if platform.python_implementation() != "CPython":
        return []
    from setuptools import Extension  # noqa: PLC0415
    return [Extension(SPEEDUPS_MODULE, [SPEEDUPS_SOURCE], optional=True)]


def build_speedups(out_dir: str, verbose: bool = False) -> Optional[str]:
    """Compile ``tokenring._speedups`` into ``out_dir`` next to the cffi module. Returns
    its path, or None (with the reason on stderr) when it is not built."""
    exts = speedups_extensions()
    if not exts:
        return None
    from setuptools import Distribution  # noqa: PLC0415
    here = os.path.dirname(os.path.abspath(__file__))
    exts[0].sources = [os.path.join(here, SPEEDUPS_SOURCE)]
    exts[0].optional = False  # report the failure here, then go on without it
    dist = Distribution({"ext_modules": exts, "script_name": "tokenring_cffi_build.py"})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = out_dir
    cmd.build_temp = os.path.join(out_dir, "speedups-build")
    cmd.force = True
    cmd.verbose = verbose
    try:
        cmd.ensure_finalized()
        cmd.run()
    except Exception as e:  # noqa: BLE001 - any compiler failure: the fallback applies
        print(f"tokenring_cffi_build: {SPEEDUPS_MODULE} not built ({e}); token() and "
              "tokens() use the pure-cffi paths", file=sys.stderr)
        return None
    return cmd.get_ext_fullpath(SPEEDUPS_MODULE)


def build(config: LibConfig, out_dir: Optional[str] = None, verbose: bool = False) -> str:
    """Compile the extension into ``out_dir`` (default: the config's ext_dir), and the
    optional ``tokenring._speedups`` next to it. Returns the path of the cffi module."""
    ffi = make_ffibuilder(config)
    out_dir = out_dir or config.ext_dir
    if not out_dir:
        raise BuildConfigError("no output directory: pass --out DIR")
    os.makedirs(out_dir, exist_ok=True)
    path = ffi.compile(tmpdir=out_dir, verbose=verbose)
    build_speedups(out_dir, verbose)
    return path


def _main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", help="libtokenring Meson build directory")
    ap.add_argument("--prefix", help="libtokenring installation prefix")
    ap.add_argument("--out", help="output directory for the extension")
    ap.add_argument("--print-cdef", action="store_true", help="print the generated cdef")
    ap.add_argument("--print-version", action="store_true",
                    help="print the library version the package would be built as")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    try:
        config = locate(args.build_dir, args.prefix)
        if args.print_cdef:
            sys.stdout.write(generate_cdef(config))
            return 0
        if args.print_version:
            print(header_version(config))
            return 0
        path = build(config, args.out, args.verbose)
    except BuildConfigError as e:
        print(f"tokenring_cffi_build: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
elif __name__ == "__cffi__":  # pragma: no cover - run by setup.py (cffi_modules)
    ffibuilder = make_ffibuilder()
