package domain

import (
	"reflect"
	"testing"
	"time"
)

func TestChangeEvents(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	u := User{ID: "u1", Email: "a@example.com", OriginalCategoryID: "c1"}
	moved := u
	moved.Email = "b@example.com"
	off := u
	off.UnsubscribedAt = &at
	renamed := u
	renamed.DisplayName = "Ann"
	for name, tc := range map[string]struct {
		before, after User
		want          []Event
	}{
		"nothing":      {u, renamed, nil},
		"new email":    {u, moved, []Event{EmailChanged{UserID: "u1", OldEmail: "a@example.com", NewEmail: "b@example.com", At: at}}},
		"unsubscribed": {u, off, []Event{Unsubscribed{UserID: "u1", Email: "a@example.com", CategoryID: "c1", At: at}}},
		"again":        {off, off, nil},
	} {
		if got := ChangeEvents(tc.before, tc.after, at); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, want %#v", name, got, tc.want)
		}
	}
}
