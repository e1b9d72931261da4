package events_test

import (
	"errors"
	"strings"
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

// TestReportUpdatedPerCategory: each category's ReportUpdated has its own
// subject, which only categories may publish; an id that is not one plain
// token is refused, so no id names another subject or a wildcard.
func TestReportUpdatedPerCategory(t *testing.T) {
	t.Parallel()
	const id = "0b9f6c1e-3f7d-4a55-9a43-6f0f1c2d3e4f"
	a, err := events.ReportUpdatedSubject(id)
	if err != nil || a != "uplift.categories.report_updated."+id {
		t.Fatalf("ReportUpdatedSubject(%q) = %q, %v", id, a, err)
	}
	b, _ := events.ReportUpdatedSubject("c2")
	for _, bad := range []string{"", "c1.x", "*", ">", "c1 x", "c1\tx", "c1\x00", "é", strings.Repeat("a", 65)} {
		if got, err := events.ReportUpdatedSubject(bad); !errors.Is(err, events.ErrBadSubjectToken) {
			t.Errorf("ReportUpdatedSubject(%q) = %q, %v; want refused", bad, got, err)
		}
	}

	categories, stores := signer(t, "categories"), signer(t, "stores")
	trust, err := events.ParseTrust("categories=" + categories.PublicKey() + ",stores=" + stores.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	sign := func(s *events.Signer, subject string) nats.Header {
		m := &nats.Msg{Subject: subject, Data: []byte("ev")}
		if err := s.Sign(m, "id-1"); err != nil {
			t.Fatal(err)
		}
		return m.Header
	}
	if got, err := trust.Check(a, "id-1", sign(categories, a), []byte("ev")); err != nil || got != "categories" {
		t.Fatalf("categories' own event: %q, %v", got, err)
	}
	for name, try := range map[string]struct {
		subject string
		header  nats.Header
	}{
		"signed by stores":                    {a, sign(stores, a)},
		"moved to another category's subject": {b, sign(categories, a)},
		"the old shared subject":              {"uplift.categories.report_updated", sign(categories, "uplift.categories.report_updated")},
		"a deeper subject":                    {a + ".x", sign(categories, a+".x")},
		"the wildcard itself":                 {events.SubjectReportUpdated, sign(categories, events.SubjectReportUpdated)},
		"an empty token":                      {"uplift.categories.report_updated.", sign(categories, "uplift.categories.report_updated.")},
	} {
		if _, err := trust.Check(try.subject, "id-1", try.header, []byte("ev")); !errors.Is(err, events.ErrUntrustedSender) {
			t.Errorf("%s: believed (%v)", name, err)
		}
	}
}
