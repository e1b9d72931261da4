package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
)

// published returns every event on subject in the test's stream, oldest
// first, for which keep (given the payload) is true.
func published[T proto.Message](t *testing.T, h harness, subject string, newT func() T, keep func(T) bool) []T {
	t.Helper()
	ctx := context.Background()
	cons, err := h.js.OrderedConsumer(ctx, events.StreamName, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	for n := info.NumPending; n > 0; n-- {
		m, err := cons.Next(jetstream.FetchMaxWait(2e9))
		if err != nil {
			t.Fatal(err)
		}
		v := newT()
		if err := proto.Unmarshal(m.Data(), v); err != nil {
			t.Fatal(err)
		}
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}

func digestRequests(t *testing.T, h harness, cat string) []*eventsv1.DigestRequested {
	return published(t, h, events.SubjectDigestRequested, func() *eventsv1.DigestRequested { return &eventsv1.DigestRequested{} },
		func(e *eventsv1.DigestRequested) bool { return e.GetCategoryId() == cat })
}

func categoryUpdates(t *testing.T, h harness, cat string) []*eventsv1.CategoryUpdated {
	return published(t, h, events.SubjectCategoryUpdated, func() *eventsv1.CategoryUpdated { return &eventsv1.CategoryUpdated{} },
		func(e *eventsv1.CategoryUpdated) bool { return e.GetCategoryId() == cat })
}

func TestAIDigestCarriesTheContentAndOnceAMinute(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, cat, tok := h.ownerUser(t)
	h.reviewed(t, cat, tok)
	ideas, err := h.client.ListRecentIdeas(as(tok), &categoriesv1.ListRecentIdeasRequest{CategoryId: cat})
	if err != nil || len(ideas.GetIdeas()) == 0 {
		t.Fatalf("ideas %v %v", ideas, err)
	}

	if _, err := h.client.SendAIEmailDigest(as(tok), &categoriesv1.SendAIEmailDigestRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	// Answered: the request is in the outbox (the queue) and reaches the stream.
	var got []*eventsv1.DigestRequested
	eventually(t, func() bool { got = digestRequests(t, h, cat); return len(got) == 1 })
	ev := got[0]
	if ev.GetOwnerUserId() != uid || ev.GetRequestedBy() != uid || ev.GetStoreName() != "Clay & Co" || ev.GetSiteUrl() != goodSite ||
		ev.GetOccurTime() == nil || len(ev.GetInsights()) != 1 || ev.GetInsights()[0].GetText() != "Your best sellers are gift sets." ||
		ev.GetInsights()[0].GetEvidence() != "/products.json" || len(ev.GetIdeas()) != len(ideas.GetIdeas()) ||
		ev.GetIdeas()[0].GetId() != ideas.GetIdeas()[0].GetId() || ev.GetIdeas()[0].GetTitle() != "Winter mug drop" ||
		ev.GetIdeas()[0].GetWhyNow() != "First frost next week" || ev.GetIdeas()[0].GetChannel() != "email" {
		t.Fatalf("DigestRequested %v", ev)
	}

	// A second request within the minute is refused and queues nothing.
	_, err = h.client.SendAIEmailDigest(as(tok), &categoriesv1.SendAIEmailDigestRequest{CategoryId: cat})
	if status.Code(err) != codes.ResourceExhausted || status.Convert(err).Message() != domain.DigestTooSoonMessage {
		t.Fatalf("second request: %v", err)
	}
	if n := h.count(t, `SELECT count(*) FROM outbox WHERE subject = $1`, events.SubjectDigestRequested); n != 1 {
		t.Fatalf("%d digest requests in the outbox, want the first only", n)
	}
	if got := digestRequests(t, h, cat); len(got) != 1 {
		t.Fatalf("%d digest requests after the refused one", len(got))
	}

	// A minute later it is allowed again.
	if _, err := h.db.Exec(context.Background(), `UPDATE categories SET last_digest_requested_at = now() - interval '61 seconds' WHERE id = $1`, cat); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.SendAIEmailDigest(as(tok), &categoriesv1.SendAIEmailDigestRequest{CategoryId: cat}); err != nil {
		t.Fatalf("a minute later: %v", err)
	}
	eventually(t, func() bool { return len(digestRequests(t, h, cat)) == 2 })
}

func TestCategoryUpdatedOnCreateAndEachChange(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, cat, tok := h.ownerUser(t)
	var got []*eventsv1.CategoryUpdated
	eventually(t, func() bool { got = categoryUpdates(t, h, cat); return len(got) == 1 })
	if e := got[0]; e.GetOwnerUserId() != uid || e.GetName() != "Clay & Co" || e.GetDisableWeeklyEmail() || e.GetOccurTime() == nil {
		t.Fatalf("on create: %v", e)
	}

	steps := []struct {
		name   string
		change func() error
		check  func(*eventsv1.CategoryUpdated) bool
	}{
		{"name", func() error {
			_, err := h.client.UpdateLabel(as(tok), &categoriesv1.UpdateLabelRequest{CategoryId: cat, Name: "Clay Studio"})
			return err
		}, func(e *eventsv1.CategoryUpdated) bool { return e.GetName() == "Clay Studio" }},
		{"weekly email", func() error {
			_, err := h.client.UpdateContentGenerationParams(as(tok), &categoriesv1.UpdateContentGenerationParamsRequest{CategoryId: cat, DisableWeeklyEmail: proto.Bool(true)})
			return err
		}, func(e *eventsv1.CategoryUpdated) bool {
			return e.GetDisableWeeklyEmail() && !e.GetDisableBusinessReport()
		}},
		{"business report", func() error {
			_, err := h.client.UpdateEmailPreferences(as(tok), &categoriesv1.UpdateEmailPreferencesRequest{CategoryId: cat, DisableBusinessReport: proto.Bool(true)})
			return err
		}, func(e *eventsv1.CategoryUpdated) bool {
			return e.GetDisableWeeklyEmail() && e.GetDisableBusinessReport()
		}},
		{"website", func() error {
			_, err := h.client.UpdateContentGenerationParams(as(tok), &categoriesv1.UpdateContentGenerationParamsRequest{CategoryId: cat,
				SiteUrl: proto.String("good-store.test"), DisableWeeklyEmail: proto.Bool(true)})
			return err
		}, func(e *eventsv1.CategoryUpdated) bool { return e.GetSiteUrl() == goodSite }},
		// Saving the same switch again is not a change.
		{"no change", func() error {
			_, err := h.client.UpdateEmailPreferences(as(tok), &categoriesv1.UpdateEmailPreferencesRequest{CategoryId: cat, DisableBusinessReport: proto.Bool(true)})
			return err
		}, nil},
	}
	want := 1
	for _, st := range steps {
		if err := st.change(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if st.check == nil {
			continue
		}
		want++
		eventually(t, func() bool { got = categoryUpdates(t, h, cat); return len(got) >= want })
		if len(got) != want || !st.check(got[want-1]) || !got[want-1].GetOccurTime().AsTime().After(got[want-2].GetOccurTime().AsTime()) {
			t.Fatalf("%s: %d events, last %v", st.name, len(got), got[len(got)-1])
		}
	}
	// Asking for a digest changes nothing other services keep.
	if _, err := h.client.SendAIEmailDigest(as(tok), &categoriesv1.SendAIEmailDigestRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool { return len(digestRequests(t, h, cat)) == 1 })
	if got = categoryUpdates(t, h, cat); len(got) != want {
		t.Fatalf("%d CategoryUpdated, want %d", len(got), want)
	}
}

func TestEmailKindUnsubscribedFlipsOnlyItsSwitch(t *testing.T) {
	t.Parallel()
	h := start(t)
	uid, cat, tok := h.ownerUser(t)
	otherUID, _, _ := h.ownerUser(t)
	prefs := func() *categoriesv1.GetEmailPreferencesResponse {
		p, err := h.client.GetEmailPreferences(as(tok), &categoriesv1.GetEmailPreferencesRequest{CategoryId: cat})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	handled := func(n int) {
		t.Helper()
		eventually(t, func() bool {
			return h.count(t, `SELECT count(*) FROM processed_messages WHERE consumer = 'categories-email-kind-unsubscribed'`) == n
		})
	}
	send := func(user, kind string, resub bool) {
		h.publish(t, events.SubjectEmailKindUnsubscribed, &eventsv1.EmailKindUnsubscribed{UserId: user, CategoryId: cat, Kind: kind,
			Resubscribed: resub, OccurTime: timestamppb.Now()})
	}

	send(uid, "daily_report", false)
	send(uid, "daily_report", false) // a repeat
	handled(2)
	if p := prefs(); !p.GetDisableBusinessReport() || p.GetDisableWeeklyEmail() {
		t.Fatalf("after daily_report off: %v", p)
	}
	send(uid, "ai_digest", false) // no switch for it
	send(otherUID, "weekly_review", false)
	handled(4)
	if p := prefs(); p.GetDisableWeeklyEmail() {
		t.Fatalf("another user's or the digest's unsubscribe changed the weekly switch: %v", p)
	}
	send(uid, "weekly_review", false)
	handled(5)
	if p := prefs(); !p.GetDisableWeeklyEmail() || !p.GetDisableBusinessReport() {
		t.Fatalf("after weekly_review off: %v", p)
	}
	send(uid, "daily_report", true)
	handled(6)
	if p := prefs(); p.GetDisableBusinessReport() || !p.GetDisableWeeklyEmail() {
		t.Fatalf("after daily_report back on: %v", p)
	}
	// Each flip is announced, so the digest service sees the switches.
	eventually(t, func() bool {
		got := categoryUpdates(t, h, cat)
		last := got[len(got)-1]
		return len(got) == 4 && last.GetDisableWeeklyEmail() && !last.GetDisableBusinessReport() && !strings.Contains(last.GetName(), "?")
	})
}
