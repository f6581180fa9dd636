// SPDX-License-Identifier: Apache-2.0

// Command livecheck checks the Go binding against answers a live Cassandra cluster gave,
// written by the live test stage (live/test_live.py) as JSON on standard input:
//
//	{"tokens": [{"types": ["text", "int"], "key": "a:1", "hex": "...", "token": "-42"}],
//	 "placements": [{"ring": "<nodetool ring output>", "replication": "...",
//	                 "cases": [{"token": "-42", "endpoints": ["127.0.0.1", ...]}]}]}
//
// Every token must equal the server's `SELECT token(...)` both from the key's string form
// (ParseKey) and from its serialized bytes (Token); every replica list, computed from the
// cluster's own `nodetool ring` output, must equal `nodetool getendpoints` (same nodes, same
// order). Prints the counts and exits 1 at the first mismatch.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

type tokenCase struct {
	Types []string `json:"types"`
	Key   string   `json:"key"`
	Hex   string   `json:"hex"`
	Token string   `json:"token"`
}

type placementCase struct {
	Ring        string `json:"ring"`
	Replication string `json:"replication"`
	Cases       []struct {
		Token     string   `json:"token"`
		Endpoints []string `json:"endpoints"`
	} `json:"cases"`
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "livecheck: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	var in struct {
		Tokens     []tokenCase     `json:"tokens"`
		Placements []placementCase `json:"placements"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail("bad input: %v", err)
	}
	tokens := 0
	for _, c := range in.Tokens {
		want, err := strconv.ParseInt(c.Token, 10, 64)
		if err != nil {
			fail("bad token %q", c.Token)
		}
		types := make([]tokenring.CQLType, len(c.Types))
		for i, name := range c.Types {
			if types[i], err = tokenring.ParseCQLType(name); err != nil {
				fail("type %q: %v", name, err)
			}
		}
		key, err := tokenring.ParseKey(types, c.Key)
		if err != nil {
			fail("ParseKey(%v, %q): %v", c.Types, c.Key, err)
		}
		if got := tokenring.Token(key); got != want {
			fail("%v %q: token %d from the string form, server %d", c.Types, c.Key, got, want)
		}
		raw, err := hex.DecodeString(c.Hex)
		if err != nil {
			fail("bad hex %q", c.Hex)
		}
		if got := tokenring.Token(raw); got != want {
			fail("%v %q: token %d from the bytes, server %d", c.Types, c.Key, got, want)
		}
		if hex.EncodeToString(key) != c.Hex {
			fail("%v %q: key bytes %x, the driver's %s", c.Types, c.Key, key, c.Hex)
		}
		tokens++
	}
	lists := 0
	for _, p := range in.Placements {
		cl, err := tokenring.NewCluster()
		if err != nil {
			fail("%v", err)
		}
		if _, err := cl.Parse(tokenring.FormatNodetoolRing, p.Ring, 0); err != nil {
			fail("parse nodetool ring: %v", err)
		}
		topo, err := cl.Topology()
		if err != nil {
			fail("%v", err)
		}
		ring, err := topo.Build()
		if err != nil {
			fail("%v", err)
		}
		repl, err := tokenring.ParseReplication(p.Replication)
		if err != nil {
			fail("replication %q: %v", p.Replication, err)
		}
		pl, err := tokenring.BuildPlacement(ring, repl, 0)
		if err != nil {
			fail("placement %q: %v", p.Replication, err)
		}
		for _, c := range p.Cases {
			t, err := strconv.ParseInt(c.Token, 10, 64)
			if err != nil {
				fail("bad token %q", c.Token)
			}
			names, err := pl.AppendReplicaNames(nil, t)
			if err != nil {
				fail("%v", err)
			}
			if fmt.Sprint(names) != fmt.Sprint(c.Endpoints) {
				fail("%s token %d: replicas %v, nodetool getendpoints %v", p.Replication, t,
					names, c.Endpoints)
			}
			lists++
		}
		pl.Close()
		repl.Close()
		ring.Close()
		topo.Close()
		cl.Close()
	}
	fmt.Printf("livecheck: %d tokens equal (string form and bytes), %d replica lists equal\n",
		tokens, lists)
}
