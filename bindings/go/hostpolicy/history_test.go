// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// metadata6 reads tests/data/cassandra6/metadata (a 6.0 cluster's metadata log and
// directory and its keyspaces) as the rows a driver's MapScan gives.
func metadata6(t *testing.T) (log, dir, kss []Row) {
	t.Helper()
	base := filepath.Join("..", "..", "..", "tests", "data", "cassandra6", "metadata")
	lines := func(name string) [][]string {
		b, err := os.ReadFile(filepath.Join(base, name))
		if err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			if !strings.HasPrefix(l, "#") {
				out = append(out, strings.Split(l, "\t"))
			}
		}
		return out
	}
	for _, f := range lines("log.tsv") {
		e, _ := strconv.ParseInt(f[0], 10, 64)
		log = append(log, Row{"epoch": e, "kind": f[1], "transformation": f[2]})
	}
	for _, f := range lines("directory.tsv") {
		var toks []string
		if f[6] != "" {
			toks = strings.Split(f[6], ",")
		}
		id, _ := strconv.Atoi(f[0])
		row := Row{"node_id": id, "broadcast_address": f[1], "dc": f[3], "rack": f[4], "state": f[5], "tokens": toks}
		if f[2] != "" {
			row["broadcast_port"] = f[2]
		}
		dir = append(dir, row)
	}
	pair := regexp.MustCompile(`'([^']*)': '([^']*)'`)
	for _, f := range lines("keyspaces.tsv") {
		m := map[string]string{}
		for _, kv := range pair.FindAllStringSubmatch(f[1], -1) {
			m[kv[1]] = kv[2]
		}
		kss = append(kss, Row{"keyspace_name": f[0], "replication": m})
	}
	return log, dir, kss
}

// On Cassandra 6 the core reads the cluster's history (the two metadata tables and the
// keyspaces, through Config.Query) after the ring is built and routes through it: every
// key's replicas in the history's order (the library's WithHistoryRows on a router of the
// same rows), which differs from the tokens' order; on 5.0 it reads nothing.
func TestCoreHistory(t *testing.T) {
	log, dir, kss := metadata6(t)
	for _, release := range []string{"6.0-alpha2", "5.0.9", ""} {
		var queries atomic.Int64
		query := func(stmt string) ([]Row, error) {
			queries.Add(1)
			switch stmt {
			case SelectMetadataLog:
				return log, nil
			case SelectMetadataDirectory:
				return dir, nil
			case SelectKeyspaces:
				return kss, nil
			case SelectReleaseVersion:
				return []Row{{"release_version": "6.0-alpha2"}}, nil
			}
			return nil, fmt.Errorf("unexpected %s", stmt)
		}
		ksMaps := schema{}
		for _, k := range kss {
			ksMaps[Text(k["keyspace_name"])] = k["replication"].(map[string]string)
		}
		c := New(Config[*fakeHost]{Describe: (*fakeHost).describe,
			IsLocal: func(h *fakeHost) bool { return h.describe().Datacenter == "dc1" }, Keyspace: ksMaps.get, Query: query})
		c.SetPartitioner(murmur3)
		var hs []*fakeHost
		var peers []Row
		for _, d := range dir {
			if d["tokens"] == nil || len(d["tokens"].([]string)) == 0 {
				continue
			}
			addr := strings.TrimPrefix(Text(d["broadcast_address"]), "/")
			hs = append(hs, &fakeHost{info: HostInfo{Addr: addr, Datacenter: Text(d["dc"]), Rack: Text(d["rack"]),
				Tokens: d["tokens"].([]string), Up: true, Version: release}})
			peers = append(peers, Row{"peer": addr, "data_center": d["dc"], "rack": d["rack"], "tokens": d["tokens"]})
		}
		c.AddHosts(hs)
		for _, k := range kss {
			c.KeyspaceChanged(Text(k["keyspace_name"]))
		}
		for end := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if _, current := c.HistoryApplied(); current || time.Now().After(end) {
				break
			}
		}
		n, current := c.HistoryApplied()
		if release == "5.0.9" {
			if queries.Load() != 0 || n != 0 {
				t.Fatalf("5.0.9: %d queries, history applied %d times", queries.Load(), n)
			}
			c.Close()
			continue
		}
		if !current || n == 0 || c.LastError() != "" {
			t.Fatalf("%q: history applied %d times, current %v, LastError %q", release, n, current, c.LastError())
		}
		plain, err := RouterFromRows(Row{"rpc_address": peers[0]["peer"], "data_center": peers[0]["data_center"],
			"rack": peers[0]["rack"], "tokens": peers[0]["tokens"], "partitioner": murmur3}, peers[1:], kss, RowOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := WithHistoryRows(plain, log, dir)
		if err != nil {
			t.Fatal(err)
		}
		differ := 0
		for _, ks := range []string{"ks_a", "ks_b", "ks_c"} {
			for _, k := range keys(400, 21) {
				var got []string
				for _, h := range c.Replicas(ks, k) {
					got = append(got, h.info.Addr)
				}
				w, err := ReplicaNames(want, ks, k)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, w) {
					t.Fatalf("%q %s %x: %v, the history's order %v", release, ks, k, got, w)
				}
				var local []string
				for _, n := range w {
					for _, h := range hs {
						if h.info.Addr == n && h.info.Datacenter == "dc1" {
							local = append(local, n)
						}
					}
				}
				if l, ok := localNames(c, ks, k); !ok || !reflect.DeepEqual(l, local) && len(l)+len(local) > 0 {
					t.Fatalf("%s %x: local %v, want %v", ks, k, l, local)
				}
				p, _ := ReplicaNames(plain, ks, k)
				if !reflect.DeepEqual(p, w) {
					differ++
				}
			}
		}
		if differ == 0 {
			t.Fatal("the history's order equals the tokens' for every key: the test proves nothing")
		}
		// keys above the last ring token: 6.0 keeps a list of their own there (the
		// wrapping range cut at the minimum token), which Pick's table holds apart
		ring, err := want.Ring()
		if err != nil {
			t.Fatal(err)
		}
		toks, _ := ring.Tokens()
		ring.Close()
		above := 0
		for i := 0; above < 60; i++ {
			k := []byte(fmt.Sprintf("upper-%d", i))
			if tokenring.Token(k) <= toks[len(toks)-1] {
				continue
			}
			above++
			for _, ks := range []string{"ks_a", "ks_b", "ks_c"} {
				w, _ := ReplicaNames(want, ks, k)
				var local []string
				for _, n := range w {
					for _, h := range hs {
						if h.info.Addr == n && h.info.Datacenter == "dc1" {
							local = append(local, n)
						}
					}
				}
				if l, ok := localNames(c, ks, k); !ok || !reflect.DeepEqual(l, local) && len(l)+len(local) > 0 {
					t.Fatalf("%s %x above the last token: local %v, want %v", ks, k, l, local)
				}
			}
		}
		plain.Close()
		want.Close()
		c.Close()
	}
}

// A history read that fails (no host ready yet at a session's start) is tried again: the
// history is applied and LastError stays empty; one that keeps failing is reported.
func TestCoreHistoryRetries(t *testing.T) {
	log, dir, kss := metadata6(t)
	defer func(b time.Duration) { historyBackoff = b }(historyBackoff)
	historyBackoff = time.Millisecond
	for _, failures := range []int64{3, 1000} {
		var calls atomic.Int64
		query := func(stmt string) ([]Row, error) {
			if calls.Add(1) <= failures {
				return nil, fmt.Errorf("no hosts available in the pool")
			}
			switch stmt {
			case SelectMetadataLog:
				return log, nil
			case SelectMetadataDirectory:
				return dir, nil
			}
			return kss, nil
		}
		c := New(Config[*fakeHost]{Describe: (*fakeHost).describe, IsLocal: func(*fakeHost) bool { return true }, Query: query})
		c.SetPartitioner(murmur3)
		var hs []*fakeHost
		for _, d := range dir {
			if toks := d["tokens"].([]string); len(toks) > 0 {
				hs = append(hs, &fakeHost{info: HostInfo{Addr: strings.TrimPrefix(Text(d["broadcast_address"]), "/"),
					Datacenter: Text(d["dc"]), Rack: Text(d["rack"]), Tokens: toks, Up: true, Version: "6.0-alpha2"}})
			}
		}
		c.AddHosts(hs)
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
			if _, current := c.HistoryApplied(); current {
				break
			}
		}
		n, current := c.HistoryApplied()
		if failures == 3 && (n != 1 || !current || c.LastError() != "") {
			t.Fatalf("after 3 failed reads: applied %d, current %v, LastError %q", n, current, c.LastError())
		}
		if failures == 1000 && (n != 0 || !current || !strings.Contains(c.LastError(), "no hosts available")) {
			t.Fatalf("reads that keep failing: applied %d, current %v, LastError %q", n, current, c.LastError())
		}
		c.Close()
	}
}
