// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// textCase is one partitioner of the tables of the text-form calls.
type textCase struct {
	p          Partitioner
	a          []string // node A's tokens, ascending and canonical
	b          string   // node B's token, between A's
	moved      string   // a token above A's
	keyTest    string   // the token of "test"
	loose      string   // a non-canonical spelling of b
	bad        string   // not a token of the partitioner
	arithmetic bool     // even and seeded layouts and allocation exist
}

var textCases = []textCase{
	{PartitionerMurmur3, []string{"-4611686018427387904", "4611686018427387904"}, "0", "9223372036854775807",
		"-6017608668500074083", "+000", "9223372036854775808", true},
	{PartitionerRandom, []string{"42535295865117307932921825928971026432", "127605887595351923798765477786913079296"},
		"85070591730234615865843651857942052864", "170141183460469231731687303715884105728",
		"12707736894140473154801792860916528374", "+085070591730234615865843651857942052864",
		"170141183460469231731687303715884105729", true},
	{PartitionerByteOrdered, []string{"40", "c0"}, "80", "ff", "74657374", "80", "8x", false},
}

func (c textCase) topology(t *testing.T) *Topology {
	t.Helper()
	topo, err := NewPartitionedTopology(c.p)
	if err != nil {
		t.Fatal(err)
	}
	if err := topo.AddNodeText("A", "dc1", "r1", []string{c.a[1], c.a[0]}); err != nil {
		t.Fatal(c.p, err)
	}
	if err := topo.AddNodeText("B", "dc1", "r1", []string{c.loose}); err != nil {
		t.Fatal(c.p, err)
	}
	return topo
}

func isParseOrRange(err error) bool { return errors.Is(err, ErrParse) || errors.Is(err, ErrRange) }

func TestTextTopologyAndRing(t *testing.T) {
	for _, c := range textCases {
		topo := c.topology(t)
		defer topo.Close()
		if got, err := topo.NodeTokensText(0); err != nil || !reflect.DeepEqual(got, c.a) {
			t.Fatal(c.p, got, err)
		}
		if got, err := topo.NodeTokensText(1); err != nil || !reflect.DeepEqual(got, []string{c.b}) {
			t.Fatal(c.p, got, err)
		}
		err := topo.AddNodeText("C", "dc1", "r1", []string{c.b, c.bad})
		if !isParseOrRange(err) || !strings.Contains(err.Error(), "token 2 of 2") {
			t.Fatal(c.p, err)
		}
		if err := topo.AddNodeText("C", "dc1", "r1", []string{c.b}); !errors.Is(err, ErrExists) {
			t.Fatal(c.p, err)
		}
		if err := topo.AddNodeText("C", "dc1", "r1", []string{"1\x002"}); !errors.Is(err, ErrInvalid) {
			t.Fatal(c.p, err)
		}
		if topo.NodeCount() != 2 {
			t.Fatal(c.p, topo.NodeCount())
		}
		ring, err := topo.Build()
		if err != nil {
			t.Fatal(err)
		}
		defer ring.Close()
		if got, err := ring.TokenTexts(); err != nil || !reflect.DeepEqual(got, []string{c.a[0], c.b, c.a[1]}) {
			t.Fatal(c.p, got, err)
		}
		if s, err := ring.TokenText(1); err != nil || s != c.b {
			t.Fatal(c.p, s, err)
		}
		if _, err := ring.TokenText(3); !errors.Is(err, ErrRange) {
			t.Fatal(c.p, err)
		}
		if i, err := ring.SearchText(c.b); err != nil || i != 1 {
			t.Fatal(c.p, i, err)
		}
		if i, err := ring.SearchText(c.moved); err != nil || i != 0 { // wraps
			t.Fatal(c.p, i, err)
		}
		if _, err := ring.SearchText(c.bad); !isParseOrRange(err) {
			t.Fatal(c.p, err)
		}
		if err := topo.SetTokensText("B", []string{c.moved}); err != nil {
			t.Fatal(c.p, err)
		}
		if got, _ := topo.NodeTokensText(1); !reflect.DeepEqual(got, []string{c.moved}) {
			t.Fatal(c.p, got)
		}
		if err := topo.SetTokensText("Z", []string{c.b}); !errors.Is(err, ErrNotFound) {
			t.Fatal(c.p, err)
		}
	}
}

func TestTextKeysNormalizeCompare(t *testing.T) {
	for _, c := range textCases {
		if s, err := KeyTokenText(c.p, []byte("test")); err != nil || s != c.keyTest {
			t.Fatal(c.p, s, err)
		}
		if s, err := NormalizeToken(c.p, c.loose); err != nil || s != c.b {
			t.Fatal(c.p, s, err)
		}
		if _, err := NormalizeToken(c.p, c.bad); !isParseOrRange(err) || len(err.Error()) < 20 {
			t.Fatal(c.p, err)
		}
		for _, w := range []struct {
			a, b string
			want int
		}{{c.a[0], c.b, -1}, {c.b, c.loose, 0}, {c.a[1], c.b, 1}} {
			if got, err := CompareTokens(c.p, w.a, w.b); err != nil || got != w.want {
				t.Fatal(c.p, w, got, err)
			}
		}
		if _, err := CompareTokens(c.p, c.bad, c.b); !isParseOrRange(err) {
			t.Fatal(c.p, err)
		}
	}
	if s, _ := KeyTokenText(PartitionerRandom, nil); s != "-1" {
		t.Fatal(s)
	}
	if s, _ := KeyTokenText(PartitionerByteOrdered, nil); s != "" {
		t.Fatal(s)
	}
	if s, _ := NormalizeToken(PartitionerByteOrdered, "ABC"); s != "0abc" {
		t.Fatal(s)
	}
	if s, _ := KeyTokenText(PartitionerMurmur3, []byte("test")); s != strconv.FormatInt(Token([]byte("test")), 10) {
		t.Fatal(s)
	}
}

func TestTextMovement(t *testing.T) {
	repl, err := NewSimpleStrategy(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	for _, c := range textCases {
		topo := c.topology(t)
		defer topo.Close()
		m, err := topo.SimulateJoinText(repl, "C", "dc1", "r1", []string{c.moved}, [][]byte{[]byte("test"), []byte("other")})
		if err != nil {
			t.Fatal(c.p, err)
		}
		if len(m.Ranges) != 1 || m.Ranges[0].StartText != c.a[1] || m.Ranges[0].EndText != c.moved {
			t.Fatal(c.p, m.Ranges)
		}
		other, _ := KeyTokenText(c.p, []byte("other"))
		if len(m.Samples) != 2 || m.Samples[0].TokenText != c.keyTest || m.Samples[1].TokenText != other {
			t.Fatal(c.p, m.Samples)
		}
		m, err = topo.SimulateMoveText(repl, "B", []string{c.moved}, nil)
		if err != nil || len(m.Ranges) != 2 || len(m.Samples) != 0 {
			t.Fatal(c.p, m, err)
		}
		if _, err := topo.SimulateMoveText(repl, "B", []string{c.bad}, nil); !isParseOrRange(err) {
			t.Fatal(c.p, err)
		}
		if _, err := topo.SimulateJoinText(repl, "A", "dc1", "r1", []string{c.moved}, nil); !errors.Is(err, ErrExists) {
			t.Fatal(c.p, err)
		}
	}
}

func TestTextLayoutsAndAllocation(t *testing.T) {
	for _, c := range textCases {
		topo := c.topology(t)
		defer topo.Close()
		even, errEven := EvenTokensText(c.p, 4, 0, 1)
		seeded, errSeeded := SeededTokensText(c.p, 4, 7, "n1", nil, 0)
		cass, errCass := topo.AllocateAsCassandraText(4, "10.0.0.9", "dc1", "r1", nil, 1, nil, Cassandra50, 0)
		join, errJoin := topo.AllocateJoinText(4, "10.0.0.9", "dc1", "r1", nil, 1, Cassandra50, false, Limits{})
		if !c.arithmetic {
			for _, err := range []error{errEven, errSeeded, errCass, errJoin} {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatal(c.p, err)
				}
			}
			continue
		}
		for _, err := range []error{errEven, errSeeded, errCass, errJoin} {
			if err != nil {
				t.Fatal(c.p, err)
			}
		}
		for i := 1; i < len(even); i++ {
			if cmp, _ := CompareTokens(c.p, even[i-1], even[i]); cmp != -1 {
				t.Fatal(c.p, even)
			}
		}
		if len(even) != 4 || len(seeded) != 4 || !reflect.DeepEqual(join, cass) || len(cass) != 4 {
			t.Fatal(c.p, even, seeded, cass, join)
		}
		// the typed forms are these calls converted
		switch c.p {
		case PartitionerMurmur3:
			typed, _ := EvenTokens(4, 0, 1)
			if !reflect.DeepEqual(int64Texts(typed), even) {
				t.Fatal(typed, even)
			}
			st, _ := SeededTokens(4, 7, "n1", nil, 0)
			if !reflect.DeepEqual(int64Texts(st), seeded) {
				t.Fatal(st, seeded)
			}
		case PartitionerRandom:
			typed, _ := EvenTokens128(4, 0, 1)
			if !reflect.DeepEqual(token128Texts(typed), even) {
				t.Fatal(typed, even)
			}
			st, _ := SeededTokens128(4, 7, "n1", nil, 0)
			if !reflect.DeepEqual(token128Texts(st), seeded) {
				t.Fatal(st, seeded)
			}
		}
	}
	first := "42535295865117307932921825928971026432"
	topo, _ := NewPartitionedTopology(PartitionerRandom)
	defer topo.Close()
	got, err := topo.AllocateAsCassandraText(2, "10.0.0.1", "dc1", "r1", nil, 1, &first, Cassandra50, 0)
	if err != nil || len(got) != 2 {
		t.Fatal(got, err)
	}
	bad := "x"
	if _, err := topo.AllocateAsCassandraText(2, "10.0.0.1", "dc1", "r1", nil, 1, &bad, Cassandra50, 0); !errors.Is(err, ErrParse) {
		t.Fatal(err)
	}
}

// The typed functions of one partitioner refuse a topology or ring of another (the text
// calls would read "7" as anyone's token).
func TestTypedCallsKeepTheirPartitioner(t *testing.T) {
	m3, _ := NewTopology()
	defer m3.Close()
	if err := m3.AddNode128("a", "dc1", "r1", []Token128{{Lo: 7}}); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if err := m3.AddNodeBytes("a", "dc1", "r1", [][]byte{{7}}); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if _, err := m3.AllocateJoin128(4, "a", "dc1", "r1", nil, 1, Cassandra50); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if err := m3.AddNode("a", "dc1", "r1", []int64{7}); err != nil {
		t.Fatal(err)
	}
	ring, _ := m3.Build()
	defer ring.Close()
	if _, err := ring.Token128(0); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if _, err := ring.TokenBytes(0); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if s, err := ring.TokenText(0); err != nil || s != "7" {
		t.Fatal(s, err)
	}
}
