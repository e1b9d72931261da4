// Package firebasetest connects tests to the Firebase Auth emulator and
// signs test users in through its REST API, the way the browser would.
package firebasetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"testing"

	fbauth "firebase.google.com/go/v4/auth"

	"uplift.dev/platform/auth"
)

// ProjectID is the demo project the emulator runs.
func ProjectID() string {
	if p := os.Getenv("FIREBASE_PROJECT_ID"); p != "" {
		return p
	}
	return "demo-uplift"
}

// Host returns the emulator address, skipping the test without one (or
// failing it under `make test`, which sets UPLIFT_REQUIRE_INFRA).
func Host(t testing.TB) string {
	t.Helper()
	host := os.Getenv("FIREBASE_AUTH_EMULATOR_HOST")
	if host == "" {
		if os.Getenv("UPLIFT_REQUIRE_INFRA") != "" {
			t.Fatal("FIREBASE_AUTH_EMULATOR_HOST is not set; run the tests with `make test`")
		}
		t.Skip("FIREBASE_AUTH_EMULATOR_HOST not set; run with `make test` to use the Auth emulator")
	}
	return host
}

// Client returns an Admin SDK client on the emulator.
func Client(t testing.TB) *fbauth.Client {
	t.Helper()
	c, err := auth.NewFirebaseClient(context.Background(), ProjectID(), Host(t))
	if err != nil {
		t.Fatalf("firebasetest: %v", err)
	}
	return c
}

// SignInWithCustomToken exchanges a custom token for an ID token, as
// signInWithCustomToken does in the browser.
func SignInWithCustomToken(t testing.TB, customToken string) string {
	t.Helper()
	return signIn(t, "accounts:signInWithCustomToken", map[string]any{"token": customToken, "returnSecureToken": true})
}

// SignInAs signs uid in (an emulator user, made on first use) with the
// custom claims given (nil for none) and returns its ID token.
func SignInAs(t testing.TB, uid string, claims map[string]any) string {
	t.Helper()
	custom, err := Client(t).CustomTokenWithClaims(context.Background(), uid, claims)
	if err != nil {
		t.Fatalf("firebasetest: custom token: %v", err)
	}
	return SignInWithCustomToken(t, custom)
}

// SignInWithPassword signs in with email and password.
func SignInWithPassword(t testing.TB, email, password string) string {
	t.Helper()
	return signIn(t, "accounts:signInWithPassword", map[string]any{"email": email, "password": password, "returnSecureToken": true})
}

func signIn(t testing.TB, method string, body map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(body)
	url := fmt.Sprintf("http://%s/identitytoolkit.googleapis.com/v1/%s?key=demo-api-key", Host(t), method)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("firebasetest: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		IDToken string `json:"idToken"`
		Error   struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.IDToken == "" {
		t.Fatalf("firebasetest: %s failed: %v %s", method, err, out.Error.Message)
	}
	return out.IDToken
}
