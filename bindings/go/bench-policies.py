#!/usr/bin/env python3
# The Go driver policies' figures, both adapters in one run, each next to its driver's own
# TokenAwareHostPolicy (doc/driver-policies.md):
#   python3 bindings/go/bench-policies.py BUILD_DIR [--count N]
# Runs the benchmarks of bindings/go/gocql (gocql v1.7) and bindings/go/gocqlv2 (the
# Apache driver v2) against BUILD_DIR's library, the two policies of each module
# alternating (-count), and prints the raw lines, then one table: the best (least) CPU
# time per operation of each policy over the runs and the ratio driver / tokenring.
import os
import re
import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
args = sys.argv[1:]
if not args:
    sys.exit("usage: bench-policies.py BUILD_DIR [--count N]")
build = Path(args[0]).resolve()
count = int(args[args.index("--count") + 1]) if "--count" in args else 3
go = "go" if subprocess.run(["which", "go"], capture_output=True).returncode == 0 else "/usr/local/go/bin/go"
env = dict(os.environ, PKG_CONFIG_PATH=str(build / "meson-uninstalled"), LD_LIBRARY_PATH=str(build / "lib"),
           CGO_ENABLED="1", GOFLAGS="-mod=mod -tags=libtokenring", GOCACHE=str(build / "go-cache"),
           GOTOOLCHAIN="local")
# (benchmark regexp, -benchtime): per-op figures need many ops, rebuilds few
RUNS = [("Pick$", "100000x"), ("PickPlan", "10000x"), ("TopologyChange|SchemaChange|Build", "10x"), ("Memory", "2x")]
best = {}
for module in ("gocql", "gocqlv2"):
    for regexp, benchtime in RUNS:
        cmd = [go, "test", "-run", "^$", "-bench", regexp, "-benchmem", "-benchtime", benchtime,
               "-count", str(1 if regexp == "Memory" else count), "."]
        print(f"# {module}: {' '.join(cmd[1:])}", flush=True)
        out = subprocess.run(cmd, cwd=here / module, env=env, capture_output=True, text=True)
        if out.returncode:
            sys.exit(out.stdout + out.stderr)
        for line in out.stdout.splitlines():
            if not line.startswith("Benchmark"):
                continue
            print(line, flush=True)
            name = line.split()[0].rsplit("-", 1)[0].replace("Benchmark", "")
            bench, policy = name.split("/")
            m = {k: float(v) for v, k in re.findall(r"([\d.]+) ([\w/-]+)(?=\s|$)", line)}
            key = (module, bench, policy)
            metric = "total-B" if bench == "Memory" else "cpu-ns/op"
            if key not in best or m[metric] < best[key][metric]:
                best[key] = m

FIGS = [("Pick + first host", "Pick", "cpu-ns/op", 1, "ns"), ("Pick + whole plan (96 hosts)", "PickPlan", "cpu-ns/op", 1, "ns"),
        ("topology change (join + leave)", "TopologyChange", "cpu-ns/op", 1e6, "ms"),
        ("ALTER KEYSPACE (one keyspace)", "SchemaChange", "cpu-ns/op", 1e6, "ms"),
        ("policy from scratch (96 hosts, the keyspace)", "Build", "cpu-ns/op", 1e6, "ms"),
        ("memory of a built policy", "Memory", "total-B", 1e6, "MB")]
print()
print("| figure | gocql v1.7 own | v1 tokenring | ratio | driver v2 own | v2 tokenring | ratio |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for title, bench, metric, scale, unit in FIGS:
    cells = []
    for module in ("gocql", "gocqlv2"):
        theirs, ours = best.get((module, bench, "gocql")), best.get((module, bench, "tokenring"))
        if not theirs or not ours:
            cells += ["-", "-", "-"]
            continue
        a, b = theirs[metric] / scale, ours[metric] / scale
        allocs = lambda m: f", {m['allocs/op']:.0f} allocs" if bench.startswith("Pick") else ""
        digits = 0 if unit == "ns" else 2
        cells += [f"{a:,.{digits}f} {unit}{allocs(theirs)}", f"{b:,.{digits}f} {unit}{allocs(ours)}", f"{a / b:.1f}x"]
    print(f"| {title} | " + " | ".join(cells) + " |")
