# SPDX-License-Identifier: Apache-2.0
"""The optional C fast paths of token() and tokens(list) (tokenring._speedups): built
next to the cffi module on CPython, the same answers and errors as the pure-cffi paths,
and those paths alone when the module is absent or disabled."""
import os
import platform
import subprocess
import sys
import textwrap

import pytest

import tokenring
from tokenring import _hash

CPYTHON = platform.python_implementation() == "CPython"
sp = _hash._speedups

# every kind of key: bytes (empty, with NULs and high bytes), ASCII and non-ASCII str,
# bytearray; then types the C module hands back to the Python path
FAST_KEYS = [b"", b"a", b"\x00\xff" * 40, bytes(range(256)), "", "alice", "h\u00e9llo",
             "\u65e5\u672c\U0001f600", "x" * 1000, bytearray(), bytearray(b"\x80abc")]


class BytesSub(bytes):
    pass


class StrSub(str):
    def encode(self, *a, **k):  # the Python path's str rule: isinstance(key, str)
        return str.encode(self, *a, **k)


SLOW_KEYS = [memoryview(b"abc"), memoryview(b"abcdef")[::2], BytesSub(b"abc"), StrSub("abc")]


def pure_token(key):
    return _hash._token_py(key)


def pure_tokens(keys):
    data, offsets, n = _hash.pack_keys(keys)
    return [int(t) for t in _hash.tokens_packed(data, offsets, n)]


@pytest.mark.skipif(not CPYTHON, reason="the C fast paths are built for CPython only")
def test_built_and_used_on_cpython():
    # the test build compiles it next to the cffi module: a failure to build shows here
    assert sp is not None, "tokenring._speedups was not built or not loaded"
    assert tokenring.token is sp.token
    assert sp.API == 1


def test_token_same_answers_as_the_python_path():
    for key in FAST_KEYS + SLOW_KEYS:
        assert tokenring.token(key) == pure_token(key), key
    assert tokenring.token(b"") == tokenring.MIN_TOKEN
    assert tokenring.token("h\u00e9llo") == tokenring.token("h\u00e9llo".encode())
    # the golden vector of Cassandra's own tests (Murmur3PartitionerTest)
    assert tokenring.token(b"\x00\x00\x00\x01") == pure_token(b"\x00\x00\x00\x01")


def test_token_same_errors_as_the_python_path():
    for bad in [42, None, 1.5, ["a"], object()]:
        with pytest.raises(TypeError) as fast:
            tokenring.token(bad)
        with pytest.raises(TypeError) as slow:
            pure_token(bad)
        assert str(fast.value) == str(slow.value)
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate has no UTF-8
        tokenring.token("a\ud800")
    with pytest.raises(TypeError):
        tokenring.token()  # type: ignore[call-arg]


def test_tokens_list_and_tuple_same_answers():
    keys = FAST_KEYS * 3
    want = pure_tokens(keys)
    assert [int(t) for t in tokenring.tokens(keys)] == want
    assert [int(t) for t in tokenring.tokens(tuple(keys))] == want
    assert list(tokenring.tokens([])) == []
    # a key of another type anywhere sends the whole list down the general path
    mixed = keys + [memoryview(b"abc")] + keys
    assert [int(t) for t in tokenring.tokens(mixed)] == pure_tokens(mixed)
    many = [i.to_bytes(8, "big") for i in range(5000)]
    assert [int(t) for t in tokenring.tokens(many)] == pure_tokens(many)


def test_tokens_list_same_errors():
    with pytest.raises(TypeError, match="int"):
        tokenring.tokens([b"a", 42])
    with pytest.raises(ValueError, match="null"):
        tokenring.tokens([b"a", None])
    with pytest.raises(UnicodeEncodeError):
        tokenring.tokens(["a", "b\ud800"])


@pytest.mark.skipif(sp is None, reason="tokenring._speedups not built")
def test_tokens_into_refuses_bad_arguments():
    import array
    out = array.array("q", bytes(16))
    assert sp.tokens_into([b"a", "b"], out) is True
    assert list(out) == [tokenring.token(b"a"), tokenring.token("b")]
    assert sp.tokens_into([b"a", 7], out) is False  # not a key type handled in C
    with pytest.raises(ValueError, match="holds 16 bytes, 3 keys need 24"):
        sp.tokens_into([b"a", b"b", b"c"], out)
    with pytest.raises(TypeError, match="list or a tuple"):
        sp.tokens_into(iter([b"a"]), out)
    with pytest.raises(BufferError):
        sp.tokens_into([b"a"], b"readonly")
    with pytest.raises(TypeError):
        sp.tokens_into([b"a"])
    with pytest.raises(ValueError, match="address"):
        sp._init(0, pure_token)
    with pytest.raises(ValueError, match="address"):
        sp._init(1, 5)


def test_disabled_gives_the_pure_paths():
    # TOKENRING_NO_SPEEDUPS=1 (and a build without the module) leaves the cffi paths, with
    # the same answers
    code = textwrap.dedent("""
        import tokenring
        from tokenring import _hash
        assert _hash._speedups is None
        assert tokenring.token is _hash._token_py
        keys = [b"", b"a", "h\\u00e9llo", bytearray(b"xy")]
        print([tokenring.token(k) for k in keys], [int(t) for t in tokenring.tokens(keys)])
    """)
    env = dict(os.environ, TOKENRING_NO_SPEEDUPS="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.split("] [")
    keys = [b"", b"a", "h\u00e9llo", bytearray(b"xy")]
    want = [tokenring.token(k) for k in keys]
    assert out[0] + "]" == str(want)
    assert "[" + out[1].strip() == str(want)


def test_list_path_without_numpy_gives_a_list():
    # without numpy, tokens() returns a list of ints on both paths
    code = textwrap.dedent("""
        import sys
        sys.modules["numpy"] = None  # import numpy fails
        import tokenring
        assert not tokenring.HAVE_NUMPY
        keys = [b"a", "b\\u00e9", bytearray(b"c")]
        got = tokenring.tokens(keys)
        assert type(got) is list, type(got)
        assert got == [tokenring.token(k) for k in keys]
        mixed = tokenring.tokens([b"a", memoryview(b"b")])
        assert mixed == [tokenring.token(b"a"), tokenring.token(b"b")]
        print("ok")
    """)
    for env in ({}, {"TOKENRING_NO_SPEEDUPS": "1"}):
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **env),
                             check=True, capture_output=True, text=True).stdout
        assert out.strip() == "ok"
