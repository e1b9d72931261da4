package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	fbauth "firebase.google.com/go/v4/auth"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/clientaddr"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/users/internal/ports/grpcport"
)

// enrolPhoneFactor gives the account a second factor with the Admin SDK.
// The Auth emulator refuses TOTP enrolment, so the factor is a phone one:
// the service counts and removes second factors whatever their kind.
func enrolPhoneFactor(t *testing.T, uid string) {
	t.Helper()
	_, err := firebasetest.Client(t).UpdateUser(context.Background(), uid, (&fbauth.UserToUpdate{}).MFASettings(fbauth.MultiFactorSettings{
		EnrolledFactors: []*fbauth.MultiFactorInfo{{UID: "phone-" + uid, FactorID: "phone", DisplayName: "Phone",
			Phone: &fbauth.PhoneMultiFactorInfo{PhoneNumber: "+15555550100"}}},
	}))
	if err != nil {
		t.Fatal(err)
	}
}

func secondFactors(t *testing.T, uid string) int {
	t.Helper()
	u, err := firebasetest.Client(t).GetUser(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	if u.MultiFactor == nil {
		return 0
	}
	return len(u.MultiFactor.EnrolledFactors)
}

// passwordAloneSignsIn says whether the emulator signs email in with the
// password, rather than asking for the second factor (mfaPendingCredential).
func passwordAloneSignsIn(t *testing.T, email string) bool {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"email": email, "password": password, "returnSecureToken": true})
	resp, err := http.Post(fmt.Sprintf("http://%s/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key",
		firebasetest.Host(t)), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		IDToken              string `json:"idToken"`
		MFAPendingCredential string `json:"mfaPendingCredential"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || (out.IDToken == "") == (out.MFAPendingCredential == "") {
		t.Fatalf("sign-in answered %d: %v %+v", resp.StatusCode, err, out)
	}
	return out.IDToken != ""
}

func wantRejected(t *testing.T, err error, what string) {
	t.Helper()
	if st := status.Convert(err); st.Code() != codes.InvalidArgument || st.Message() != grpcport.RecoveryCodeRejectedMessage {
		t.Fatalf("%s: %v, want InvalidArgument %q", what, err, grpcport.RecoveryCodeRejectedMessage)
	}
}

// TestRecoveryCodesOnTheAuthEmulator: codes are made for an account with a
// second factor after a fresh sign-in, stored only as hashes; one code, once,
// removes the account's second factors in Firebase, so the password alone
// signs in; every refusal is the same answer; five wrong codes pause the
// account's recovery.
func TestRecoveryCodesOnTheAuthEmulator(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	owner := signUp(t, h, freshEmail())

	_, err := h.client.CreateRecoveryCodes(as(owner.token), &usersv1.CreateRecoveryCodesRequest{})
	wantCode(t, err, codes.FailedPrecondition, "Recovery codes are for two-step sign-in. Turn it on first.")

	enrolPhoneFactor(t, owner.id)
	if n := secondFactors(t, owner.id); n != 1 {
		t.Fatalf("%d factors after enrolment", n)
	}
	if passwordAloneSignsIn(t, owner.email) {
		t.Fatal("with a second factor, the password alone signed in")
	}
	res, err := h.client.CreateRecoveryCodes(as(owner.token), &usersv1.CreateRecoveryCodesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	codesShown := res.GetCodes()
	if len(codesShown) != 10 {
		t.Fatalf("%d codes", len(codesShown))
	}
	var stored, plain int
	if err := h.db.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE position(convert_to($2, 'UTF8') in code_hash) > 0)
		FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL AND length(code_hash) = 32`,
		owner.id, strings.ReplaceAll(codesShown[0], "-", "")).Scan(&stored, &plain); err != nil {
		t.Fatal(err)
	}
	if stored != 10 || plain != 0 {
		t.Fatalf("%d hashes stored, %d holding a code", stored, plain)
	}
	// New codes replace the old ones.
	again, err := h.client.CreateRecoveryCodes(as(owner.token), &usersv1.CreateRecoveryCodesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: codesShown[0]})
	wantRejected(t, err, "a replaced code")
	codesShown = again.GetCodes()

	other := signUp(t, h, freshEmail())
	for what, req := range map[string]*usersv1.UseRecoveryCodeRequest{
		"wrong code":      {Email: owner.email, Code: "0000-0000-0000-0000"},
		"unknown email":   {Email: freshEmail(), Code: codesShown[0]},
		"another's email": {Email: other.email, Code: codesShown[0]},
		"not a code":      {Email: owner.email, Code: "hunter2"},
		"empty code":      {Email: owner.email},
	} {
		_, err := h.client.UseRecoveryCode(ctx, req)
		wantRejected(t, err, what)
	}
	if n := secondFactors(t, owner.id); n != 1 {
		t.Fatal("a refused code removed the factor")
	}

	// The code as a person may type it: lower case, spaces for dashes.
	typed := strings.ToLower(strings.ReplaceAll(codesShown[2], "-", " "))
	if _, err := h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: strings.ToUpper(owner.email), Code: typed}); err != nil {
		t.Fatal(err)
	}
	if n := secondFactors(t, owner.id); n != 0 {
		t.Fatalf("%d factors left after the recovery", n)
	}
	if !passwordAloneSignsIn(t, owner.email) {
		t.Fatal("after the recovery, the emulator still asks for a second factor")
	}
	var action, detail string
	if err := h.db.QueryRow(ctx, `SELECT action, detail FROM audit_log WHERE actor_id = $1 ORDER BY id DESC LIMIT 1`,
		owner.id).Scan(&action, &detail); err != nil {
		t.Fatal(err)
	}
	if action != "use_recovery_code" || !strings.Contains(detail, "9 codes left") {
		t.Fatalf("audit %q %q", action, detail)
	}

	// Used once: set up again, the same code does nothing.
	enrolPhoneFactor(t, owner.id)
	_, err = h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: codesShown[2]})
	wantRejected(t, err, "a used code")
	if n := secondFactors(t, owner.id); n != 1 {
		t.Fatal("a used code removed the factor")
	}

	// Five wrong codes in all pause recovery: then even a good code is refused.
	var failures int
	if err := h.db.QueryRow(ctx, `SELECT count(*) FROM recovery_failures WHERE user_id = $1`, owner.id).Scan(&failures); err != nil {
		t.Fatal(err)
	}
	// The success above forgot earlier failures; the used code was one.
	if failures != 1 {
		t.Fatalf("%d failures counted, want 1", failures)
	}
	for range 4 {
		_, err := h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: "1111-1111-1111-1111"})
		wantRejected(t, err, "a wrong code")
	}
	_, err = h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: codesShown[5]})
	wantRejected(t, err, "a good code after five wrong ones")
	if n := secondFactors(t, owner.id); n != 1 {
		t.Fatal("recovery went through while paused")
	}
	// Those five came from one client (here: no address, as a direct call
	// has): the owner trying from another one still gets in (a stranger
	// must not lock the owner out), and the first client stays paused.
	fromOwner := clientaddr.Outgoing(ctx, "198.51.100.20")
	if _, err := h.client.UseRecoveryCode(fromOwner, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: codesShown[5]}); err != nil {
		t.Fatalf("the owner, from another client, after a stranger's five wrong codes: %v", err)
	}
	if n := secondFactors(t, owner.id); n != 0 {
		t.Fatalf("%d factors left after the owner's recovery", n)
	}
	enrolPhoneFactor(t, owner.id)
	_, err = h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: codesShown[6]})
	wantRejected(t, err, "a good code from the client that sent five wrong ones")
	// Another account is not paused by the first one's failures.
	enrolPhoneFactor(t, other.id)
	otherCodes, err := h.client.CreateRecoveryCodes(as(other.token), &usersv1.CreateRecoveryCodesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: other.email, Code: otherCodes.GetCodes()[0]}); err != nil {
		t.Fatalf("another account: %v", err)
	}
}
