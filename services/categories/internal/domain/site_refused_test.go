package domain

import (
	"errors"
	"testing"
)

func TestSiteRefusedSaysWhichItWas(t *testing.T) {
	cases := []struct {
		e    UnreadableError
		want string
	}{
		{UnreadableError{Problem: SiteNotFound, Reason: "its address could not be found"}, SiteNotFoundMessage},
		{UnreadableError{Problem: SitePrivate, Reason: "its address does not lead to a public website"}, SitePrivateMessage},
		{UnreadableError{Reason: "it did not answer in time"},
			"We could not read that website: it did not answer in time. Please check the address and try again."},
		{UnreadableError{}, "We could not read that website: it could not be read. Please check the address and try again."},
	}
	seen := map[string]bool{UnreadableSiteMessage: true}
	for _, c := range cases {
		c.e.Err = errors.New("x")
		err := SiteRefused(&c.e)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != SiteURLField || ve.Message != c.want {
			t.Errorf("%+v: %v, want %q on %s", c.e, err, c.want, SiteURLField)
		}
		if !errors.Is(err, ErrUnreadableSite) {
			t.Errorf("%+v: not ErrUnreadableSite", c.e)
		}
		if c.e.Problem != SiteUnreadable && seen[c.want] {
			t.Errorf("%q is said for two kinds", c.want)
		}
		seen[c.want] = true
	}
}
