package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// identityToolkit posts to the emulator's Identity Toolkit API as the web's
// Firebase SDK does, and returns the HTTP status.
func identityToolkit(t *testing.T, port int, method string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post("http://"+addr(port)+"/identitytoolkit.googleapis.com/v1/accounts:"+method+"?key=fake-api-key",
		"application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Logf("%s answered %d: %s", method, resp.StatusCode, b)
	}
	return resp.StatusCode
}

// TestAuthAccountsSurviveARestart: PostgreSQL keeps the users across
// `make run`s, and the Auth emulator used to start empty each time, so every
// earlier local user was locked out and their email got 409 on sign-up. Now
// a user who signed up before a restart signs in after it.
func TestAuthAccountsSurviveARestart(t *testing.T) {
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	firebase := filepath.Join(root, "deploy", "local", "node_modules", ".bin", "firebase")
	if _, err := os.Stat(firebase); err != nil {
		t.Skip("firebase-tools is not installed (make deps installs it)")
	}
	s, _ := testStack(t)
	s.Root = root
	s.Ports.AuthEmulator, s.Ports.EmulatorHub, s.Ports.EmulatorLogging = freePort(t), freePort(t), freePort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	account := map[string]any{"email": "kept@example.com", "password": "correct horse battery", "returnSecureToken": true}
	for run := 1; run <= 2; run++ {
		if err := s.startEmulator(ctx); err != nil {
			log, _ := os.ReadFile(filepath.Join(s.LogDir, "firebase-auth-emulator.log"))
			t.Fatalf("run %d: %v\n%s", run, err, log)
		}
		if run == 1 {
			if code := identityToolkit(t, s.Ports.AuthEmulator, "signUp", account); code != http.StatusOK {
				t.Fatalf("sign-up: %d", code)
			}
		}
		if code := identityToolkit(t, s.Ports.AuthEmulator, "signInWithPassword", account); code != http.StatusOK {
			log, _ := os.ReadFile(filepath.Join(s.LogDir, "firebase-auth-emulator.log"))
			t.Fatalf("run %d: sign-in answered %d; the account did not survive the restart\n%s", run, code, log)
		}
		s.Stop() // as Ctrl-C on `make run` does
	}
}
