// Package stacktest drives the running local stack from outside, as a
// browser or an attacker would: through the gateway's REST API with real
// Firebase tokens. `make test` (devstack exec -apps) exports the addresses;
// without them the tests that need the whole stack skip.
package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/firebasetest"
)

// Stack is the running stack.
type Stack struct {
	Gateway string
	HTTP    *http.Client
}

// FromEnv returns the stack `make test` started, skipping the test when it
// runs without the apps (e.g. `devstack exec` without -apps).
func FromEnv(t testing.TB) *Stack {
	t.Helper()
	gw := os.Getenv("UPLIFT_GATEWAY_URL")
	if gw == "" {
		t.Skip("UPLIFT_GATEWAY_URL not set; `make test` runs this against the whole local stack")
	}
	firebasetest.Host(t)
	return &Stack{Gateway: gw, HTTP: &http.Client{Timeout: 30 * time.Second}}
}

// User is a signed-up store owner.
type User struct {
	ID, Email, Token, CategoryID string
}

// Do sends one request and returns the status and body. token "" sends the
// web's signed-out bearer ("unauthed").
func (s *Stack) Do(method, path, token string, body []byte) (int, []byte, error) {
	return s.DoWithHeader(method, path, token, body, nil)
}

// DoWithHeader is Do with more request headers, as a webhook sender sets
// them.
func (s *Stack) DoWithHeader(method, path, token string, body []byte, header http.Header) (int, []byte, error) {
	req, err := http.NewRequest(method, s.Gateway+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token == "" {
		token = "unauthed"
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b, err
}

// SignUp signs a new owner up through the gateway, signs them in with the
// token it returns and waits for their business (made from the sign-up
// event).
func (s *Stack) SignUp(t testing.TB) User {
	t.Helper()
	u := User{Email: "stack-" + uuid.NewString()[:12] + "@example.com"}
	body, _ := json.Marshal(map[string]any{"email": u.Email, "password": "stack-test-password", "suppressWelcomeEmail": true})
	code, b, err := s.Do(http.MethodPost, "/internal/users", "", body)
	if err != nil || code != http.StatusOK {
		t.Fatalf("sign-up: %d %s %v", code, b, err)
	}
	var created struct {
		ID          string `json:"id"`
		SignInToken string `json:"signInToken"`
	}
	if err := json.Unmarshal(b, &created); err != nil {
		t.Fatal(err)
	}
	u.ID, u.Token = created.ID, firebasetest.SignInWithCustomToken(t, created.SignInToken)
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, b, err := s.Do(http.MethodGet, "/internal/users/"+u.ID+"/profile", u.Token, nil)
		var p struct {
			CategoryID string `json:"categoryId"`
		}
		if err == nil && code == http.StatusOK && json.Unmarshal(b, &p) == nil && p.CategoryID != "" {
			u.CategoryID = p.CategoryID
			return u
		}
		if time.Now().After(deadline) {
			t.Fatalf("no business for %s after 30 s: %d %s %v", u.ID, code, b, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// SignUpAdmin is a signed-up user with the admin claim, as usersctl
// grants it.
func (s *Stack) SignUpAdmin(t testing.TB) User {
	t.Helper()
	u := s.SignUp(t)
	fb := firebasetest.Client(t)
	ctx := context.Background()
	if err := fb.SetCustomUserClaims(ctx, u.ID, map[string]any{"admin": true}); err != nil {
		t.Fatal(err)
	}
	custom, err := fb.CustomToken(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	u.Token = firebasetest.SignInWithCustomToken(t, custom)
	return u
}

// Excerpt shortens b for a failure message.
func Excerpt(b []byte) string {
	if len(b) > 200 {
		return fmt.Sprintf("%q… (%d bytes)", b[:200], len(b))
	}
	return fmt.Sprintf("%q", b)
}
