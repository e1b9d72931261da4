package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/validation"
)

// account is a signed-up user and a token carrying their current claims.
type account struct {
	id, email, token string
}

const password = "secret12"

func signUp(t *testing.T, h harness, email string) account {
	t.Helper()
	res, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: email, Password: password, SuppressWelcomeEmail: true})
	if err != nil {
		t.Fatal(err)
	}
	return account{id: res.GetId(), email: email, token: firebasetest.SignInWithCustomToken(t, res.GetSignInToken())}
}

// withClaims sets custom claims with the Admin SDK, as usersctl does, and
// signs in again so the token carries them.
func withClaims(t *testing.T, a account, claims map[string]any) account {
	t.Helper()
	if err := firebasetest.Client(t).SetCustomUserClaims(context.Background(), a.id, claims); err != nil {
		t.Fatal(err)
	}
	a.token = firebasetest.SignInWithPassword(t, a.email, password)
	return a
}

// eventCount is how many events the stream holds on subject.
func eventCount(t *testing.T, h harness, subject string) uint64 {
	t.Helper()
	s, err := h.js.Stream(context.Background(), events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(subject))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects[subject]
}

// lastEvent waits for an event on subject and decodes the latest into m.
func lastEvent(t *testing.T, h harness, subject string, m proto.Message) {
	t.Helper()
	s, err := h.js.Stream(context.Background(), events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		msg, err := s.GetLastMsgForSubject(context.Background(), subject)
		if err == nil {
			if err := proto.Unmarshal(msg.Data, m); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no event on %s: %v", subject, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func wantCode(t *testing.T, err error, code codes.Code, msg string) {
	t.Helper()
	if status.Code(err) != code || !strings.Contains(status.Convert(err).Message(), msg) {
		t.Fatalf("err = %v, want %v containing %q", err, code, msg)
	}
}

// googleSignIn signs in through the emulator's Google provider, as the
// browser's popup does, and returns the uid and ID token. Google vouches for
// the email (email_verified), as it does for Gmail and Workspace accounts.
func googleSignIn(t *testing.T, email, name string) (string, string) {
	t.Helper()
	return googleSignInVerified(t, email, name, true)
}

// googleSignInVerified is googleSignIn with Google's email_verified claim
// chosen by the test; the emulator copies it into the Firebase ID token.
func googleSignInVerified(t *testing.T, email, name string, verified bool) (string, string) {
	t.Helper()
	claims, _ := json.Marshal(map[string]any{"sub": "g-" + uuid.NewString(), "email": email, "email_verified": verified, "name": name})
	body, _ := json.Marshal(map[string]any{
		"postBody":   "providerId=google.com&id_token=" + url.QueryEscape(string(claims)),
		"requestUri": "http://localhost", "returnSecureToken": true,
	})
	return emulatorSignIn(t, "accounts:signInWithIdp", body)
}

// anonymousSignIn signs in with Firebase's anonymous provider: a valid ID
// token that carries no email at all.
func anonymousSignIn(t *testing.T) (string, string) {
	t.Helper()
	return emulatorSignIn(t, "accounts:signUp", []byte(`{"returnSecureToken":true}`))
}

func emulatorSignIn(t *testing.T, method string, body []byte) (string, string) {
	t.Helper()
	resp, err := http.Post(fmt.Sprintf("http://%s/identitytoolkit.googleapis.com/v1/%s?key=demo-api-key",
		firebasetest.Host(t), method), "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		IDToken string `json:"idToken"`
		LocalID string `json:"localId"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.IDToken == "" {
		t.Fatalf("%s: %v %d", method, err, resp.StatusCode)
	}
	return out.LocalID, out.IDToken
}

func TestFinishGoogleAuthCreatesOnceFromTheToken(t *testing.T) {
	t.Parallel()
	h := start(t)
	email := freshEmail()
	uid, tok := googleSignIn(t, email, "Gina")
	req := &usersv1.FinishGoogleAuthRequest{Name: "Gina", Email: "someone-else@example.com", IdFromGoogleAuth: uid, SuppressWelcomeEmail: true}
	res, err := h.client.FinishGoogleAuth(as(tok), req)
	if err != nil || res.GetId() != uid {
		t.Fatalf("%+v %v", res, err)
	}
	again, err := h.client.FinishGoogleAuth(as(tok), req)
	if err != nil || again.GetId() != uid {
		t.Fatalf("second call: %+v %v", again, err)
	}
	got, err := h.client.GetUser(as(tok), &usersv1.GetUserRequest{UserId: uid})
	if err != nil {
		t.Fatal(err)
	}
	// The email is the one Firebase vouches for, not the body's.
	if u := got.GetUser(); u.GetEmail() != email || u.GetDisplayName() != "Gina" || u.GetCategoryId() == "" || u.GetCategoryId() != u.GetOriginalCategoryId() {
		t.Fatalf("user %+v", u)
	}
	var ev eventsv1.UserCreated
	lastEvent(t, h, events.SubjectUserCreated, &ev)
	if ev.GetUserId() != uid || !ev.GetSuppressWelcomeEmail() {
		t.Fatalf("event %+v", &ev)
	}
	time.Sleep(300 * time.Millisecond)
	if n := eventCount(t, h, events.SubjectUserCreated); n != 1 {
		t.Fatalf("%d UserCreated, want 1", n)
	}
	_, err = h.client.FinishGoogleAuth(as("unauthed"), req)
	wantCode(t, err, codes.Unauthenticated, "sign in")
	_, err = h.client.FinishGoogleAuth(as(tok), &usersv1.FinishGoogleAuthRequest{Name: strings.Repeat("n", validation.MaxNameRunes)})
	if err != nil {
		t.Fatalf("existing user: input no longer matters: %v", err)
	}
	_, tok2 := googleSignIn(t, freshEmail(), "")
	_, err = h.client.FinishGoogleAuth(as(tok2), &usersv1.FinishGoogleAuthRequest{Name: strings.Repeat("n", 300)})
	wantCode(t, err, codes.InvalidArgument, "too long")
}

// TestFinishGoogleAuthNeedsAVerifiedEmail: the account's email comes only
// from the ID token, and only when Firebase marks it verified. A token with
// no email (anonymous sign-in) or an unverified one cannot claim an address
// by putting it in the body.
func TestFinishGoogleAuthNeedsAVerifiedEmail(t *testing.T) {
	t.Parallel()
	h := start(t)
	victim := freshEmail()
	anonUID, anonTok := anonymousSignIn(t)
	_, unverifiedTok := googleSignInVerified(t, freshEmail(), "Una", false)
	for _, c := range []struct{ name, tok string }{{"anonymous", anonTok}, {"unverified Google email", unverifiedTok}} {
		name, tok := c.name, c.tok
		_, err := h.client.FinishGoogleAuth(as(tok), &usersv1.FinishGoogleAuthRequest{
			Name: "Mallory", Email: victim, IdFromGoogleAuth: anonUID, SuppressWelcomeEmail: true})
		if status.Code(err) != codes.FailedPrecondition || !strings.Contains(status.Convert(err).Message(), "verified email") {
			t.Fatalf("%s: err = %v, want FailedPrecondition about a verified email", name, err)
		}
	}
	if _, err := h.client.GetUser(as(anonTok), &usersv1.GetUserRequest{UserId: anonUID}); status.Code(err) != codes.NotFound {
		t.Fatalf("anonymous caller was stored: %v", err)
	}
	// The address is still free for its owner.
	if _, err := h.client.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: victim, Password: password, SuppressWelcomeEmail: true}); err != nil {
		t.Fatalf("victim's sign-up: %v", err)
	}
}

func TestResetPasswordPublishesLinkWithoutEnumeration(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := signUp(t, h, freshEmail())
	if _, err := h.client.ResetPassword(context.Background(), &usersv1.ResetPasswordRequest{Email: "  " + strings.ToUpper(a.email)}); err != nil {
		t.Fatal(err)
	}
	var ev eventsv1.PasswordResetRequested
	lastEvent(t, h, events.SubjectPasswordResetRequested, &ev)
	link, err := url.Parse(ev.GetLink())
	if err != nil || ev.GetEmail() != a.email || link.Query().Get("mode") != "resetPassword" ||
		link.Query().Get("oobCode") == "" || !strings.HasPrefix(link.Query().Get("continueUrl"), "http://localhost:3000") {
		t.Fatalf("event %+v", &ev)
	}
	// Unknown emails and a second request within the minute answer the same
	// success, and publish nothing.
	for _, email := range []string{freshEmail(), a.email} {
		if _, err := h.client.ResetPassword(context.Background(), &usersv1.ResetPasswordRequest{Email: email}); err != nil {
			t.Fatalf("%s: %v", email, err)
		}
	}
	time.Sleep(500 * time.Millisecond)
	if n := eventCount(t, h, events.SubjectPasswordResetRequested); n != 1 {
		t.Fatalf("%d reset events, want 1", n)
	}
	// After the interval the next request goes out again.
	if _, err := h.db.Exec(context.Background(), `UPDATE password_reset_requests SET last_requested_at = now() - interval '2 minutes'`); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.ResetPassword(context.Background(), &usersv1.ResetPasswordRequest{Email: a.email}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for eventCount(t, h, events.SubjectPasswordResetRequested) != 2 {
		if time.Now().After(deadline) {
			t.Fatal("no second reset event after the interval")
		}
		time.Sleep(100 * time.Millisecond)
	}
	_, err = h.client.ResetPassword(context.Background(), &usersv1.ResetPasswordRequest{Email: "not-an-email"})
	wantCode(t, err, codes.InvalidArgument, "valid email")
}

func TestUpdateEmail(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := signUp(t, h, freshEmail())
	b := signUp(t, h, freshEmail())
	ctx := context.Background()
	newEmail := freshEmail()
	updated, err := h.client.UpdateEmail(as(a.token), &usersv1.UpdateEmailRequest{UserId: a.id, Email: strings.ToUpper(newEmail)})
	if err != nil {
		t.Fatal(err)
	}
	// The returned token signs the user in again, carrying the new email.
	a.token = firebasetest.SignInWithCustomToken(t, updated.GetSignInToken())
	got, err := h.client.GetUser(as(a.token), &usersv1.GetUserRequest{UserId: a.id})
	if err != nil || got.GetUser().GetEmail() != newEmail {
		t.Fatalf("stored %v %v", got, err)
	}
	firebasetest.SignInWithPassword(t, newEmail, password) // Firebase has it too
	var ev eventsv1.UserEmailChanged
	lastEvent(t, h, events.SubjectUserEmailChanged, &ev)
	if ev.GetUserId() != a.id || ev.GetOldEmail() != a.email || ev.GetNewEmail() != newEmail {
		t.Fatalf("event %+v", &ev)
	}

	// Another Firebase account has the email: refused by Firebase.
	_, err = h.client.UpdateEmail(as(a.token), &usersv1.UpdateEmailRequest{UserId: a.id, Email: b.email})
	wantCode(t, err, codes.AlreadyExists, "An account with this email already exists.")

	// Only a stored user has the email: Firebase accepts, storage refuses,
	// and Firebase is set back so the two agree.
	ghost := freshEmail()
	if _, err := h.db.Exec(ctx, `INSERT INTO users (id, email, display_name) VALUES ($1, $2, 'ghost')`, uuid.NewString(), ghost); err != nil {
		t.Fatal(err)
	}
	_, err = h.client.UpdateEmail(as(a.token), &usersv1.UpdateEmailRequest{UserId: a.id, Email: ghost})
	wantCode(t, err, codes.AlreadyExists, "An account with this email already exists.")
	rec, err := firebasetest.Client(t).GetUser(ctx, a.id)
	if err != nil || rec.Email != newEmail {
		t.Fatalf("Firebase email %q (%v), want it set back to %q", rec.Email, err, newEmail)
	}
	got, _ = h.client.GetUser(as(a.token), &usersv1.GetUserRequest{UserId: a.id})
	if got.GetUser().GetEmail() != newEmail {
		t.Fatalf("stored email %q", got.GetUser().GetEmail())
	}
	if n := eventCount(t, h, events.SubjectUserEmailChanged); n != 1 {
		t.Fatalf("%d email events, want 1", n)
	}

	for _, tt := range []struct {
		name string
		req  *usersv1.UpdateEmailRequest
		code codes.Code
		msg  string
	}{
		{"malformed", &usersv1.UpdateEmailRequest{UserId: a.id, Email: "nope"}, codes.InvalidArgument, "valid email"},
		{"empty", &usersv1.UpdateEmailRequest{UserId: a.id}, codes.InvalidArgument, "valid email"},
		{"huge", &usersv1.UpdateEmailRequest{UserId: a.id, Email: strings.Repeat("a", 300) + "@x.co"}, codes.InvalidArgument, "email is too long"},
		{"no user id", &usersv1.UpdateEmailRequest{Email: freshEmail()}, codes.InvalidArgument, "userId is required"},
	} {
		_, err := h.client.UpdateEmail(as(a.token), tt.req)
		if status.Code(err) != tt.code || !strings.Contains(status.Convert(err).Message(), tt.msg) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestUnsubscribeRecordsAndPublishesOnce(t *testing.T) {
	t.Parallel()
	h := start(t)
	a := signUp(t, h, freshEmail())
	for range 2 {
		if _, err := h.client.Unsubscribe(as(a.token), &usersv1.UnsubscribeRequest{UserId: a.id}); err != nil {
			t.Fatal(err)
		}
	}
	var at *time.Time
	if err := h.db.QueryRow(context.Background(), `SELECT unsubscribed_at FROM users WHERE id = $1`, a.id).Scan(&at); err != nil || at == nil {
		t.Fatalf("opt-out not stored: %v %v", at, err)
	}
	var ev eventsv1.UserUnsubscribed
	lastEvent(t, h, events.SubjectUserUnsubscribed, &ev)
	got, _ := h.client.GetUser(as(a.token), &usersv1.GetUserRequest{UserId: a.id})
	if ev.GetUserId() != a.id || ev.GetEmail() != a.email || ev.GetCategoryId() != got.GetUser().GetOriginalCategoryId() {
		t.Fatalf("event %+v", &ev)
	}
	time.Sleep(300 * time.Millisecond)
	if n := eventCount(t, h, events.SubjectUserUnsubscribed); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
}

func TestSwitchMetricsCategoryIsAudited(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner := signUp(t, h, freshEmail())
	up := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"uplifter": true})
	plain := signUp(t, h, freshEmail())
	ownerCat, _ := h.client.GetMetricsCategory(as(owner.token), &usersv1.GetMetricsCategoryRequest{UserId: owner.id})
	upCat, _ := h.client.GetMetricsCategory(as(up.token), &usersv1.GetMetricsCategoryRequest{UserId: up.id})

	_, err := h.client.SwitchMetricsCategory(as(plain.token), &usersv1.SwitchMetricsCategoryRequest{UserId: plain.id, CategoryId: ownerCat.GetCategoryId()})
	wantCode(t, err, codes.PermissionDenied, "")

	res, err := h.client.SwitchMetricsCategory(as(up.token), &usersv1.SwitchMetricsCategoryRequest{UserId: up.id, CategoryId: ownerCat.GetCategoryId()})
	if err != nil || res.GetCategoryId() != ownerCat.GetCategoryId() || res.GetOriginalCategoryId() != upCat.GetOriginalCategoryId() {
		t.Fatalf("switch: %+v %v", res, err)
	}
	now, _ := h.client.GetMetricsCategory(as(up.token), &usersv1.GetMetricsCategoryRequest{UserId: up.id})
	if now.GetCategoryId() != ownerCat.GetCategoryId() {
		t.Fatalf("metrics category %+v", now)
	}
	// Back to their own category: allowed even without the claim.
	upNoClaim := withClaims(t, up, map[string]any{})
	if _, err := h.client.SwitchMetricsCategory(as(upNoClaim.token), &usersv1.SwitchMetricsCategoryRequest{UserId: up.id, CategoryId: upCat.GetOriginalCategoryId()}); err != nil {
		t.Fatal(err)
	}
	rows, err := h.db.Query(context.Background(), `SELECT actor_id, coalesce(on_behalf_of_id, ''), category_id, action FROM audit_log ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var actor, whom, cat, action string
		if err := rows.Scan(&actor, &whom, &cat, &action); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{actor, whom, cat, action}, "|"))
	}
	want := []string{
		up.id + "|" + owner.id + "|" + ownerCat.GetCategoryId() + "|switch_metrics_category",
		up.id + "|" + up.id + "|" + upCat.GetOriginalCategoryId() + "|switch_metrics_category",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("audit:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, bad := range []string{"", "not-a-uuid", strings.Repeat("a", 5000)} {
		_, err := h.client.SwitchMetricsCategory(as(up.token), &usersv1.SwitchMetricsCategoryRequest{UserId: up.id, CategoryId: bad})
		wantCode(t, err, codes.InvalidArgument, "categoryId")
	}
}

func TestSearchUsersPaginates(t *testing.T) {
	t.Parallel()
	h := start(t)
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true})
	up := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"uplifter": true})
	prefix := "pg" + uuid.NewString()[:6]
	var ids []string
	for i := range 5 {
		ids = append(ids, signUp(t, h, fmt.Sprintf("%s-%d@example.com", prefix, i)).id)
	}
	var seen []string
	token := ""
	for page := 0; ; page++ {
		res, err := h.client.ListUsers(as(admin.token), &usersv1.ListUsersRequest{Query: strings.ToUpper(prefix), PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range res.GetUsers() {
			seen = append(seen, u.GetId())
		}
		if token = res.GetNextPageToken(); token == "" {
			if page != 2 {
				t.Fatalf("%d pages, want 3", page+1)
			}
			break
		}
	}
	if strings.Join(seen, ",") != strings.Join(ids, ",") {
		t.Fatalf("pages gave %v, want %v in email order", seen, ids)
	}
	// Name prefix, case-insensitive (the name defaults to the email's local part).
	res, err := h.client.ListMetricsUsers(as(up.token), &usersv1.ListMetricsUsersRequest{Query: strings.ToUpper(prefix) + "-3"})
	if err != nil || len(res.GetUsers()) != 1 || res.GetUsers()[0].GetId() != ids[3] || res.GetNextPageToken() != "" {
		t.Fatalf("metrics users %+v %v", res, err)
	}
	all, err := h.client.ListUsers(as(admin.token), &usersv1.ListUsersRequest{})
	if err != nil || len(all.GetUsers()) != 7 {
		t.Fatalf("everyone: %d %v", len(all.GetUsers()), err)
	}
	// A literal % matches nothing rather than everything.
	none, err := h.client.ListUsers(as(admin.token), &usersv1.ListUsersRequest{Query: "%"})
	if err != nil || len(none.GetUsers()) != 0 {
		t.Fatalf("wildcard: %+v %v", none, err)
	}
	first, _ := h.client.ListUsers(as(admin.token), &usersv1.ListUsersRequest{Query: prefix, PageSize: 2})
	for _, tt := range []struct {
		name string
		req  *usersv1.ListUsersRequest
		msg  string
	}{
		{"garbage token", &usersv1.ListUsersRequest{PageToken: "garbage!"}, "pageToken"},
		{"token of another query", &usersv1.ListUsersRequest{Query: "other", PageToken: first.GetNextPageToken()}, "pageToken"},
		{"negative size", &usersv1.ListUsersRequest{PageSize: -1}, "pageSize"},
		{"huge query", &usersv1.ListUsersRequest{Query: strings.Repeat("q", 1000)}, "too long"},
	} {
		_, err := h.client.ListUsers(as(admin.token), tt.req)
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), tt.msg) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	got, err := h.client.GetMetricsUser(as(up.token), &usersv1.GetMetricsUserRequest{UserId: ids[0]})
	if err != nil || got.GetUser().GetEmail() != prefix+"-0@example.com" {
		t.Fatalf("metrics user %+v %v", got, err)
	}
	_, err = h.client.GetMetricsUser(as(up.token), &usersv1.GetMetricsUserRequest{UserId: "nobody"})
	wantCode(t, err, codes.NotFound, "User not found.")
}

func TestDeleteUserRemovesOnlyThem(t *testing.T) {
	t.Parallel()
	h := start(t)
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true})
	victim := signUp(t, h, freshEmail())
	bystander := signUp(t, h, freshEmail())
	victimCat, _ := h.client.GetMetricsCategory(as(victim.token), &usersv1.GetMetricsCategoryRequest{UserId: victim.id})
	before, _ := h.client.GetUser(as(bystander.token), &usersv1.GetUserRequest{UserId: bystander.id})

	if _, err := h.client.DeleteUser(as(admin.token), &usersv1.DeleteUserRequest{UserId: victim.id}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := firebasetest.Client(t).GetUser(ctx, victim.id); err == nil {
		t.Fatal("Firebase account still there")
	}
	_, err := h.client.GetMetricsUser(as(admin.token), &usersv1.GetMetricsUserRequest{UserId: victim.id})
	wantCode(t, err, codes.NotFound, "")
	var ev eventsv1.UserDeleted
	lastEvent(t, h, events.SubjectUserDeleted, &ev)
	if ev.GetUserId() != victim.id || ev.GetCategoryId() != victimCat.GetOriginalCategoryId() {
		t.Fatalf("event %+v", &ev)
	}
	after, err := h.client.GetUser(as(bystander.token), &usersv1.GetUserRequest{UserId: bystander.id})
	if err != nil || !proto.Equal(before.GetUser(), after.GetUser()) {
		t.Fatalf("bystander changed: %v -> %v (%v)", before.GetUser(), after.GetUser(), err)
	}
	if _, err := firebasetest.Client(t).GetUser(ctx, bystander.id); err != nil {
		t.Fatalf("bystander's Firebase account: %v", err)
	}
	_, err = h.client.DeleteUser(as(admin.token), &usersv1.DeleteUserRequest{UserId: victim.id})
	wantCode(t, err, codes.NotFound, "User not found.")
	_, err = h.client.DeleteUser(as(admin.token), &usersv1.DeleteUserRequest{UserId: admin.id})
	wantCode(t, err, codes.FailedPrecondition, "your own account")
	_, err = h.client.DeleteUser(as(admin.token), &usersv1.DeleteUserRequest{})
	wantCode(t, err, codes.InvalidArgument, "userId is required")
}

// TestMalformedInputIsInvalidArgument sends what a fuzzer sends (NUL bytes,
// megabyte ids) through calls that reach PostgreSQL: each is the caller's
// mistake, so InvalidArgument naming the field, never Internal.
func TestMalformedInputIsInvalidArgument(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner := signUp(t, h, freshEmail())
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true})
	huge := strings.Repeat("a", 1<<20)
	c := h.client
	for _, tt := range []struct {
		name string
		call func() error
	}{
		{"NUL in a user id", func() error {
			_, err := c.GetUser(as(admin.token), &usersv1.GetUserRequest{UserId: "a\x00b"})
			return err
		}},
		{"NUL in a search", func() error {
			_, err := c.ListUsers(as(admin.token), &usersv1.ListUsersRequest{Query: "own\x00er"})
			return err
		}},
		{"NUL in a category id", func() error {
			_, err := c.CreateOnboarding(as(owner.token), &usersv1.CreateOnboardingRequest{UserId: owner.id, OnboardingId: "x", CategoryId: "c\x00"})
			return err
		}},
		{"NUL in a name", func() error {
			_, err := c.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: freshEmail(), Password: password, Name: "a\x00b"})
			return err
		}},
		{"a 1 MB category id", func() error {
			_, err := c.CreateOnboarding(as(owner.token), &usersv1.CreateOnboardingRequest{UserId: owner.id, OnboardingId: "x", CategoryId: huge})
			return err
		}},
		{"a 1 MB onboarding id", func() error {
			_, err := c.CreateOnboarding(as(owner.token), &usersv1.CreateOnboardingRequest{UserId: owner.id, OnboardingId: huge})
			return err
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if st := status.Convert(err); st.Code() != codes.InvalidArgument || len(st.Message()) > 300 {
				t.Fatalf("err = %.300v, want InvalidArgument with a short message", err)
			}
		})
	}
}

// TestAdminActionsAreAudited: what an admin does to someone else's account
// (change their email, delete them) is written to audit_log in the
// transaction of the change, naming the admin, the user and their category;
// a user changing their own email is not an admin action.
func TestAdminActionsAreAudited(t *testing.T) {
	t.Parallel()
	h := start(t)
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true})
	target := signUp(t, h, freshEmail())
	self := signUp(t, h, freshEmail())
	targetCat, err := h.client.GetMetricsCategory(as(target.token), &usersv1.GetMetricsCategoryRequest{UserId: target.id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.UpdateEmail(as(self.token), &usersv1.UpdateEmailRequest{UserId: self.id, Email: freshEmail()}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.UpdateEmail(as(admin.token), &usersv1.UpdateEmailRequest{UserId: target.id, Email: freshEmail()}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.DeleteUser(as(admin.token), &usersv1.DeleteUserRequest{UserId: target.id}); err != nil {
		t.Fatal(err)
	}
	rows, err := h.db.Query(context.Background(), `SELECT actor_id, coalesce(on_behalf_of_id, ''), category_id, action
		FROM audit_log ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var actor, subject, category, action string
		if err := rows.Scan(&actor, &subject, &category, &action); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{actor, subject, category, action}, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	cat := targetCat.GetOriginalCategoryId()
	want := []string{
		admin.id + " " + target.id + " " + cat + " admin_update_email",
		admin.id + " " + target.id + " " + cat + " admin_delete_user",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("audit_log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
