package app

import (
	"context"
	"errors"
	"testing"
	"time"
)

// verifications records what the app asked for, as Firebase and the
// outbox would see it.
type verifications struct {
	linkErr error
	sent    []string // "uid email link"
}

func (v *verifications) EmailVerificationLink(_ context.Context, email string) (string, error) {
	if v.linkErr != nil {
		return "", v.linkErr
	}
	return "https://verify/" + email, nil
}

func (v *verifications) RecordEmailVerification(_ context.Context, userID, email, link string, _ time.Time) error {
	v.sent = append(v.sent, userID+" "+email+" "+link)
	return nil
}

// TestSignUpSendsTheAddressVerification: the web's
// sign-up suppresses the welcome email, so the first thing a new owner
// gets is the email confirming their address, welcome or not; a link that
// cannot be made does not fail the sign-up.
func TestSignUpSendsTheAddressVerification(t *testing.T) {
	for _, suppress := range []bool{true, false} {
		a, _, _ := newApp()
		v := &verifications{}
		a = a.WithEmailVerification(v, v)
		res, err := a.CreateUser(context.Background(), CreateUserInput{Email: "Shop@Example.com", Password: "secret1",
			SuppressWelcomeEmail: suppress})
		if err != nil {
			t.Fatal(err)
		}
		if want := res.ID + " shop@example.com https://verify/shop@example.com"; len(v.sent) != 1 || v.sent[0] != want {
			t.Fatalf("suppressWelcomeEmail %v: verification %q, want %q", suppress, v.sent, want)
		}
	}
	a, _, repo := newApp()
	v := &verifications{linkErr: errors.New("firebase down")}
	res, err := a.WithEmailVerification(v, v).CreateUser(context.Background(), CreateUserInput{Email: "a@b.co", Password: "secret1"})
	if err != nil || repo.users[res.ID].Email != "a@b.co" || len(v.sent) != 0 {
		t.Fatalf("a failed link failed the sign-up: %+v %v %q", res, err, v.sent)
	}
}
