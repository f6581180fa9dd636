// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"math"
	"math/rand"
	"testing"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// tokenring.Token (what Pick hashes with) is the library's tokenring_token, key by key: every length 0..300 (random
// bytes), every sign pattern of tails of 1..15 bytes, and keys of all-0x80 / all-0xff bytes.
// The reference is the C library through the binding's batch call (tokenring_tokens):
// the binding's scalar Token is this same port in Go since 1.2.
func TestKeyTokenIsTheLibrarys(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	check := func(k []byte) {
		t.Helper()
		if got, want := tokenring.Token(k), tokenring.Tokens(k)[0]; got != want {
			t.Fatalf("key %x (%d bytes): %d, the library %d", k, len(k), got, want)
		}
	}
	check(nil)
	check([]byte{})
	for n := 0; n <= 300; n++ {
		for r := 0; r < 20; r++ {
			k := make([]byte, n)
			rnd.Read(k)
			check(k)
		}
		for _, b := range []byte{0x00, 0x7f, 0x80, 0xff} {
			k := make([]byte, n)
			for i := range k {
				k[i] = b
			}
			check(k)
		}
	}
	for m := 1; m <= 15; m++ {
		for pat := 0; pat < 1<<m && pat < 4096; pat++ {
			k := make([]byte, 16+m)
			rnd.Read(k)
			for i := 0; i < m; i++ {
				k[16+i] &= 0x7f
				if pat&(1<<i) != 0 {
					k[16+i] |= 0x80
				}
			}
			check(k)
		}
	}
}

// searchRange is the library's tokenring_ring_search: at, just before and just after each
// ring token, and at the extremes.
func TestSearchRangeIsTheLibrarys(t *testing.T) {
	ring := buildRing(t, layout(5, 16, []string{"dc1"}, [][]string{{"r1", "r2", "r1"}}))
	defer ring.Close()
	toks, err := ring.Tokens()
	if err != nil {
		t.Fatal(err)
	}
	probe := []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1, 0}
	for _, x := range toks {
		probe = append(probe, x)
		if x > math.MinInt64 {
			probe = append(probe, x-1)
		}
		if x < math.MaxInt64 {
			probe = append(probe, x+1)
		}
	}
	for _, x := range probe {
		want, err := ring.Search(x)
		if err != nil {
			t.Fatal(err)
		}
		if got := searchRange(toks, x); got != want {
			t.Fatalf("token %d: range %d, the library %d", x, got, want)
		}
	}
}
