package events_test

import (
	"errors"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"uplift.dev/platform/events"
)

func signer(t *testing.T, service string) *events.Signer {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := kp.Seed()
	s, err := events.NewSigner(service, seed)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTrustCheck: only an event signed by a service that may publish its
// subject, for that subject, id and payload, is believed.
func TestTrustCheck(t *testing.T) {
	t.Parallel()
	billing, users, stranger := signer(t, "billing"), signer(t, "users"), signer(t, "billing")
	trust, err := events.ParseTrust("billing=" + billing.PublicKey() + ", users=" + users.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	signed := func(s *events.Signer, subject, id string, data []byte) *nats.Msg {
		m := &nats.Msg{Subject: subject, Data: data}
		if err := s.Sign(m, id); err != nil {
			t.Fatal(err)
		}
		return m
	}
	good := signed(billing, events.SubjectBillingChanged, "id-1", []byte("pro"))
	tests := []struct {
		name        string
		subject, id string
		header      nats.Header
		data        []byte
		wantSender  string
	}{
		{"billing's own", events.SubjectBillingChanged, "id-1", good.Header, []byte("pro"), "billing"},
		{"unsigned", events.SubjectBillingChanged, "id-1", nats.Header{}, []byte("pro"), ""},
		{"users may not publish it", events.SubjectBillingChanged, "id-2",
			signed(users, events.SubjectBillingChanged, "id-2", []byte("pro")).Header, []byte("pro"), ""},
		{"a key that is not billing's", events.SubjectBillingChanged, "id-3",
			signed(stranger, events.SubjectBillingChanged, "id-3", []byte("pro")).Header, []byte("pro"), ""},
		{"payload changed", events.SubjectBillingChanged, "id-1", good.Header, []byte("max"), ""},
		{"replayed under a new id", events.SubjectBillingChanged, "id-9", good.Header, []byte("pro"), ""},
		{"moved to another subject", events.SubjectActedOnBehalf, "id-1", good.Header, []byte("pro"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := trust.Check(tt.subject, tt.id, tt.header, tt.data)
			if tt.wantSender == "" {
				if !errors.Is(err, events.ErrUntrustedSender) {
					t.Fatalf("believed (%q, %v)", got, err)
				}
				return
			}
			if err != nil || got != tt.wantSender {
				t.Fatalf("got %q, %v; want %s", got, err, tt.wantSender)
			}
		})
	}
	for _, bad := range []string{"", "billing", "billing=not-a-key", "=" + billing.PublicKey()} {
		if _, err := events.ParseTrust(bad); err == nil {
			t.Errorf("ParseTrust(%q) accepted", bad)
		}
	}
}
