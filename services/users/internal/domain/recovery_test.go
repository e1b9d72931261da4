package domain

import (
	"bytes"
	"crypto/rand"
	"regexp"
	"strings"
	"testing"
)

func TestNewRecoveryCodes(t *testing.T) {
	codes, err := NewRecoveryCodes(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if len(codes) != RecoveryCodeCount {
		t.Fatalf("%d codes, want %d", len(codes), RecoveryCodeCount)
	}
	shape := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$`)
	seen := map[string]bool{}
	for _, c := range codes {
		if !shape.MatchString(c) {
			t.Errorf("code %q is not XXXX-XXXX-XXXX-XXXX in Crockford base32", c)
		}
		if seen[c] {
			t.Errorf("code %q made twice", c)
		}
		seen[c] = true
		if norm, ok := NormalizeRecoveryCode(c); !ok || norm != strings.ReplaceAll(c, "-", "") {
			t.Errorf("own code %q normalises to %q, %v", c, norm, ok)
		}
	}
	again, _ := NewRecoveryCodes(rand.Reader)
	for _, c := range again {
		if seen[c] {
			t.Errorf("a second batch repeats %q", c)
		}
	}
}

func TestNewRecoveryCodesUsesEveryLetterEvenly(t *testing.T) {
	// Each byte 0..255 maps to one of 32 letters, each letter from 8 bytes.
	all := make([]byte, 0, 256*RecoveryCodeCount*recoveryCodeLength/256)
	for len(all) < RecoveryCodeCount*recoveryCodeLength {
		all = append(all, byte(len(all)))
	}
	codes, err := NewRecoveryCodes(bytes.NewReader(all))
	if err != nil {
		t.Fatal(err)
	}
	count := map[rune]int{}
	for _, c := range codes {
		for _, r := range strings.ReplaceAll(c, "-", "") {
			count[r]++
		}
	}
	if len(count) != 32 {
		t.Fatalf("%d letters used, want 32: %v", len(count), count)
	}
	for r, n := range count {
		if n != 5 {
			t.Errorf("letter %q used %d times of 160, want 5", r, n)
		}
	}
}

func TestNewRecoveryCodesFailsWithoutRandomness(t *testing.T) {
	if _, err := NewRecoveryCodes(bytes.NewReader(make([]byte, 20))); err == nil {
		t.Fatal("codes made from 20 random bytes")
	}
}

func TestNormalizeRecoveryCode(t *testing.T) {
	for in, want := range map[string]string{
		"ABCD-EFGH-JKMN-PQRS":  "ABCDEFGHJKMNPQRS",
		"abcd efgh jkmn pqrs":  "ABCDEFGHJKMNPQRS",
		"  abcdefghjkmnpqrs ":  "ABCDEFGHJKMNPQRS",
		"O0Il-0000-1111-2222":  "0011000011112222", // misread letters
		"ABCD-EFGH-JKMN-PQRS-": "ABCDEFGHJKMNPQRS",
	} {
		if got, ok := NormalizeRecoveryCode(in); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "ABCD-EFGH-JKMN-PQR", "ABCD-EFGH-JKMN-PQRST", "ABCD-EFGH-JKMN-PQRU",
		"ABCD_EFGH_JKMN_PQRS", "ÄBCD-EFGH-JKMN-PQRS", strings.Repeat("A", 100)} {
		if got, ok := NormalizeRecoveryCode(in); ok {
			t.Errorf("%q accepted as %q", in, got)
		}
	}
}

func TestHashRecoveryCode(t *testing.T) {
	a := HashRecoveryCode("u1", "ABCDEFGHJKMNPQRS")
	if len(a) != 32 {
		t.Fatalf("hash of %d bytes", len(a))
	}
	if !bytes.Equal(a, HashRecoveryCode("u1", "ABCDEFGHJKMNPQRS")) {
		t.Fatal("the same code hashes differently")
	}
	if bytes.Contains(a, []byte("ABCDEFGHJKMNPQRS")) {
		t.Fatal("the hash holds the code")
	}
	for _, other := range [][]byte{HashRecoveryCode("u2", "ABCDEFGHJKMNPQRS"), HashRecoveryCode("u1", "ABCDEFGHJKMNPQRT"),
		// The user id and code are separated: moving a character across does not collide.
		HashRecoveryCode("u1A", "BCDEFGHJKMNPQRS")} {
		if bytes.Equal(a, other) {
			t.Fatal("two different (user, code) pairs share a hash")
		}
	}
}

func TestMatchRecoveryCode(t *testing.T) {
	stored := [][]byte{HashRecoveryCode("u1", "A"), HashRecoveryCode("u1", "B"), HashRecoveryCode("u1", "C")}
	if i := MatchRecoveryCode(HashRecoveryCode("u1", "B"), stored); i != 1 {
		t.Fatalf("B matched %d", i)
	}
	if i := MatchRecoveryCode(HashRecoveryCode("u1", "D"), stored); i != -1 {
		t.Fatalf("D matched %d", i)
	}
	if i := MatchRecoveryCode(HashRecoveryCode("u2", "A"), stored); i != -1 {
		t.Fatalf("another user's A matched %d", i)
	}
	if i := MatchRecoveryCode(HashRecoveryCode("u1", "A"), nil); i != -1 {
		t.Fatalf("matched among no codes: %d", i)
	}
}

// TestRecoveryPausedPerClientAndPerAccount: a stranger must not lock the
// owner out. Five wrong codes from one client pause that client only; the owner trying
// from elsewhere is still let through, until failures from many clients
// together reach the account's bound.
func TestRecoveryPausedPerClientAndPerAccount(t *testing.T) {
	for _, tt := range []struct {
		fromClient, fromAll int
		paused              bool
	}{
		{0, 0, false},
		{4, 4, false},
		{5, 5, true},
		{0, 5, false}, // five from a stranger: the owner's client is not paused
		{0, RecoveryFailuresPerAccount - 1, false},
		{0, RecoveryFailuresPerAccount, true},
	} {
		if got := RecoveryPaused(tt.fromClient, tt.fromAll); got != tt.paused {
			t.Errorf("RecoveryPaused(%d, %d) = %v, want %v", tt.fromClient, tt.fromAll, got, tt.paused)
		}
	}
}
