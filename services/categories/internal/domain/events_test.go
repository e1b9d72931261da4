package domain

import (
	"reflect"
	"testing"
)

// TestEffectsSayWhichEvents: each effect implies its event, in the order
// they are written, and no effect none.
func TestEffectsSayWhichEvents(t *testing.T) {
	rep := &Report{ID: "r"}
	entry := &AuditEntry{ActorID: "a", OwnerID: "o", Action: "x"}
	got := Effects{NewReport: rep, OnBehalf: entry, Digest: &DigestRequest{RequestedBy: "o"}, Announce: true, InvalidateIdeas: true}.Events()
	want := []Event{ReviewStarted{Report: rep}, ActedOnBehalf{Entry: *entry}, DigestAsked{Request: DigestRequest{RequestedBy: "o"}}, CategoryAnnounced{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events %#v, want %#v", got, want)
	}
	if got := (Effects{InvalidateIdeas: true}).Events(); len(got) != 0 {
		t.Errorf("ideas made stale imply %v", got)
	}
}

// TestWeeklyEmails: the business's first review has its email whatever its
// week; another review only when it is the week's, dated by that week; no
// email offered, none sent.
func TestWeeklyEmails(t *testing.T) {
	first := &WeeklyReview{ReportID: "r", First: true}
	weekly := &WeeklyReview{ReportID: "r"}
	for _, c := range []struct {
		name   string
		offer  *WeeklyReview
		week   string
		emails int
		dated  string
	}{
		{"first, not the week's", first, "", 1, ""},
		{"first and the week's", first, "2026-11-16", 1, ""},
		{"the week's", weekly, "2026-11-16", 1, "2026-11-16"},
		{"neither", weekly, "", 0, ""},
		{"none offered", nil, "2026-11-16", 0, ""},
	} {
		got := WeeklyEmails(c.offer, c.week)
		if len(got) != c.emails || (c.emails == 1 && got[0].Review.Week != c.dated) {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}
