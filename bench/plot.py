#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plots bench-ring's ring table: ns per key against ring size, libtokenring next to the
plain lower_bound baseline (owner lookup, and hash + replica lookup single and batched).

    bench-ring > run.txt && python3 bench/plot.py run.txt doc/performance.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def ring_rows(text):
    """Rows of the '## Rings' table as dicts keyed by column title."""
    rows, header, in_rings = [], None, False
    for line in text.splitlines():
        if line.startswith("## "):
            in_rings = line.startswith("## Rings")
            continue
        if not in_rings or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set(cells[0]) <= set("-:"):
            rows.append(dict(zip(header, cells)))
    return rows


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot.py BENCH_OUTPUT PNG")
    with open(argv[1], encoding="utf-8") as f:
        rows = ring_rows(f.read())
    if not rows:
        sys.exit("plot.py: no '## Rings' table in " + argv[1])
    tokens = [int(r["tokens"]) for r in rows]
    series = [
        ("hash+replicas ns", "libtokenring: hash + replicas", "C0", "o-"),
        ("batched ns", "libtokenring: hash + replicas, batched", "C2", "s-"),
        ("baseline ns", "baseline: hash + lower_bound + flat replicas", "C3", "o--"),
        ("owner ns", "libtokenring: owner lookup", "C0", "^:"),
        ("owner ns (lower_bound)", "baseline: lower_bound owner lookup", "C3", "^:"),
        ("floor ns", "memory floor: hash + one row read, no search", "C7", "x--"),
    ]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=100)
    for col, label, color, style in series:
        if col not in rows[0]:  # runs from before the column existed
            continue
        ax.plot(tokens, [float(r[col]) for r in rows], style, color=color, label=label)
    ax.set_xscale("log")
    ax.set_xticks(tokens)
    ax.set_xticklabels([r["ring"].split(",")[0] + f"\n{t:,} tokens" for r, t in zip(rows, tokens)])
    ax.set_ylabel("ns per key (median, thread CPU time)")
    ax.set_ylim(bottom=0)
    ax.set_title("Routing cost against ring size (16-byte keys)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[2])


if __name__ == "__main__":
    main(sys.argv)
