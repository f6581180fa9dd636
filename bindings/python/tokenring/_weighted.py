# SPDX-License-Identifier: Apache-2.0
"""Weighted ownership: each node's share of the data, not of the token space, estimated
from a sample of partition keys (or their tokens) with their sizes, with a confidence
interval from the sample; and what a join, decommission or move would stream, in the
same units, from a movement analysis given the same sample.

The estimates are ratio estimators over a simple random sample of partitions: a node's
share is the sampled size on it over the whole sampled size, its standard error from the
delta method (``sqrt(sum(d_i**2) / (n (n - 1))) / mean(y)`` with ``d_i = y_i (1[node] -
share)``), and the interval ``share +- z * se``, clipped to [0, 1]. ``fraction`` (the
sampling fraction, e.g. 0.01 for a 1 % sample) scales the sampled sums to the table."""
import statistics
from typing import Any, Dict, Iterable, Iterator, NamedTuple, Optional, Sequence, Tuple

from ._columns import np
from ._columns import tokens as _tokens_of
from ._frames import Table
from ._placement import Placement
from ._replication import ReplicationLike
from ._ring import Ring

__all__ = ["WeightedLoad", "weighted_ownership", "WeightedMove", "weighted_movement",
           "load_partials", "load_from_partials"]


class WeightedLoad(NamedTuple):
    """One node's load estimated from a sample: the sampled keys it owns (primary) and
    holds a replica of, their summed sizes, the shares of the whole sample's size with
    their confidence intervals, and the sums scaled to the table (``/ fraction``)."""

    samples: int
    primary: float
    primary_share: float
    primary_share_low: float
    primary_share_high: float
    primary_estimate: float
    replica_samples: int
    replicated: float
    replicated_share: float
    replicated_share_low: float
    replicated_share_high: float
    replicated_estimate: float


class WeightedMove(NamedTuple):
    """What a topology change streams to and from one node, estimated from the sample
    given to the movement analysis: sizes of the sampled keys the node gains and loses a
    replica of, as shares of the whole sample's size with confidence intervals, and
    scaled to the table."""

    gained: float
    gained_share: float
    gained_share_low: float
    gained_share_high: float
    gained_estimate: float
    lost: float
    lost_share: float
    lost_share_low: float
    lost_share_high: float
    lost_estimate: float


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), not {confidence!r}")
    return statistics.NormalDist().inv_cdf((1 + confidence) / 2)


def _sizes(sizes: Any, n: int) -> Any:
    if sizes is None:
        return np.ones(n)
    if hasattr(sizes, "to_numpy") and not isinstance(sizes, np.ndarray):
        sizes = sizes.to_numpy()
    y = np.asarray(sizes, dtype=np.float64)
    if y.ndim != 1 or y.size != n:
        raise ValueError(f"sizes must be one number per sample ({n}), not of shape {y.shape}")
    if y.size and (not np.isfinite(y).all() or y.min() < 0):
        i = int(np.argmax(~np.isfinite(y) | (y < 0)))
        raise ValueError(f"sizes[{i}] is {y[i]}: sizes are finite and non-negative")
    return y


def _share(s: float, s2: float, total: float, total2: float, n: int,
           z: float) -> Tuple[float, float, float]:
    """Share of the node's sum s (s2: sum of squares of its sizes) in the total, and the
    interval; total2 is the sum of squares over the whole sample."""
    if total <= 0:
        return 0.0, 0.0, 0.0
    p = s / total
    if n < 2:
        return p, 0.0, 1.0
    ss = (1 - p) ** 2 * s2 + p * p * (total2 - s2)  # sum of d_i**2
    se = (ss / (n * (n - 1))) ** 0.5 / (total / n)
    return p, max(0.0, p - z * se), min(1.0, p + z * se)


def _check_fraction(fraction: float) -> float:
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction (the sampling fraction) must be in (0, 1], not "
                         f"{fraction!r}")
    return float(fraction)


_SUM_COLUMNS = ("node", "samples", "primary", "primary_sq", "replica_samples", "replicated",
                "replicated_sq")


def _token_column(keys: Any, tokens: Any, type: Any) -> Any:
    if np is None:
        raise ImportError("weighted ownership needs numpy")
    if (keys is None) == (tokens is None):
        raise TypeError("give the sample as keys= or as tokens=, one of them")
    if keys is not None:
        return _tokens_of(keys, type=type)
    return np.asarray(tokens.to_numpy() if hasattr(tokens, "to_numpy") else tokens,
                      dtype=np.int64)


def _sums(ring: Ring, replication: Optional[ReplicationLike], toks: Any,
          y: Any) -> Tuple[Any, ...]:
    """Per node (ring order): sampled keys owned, their size and size squared; the same
    for the keys it holds a replica of."""
    n = int(toks.size)
    nn = len(ring.node_names)
    owners = np.asarray(ring._owners(), dtype=np.int64)
    node = owners[np.asarray(ring.search(toks), dtype=np.int64)] if n else \
        np.zeros(0, dtype=np.int64)
    cnt = np.bincount(node, minlength=nn)
    s1 = np.bincount(node, weights=y, minlength=nn)
    s2 = np.bincount(node, weights=y * y, minlength=nn)
    if replication is None:
        return cnt, s1, s2, cnt, s1, s2
    pl: Placement = ring.placement(replication)
    sets = np.asarray(pl.route_tokens(toks), dtype=np.int64)
    nsets = pl.set_count
    scnt = np.bincount(sets, minlength=nsets)
    ss1 = np.bincount(sets, weights=y, minlength=nsets)
    ss2 = np.bincount(sets, weights=y * y, minlength=nsets)
    index = {name: i for i, name in enumerate(ring.node_names)}
    rcnt, r1, r2 = np.zeros(nn, dtype=np.int64), np.zeros(nn), np.zeros(nn)
    for sid in np.flatnonzero(scnt):  # one step per distinct replica set sampled
        for name in pl.replica_set(int(sid)):
            i = index[name]
            rcnt[i] += scnt[sid]
            r1[i] += ss1[sid]
            r2[i] += ss2[sid]
    return cnt, s1, s2, rcnt, r1, r2


def _combine(names: Sequence[str], sums: Tuple[Any, ...], fraction: float,
             confidence: float) -> Table:
    cnt, s1, s2, rcnt, r1, r2 = sums
    z, f = _z(confidence), _check_fraction(fraction)
    # every sampled key has exactly one primary owner: the totals are the primary sums
    n, total, total2 = int(np.sum(cnt)), float(np.sum(s1)), float(np.sum(s2))
    out: Dict[str, WeightedLoad] = {}
    for i, name in enumerate(names):
        p = _share(float(s1[i]), float(s2[i]), total, total2, n, z)
        r = _share(float(r1[i]), float(r2[i]), total, total2, n, z)
        out[name] = WeightedLoad(int(cnt[i]), float(s1[i]), *p, float(s1[i]) / f,
                                 int(rcnt[i]), float(r1[i]), *r, float(r1[i]) / f)
    return Table.of(out, "node", WeightedLoad._fields)


def weighted_ownership(ring: Ring, replication: Optional[ReplicationLike] = None, *,
                       keys: Any = None, tokens: Any = None, sizes: Any = None,
                       type: Any = None, fraction: float = 1.0,
                       confidence: float = 0.95) -> Table:
    """Each node's primary and replicated load from a sample of partitions.

    Args:
        ring: a Murmur3 :class:`Ring`.
        replication: the keyspace's replication (for the replicated load; without it
            the replicated columns equal the primary ones).
        keys: the sampled partition keys (any column :func:`tokenring.tokens` takes;
            ``type`` as there), or
        tokens: their tokens (an int64 column), e.g. ``token(pk)`` read from the table.
        sizes: one size per sample (bytes, rows...); None counts partitions.
        fraction: the sampling fraction, to scale the sums to the table.
        confidence: of the intervals (normal approximation).
    Returns:
        ``{node: WeightedLoad}`` (``.to_pandas()``, ``.to_arrow()``), every node of the
        ring in its order, nodes without a sampled key included.
    """
    toks = _token_column(keys, tokens, type)
    y = _sizes(sizes, int(toks.size))
    _z(confidence), _check_fraction(fraction)
    return _combine(ring.node_names, _sums(ring, replication, toks, y), fraction, confidence)


def load_partials(batches: Iterable[Any], ring: Ring,
                  replication: Optional[ReplicationLike] = None, *, key: str,
                  size: Optional[str] = None, type: Any = None,
                  key_is_token: bool = False) -> Iterator[Any]:
    """The per-node sums of :func:`weighted_ownership` over Arrow record batches, one
    small batch out (a row per node) for each batch in: the shape of Spark's
    ``DataFrame.mapInArrow`` (and of any engine that maps over Arrow batches of a
    Parquet export). ``key`` names the partition-key column (a list of names with a
    list of ``type`` for a composite key), or with ``key_is_token`` a column of tokens;
    ``size`` the size column (None counts partitions). Add the partial sums up by node
    (``groupBy("node").sum()``) and pass them to :func:`load_from_partials`."""
    import pyarrow as pa  # optional dependency: the batches are Arrow record batches
    for batch in batches:
        if isinstance(key, (list, tuple)):
            cols: Any = [batch.column(k) for k in key]
        else:
            cols = batch.column(key)
        toks = _token_column(None if key_is_token else cols,
                             cols if key_is_token else None, type)
        y = _sizes(None if size is None else batch.column(size).to_numpy(zero_copy_only=False),
                   int(toks.size))
        sums = _sums(ring, replication, toks, y)
        yield pa.RecordBatch.from_arrays(
            [pa.array(ring.node_names, type=pa.string())] +
            [pa.array(np.asarray(c), type=pa.int64() if c.dtype.kind in "iu" else pa.float64())
             for c in sums], names=list(_SUM_COLUMNS))


def load_from_partials(partials: Any, *, fraction: float = 1.0,
                       confidence: float = 0.95) -> Table:
    """:func:`weighted_ownership`'s result from the partial sums :func:`load_partials`
    gave (a pyarrow Table or record batches, a pandas DataFrame, whether summed by node
    already or not: rows of one node are added up here; summed columns named
    ``sum(primary)`` as Spark names them are read too)."""
    import pyarrow as pa  # optional dependency
    if type(partials).__module__.startswith("pandas"):
        partials = pa.Table.from_pandas(partials, preserve_index=False)
    elif type(partials).__module__.startswith("polars"):
        partials = partials.to_arrow()
    elif not isinstance(partials, pa.Table):
        partials = pa.Table.from_batches(list(partials))
    renamed = [c[4:-1] if c.startswith("sum(") and c.endswith(")") else c
               for c in partials.column_names]
    t = partials.rename_columns(renamed).group_by("node", use_threads=False).aggregate(
        [(c, "sum") for c in _SUM_COLUMNS[1:]])
    names = t.column("node").to_pylist()
    sums = tuple(t.column(f"{c}_sum").to_numpy() for c in _SUM_COLUMNS[1:])
    return _combine(names, sums, fraction, confidence)


def weighted_movement(movement: Any, sizes: Any = None, *, fraction: float = 1.0,
                      confidence: float = 0.95) -> Table:
    """What a change streams, in the units of ``sizes``: ``movement`` is a
    :class:`tokenring.Movement` built with ``samples=`` (the sampled keys or tokens),
    ``sizes`` one size per sample in the same order (None counts partitions). A node
    gains a sample it becomes a replica of and loses one it stops being a replica of.

    Returns:
        ``{node: WeightedMove}`` for every node of either topology.
    """
    if np is None:
        raise ImportError("weighted_movement needs numpy")
    samples: Sequence[Any] = movement.samples
    n = len(samples)
    if n == 0:
        raise ValueError("the movement analysis has no samples: build it with samples=")
    y = _sizes(sizes, n)
    z, f = _z(confidence), _check_fraction(fraction)
    names = [nd.name for nd in movement.nodes]
    index = {name: i for i, name in enumerate(names)}
    g1, g2, l1, l2 = (np.zeros(len(names)) for _ in range(4))
    for k, s in enumerate(samples):
        if not s.replicas_changed:
            continue
        old, new = set(s.old_replicas), set(s.new_replicas)
        w = y[k]
        for name in new - old:
            g1[index[name]] += w
            g2[index[name]] += w * w
        for name in old - new:
            l1[index[name]] += w
            l2[index[name]] += w * w
    total, total2 = float(y.sum()), float((y * y).sum())
    out = {}
    for i, name in enumerate(names):
        g = _share(float(g1[i]), float(g2[i]), total, total2, n, z)
        lo = _share(float(l1[i]), float(l2[i]), total, total2, n, z)
        out[name] = WeightedMove(float(g1[i]), *g, float(g1[i]) / f,
                                 float(l1[i]), *lo, float(l1[i]) / f)
    return Table.of(out, "node", WeightedMove._fields)
