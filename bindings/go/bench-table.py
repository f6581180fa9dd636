#!/usr/bin/env python3
# Turns `go test -bench . -count N` output of the Go binding into the Markdown table of
# doc/go-benchmark.md: for each benchmark the median over the N runs of the binding's
# CPU time per key, of the same operation in plain C (measured interleaved on the same
# thread), of their per-pass ratio, and of the wall time per key.
#   go test -run '^$' -bench . -benchtime 15x -count 3 . | python3 bench-table.py
import re
import statistics
import sys

rows, order = {}, []
for line in sys.stdin:
    if not line.startswith("Benchmark"):
        continue
    name = line.split()[0].replace("Benchmark", "").rsplit("-", 1)[0]
    metrics = {k: float(v) for v, k in
               re.findall(r"([\d.]+) (ns/key|cpu-ns/key|C-cpu-ns/key|go/C|ns/op)(?=\s|$)", line)}
    if "ns/key" not in metrics:  # parallel benchmarks: one key per op, wall time only
        metrics["ns/key"] = metrics["ns/op"]
    if name not in rows:
        rows[name] = []
        order.append(name)
    rows[name].append(metrics)


def median(samples, key):
    if not all(key in m for m in samples):
        return None
    return statistics.median(m[key] for m in samples)


def fmt(v, digits):
    return "-" if v is None else "%.*f" % (digits, v)


print("| benchmark | binding CPU ns/key | C CPU ns/key | binding / C | binding wall ns/key | runs |")
print("|---|---:|---:|---:|---:|---:|")
for name in order:
    s = rows[name]
    print("| %s | %s | %s | %s | %s | %d |" % (
        name, fmt(median(s, "cpu-ns/key"), 1), fmt(median(s, "C-cpu-ns/key"), 1),
        fmt(median(s, "go/C"), 2), fmt(median(s, "ns/key"), 1), len(s)))
