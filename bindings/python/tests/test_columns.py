# SPDX-License-Identifier: Apache-2.0
"""Columns in: pyarrow, pandas, polars and numpy columns of keys; typed keys serialised as
Cassandra does (the golden vectors); composite keys from columns; nulls."""
import datetime as dt
import decimal
import ipaddress
import uuid

import pytest

import tokenring as tr
from conftest import read_tsv

np = pytest.importorskip("numpy")

KEYS = [b"", b"a", b"hello", "caf\u00e9".encode(), b"\x00\xff" * 40, b"key-12345"]
WANT = [tr.token(k) for k in KEYS]
CQL = read_tsv("murmur3_cql_values.tsv")
COMPOSITE = read_tsv("murmur3_composite.tsv")


def test_bare_str_and_bytes_are_refused():
    for bad in ("abc", b"abc", bytearray(b"abc")):
        with pytest.raises(TypeError, match=r"wrap one key in a list"):
            tr.tokens(bad)
    ring = tr.Ring(tr.Topology([("A", "dc1", "r1", [0])]))
    with pytest.raises(TypeError, match=r"wrap one key in a list"):
        ring.placement(1).route("abc")


def test_numpy_int_columns_follow_their_dtype():
    vals = np.array([0, 1, -1, 42], dtype=np.int32)
    assert tr.tokens(vals).tolist() == [tr.token(tr.encode_int(int(v))) for v in vals]
    assert tr.tokens(vals.astype(np.int64)).tolist() == \
        [tr.token(tr.encode_bigint(int(v))) for v in vals]
    assert tr.tokens(vals.astype(np.int64), type="int").tolist() == \
        tr.tokens(vals).tolist()
    with pytest.raises(tr.RangeError, match=r"key 1: 2147483648 is out of range for int"):
        tr.tokens(np.array([0, 2 ** 31]), type="int")
    with pytest.raises(TypeError, match=r"must hold integers"):
        tr.tokens(np.array([1.5]), type="int")


def _typed_value(t, s):
    """The golden value as a Python/numpy value of the column a user would have."""
    if t in ("int", "bigint", "smallint", "tinyint", "varint", "timestamp"):
        return int(s)
    if t in ("double", "float"):
        return float(s)
    if t == "boolean":
        return s == "true"
    if t in ("uuid", "timeuuid"):
        return uuid.UUID(s)
    if t == "date":
        return dt.date.fromisoformat(s)
    if t == "decimal":
        return decimal.Decimal(s)
    if t == "inet":
        return ipaddress.ip_address(s)
    if t == "blob":
        return bytes.fromhex(s)
    return s


@pytest.mark.parametrize("form", ["values", "strings", "numpy"])
def test_typed_columns_give_cassandra_tokens(form):
    by_type = {}
    for r in CQL:
        by_type.setdefault(r["cql_type"], []).append(r)
    for t, rows in by_type.items():
        want = [int(r["token"]) for r in rows]
        if form == "strings":
            if t == "blob":
                continue  # a blob's string form is hex; a str is text
            vals = [r["value_string"] for r in rows]
        else:
            vals = [_typed_value(t, r["value_string"]) for r in rows]
        if form == "numpy":
            if t in ("int", "bigint", "smallint", "tinyint", "double", "float", "boolean",
                     "timestamp"):
                vals = np.array(vals)
            elif t == "date":
                vals = np.array(vals, dtype="datetime64[D]")
            elif t in ("uuid", "timeuuid"):
                vals = np.array([u.bytes for u in vals], dtype="S16")
        got = tr.tokens(vals, type=t).tolist()
        assert got == want, (t, form)


def test_timestamps_from_datetime64_floor_to_milliseconds():
    ts = np.array(["1969-12-31T23:59:59.999999", "2020-01-01T00:00:00"],
                  dtype="datetime64[us]")
    assert tr.tokens(ts).tolist() == [tr.token(tr.encode_timestamp(-1)),
                                      tr.token(tr.encode_timestamp(1577836800000))]


def test_timeuuid_refuses_other_versions():
    with pytest.raises(ValueError, match=r"key 0 is not a timeuuid \(version 4"):
        tr.tokens(np.array([uuid.uuid4().bytes], dtype="S16"), type="timeuuid")


def test_composite_columns_give_cassandra_tokens():
    by_types = {}
    for r in COMPOSITE:
        by_types.setdefault(r["cql_types"], []).append(r)
    for types, rows in by_types.items():
        ts = types.split(",")
        cols = [[bytes.fromhex(r["components_hex"].split(",")[j]) for r in rows]
                for j in range(len(ts))]
        # components given as their serialised bytes (blob), and each key checked
        got = tr.tokens(cols, type=["blob"] * len(ts)).tolist()
        assert got == [int(r["token"]) for r in rows], types


def test_composite_from_typed_numpy_columns():
    ids = np.array([42, 1, -1], dtype=np.int32)
    names = ["user", "x", ""]
    want = [tr.token(tr.parse_key(["int", "text"], f"{i}:{n}")) for i, n in zip(ids, names)]
    assert tr.tokens([ids, names], type=["int", "text"]).tolist() == want
    with pytest.raises(ValueError, match=r"2 columns for 1 types"):
        tr.tokens([ids, names], type=["int"])
    with pytest.raises(ValueError, match=r"column 1 has 2 keys, column 0 has 3"):
        tr.tokens([ids, names[:2]], type=["int", "text"])


def test_list_with_none_is_an_error_or_a_null():
    with pytest.raises(ValueError, match=r"key 1 is null"):
        tr.tokens([b"a", None])
    got = tr.tokens([b"a", None, b"b"], nulls="null")
    assert got.mask.tolist() == [False, True, False]
    assert got[0] == tr.token(b"a") and got[2] == tr.token(b"b")
    with pytest.raises(ValueError, match=r"nulls must be one of"):
        tr.tokens([b"a"], nulls="skip")


try:
    import pyarrow as pa
except ImportError:  # the optional extras: their tests skip without them
    pa = None
try:
    import pandas as pd
except ImportError:
    pd = None
try:
    import polars as pl
except ImportError:
    pl = None


@pytest.mark.skipif(pa is None, reason="pyarrow is not installed")
class TestArrow:

    @pytest.mark.parametrize("typ", ["string", "large_string", "binary", "large_binary"])
    def test_arrays_and_slices(self, typ):
        t = getattr(pa, typ)()
        vals = [k.decode("latin-1") if "string" in typ else k for k in KEYS]
        arr = pa.array(vals, type=t)
        want = [tr.token(k.encode() if isinstance(k, str) else k) for k in vals]
        assert tr.tokens(arr).tolist() == want
        assert tr.tokens(arr.slice(2, 3)).tolist() == want[2:5]
        chunked = pa.chunked_array([arr.slice(0, 2), arr.slice(2)])
        assert tr.tokens(chunked).tolist() == want

    def test_empty_columns(self):
        assert tr.tokens(pa.array([], type=pa.string())).tolist() == []
        assert tr.tokens(pa.chunked_array([], type=pa.binary())).tolist() == []
        ring = tr.Ring(tr.Topology([("A", "dc1", "r1", [0])]))
        toks, sets = ring.placement(1).route(pa.chunked_array([], type=pa.string()))
        assert toks.dtype == np.int64 and sets.dtype == np.uint32 and len(toks) == 0
        assert tr.tokens(np.array([], dtype=np.int32)).tolist() == []
        assert tr.tokens([[], []], type=["int", "text"]).tolist() == []

    def test_nulls(self):
        arr = pa.array(["a", None, "b"])
        with pytest.raises(ValueError, match=r"key 1 is null"):
            tr.tokens(arr)
        chunked = pa.chunked_array([pa.array(["x"]), arr])
        with pytest.raises(ValueError, match=r"key 2 is null"):
            tr.tokens(chunked)
        got = tr.tokens(chunked, nulls="null")
        assert got.mask.tolist() == [False, False, True, False]
        assert got.data[[0, 1, 3]].tolist() == [tr.token(b"x"), tr.token(b"a"),
                                                tr.token(b"b")]

    def test_numeric_and_fixed_size(self):
        assert tr.tokens(pa.array([1, -1], type=pa.int32())).tolist() == \
            [tr.token(tr.encode_int(1)), tr.token(tr.encode_int(-1))]
        assert tr.tokens(pa.array([1, None], type=pa.int64()), nulls="null")[0] == \
            tr.token(tr.encode_bigint(1))
        u = uuid.UUID("123e4567-e89b-12d3-a456-426614174000")
        fsb = pa.array([b"\0" * 16, u.bytes], type=pa.binary(16)).slice(1)
        assert tr.tokens(fsb, type="uuid").tolist() == [tr.token(u.bytes)]
        assert tr.tokens(pa.array([dt.date(2024, 2, 29)])).tolist() == \
            [tr.token(bytes.fromhex("80004d46"))]

    def test_dates_and_timestamps(self):
        d = dt.date(2024, 2, 29)
        want = [tr.token(bytes.fromhex("80004d46"))]
        assert tr.tokens(pa.array([d], type=pa.date64())).tolist() == want
        ts = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
        want_ts = [tr.token(tr.encode_timestamp(1577836800000))]
        for unit in ("s", "ms", "us", "ns"):
            assert tr.tokens(pa.array([ts], type=pa.timestamp(unit, tz="UTC"))).tolist() \
                == want_ts, unit
        if pd is not None:
            aware = pd.Series(pd.to_datetime(["2020-01-01T01:00:00+01:00"]))
            assert tr.tokens(aware).tolist() == want_ts
            gap = pd.Series(pd.to_datetime(["2020-01-01", None]))
            with pytest.raises(ValueError, match=r"key 1 is null"):
                tr.tokens(gap)
            got = tr.tokens(gap, nulls="null")
            assert got.mask.tolist() == [False, True] and got[0] == want_ts[0]
            with pytest.raises(ValueError, match=r"key 0 is null"):
                tr.tokens(pd.Series([float("nan"), 1.5]))

    def test_strings_typed_by_their_string_form(self):
        assert tr.tokens(pa.array(["42", "-1"]), type="int").tolist() == \
            [tr.token(tr.encode_int(42)), tr.token(tr.encode_int(-1))]

    def test_ascii_is_checked(self):
        with pytest.raises(ValueError, match=r"key 1 is not ascii"):
            tr.tokens(pa.array(["a", "caf\u00e9"]), type="ascii")

    def test_routing(self):
        ring = tr.Ring(tr.Topology([("A", "dc1", "r1", [-5000000000000000000, 0]),
                                    ("B", "dc1", "r1", [-2000000000000000000, 4000000000000000000])]))
        pl = ring.placement(1)
        arr = pa.array([k.decode("latin-1") for k in KEYS[1:]], type=pa.large_string())
        keys = [k.decode("latin-1").encode() for k in KEYS[1:]]
        assert list(pl.route_replicas(arr)) == list(pl.route_replicas(keys))
        toks, sets = pl.route(pa.array(["a", None]), nulls="null")
        assert toks.mask.tolist() == [False, True] and sets.mask.tolist() == [False, True]
        names = pl.route_replicas(pa.array(["a", None]), nulls="null")
        assert names[1] is None and names[0] == pl.replicas(b"a")
        cr = tr.ClusterRing(ring, {"ks": 1})
        assert list(cr.route_replicas("ks", arr)) == list(pl.route_replicas(keys))
        ids = np.array([1, 2, 3], dtype=np.int32)
        assert list(cr.route_replicas("ks", ids)) == \
            [pl.replicas(tr.encode_int(int(i))) for i in ids]


@pytest.mark.skipif(pd is None or pa is None, reason="pandas or pyarrow is not installed")
class TestPandas:

    @pytest.mark.parametrize("dtype", [object, "string", "str", "string[pyarrow]"])
    def test_text_series(self, dtype):
        vals = ["a", "hello", "caf\u00e9", ""]
        try:
            s = pd.Series(vals, dtype=dtype)
        except (TypeError, ImportError):
            pytest.skip(f"pandas has no {dtype} dtype here")
        assert tr.tokens(s).tolist() == [tr.token(v) for v in vals]
        assert tr.tokens(s.iloc[1:]).tolist() == [tr.token(v) for v in vals[1:]]

    def test_nulls_and_ints(self):
        s = pd.Series(["a", None], dtype=object)
        with pytest.raises(ValueError, match=r"key 1 is null"):
            tr.tokens(s)
        assert tr.tokens(s, nulls="null").mask.tolist() == [False, True]
        nan = pd.Series(["a", float("nan"), pd.NA], dtype=object)
        with pytest.raises(ValueError, match=r"key 1 is null"):
            tr.tokens(nan)
        assert tr.tokens(nan, nulls="null").mask.tolist() == [False, True, True]
        with pytest.raises(TypeError, match=r"not int"):
            tr.tokens(pd.Series(["a", 3], dtype=object))
        assert tr.tokens(pd.Series([1, 2], dtype="int32")).tolist() == \
            [tr.token(tr.encode_int(1)), tr.token(tr.encode_int(2))]
        # the golden composite text,int "user:42"
        df = pd.DataFrame({"name": ["user"], "id": np.array([42], dtype=np.int32)})
        assert tr.tokens(df, type=["text", "int"]).tolist() == [4575207870461280363]


@pytest.mark.skipif(pl is None or pa is None, reason="polars or pyarrow is not installed")
class TestPolars:

    def test_series(self):
        vals = ["a", "hello", "caf\u00e9", ""]
        assert tr.tokens(pl.Series(vals)).tolist() == [tr.token(v) for v in vals]
        assert tr.tokens(pl.Series([1, 2], dtype=pl.Int32)).tolist() == \
            [tr.token(tr.encode_int(1)), tr.token(tr.encode_int(2))]
        assert tr.tokens(pl.Series(["a", None]), nulls="null").mask.tolist() == [False, True]
