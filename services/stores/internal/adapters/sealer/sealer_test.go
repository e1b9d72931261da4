package sealer

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"testing"
)

func newKey(t *testing.T) string {
	t.Helper()
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(k)
}

func TestSealOpen(t *testing.T) {
	s, err := New(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Seal("shpat_secret")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Seal("shpat_secret")
	if bytes.Equal(a, b) {
		t.Fatal("two seals of the same token are equal: the nonce is not fresh")
	}
	if bytes.Contains(a, []byte("shpat_secret")) {
		t.Fatal("the sealed value contains the token")
	}
	got, err := s.Open(a)
	if err != nil || got != "shpat_secret" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	a[len(a)-1] ^= 1
	if _, err := s.Open(a); err == nil {
		t.Fatal("an altered value opened")
	}
	other, _ := New(newKey(t))
	if _, err := other.Open(b); err == nil {
		t.Fatal("a value sealed with another key opened")
	}
	if _, err := s.Open([]byte{1, 2}); err == nil {
		t.Fatal("a truncated value opened")
	}
}

func TestNewRefusesBadKeys(t *testing.T) {
	for _, k := range []string{"", "not base64!", base64.StdEncoding.EncodeToString([]byte("short"))} {
		if _, err := New(k); err == nil {
			t.Errorf("New(%q) accepted a bad key", k)
		}
	}
}
