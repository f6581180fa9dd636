// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"encoding/binary"
	"errors"
	"testing"
)

// Fuzz targets: whatever the input, the binding returns a value or an *Error and never
// crashes or reads outside the Go memory it was given. `go test` runs the seeds; run
// e.g. `go test -fuzz FuzzTokensPacked -fuzztime 30s` to explore.

func FuzzTokensPacked(f *testing.F) {
	f.Add([]byte("abcdef"), []byte{0, 2, 2, 6})
	f.Add([]byte{}, []byte{0, 0})
	f.Add([]byte("xy"), []byte{0, 3})
	f.Add([]byte("xyz"), []byte{2, 1, 3})
	f.Fuzz(func(t *testing.T, keys []byte, offs []byte) {
		offsets := make([]uint64, len(offs))
		for i, o := range offs {
			offsets[i] = uint64(o)
		}
		out := make([]int64, len(offsets))
		err := TokensPacked(out, keys, offsets)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.Code != CodeInvalid && e.Code != CodeBufSize) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		for i := 0; i+1 < len(offsets); i++ {
			if want := Token(keys[offsets[i]:offsets[i+1]]); out[i] != want {
				t.Fatalf("key %d: batch %d, single %d", i, out[i], want)
			}
		}
	})
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"user:42", "a\\:b:c", "wow!!:x\\!", ":", "1:2:3", "!", "_", "\\", ""} {
		f.Add(uint8(CQLText), uint8(CQLInt), s)
	}
	f.Add(uint8(CQLUUID), uint8(CQLBlob), "123e4567-e89b-12d3-a456-426614174000:cafe")
	f.Add(uint8(CQLDecimal), uint8(CQLVarint), "-1.50:18446744073709551616")
	f.Fuzz(func(t *testing.T, a, b uint8, text string) {
		types := []CQLType{CQLType(a % 20), CQLType(b % 20)}
		if key, err := ParseKey(types, text); err == nil {
			_ = Token(key)
		} else if _, ok := err.(*Error); !ok {
			t.Fatalf("error of type %T", err)
		}
		if v, err := ParseValue(types[0], text); err == nil {
			_ = Token(v)
		}
	})
}

func FuzzParseReplication(f *testing.F) {
	for _, s := range []string{"3", "dc1=3,dc2=2/1", "SimpleStrategy:3/1", "{'class': 'NetworkTopologyStrategy', 'dc1': '3'}",
		"{'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '2'}", "dc1=", "{'class'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ParseReplication(text)
		if err != nil {
			return
		}
		defer r.Close()
		again, err := ParseReplication(r.String())
		if err != nil {
			t.Fatalf("%q formats as %q, which does not parse: %v", text, r.String(), err)
		}
		defer again.Close()
		if again.String() != r.String() {
			t.Fatalf("format is not stable: %q then %q", r.String(), again.String())
		}
	})
}

func FuzzClusterParse(f *testing.F) {
	f.Add("node a dc=dc1 rack=r1 tokens=1,2\nkeyspace ks dc1=1\n")
	f.Add("node\tdc\track\ttokens\nA\tdc1\tr1\t10,50\n")
	f.Add("Datacenter: dc1\n==========\nAddress  Rack  Status State  Load  Owns  Token\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := NewCluster()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Parse(FormatAuto, text, AllowPartial); err != nil {
			return
		}
		doc, err := c.Format()
		if err != nil {
			t.Fatal(err)
		}
		c2, _ := NewCluster()
		defer c2.Close()
		if _, err := c2.Parse(FormatTopology, doc, 0); err != nil && c.Flags()&ClusterPartial == 0 {
			t.Fatalf("the formatted cluster does not parse back: %v\n%s", err, doc)
		}
	})
}

// FuzzRing builds a small ring from fuzzed tokens and checks the routing answers against
// the plain model.
func FuzzRing(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, int64(42))
	f.Fuzz(func(t *testing.T, raw []byte, probe int64) {
		topo, _ := NewTopology()
		defer topo.Close()
		for n := 0; len(raw) >= 8 && n < 8; n++ {
			tok := int64(binary.LittleEndian.Uint64(raw))
			raw = raw[8:]
			_ = topo.AddNode(string(rune('A'+n)), "dc1", string(rune('a'+n%3)), []int64{tok})
		}
		ring, err := topo.Build()
		if err != nil {
			if !errors.Is(err, ErrEmpty) {
				t.Fatal(err)
			}
			return
		}
		defer ring.Close()
		toks, _ := ring.Tokens()
		owners, _ := ring.TokenNodes()
		rg, err := ring.RangeOf(probe)
		if err != nil {
			t.Fatal(err)
		}
		want := modelRange(toks, probe)
		if rg.Index != want || uint32(rg.Owner) != owners[want] {
			t.Fatalf("range of %d: %+v, model index %d", probe, rg, want)
		}
	})
}
