#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tokens of a column of keys, per key, from each form a data engineer holds them in, next
to cassandra-driver's murmur3 loop and to the bare C batch, in one process and one run.

Not a test: prints a table. Text keys: --keys random ASCII keys of 8 to 24 characters
(fixed seed); int keys: --keys random int32 values. Times are CPU time of the process
(time.process_time), best of --repeat runs each (the forms taking turns), in ns per key;
ratios are against the bare C batch (tokens_packed over keys already packed) and against
the driver's loop (``[murmur3(k) for k in keys]``, its C extension).

    TOKENRING_BUILD_DIR=$PWD/build PYTHONPATH=bindings/python \\
      .venv/bin/python bindings/python/bench/bench_columns.py --keys 1000000 --repeat 5
"""
import argparse
import random
import time

import numpy as np

import tokenring as tr
from tokenring._hash import pack_keys


def best(fn, repeat):
    t = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        t = min(t, time.process_time() - t0)
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    n = a.keys
    rnd = random.Random(42)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_"
    texts = ["".join(rnd.choices(alphabet, k=rnd.randint(8, 24))) for _ in range(n)]
    keys = [t.encode() for t in texts]
    data, offsets, _ = pack_keys(keys)
    want = tr.tokens_packed(data, offsets, n)

    rows = []  # (label, seconds, check)

    def add(label, fn, repeat=a.repeat):
        out = fn()
        assert [int(x) for x in out[:1000]] == want[:1000].tolist(), label
        rows.append((label, best(fn, repeat)))

    add("bare C batch: tokens_packed(data, offsets)", lambda: tr.tokens_packed(data, offsets, n))
    try:
        from cassandra.murmur3 import murmur3
        add("cassandra-driver: [murmur3(k) for k in list of bytes]",
            lambda: [murmur3(k) for k in keys])
    except ImportError:
        print("cassandra-driver not installed: no driver figure")
    add("tokens(list of bytes)", lambda: tr.tokens(keys))
    add("tokens(list of str)", lambda: tr.tokens(texts))
    objs = np.array(keys, dtype=object)
    add("tokens(numpy object array of bytes)", lambda: tr.tokens(objs))
    try:
        import pyarrow as pa
        arr = pa.array(texts, type=pa.string())
        large = pa.array(texts, type=pa.large_string())
        chunked = pa.chunked_array([arr.slice(i, 65536) for i in range(0, n, 65536)])
        add("tokens(pyarrow string array)", lambda: tr.tokens(arr))
        add("tokens(pyarrow large_string array)", lambda: tr.tokens(large))
        add("tokens(pyarrow chunked array, 64 Ki-key chunks)", lambda: tr.tokens(chunked))
    except ImportError:
        print("pyarrow not installed: no Arrow figures")
    try:
        import pandas as pd
        ser = pd.Series(texts)  # pandas 3: the default str dtype, Arrow-backed
        add(f"tokens(pandas Series, dtype {ser.dtype!r})", lambda: tr.tokens(ser))
        obj = pd.Series(keys, dtype=object)
        add("tokens(pandas Series of bytes, dtype object)", lambda: tr.tokens(obj))
    except ImportError:
        print("pandas not installed: no pandas figures")
    try:
        import polars as pl
        ps = pl.Series(texts)
        add("tokens(polars Series, String)", lambda: tr.tokens(ps))
    except ImportError:
        print("polars not installed: no polars figures")

    c_batch = rows[0][1]
    driver = dict(rows).get("cassandra-driver: [murmur3(k) for k in list of bytes]")
    print(f"text keys: {n:,} keys of 8-24 ASCII characters, best of {a.repeat}, CPU ns/key")
    print(f"{'':58} {'ns/key':>8} {'/ C batch':>10} {'driver /':>9}")
    for label, t in rows:
        ratio_d = f"{driver / t:8.1f}x" if driver else ""
        print(f"{label:58} {t / n * 1e9:8.1f} {t / c_batch:9.2f}x {ratio_d}")

    ints = np.random.default_rng(7).integers(-2 ** 31, 2 ** 31, size=n, dtype=np.int32)
    ilist = ints.tolist()
    m = min(n, 200_000)  # the Python loop is slow: timed on a prefix, per key
    iwant = tr.tokens(ints)
    loop = lambda: [tr.token(tr.encode_int(v)) for v in ilist[:m]]  # noqa: E731
    assert loop()[:100] == iwant[:100].tolist()
    t_loop = best(loop, max(1, a.repeat // 2)) / m
    irows = [("Python loop: token(encode_int(v))", t_loop)]
    for label, fn in [("tokens(numpy int32 array)", lambda: tr.tokens(ints)),
                      ("tokens(list of int, type='int')", lambda: tr.tokens(ilist, type="int"))]:
        assert fn()[:100].tolist() == iwant[:100].tolist()
        irows.append((label, best(fn, a.repeat) / n))
    try:
        import pyarrow as pa
        iarr = pa.array(ints)
        irows.append(("tokens(pyarrow int32 array)", best(lambda: tr.tokens(iarr), a.repeat) / n))
    except ImportError:
        pass
    print(f"\nint keys: {n:,} random int32 (the loop on {m:,}), CPU ns/key")
    print(f"{'':58} {'ns/key':>8} {'loop /':>10}")
    for label, t in irows:
        print(f"{label:58} {t * 1e9:8.1f} {t_loop / t:9.1f}x")


if __name__ == "__main__":
    main()
