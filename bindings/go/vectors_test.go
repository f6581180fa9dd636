// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const dataDir = "../../tests/data"

// readTSV returns the rows of a golden-vector file (header checked, then dropped).
func readTSV(t testing.TB, name string, header string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, name))
	if err != nil {
		t.Fatalf("golden vectors: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var rows [][]string
	first := true
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") { // provenance comments
			continue
		}
		if first {
			if line != header {
				t.Fatalf("%s: header %q, want %q", name, line, header)
			}
			first = false
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func mustInt(t testing.TB, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("bad integer %q: %v", s, err)
	}
	return v
}

func TestTokenVectors(t *testing.T) {
	rows := readTSV(t, "murmur3_tokens.tsv", "key_hex\ttoken")
	batch := NewKeyBatch(len(rows), 0)
	want := make([]int64, len(rows))
	for i, r := range rows {
		key := mustHex(t, r[0])
		want[i] = mustInt(t, r[1])
		if got := Token(key); got != want[i] {
			t.Errorf("row %d: Token(%s) = %d, want %d", i+2, r[0], got, want[i])
		}
		if got := TokenString(string(key)); got != want[i] {
			t.Errorf("row %d: TokenString = %d, want %d", i+2, got, want[i])
		}
		batch.Add(key)
	}
	got := batch.Tokens()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: batched token %d, want %d", i+2, got[i], want[i])
		}
	}
	// Tokens(...) packs for the caller: the same answers.
	keys := make([][]byte, len(rows))
	for i := range rows {
		keys[i] = batch.Key(i)
	}
	for i, tok := range Tokens(keys...) {
		if tok != want[i] {
			t.Fatalf("row %d: Tokens() %d, want %d", i+2, tok, want[i])
		}
	}
	if len(rows) != 2083 {
		t.Errorf("%d rows, the vectors have 2083", len(rows))
	}
}

func TestTokenEdges(t *testing.T) {
	if Token(nil) != MinToken || Token([]byte{}) != MinToken || TokenString("") != MinToken {
		t.Fatal("the empty key must give the minimum-token sentinel")
	}
	h1, _ := Murmur3Cassandra([]byte("abc"), 0)
	if tok := Token([]byte("abc")); h1 != tok {
		t.Fatalf("Murmur3Cassandra h1 %d differs from the token %d of a non-empty key", h1, tok)
	}
	h1b, _ := Murmur3Cassandra([]byte("abc"), 1)
	if h1b == h1 {
		t.Fatal("the seed must change the hash")
	}
	// Empty batches and batches of empty keys.
	var b KeyBatch
	if got := b.Tokens(); len(got) != 0 {
		t.Fatalf("empty batch gave %v", got)
	}
	b.Add(nil)
	b.AddString("")
	for _, tok := range b.Tokens() {
		if tok != MinToken {
			t.Fatalf("empty key in a batch gave %d", tok)
		}
	}
}

func TestCQLValueVectors(t *testing.T) {
	rows := readTSV(t, "murmur3_cql_values.tsv", "cql_type\tvalue_string\tkey_hex\ttoken")
	for i, r := range rows {
		typ, err := ParseCQLType(r[0])
		if err != nil {
			t.Errorf("row %d: ParseCQLType(%q): %v", i+2, r[0], err)
			continue
		}
		key, err := ParseValue(typ, r[1])
		if err != nil {
			t.Errorf("row %d: ParseValue(%s, %q): %v", i+2, r[0], r[1], err)
			continue
		}
		if hex.EncodeToString(key) != r[2] {
			t.Errorf("row %d: ParseValue(%s, %q) = %x, want %s", i+2, r[0], r[1], key, r[2])
		}
		if tok := Token(key); tok != mustInt(t, r[3]) {
			t.Errorf("row %d: token %d, want %s", i+2, tok, r[3])
		}
		// One column through ParseKey is the value itself.
		k2, err := ParseKey([]CQLType{typ}, r[1])
		if err != nil || hex.EncodeToString(k2) != r[2] {
			t.Errorf("row %d: ParseKey = %x, %v; want %s", i+2, k2, err, r[2])
		}
		// The typed encoders agree with the parser wherever they apply.
		checkEncoder(t, i+2, typ, r[1], r[2])
	}
}

func checkEncoder(t *testing.T, row int, typ CQLType, text, wantHex string) {
	if text == "" {
		return
	}
	var got []byte
	switch typ {
	case CQLInt:
		v, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			return
		}
		got = EncodeInt(int32(v))
	case CQLBigint:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return
		}
		got = EncodeBigint(v)
	case CQLSmallint:
		v, err := strconv.ParseInt(text, 10, 16)
		if err != nil {
			return
		}
		got = EncodeSmallint(int16(v))
	case CQLTinyint:
		v, err := strconv.ParseInt(text, 10, 8)
		if err != nil {
			return
		}
		got = EncodeTinyint(int8(v))
	case CQLBoolean:
		switch strings.ToLower(text) {
		case "true":
			got = EncodeBoolean(true)
		case "false":
			got = EncodeBoolean(false)
		default:
			return
		}
	case CQLUUID, CQLTimeuuid:
		h := strings.ReplaceAll(text, "-", "")
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 16 {
			return
		}
		var u [16]byte
		copy(u[:], b)
		got = EncodeUUID(u)
	case CQLTimestamp:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return
		}
		got = EncodeTimestampMillis(v)
	default:
		return
	}
	if hex.EncodeToString(got) != wantHex {
		t.Errorf("row %d: encoder for %s(%s) = %x, want %s", row, typ, text, got, wantHex)
	}
}

func TestCompositeVectors(t *testing.T) {
	rows := readTSV(t, "murmur3_composite.tsv", "cql_types\tvalue_string\tcomponents_hex\tkey_hex\ttoken")
	for i, r := range rows {
		var types []CQLType
		for _, name := range strings.Split(r[0], ",") {
			typ, err := ParseCQLType(name)
			if err != nil {
				t.Fatalf("row %d: %v", i+2, err)
			}
			types = append(types, typ)
		}
		var comps [][]byte
		for _, h := range strings.Split(r[2], ",") {
			comps = append(comps, mustHex(t, h))
		}
		want := r[3]
		key, err := Composite(comps...)
		if err != nil || hex.EncodeToString(key) != want {
			t.Errorf("row %d: Composite = %x, %v; want %s", i+2, key, err, want)
		}
		parsed, err := ParseKey(types, r[1])
		if err != nil || hex.EncodeToString(parsed) != want {
			t.Errorf("row %d: ParseKey(%s, %q) = %x, %v; want %s", i+2, r[0], r[1], parsed, err, want)
		}
		if tok := Token(mustHex(t, want)); tok != mustInt(t, r[4]) {
			t.Errorf("row %d: token %d, want %s", i+2, tok, r[4])
		}
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	prefix := []byte("pre")
	out, err := AppendValue(prefix, CQLInt, "42")
	if err != nil || hex.EncodeToString(out) != hex.EncodeToString([]byte("pre"))+"0000002a" {
		t.Fatalf("AppendValue = %x, %v", out, err)
	}
	// A long value takes the measuring path.
	long := strings.Repeat("ab", 300)
	out, err = AppendValue([]byte{1}, CQLBlob, long)
	if err != nil || len(out) != 301 || out[0] != 1 || out[1] != 0xab {
		t.Fatalf("AppendValue(blob of 300 bytes) = %d bytes, %v", len(out), err)
	}
	comp, err := Composite([]byte(strings.Repeat("x", 100)), nil)
	if err != nil || len(comp) != 3+100+3 {
		t.Fatalf("Composite of 100+0 bytes = %d bytes, %v", len(comp), err)
	}
}

// topologyFile builds a Topology from replicas_NAME.topology.tsv.
func topologyFile(t testing.TB, name string) *Topology {
	t.Helper()
	rows := readTSV(t, "replicas_"+name+".topology.tsv", "node\tdc\track\ttokens")
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		var toks []int64
		for _, s := range strings.Split(r[3], ",") {
			toks = append(toks, mustInt(t, s))
		}
		if err := topo.AddNode(r[0], r[1], r[2], toks); err != nil {
			t.Fatalf("%s: AddNode(%s): %v", name, r[0], err)
		}
	}
	return topo
}

// replicationFor turns a vector's strategy/options columns into a description, both
// through the parser and through the builders, and checks they agree.
func replicationFor(t testing.TB, strategy, options string) *Replication {
	t.Helper()
	var text string
	switch strategy {
	case "SimpleStrategy":
		text = "SimpleStrategy:" + options
	case "NetworkTopologyStrategy":
		text = "NetworkTopologyStrategy:" + options
	default:
		t.Fatalf("unknown strategy %q", strategy)
	}
	parsed, err := ParseReplication(text)
	if err != nil {
		t.Fatalf("ParseReplication(%q): %v", text, err)
	}
	var built *Replication
	if strategy == "SimpleStrategy" {
		rf, tr := splitRF(t, options)
		built, err = NewSimpleStrategy(rf, tr)
	} else {
		built, err = NewNetworkTopologyStrategy(nil)
		for _, kv := range strings.Split(options, ",") {
			dc, f, _ := strings.Cut(kv, "=")
			rf, tr := splitRF(t, f)
			if err == nil {
				err = built.SetDC(dc, rf, tr)
			}
		}
	}
	if err != nil {
		t.Fatalf("building %s %s: %v", strategy, options, err)
	}
	defer built.Close()
	if parsed.String() != built.String() {
		t.Fatalf("parsed %q formats as %s, built as %s", text, parsed, built)
	}
	if parsed.Strategy().String() != strategy {
		t.Fatalf("strategy %v, want %s", parsed.Strategy(), strategy)
	}
	return parsed
}

func splitRF(t testing.TB, s string) (rf, transient int) {
	full, tr, has := strings.Cut(s, "/")
	rf = int(mustInt(t, full))
	if has {
		transient = int(mustInt(t, tr))
	}
	return
}

var replicaTopologies = []string{"toy", "edges", "12n_3racks_vn16", "2dc_3r_2r_vn8", "2dc_single_token",
	"dc_short_of_rf", "2racks_rf3_single", "2racks_rf3_vn8", "lopsided_racks", "transient_single_token"}

func TestReplicaVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(dataDir, "replicas_*.topology.tsv"))
	if len(files) != len(replicaTopologies) {
		t.Errorf("%d topology files, the test knows %d: add the new ones to replicaTopologies", len(files), len(replicaTopologies))
	}
	total := 0
	for _, name := range replicaTopologies {
		t.Run(name, func(t *testing.T) { total += checkReplicaFile(t, name) })
	}
	t.Logf("%d replica rows checked", total)
}

func checkReplicaFile(t *testing.T, name string) int {
	topo := topologyFile(t, name)
	defer topo.Close()
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	rows := readTSV(t, "replicas_"+name+".tsv", "strategy\toptions\ttoken\trange_start\trange_end\towner\treplicas")
	var placement *Placement
	key := ""
	var names []string
	var nodes []uint32
	batchTokens := []int64{}
	batchWant := [][]string{}
	flush := func() {
		// The same rows through the batched path: RouteTokens, then shared sets.
		ids := make([]uint32, len(batchTokens))
		if err := placement.RouteTokens(ids, batchTokens); err != nil {
			t.Fatal(err)
		}
		for i, id := range ids {
			set, err := placement.Set(id)
			if err != nil {
				t.Fatal(err)
			}
			if got := formatReplicas(placement, set.Nodes, set.Transient); got != strings.Join(batchWant[i], ",") {
				t.Errorf("%s %d: batched replicas %s, want %s", key, batchTokens[i], got, strings.Join(batchWant[i], ","))
			}
		}
		batchTokens, batchWant = batchTokens[:0], batchWant[:0]
	}
	for i, r := range rows {
		if k := r[0] + " " + r[1]; k != key {
			if placement != nil {
				flush()
				placement.Close()
			}
			key = k
			repl := replicationFor(t, r[0], r[1])
			placement, err = BuildPlacement(ring, repl, AllowUnknownDC)
			repl.Close()
			if err != nil {
				t.Fatalf("%s: BuildPlacement: %v", key, err)
			}
		}
		tok := mustInt(t, r[2])
		rg, err := ring.RangeOf(tok)
		if err != nil {
			t.Fatal(err)
		}
		if rg.Start != mustInt(t, r[3]) || rg.End != mustInt(t, r[4]) {
			t.Errorf("row %d (%s, token %d): range (%d, %d], want (%s, %s]", i+2, key, tok, rg.Start, rg.End, r[3], r[4])
		}
		owner, err := ring.Owner(tok)
		if err != nil || ring.NodeName(owner) != r[5] || ring.NodeName(rg.Owner) != r[5] {
			t.Errorf("row %d (%s, token %d): owner %s, want %s (%v)", i+2, key, tok, ring.NodeName(owner), r[5], err)
		}
		rep, err := placement.Replicas(tok)
		if err != nil {
			t.Fatal(err)
		}
		if got := formatReplicas(placement, rep.Nodes, rep.Transient); got != r[6] {
			t.Errorf("row %d (%s, token %d): replicas %s, want %s", i+2, key, tok, got, r[6])
		}
		// The allocation-free forms agree.
		nodes, err = placement.AppendReplicas(nodes[:0], tok)
		if err != nil || len(nodes) != len(rep.Nodes) {
			t.Fatalf("AppendReplicas: %v, %v", nodes, err)
		}
		names, _ = placement.AppendReplicaNames(names[:0], tok)
		if got := strings.Join(names, ","); got != strings.ReplaceAll(r[6], "~", "") {
			t.Errorf("row %d: AppendReplicaNames %s, want %s", i+2, got, r[6])
		}
		batchTokens = append(batchTokens, tok)
		batchWant = append(batchWant, strings.Split(r[6], ","))
		// Rows at a range end are describering lines: check the range form too.
		if tok == rg.End {
			rr, err := placement.RangeReplicas(rg.Index)
			if err != nil || formatReplicas(placement, rr.Nodes, rr.Transient) != r[6] {
				t.Errorf("row %d: RangeReplicas(%d) = %v, %v", i+2, rg.Index, rr, err)
			}
		}
	}
	flush()
	placement.Close()
	return len(rows)
}

func formatReplicas(p *Placement, nodes []uint32, transient []bool) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = p.NodeName(int(n))
		if transient != nil && transient[i] {
			parts[i] += "~"
		}
	}
	return strings.Join(parts, ",")
}

func TestOwnershipVectors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(dataDir, "ownership_*.tsv"))
	if len(files) != len(replicaTopologies) {
		t.Errorf("%d ownership files for %d topologies", len(files), len(replicaTopologies))
	}
	for _, name := range replicaTopologies {
		t.Run(name, func(t *testing.T) {
			topo := topologyFile(t, name)
			defer topo.Close()
			ring, err := topo.Build()
			if err != nil {
				t.Fatal(err)
			}
			defer ring.Close()
			rows := readTSV(t, "ownership_"+name+".tsv",
				"strategy\toptions\tnode\tprimary_float\teffective_float\tprimary_f32_bits\teffective_f32_bits\tprimary_exact_width")
			cache := map[string][]Ownership{}
			for i, r := range rows {
				key := r[0] + " " + r[1]
				own, ok := cache[key]
				if !ok {
					repl := replicationFor(t, r[0], r[1])
					p, err := BuildPlacement(ring, repl, AllowUnknownDC)
					repl.Close()
					if err != nil {
						t.Fatal(err)
					}
					if own, err = p.Ownership(); err != nil {
						t.Fatal(err)
					}
					p.Close()
					cache[key] = own
				}
				idx, err := ring.FindNode(r[2])
				if err != nil {
					t.Fatal(err)
				}
				o := own[idx]
				if o.Name != r[2] || o.PrimaryWidth.String() != r[7] {
					t.Errorf("row %d (%s, %s): primary width %s, want %s", i+2, key, r[2], o.PrimaryWidth, r[7])
				}
				if bits := fmt.Sprintf("%08x", math.Float32bits(o.NodetoolPrimary)); bits != r[5] {
					t.Errorf("row %d (%s, %s): nodetool primary bits %s, want %s", i+2, key, r[2], bits, r[5])
				}
				if bits := fmt.Sprintf("%08x", math.Float32bits(o.NodetoolEffective)); bits != r[6] {
					t.Errorf("row %d (%s, %s): nodetool effective bits %s, want %s", i+2, key, r[2], bits, r[6])
				}
				exact, _ := new(big.Float).SetInt(o.PrimaryWidth.Big()).Float64()
				if o.Primary != exact/math.Exp2(64) {
					t.Errorf("row %d: primary %v, want width/2^64 = %v", i+2, o.Primary, exact/math.Exp2(64))
				}
			}
			// Primary widths sum to exactly 2^64.
			for key, own := range cache {
				var sum U128
				for _, o := range own {
					lo := sum.Lo + o.PrimaryWidth.Lo
					carry := uint64(0)
					if lo < sum.Lo {
						carry = 1
					}
					sum = U128{Hi: sum.Hi + o.PrimaryWidth.Hi + carry, Lo: lo}
				}
				if sum != (U128{Hi: 1}) {
					t.Errorf("%s: primary widths sum to %s, want 2^64", key, sum)
				}
			}
		})
	}
}

// The worked example of the issue: scaled onto the whole ring, A 35 %, B 35 %, C 30 %.
func TestToyScaled(t *testing.T) {
	scale := func(p int64) int64 { // -2^63 + p * 2^64 / 100, exactly
		v := new(U128).Big()
		v.SetInt64(p)
		v.Lsh(v, 64)
		v.Quo(v, bigInt(100))
		v.Sub(v, new(U128).Big().Lsh(bigInt(1), 63))
		return v.Int64()
	}
	topo, _ := NewTopology()
	defer topo.Close()
	for _, n := range []struct {
		name string
		toks []int64
	}{{"A", []int64{10, 50}}, {"B", []int64{30, 80}}, {"C", []int64{65, 95}}} {
		if err := topo.AddNode(n.name, "dc1", "r1", []int64{scale(n.toks[0]), scale(n.toks[1])}); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	own, err := ring.Ownership(nil)
	if err != nil {
		t.Fatal(err)
	}
	full := new(U128).Big().Lsh(bigInt(1), 64)
	for i, pct := range []int64{35, 35, 30} {
		w := own[i].PrimaryWidth.Big()
		w.Mul(w, bigInt(100))
		want := new(U128).Big().Mul(full, bigInt(pct))
		// Each scaled position is floored, so a share may be off by < 100/2^64 of 1 %.
		diff := w.Sub(w, want)
		if diff.CmpAbs(bigInt(200)) > 0 {
			t.Errorf("node %s: primary width %s is not %d %% of the ring", own[i].Name, own[i].PrimaryWidth, pct)
		}
	}
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }
