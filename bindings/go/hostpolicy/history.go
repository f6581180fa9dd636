// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// Cassandra 6.0 and later place replicas by the cluster's history (transactional cluster
// metadata): the order of a range's replicas depends on the joins, leaves, moves and
// keyspace changes that led to the ring, not only on its tokens. A driver reads that
// history from two virtual tables; the library replays it (tokenring.HistoryFromMetadata)
// and routes a router's keyspaces through it (Router.WithHistory).
const (
	SelectMetadataLog       = "SELECT epoch, kind, transformation FROM system_views.cluster_metadata_log"
	SelectMetadataDirectory = "SELECT node_id, broadcast_address, dc, rack, state, tokens FROM system_views.cluster_metadata_directory"
	SelectReleaseVersion    = "SELECT release_version FROM system.local WHERE key='local'"
)

// ReleaseMajor is the major version of a release_version ("6.0-alpha2" and gocql's
// "v6.0.0" give 6); 0 when it does not read.
func ReleaseMajor(v string) int {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexByte(v, '.'); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0
	}
	return n
}

// WithHistoryRows returns r routed through the history of a Cassandra 6.0 cluster read
// from its system_views.cluster_metadata_log rows (epoch, kind, transformation) and
// cluster_metadata_directory rows (node_id, broadcast_address, [broadcast_port,] dc, rack,
// state, tokens), as a driver's MapScan gives them; r gives the keyspaces' replications
// and must hold every keyspace the log creates (a router built from the same moment's
// system_schema.keyspaces rows). r is unchanged; on error (rows of two moments, an
// operation in progress, a log without its first entries) nothing is built.
func WithHistoryRows(r *tokenring.Router, log, directory []Row) (*tokenring.Router, error) {
	lr := make([]tokenring.MetadataLogRow, len(log))
	for i, row := range log {
		lr[i] = tokenring.MetadataLogRow{Epoch: Text(row["epoch"]), Kind: Text(row["kind"]), Transformation: Text(row["transformation"])}
	}
	dr := make([]tokenring.MetadataNodeRow, len(directory))
	for i, row := range directory {
		toks, err := Tokens(row["tokens"])
		if err != nil {
			return nil, fmt.Errorf("cluster_metadata_directory node %s: %w", Text(row["node_id"]), err)
		}
		dr[i] = tokenring.MetadataNodeRow{NodeID: Text(row["node_id"]), BroadcastAddress: Text(row["broadcast_address"]),
			BroadcastPort: Text(row["broadcast_port"]), DC: Text(row["dc"]), Rack: Text(row["rack"]), State: Text(row["state"]), Tokens: toks}
	}
	h, err := tokenring.HistoryFromMetadata(lr, dr, r, tokenring.Limits{})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return r.WithHistory(h)
}

// releaseLocked is 6 when a host of the cluster runs Cassandra 6 or later, 5 when the
// hosts' release versions are known and older, else what system.local said (0: not
// asked yet).
func (c *Core[H]) releaseLocked() int {
	known := false
	for _, rec := range c.hosts {
		if m := ReleaseMajor(rec.info.Version); m > 0 {
			if m >= 6 {
				return 6
			}
			known = true
		}
	}
	if known {
		return 5
	}
	return c.queriedRelease
}

// scheduleHistoryLocked reads the cluster's history again, in the background, when the
// cluster runs Cassandra 6 or later (or its release is not known yet): after every change
// of the ring or of a keyspace's replication (until the read is done, the new snapshot's
// placements are in the tokens' order).
func (c *Core[H]) scheduleHistoryLocked() {
	if c.closed || c.cfg.Query == nil || c.state.Load() == nil || c.releaseLocked() == 5 {
		return
	}
	c.historyWanted++
	gen := c.historyWanted
	go c.refreshHistory(gen)
}

// historyRetries bounds the reads of one change's history that fail (no host ready yet at
// a session's start, a timeout), historyBackoff is the first wait between two (doubled
// each time, at most 5 s).
var (
	historyRetries = 8
	historyBackoff = 250 * time.Millisecond
)

// refreshHistory reads the two metadata tables and system_schema.keyspaces (outside the
// writers' lock: a network round trip), then routes the current snapshot through the
// history, unless a newer change asked for another read meanwhile. A failed read is tried
// again (historyRetries, with a growing wait) while no newer change came.
func (c *Core[H]) refreshHistory(gen uint64) {
	wait := historyBackoff
	for attempt := 0; ; attempt++ {
		err := c.readHistory(gen)
		if err == nil {
			return
		}
		c.mu.Lock()
		stale := gen != c.historyWanted || c.closed
		if !stale && attempt+1 >= historyRetries {
			c.historyDone = gen
			c.fail("the cluster's history could not be read (replicas in the tokens' order until the next change): %v", err)
		}
		c.mu.Unlock()
		if stale || attempt+1 >= historyRetries {
			return
		}
		time.Sleep(wait)
		if wait *= 2; wait > 5*time.Second {
			wait = 5 * time.Second
		}
	}
}

// readHistory is one attempt of refreshHistory: an error only for a read that failed (and
// may succeed later); the rest is reported through LastError.
func (c *Core[H]) readHistory(gen uint64) error {
	c.mu.Lock()
	release := c.releaseLocked()
	c.mu.Unlock()
	if release == 0 { // no host said: ask the server once
		rows, err := c.cfg.Query(SelectReleaseVersion)
		if err != nil {
			return err
		}
		if len(rows) != 1 {
			return fmt.Errorf("system.local has %d rows", len(rows))
		}
		release = 5
		if ReleaseMajor(Text(rows[0]["release_version"])) >= 6 {
			release = 6
		}
		c.mu.Lock()
		c.queriedRelease = release
		if release < 6 && gen == c.historyWanted {
			c.historyDone = gen
		}
		c.mu.Unlock()
		if release < 6 {
			return nil
		}
	}
	log, err := c.cfg.Query(SelectMetadataLog)
	var dir, kss []Row
	if err == nil {
		dir, err = c.cfg.Query(SelectMetadataDirectory)
	}
	if err == nil {
		kss, err = c.cfg.Query(SelectKeyspaces)
	}
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.historyWanted || c.closed {
		return nil
	}
	c.historyDone = gen
	st := c.state.Load()
	if st == nil {
		return nil
	}
	// every keyspace the log may create goes to the router (the history needs their
	// replications)
	r := st.router
	for _, row := range kss {
		name := Text(row["keyspace_name"])
		m, err := ReplicationMap(row["replication"])
		if err != nil || name == "" {
			continue
		}
		prev, had := c.given[name]
		if had && canonical(prev) == canonical(m) {
			continue
		}
		kind := tokenring.EventCreated
		if had {
			kind = tokenring.EventAltered
		}
		next, err := r.Apply(tokenring.RouterEvent{Kind: kind, Keyspace: name, Replication: m})
		if err != nil {
			continue // refused by the router's rules: not routed, not in the history's set
		}
		if r != st.router {
			r.Close()
		}
		r = next
		c.given[name] = m
		delete(c.refused, name)
	}
	hr, err := WithHistoryRows(r, log, dir)
	if r != st.router {
		r.Close()
	}
	if err != nil {
		c.fail("the cluster's history was not applied (replicas in the tokens' order): %v", err)
		return nil
	}
	c.historyApplied.Add(1)
	c.publishLocked(hr, true, "")
	return nil
}

// HistoryApplied returns how many times the cluster's history has been applied (Cassandra
// 6.0 and later), and whether every change so far has had its history read (false while
// a read is under way).
func (c *Core[H]) HistoryApplied() (n int64, current bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.historyApplied.Load(), c.historyDone == c.historyWanted
}
