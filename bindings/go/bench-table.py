#!/usr/bin/env python3
# Turns `go test -bench . -count N` output of the Go binding into the Markdown table of
# doc/go-benchmark.md: for each benchmark the median over the N runs of the binding's
# ns/key, the same operation in plain C (C-ns/key, measured interleaved in the same
# process) and their ratio.
#   go test -run '^$' -bench . -benchtime 5x -count 3 . | python3 bench-table.py
import re
import statistics
import sys

rows, order = {}, []
for line in sys.stdin:
    if not line.startswith("Benchmark"):
        continue
    name = line.split()[0].replace("Benchmark", "").rsplit("-", 1)[0]
    metrics = {k: float(v) for v, k in re.findall(r"([\d.]+) (ns/key|C-ns/key|go/C|ns/op)", line)}
    if "ns/key" not in metrics:  # parallel benchmarks: one key per op
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


print("| benchmark | binding ns/key | C ns/key | binding / C | runs |")
print("|---|---:|---:|---:|---:|")
for name in order:
    s = rows[name]
    print("| %s | %s | %s | %s | %d |" % (name, fmt(median(s, "ns/key"), 1), fmt(median(s, "C-ns/key"), 1),
                                         fmt(median(s, "go/C"), 2), len(s)))
