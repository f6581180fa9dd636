// SPDX-License-Identifier: Apache-2.0

//go:build live

package tokenringgocqlv2

// The Apache Go driver v2 half of the live stage (live/test_drivers.py runs it against the stage's
// cluster): built with -tags live, driven by environment variables.
//
//	TOKENRING_LIVE_CONTACT   a node's address (CQL on port 9042)
//	TOKENRING_LIVE_DC        the local datacenter
//	TOKENRING_LIVE_EXPECT    a JSON file: [{"keyspace", "key", "endpoints": [...]}], the
//	                         server's replicas (nodetool getendpoints) of each key
//	TOKENRING_LIVE_DOWN      addresses of stopped nodes (comma-separated; may be empty)
//
// For every key: a prepared SELECT through a session whose policy is NewPolicy(
// DCAwareRoundRobinPolicy(dc)) is served by the first up replica of the local datacenter
// in the server's order (Iter.Host()); RouterFromSession and the policy's own router give
// exactly the server's replica lists; gocql's own TokenAwareHostPolicy's plan is
// compared (repeated hosts, first host). The last line printed is a JSON object of counts.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/libtokenring/tokenring/bindings/go/hostpolicy"
)

type expectation struct {
	Keyspace  string   `json:"keyspace"`
	Key       string   `json:"key"`
	Endpoints []string `json:"endpoints"`
}

func liveSession(t *testing.T, policy gocql.HostSelectionPolicy) *gocql.Session {
	c := gocql.NewCluster(os.Getenv("TOKENRING_LIVE_CONTACT"))
	c.ProtoVersion = 4
	c.Timeout = 30 * time.Second
	c.ConnectTimeout = 30 * time.Second
	c.PoolConfig.HostSelectionPolicy = policy
	c.NumConns = 1
	c.Consistency = gocql.One // a stopped replica must not make reads unavailable
	s, err := c.CreateSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	return s
}

func TestLive(t *testing.T) {
	var exp []expectation
	raw, err := os.ReadFile(os.Getenv("TOKENRING_LIVE_EXPECT"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	dc := os.Getenv("TOKENRING_LIVE_DC")
	down := map[string]bool{}
	for _, d := range strings.Split(os.Getenv("TOKENRING_LIVE_DOWN"), ",") {
		if d != "" {
			down[d] = true
		}
	}
	ours := NewPolicy(gocql.DCAwareRoundRobinPolicy(dc))
	defer ours.Close()
	s := liveSession(t, ours)
	defer s.Close()
	counts := map[string]int{}

	// the router from the session: exactly the server's replica lists
	rt, err := RouterFromSessionContext(context.Background(), s, ours, RowOptions{})
	if err != nil {
		t.Fatalf("RouterFromSession: %v", err)
	}
	defer rt.Close()
	for _, e := range exp {
		got, err := hostpolicy.ReplicaNames(rt, e.Keyspace, []byte(e.Key))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, ",") != strings.Join(e.Endpoints, ",") {
			t.Fatalf("RouterFromSession %s %q: %v, server %v", e.Keyspace, e.Key, got, e.Endpoints)
		}
		counts["ring_from_session_replicas"]++
	}
	nodes, err := rt.Nodes()
	if err != nil {
		t.Fatal(err)
	}
	dcOf := map[string]string{}
	for _, n := range nodes {
		dcOf[n.Name] = n.Datacenter
	}

	// every running node up in the session's view first
	for end := time.Now().Add(90 * time.Second); ; {
		up := map[string]bool{}
		for _, h := range ours.core.Hosts() {
			if h.IsUp() {
				up[h.ConnectAddress().String()] = true
			}
		}
		missing := []string{}
		for _, n := range nodes {
			if !down[n.Name] && !up[n.Name] {
				missing = append(missing, n.Name)
			}
		}
		if len(missing) == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("hosts not up in gocql: %v", missing)
		}
		time.Sleep(500 * time.Millisecond)
	}

	// the policy's own router: the server's replica lists too
	kss, _ := rt.Keyspaces()
	for _, ks := range kss {
		ours.LoadKeyspace(ks)
	}
	// on Cassandra 6 the history is read in the background: wait for it (deadline 60 s)
	mismatch := func() string {
		if _, current := ours.HistoryApplied(); !current {
			return "the history is being read"
		}
		for _, e := range exp {
			var got []string
			for _, h := range ours.Replicas(e.Keyspace, []byte(e.Key)) {
				got = append(got, h.ConnectAddress().String())
			}
			if strings.Join(got, ",") != strings.Join(e.Endpoints, ",") {
				return fmt.Sprintf("the policy's router %s %q: %v, server %v", e.Keyspace, e.Key, got, e.Endpoints)
			}
		}
		return ""
	}
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		m := mismatch()
		if m == "" {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%s (LastError %q)", m, ours.LastError())
		}
	}
	counts["policy_router_replicas"] += len(exp)
	if n, _ := ours.HistoryApplied(); n > 0 {
		counts["policy_history_applied"] += int(n)
	}

	// coordinators
	for _, e := range exp {
		want := ""
		for _, ep := range e.Endpoints {
			if dcOf[ep] == dc && !down[ep] {
				want = ep
				break
			}
		}
		it := s.Query(fmt.Sprintf("SELECT k FROM %s.t WHERE k = ?", e.Keyspace), e.Key).Iter()
		if err := it.Close(); err != nil {
			t.Fatalf("%s %q: %v", e.Keyspace, e.Key, err)
		}
		host := it.Host().ConnectAddress().String()
		if want == "" { // no up replica in the local dc: the fallback's host, any
			counts["coordinator_fallback"]++
			continue
		}
		if host != want {
			t.Fatalf("%s %q: served by %s, want %s (server replicas %v, down %v)", e.Keyspace, e.Key, host, want, e.Endpoints, down)
		}
		counts["coordinator_first_local_replica"]++
	}
	if e := ours.LastError(); e != "" {
		t.Fatalf("LastError: %s", e)
	}

	// gocql's own token-aware policy on the same cluster: its plans
	theirs := gocql.TokenAwareHostPolicy(gocql.DCAwareRoundRobinPolicy(dc), gocql.DoNotShuffleReplicas())
	s2 := liveSession(t, theirs)
	defer s2.Close()
	for _, e := range exp {
		for _, ks := range []string{e.Keyspace} {
			theirs.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: ks, Change: "UPDATED"})
		}
	}
	for _, e := range exp {
		// the v2 driver hands a policy its internal statement: one of ours with the
		// routing key of a single text partition key column (its bytes)
		next := theirs.Pick(&liveStatement{e.Keyspace, []byte(e.Key)})
		seen := map[string]bool{}
		var plan []string
		for h := next(); h != nil; h = next() {
			a := h.Info().ConnectAddress().String()
			if seen[a] {
				counts["gocql_plan_repeats_host"]++
				break
			}
			seen[a] = true
			plan = append(plan, a)
		}
		want := ""
		for _, ep := range e.Endpoints {
			if dcOf[ep] == dc && !down[ep] {
				want = ep
				break
			}
		}
		if len(plan) > 0 && want != "" && plan[0] != want {
			counts["gocql_first_host_not_servers"]++
		}
		counts["gocql_plans"]++
	}
	out, _ := json.Marshal(counts)
	fmt.Printf("\nCOUNTS %s\n", out)
}

type liveStatement struct {
	keyspace string
	key      []byte
}

func (s *liveStatement) GetRoutingKey() ([]byte, error) { return s.key, nil }
func (s *liveStatement) Keyspace() string               { return s.keyspace }
func (s *liveStatement) Table() string                  { return "t" }
func (s *liveStatement) IsIdempotent() bool             { return true }
func (s *liveStatement) GetHostID() string              { return "" }
func (s *liveStatement) Statement() gocql.Statement     { return nil }
