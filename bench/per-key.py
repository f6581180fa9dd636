#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-key cost of a partition key's token (and route) in every language, in one run, each
next to that ecosystem's own fastest way (issue 34). Not a test: prints one Markdown table.

  C       bench-ring (this build): tokenring_token / tokenring_tokens next to the reference
          Murmur3; hash + replicas single and batched next to the strongest hand-written
          baseline (branchless lower_bound with prefetch, Eytzinger or S-tree, the fastest);
  Python  in this process: tokenring.token per key, tokenring.tokens(list) (both through
          the C fast paths of tokenring._speedups where built, and on the pure-cffi paths
          for context), tokens_packed
          over a numpy buffer + offsets, tokens_packed over an Arrow binary column's buffers,
          each next to a loop over cassandra-driver's C murmur3 (cassandra.murmur3.murmur3);
  Go      go test -bench in bindings/go: Token per key, KeyBatch.TokensInto, hash + replicas
          single (one cgo call) and batched (RouteKeys + Sets(), RouteKeysReplicas), next
          to a pure-Go Murmur3 (+ sort.Search).
  Rust    cargo run --release in bench/rust (its own crate, outside the binding's
          workspace): libtokenring::token per key next to the ScyllaDB Rust driver's
          Murmur3Partitioner (crate `scylla`); Placement::route_key,
          replica_names_for_key, route_keys and route_keys_packed on a 1000x256 ring built
          as bench-ring builds it, next to the driver's Murmur3 + partition_point over the
          sorted tokens + a flat replica table; pairs interleaved pass by pass as Python's.

Every side is timed in thread CPU time; Python pairs are interleaved pass by pass (the side
that runs first alternates), 7 passes over 100,000 fixed random 16-byte keys, median and
minimum shown (Python batches also back to back, warm, as C's batch runs); C and Go figures are the medians their own benchmarks print (C: per-pass
ratios; Go: median of 3 runs of 10 passes). "vs C batch" divides by tokenring_tokens'
ns/key of the same run (Rust's route batches: tokenring_placement_route_keys_replicas' ns/key
on bench-ring's 1000x256 ring, the batch they wrap).

Usage: python3 bench/per-key.py [BUILD_DIR]    (default: build; the venv's python, with
       cffi, numpy, cassandra-driver and pyarrow; Go 1.19+ on PATH for the Go rows; cargo
       for the Rust rows, which fetches the bench crate's dependencies once)
"""
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
N_KEYS, PASSES = 100_000, 7

rows = []  # (language, call, ns median, ns min, fastest way, its ns, vs C batch?, warm ns,
#             C batch ns to divide by: None for tokenring_tokens)


def add(lang, call, med, mn, way, way_ns, batch=False, warm=None, c_ref=None):
    rows.append((lang, call, med, mn, way, way_ns, batch, warm, c_ref))


# ------------------------------------------------------------------------------------ C
def c_figures():
    exe = os.path.join(BUILD, "bench", "bench-ring")
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    c = {}
    for line in out.splitlines():
        cells = [x.strip().strip("*").rstrip("x") for x in line.strip().strip("|").split("|")]
        if cells and cells[0] == "16" and len(cells) == 6:  # hashing, 16-byte keys
            c["token"], c["ref"], c["tokens"] = float(cells[1]), float(cells[2]), float(cells[4])
        elif len(cells) >= 18 and cells[0][:1].isdigit() and "x" in cells[0]:
            ring = cells[0].split(",")[0]
            v = [float(x) for x in cells[1:]]
            c[ring] = {"single": v[0], "bf": v[1], "eyt": v[2], "st": v[3], "text": v[4],
                       "batch": v[7], "bf_batch": v[8], "eyt_batch": v[9], "st_batch": v[10],
                       "floor": v[12], "sets": v[23] if len(v) > 23 else None}
    return c


# ------------------------------------------------------------------------------- Python
def python_figures(c_batch):
    os.environ.setdefault("TOKENRING_BUILD_DIR", BUILD)
    sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))
    if not os.path.isdir(os.path.join(BUILD, "bindings", "python", "ext", "tokenring")):
        import tokenring_cffi_build as tb  # the cffi extension, as run_tests.py builds it
        tb.build(tb.config_from_build_dir(BUILD))
    import numpy as np
    import tokenring
    from cassandra.murmur3 import murmur3
    try:
        import pyarrow as pa
    except ImportError:
        pa = None

    rnd = np.random.default_rng(0x2545F4914F6CDD1D)
    blob = rnd.integers(0, 256, N_KEYS * 16, dtype=np.uint8).tobytes()
    keys = [blob[16 * i:16 * i + 16] for i in range(N_KEYS)]
    data = np.frombuffer(blob, dtype=np.uint8)
    offsets = np.arange(0, 16 * N_KEYS + 1, 16, dtype=np.uint64)
    token, tokens, packed = tokenring.token, tokenring.tokens, tokenring.tokens_packed

    def driver_loop():
        for k in keys:
            murmur3(k)

    def scalar():
        for k in keys:
            token(k)

    token_py, pack = tokenring._hash._token_py, tokenring._hash.pack_keys
    fast = "C fast path" if tokenring._hash._speedups is not None else "no C fast path built"

    def scalar_py():
        for k in keys:
            token_py(k)

    sides = {
        f"scalar: `token(key)` per key ({fast})": scalar,
        "scalar: pure cffi `token` (`TOKENRING_NO_SPEEDUPS=1`)": scalar_py,
        f"list: `tokens(list_of_bytes)` ({fast})": lambda: tokens(keys),
        'list: pure cffi (`b"".join`, offsets, `tokens_packed`)':
            lambda: packed(*pack(keys)),
        "numpy: `tokens_packed(uint8 buffer, uint64 offsets)`": lambda: packed(data, offsets),
    }
    if pa is not None:
        col = pa.array(keys, type=pa.large_binary())

        def arrow():
            _, offs, buf = col.buffers()
            o = np.frombuffer(offs, dtype=np.int64)[col.offset:col.offset + len(col) + 1]
            return packed(buf, o)

        sides["Arrow: `tokens_packed` on a `large_binary` column's buffers"] = arrow
    # the answers agree before anything is timed
    want = [murmur3(k) for k in keys[:1000]]
    for name, fn in sides.items():
        got = [(token if "pure" not in name else token_py)(k) for k in keys[:1000]] \
            if name.startswith("scalar") else fn()
        if [int(x) for x in got[:1000]] != want:
            raise SystemExit(f"per-key: {name} disagrees with cassandra.murmur3")
    for name, fn in sides.items():
        ours, theirs = [], []
        for r in range(PASSES):
            pair = [(ours, fn), (theirs, driver_loop)]
            for acc, f in (pair if r % 2 == 0 else pair[::-1]):
                t0 = time.thread_time_ns()
                f()
                acc.append((time.thread_time_ns() - t0) / N_KEYS)
        # the driver's loop between two passes evicts the batch's 3.2 MB of keys, offsets
        # and result from L2; bench-ring's C batch runs warm: the same, back to back
        warm = []
        for r in range(PASSES):
            t0 = time.thread_time_ns()
            fn()
            warm.append((time.thread_time_ns() - t0) / N_KEYS)
        add("Python", name, statistics.median(ours), min(ours),
            "loop over `cassandra.murmur3.murmur3` (driver's C extension)",
            statistics.median(theirs), batch=not name.startswith("scalar"),
            warm=statistics.median(warm))
    return pa is not None


# ----------------------------------------------------------------------------------- Go
def go_figures():
    go = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go")
                                 else None)
    if go is None:
        return False
    # Go's build cache does not see a change of the bundled source (bundle.c includes
    # csrc/tokenring/tokenring.c): its hash in the C flags, which the cache does see
    with open(os.path.join(ROOT, "bindings", "go", "csrc", "tokenring", "tokenring.c"), "rb") as f:
        bundle = hashlib.sha256(f.read()).hexdigest()[:16]
    env = dict(os.environ,
               PKG_CONFIG_PATH=os.path.join(BUILD, "meson-uninstalled"),
               LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
               CGO_CFLAGS=f"-O2 -g -DTOKENRING_BUNDLE_SHA256_16=0x{bundle}")
    out = subprocess.run([go, "test", "-run", "^$", "-bench",
                          "Token$|Replicas/1000x256/key-", "-benchtime", "10x", "-count", "3",
                          "."], cwd=os.path.join(ROOT, "bindings", "go"), env=env, check=True,
                         capture_output=True, text=True).stdout
    g = {}
    for line in out.splitlines():
        if line.startswith("Benchmark"):
            name = line.split()[0].replace("Benchmark", "").rsplit("-", 1)[0]
            m = re.search(r"([\d.]+) cpu-ns/key", line)
            if m:
                g.setdefault(name, []).append(float(m.group(1)))
    med = {k: statistics.median(v) for k, v in g.items()}
    mn = {k: min(v) for k, v in g.items()}
    gm = "pure-Go Murmur3 per key (bench_test.go's `goToken`)"
    add("Go", "scalar: `Token(key)` (pure Go since 1.2)", med["Token/single"],
        mn["Token/single"], gm, med["Token/go-murmur3"])
    add("Go", "scalar through cgo: `tokenring_token` per key (1.1's `Token`)",
        med["Token/single-cgo"], mn["Token/single-cgo"], gm, med["Token/go-murmur3"])
    add("Go", "batch: `KeyBatch.TokensInto` (one cgo call)", med["Token/batch"],
        mn["Token/batch"], gm, med["Token/go-murmur3"], batch=True)
    gr = "pure Go: Murmur3 + `sort.Search` + flat replica table"
    add("Go", "route 1000x256: `AppendReplicasForKey` per key (one cgo call)",
        med["Replicas/1000x256/key-single"], mn["Replicas/1000x256/key-single"], gr,
        med["Replicas/1000x256/key-go-murmur3+sort.Search"])
    add("Go", "route 1000x256: `RouteKeys` + `Sets()` per key",
        med["Replicas/1000x256/key-batch"], mn["Replicas/1000x256/key-batch"], gr,
        med["Replicas/1000x256/key-go-murmur3+sort.Search"])
    add("Go", "route 1000x256: `RouteKeysReplicas` per key (nodes shared from `Sets()`)",
        med["Replicas/1000x256/key-batch-replicas"], mn["Replicas/1000x256/key-batch-replicas"],
        gr, med["Replicas/1000x256/key-go-murmur3+sort.Search"])
    return True


# --------------------------------------------------------------------------------- Rust
def rust_figures(c):
    """The Rust rows from bench/rust; None when done, else why there are none."""
    home_cargo = os.path.expanduser("~/.cargo/bin/cargo")
    cargo = shutil.which("cargo") or (home_cargo if os.path.exists(home_cargo) else None)
    if cargo is None:
        return "cargo not found"
    crate = os.path.join(ROOT, "bench", "rust")
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(BUILD, "cargo-bench"))
    run = subprocess.run([cargo, "run", "--release", "-q", "--locked", "--manifest-path",
                          os.path.join(crate, "Cargo.toml")], env=env, capture_output=True,
                         text=True)
    if run.returncode != 0:
        return "bench/rust failed: " + " ".join(run.stderr.strip().splitlines()[-3:])
    with open(os.path.join(crate, "Cargo.lock")) as f:
        m = re.search(r'name = "scylla"\nversion = "([^"]+)"', f.read())
    scylla = f"scylla {m.group(1)}" if m else "scylla"
    p = {}
    for line in run.stdout.splitlines():
        cells = line.split("\t")
        if cells[0] == "pair":
            p[cells[1]] = (float(cells[2]), float(cells[3]), float(cells[5]), float(cells[6]))
        elif cells[0] == "clock" and cells[1] != "thread-cpu":
            print(f"(Rust rows in {cells[1]} time, not thread CPU time)", file=sys.stderr)
    hm = f"`scylla` driver's `Murmur3Partitioner.hash_one` per key ({scylla})"
    med, mn, peer, peer_mn = p["token"]
    add("Rust", "scalar: `libtokenring::token`", med, mn, hm, peer)
    add("Rust", f"peer: `Murmur3Partitioner.hash_one(key).value()` ({scylla}, the ScyllaDB "
        "Rust driver)", peer, peer_mn, hm, peer)
    rm = (f"pure Rust: `{scylla}` Murmur3 + `partition_point` + flat replica table")
    c_route = c["1000x256"]["batch"]
    for name, call, batch in (
            ("route_key", "`Placement::route_key` per key", False),
            ("replica_names_for_key", "`Placement::replica_names_for_key` per key "
             "(a `Vec<&str>` of names)", False),
            ("route_keys", "`Placement::route_keys(&keys)` (whole batch; vs C batch: "
             "`tokenring_placement_route_keys_replicas` 1000x256)", True),
            ("route_keys_packed", "`Placement::route_keys_packed` into a reused vector "
             "(vs C batch: `tokenring_placement_route_keys_replicas` 1000x256)", True)):
        med, mn, peer, _ = p[f"{name}/1000x256"]
        add("Rust", f"route 1000x256: {call}", med, mn, rm, peer, batch=batch,
            c_ref=c_route if batch else None)
    return None


def main():
    c = c_figures()
    add("C", "scalar: `tokenring_token`", c["token"], None,
        "reference MurmurHash3_x64_128 (bench-ring)", c["ref"])
    add("C", "batch: `tokenring_tokens`", c["tokens"], None,
        "reference MurmurHash3_x64_128 (bench-ring)", c["ref"], batch=True)
    for ring in ("96x256", "1000x256"):
        r = c[ring]
        best = min(r["bf"], r["eyt"], r["st"])
        best_b = min(r["bf_batch"], r["eyt_batch"], r["st_batch"])
        add("C", f"route {ring}: `tokenring_placement_replicas_for_key`", r["single"], None,
            "hash + fastest of branchless lower_bound / Eytzinger / S-tree + flat row", best)
        add("C", f"route {ring}: `tokenring_placement_route_keys_replicas`, 256 keys a call",
            r["batch"], None, "same, batched 16 keys level by level", best_b)
        if r["sets"] is not None:
            add("C", f"route {ring}: `tokenring_placement_route_keys` + `_set` (whole batch)",
                r["sets"], None, "same, batched 16 keys level by level", best_b)
    have_arrow = python_figures(c["tokens"])
    have_go = go_figures()
    no_rust = rust_figures(c)
    print(f"# Per-key cost in every language (16-byte keys; ns per key, thread CPU time; "
          f"C batch = tokenring_tokens {c['tokens']:.2f} ns/key)\n")
    print("| language | call | ns/key (median) | min | ecosystem's fastest way | its ns/key | "
          "ours / fastest | batch / C batch | warm ns/key (back to back) | warm / C batch |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for lang, call, med, mn, way, way_ns, batch, warm, c_ref in rows:
        vs_c = f"{med / c_ref:.2f}" if batch and c_ref is not None else \
            f"{med / c['tokens']:.2f}" if batch and "route" not in call else ""
        w = f"{warm:.1f} | {warm / c['tokens']:.2f}" if warm is not None and batch else " | "
        print(f"| {lang} | {call} | {med:.1f} | {'' if mn is None else f'{mn:.1f}'} | {way} | "
              f"{way_ns:.1f} | {med / way_ns:.2f} | {vs_c} | {w} |")
    if not have_arrow:
        print("\n(pyarrow not installed: no Arrow row)")
    if not have_go:
        print("\n(go not found: no Go rows)")
    if no_rust:
        print(f"\n({no_rust}: no Rust rows)")


if __name__ == "__main__":
    main()
