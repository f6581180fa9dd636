// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"math/big"
	"testing"
	"unsafe"
)

// referenceRandomToken is Cassandra's getToken from the standard library's MD5:
// abs(new BigInteger(md5(key))), -1 for the empty key.
func referenceRandomToken(key []byte) *big.Int {
	if len(key) == 0 {
		return big.NewInt(-1)
	}
	d := md5.Sum(key)
	v := new(big.Int).SetBytes(d[:])
	if d[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return v.Abs(v)
}

func TestPartitionerVectors(t *testing.T) {
	rows := readTSV(t, "partitioner_vectors.tsv", "key_hex\trandom_token\tbyte_ordered_token")
	if len(rows) < 5000 {
		t.Fatalf("%d rows", len(rows))
	}
	b := NewKeyBatch(len(rows), 0)
	for i, r := range rows {
		key, err := hex.DecodeString(r[0])
		if err != nil {
			t.Fatal(err)
		}
		tok := RandomToken(key)
		if tok.String() != r[1] {
			t.Fatalf("row %d: %s, Cassandra %s", i, tok, r[1])
		}
		if tok.BigInt().Cmp(referenceRandomToken(key)) != 0 {
			t.Fatalf("row %d: differs from crypto/md5", i)
		}
		back, err := ParseToken128(r[1])
		if err != nil || back != tok {
			t.Fatalf("row %d: parse %q: %v %v", i, r[1], back, err)
		}
		if FormatByteToken(ByteOrderedToken(key)) != r[2] {
			t.Fatalf("row %d: byte token %s, Cassandra %s", i, FormatByteToken(key), r[2])
		}
		pb, err := ParseByteToken(r[2])
		if err != nil || !bytes.Equal(pb, key) {
			t.Fatalf("row %d: parse byte token %q: %x %v", i, r[2], pb, err)
		}
		b.Add(key)
	}
	batch := b.RandomTokens()
	for i, r := range rows {
		if batch[i].String() != r[1] {
			t.Fatalf("batch row %d: %s, Cassandra %s", i, batch[i], r[1])
		}
	}
}

func TestPartitionerDriverCases(t *testing.T) {
	for _, c := range []struct{ key, want, from string }{
		{"123", "42767516990368493138776584305024125808", "python-driver test_metadata.py MD5TokensTest"},
		{"9223372036854775807", "28528976619278518853815276204542453639", "python-driver test_metadata.py MD5TokensTest"},
		{"test", "12707736894140473154801792860916528374", "gocql token_test.go TestRandomPartitionerMatchesReference"},
	} {
		if got := RandomToken([]byte(c.key)).String(); got != c.want {
			t.Errorf("%s: %q gives %s, want %s", c.from, c.key, got, c.want)
		}
	}
	// gocql TestRandomToken and TestOrderedToken; python-driver BytesTokensTest.
	if (Token128{0, 42}).Cmp(Token128{0, 42}) != 0 || (Token128{0, 41}).Cmp(Token128{0, 42}) != -1 {
		t.Error("RandomPartitioner order")
	}
	if CompareByteTokens([]byte{0, 0, 3}, []byte{0, 0, 4, 2}) != -1 || CompareByteTokens([]byte{0, 0, 4, 2}, []byte{0, 0, 4, 2}) != 0 {
		t.Error("ByteOrderedPartitioner order")
	}
	tok, err := ParseByteToken("0123456789abcdef")
	if err != nil || CompareByteTokens([]byte{1, 0x22}, tok) != -1 || CompareByteTokens([]byte{1, 0x24}, tok) != 1 {
		t.Error("python-driver test_comparison")
	}
}

func TestToken128Forms(t *testing.T) {
	if unsafe.Sizeof(Token128{}) != 16 {
		t.Fatal("Token128 must match tokenring_token128")
	}
	if !RandomToken(nil).IsMin() || RandomToken(nil).String() != "-1" || RandomToken(nil).BigInt().Int64() != -1 {
		t.Error("empty key")
	}
	if Token128Max.String() != "170141183460469231731687303715884105728" {
		t.Error(Token128Max.String())
	}
	if Token128Min.Cmp(Token128{}) != -1 || Token128Max.Cmp(Token128{1, 0}) != 1 {
		t.Error("order")
	}
	if s := (Token128{Token128MaxHi, 1}).String(); s[0] != '!' {
		t.Error("not a token:", s)
	}
	two127 := new(big.Int).Lsh(big.NewInt(1), 127)
	if v, err := Token128FromBig(two127); err != nil || v != Token128Max {
		t.Error(v, err)
	}
	if v, err := Token128FromBig(big.NewInt(-1)); err != nil || v != Token128Min {
		t.Error(v, err)
	}
	for _, bad := range []*big.Int{big.NewInt(-2), new(big.Int).Add(two127, big.NewInt(1)), new(big.Int).Lsh(big.NewInt(1), 200)} {
		if _, err := Token128FromBig(bad); !errors.Is(err, ErrRange) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	if _, err := ParseToken128("170141183460469231731687303715884105729"); !errors.Is(err, ErrRange) {
		t.Error(err)
	}
	var e *Error
	if _, err := ParseToken128("12x"); !errors.As(err, &e) || e.Column != 3 || !errors.Is(err, ErrParse) {
		t.Error(err)
	}
	if v, err := ParseByteToken("abc"); err != nil || !bytes.Equal(v, []byte{0x0a, 0xbc}) {
		t.Error(v, err)
	}
	if v, err := ParseByteToken(""); err != nil || len(v) != 0 || v == nil {
		t.Error(v, err)
	}
	if _, err := ParseByteToken("0x"); !errors.Is(err, ErrParse) {
		t.Error(err)
	}
	long := bytes.Repeat([]byte{0xab}, 100)
	if v, err := ParseByteToken(FormatByteToken(long)); err != nil || !bytes.Equal(v, long) {
		t.Error("long token", err)
	}
	if d := MD5([]byte("abc")); hex.EncodeToString(d[:]) != "900150983cd24fb0d6963f7d28e17f72" {
		t.Error("md5")
	}
	out := RandomTokens([]byte("a"), nil, []byte("abc"))
	if out[0] != RandomToken([]byte("a")) || !out[1].IsMin() || out[2] != RandomToken([]byte("abc")) {
		t.Error("batch")
	}
	if err := RandomTokensPacked(make([]Token128, 1), []byte("ab"), []uint64{0, 1, 2}); err == nil {
		t.Error("short output accepted")
	}
}
