package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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
	s, said := testStack(t)
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
			t.Fatalf("run %d: sign-in answered %d; the account did not survive the restart\ndevstack said:\n%s\nthe emulator's log:\n%s", run, code, said.text(), log)
		}
		s.Stop() // as Ctrl-C on `make run` does
		if run == 1 {
			// What the next start imports: without it the accounts are gone.
			if _, err := os.Stat(filepath.Join(s.StateDir, "firebase-auth", "firebase-export-metadata.json")); err != nil {
				t.Fatalf("no export after a clean stop: %v\ndevstack said:\n%s", err, said.text())
			}
		}
	}
}

// TestEmulatorIsReadyOnlyAfterItsImport: the Auth emulator answers HTTP
// while it is still importing the saved accounts, so answering is not
// ready; the log's "All emulators ready", written after the import, is.
func TestEmulatorIsReadyOnlyAfterItsImport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer srv.Close()
	log := filepath.Join(t.TempDir(), "firebase-auth-emulator.log")
	importing := "i  auth: Importing accounts from .local/firebase-auth/auth_export/accounts.json\n"
	if err := os.WriteFile(log, []byte(importing), 0o644); err != nil {
		t.Fatal(err)
	}
	ready := emulatorReady(srv.URL+"/", log)
	if ready() {
		t.Fatal("ready while the accounts were still being imported")
	}
	done := importing + "✔  All emulators ready! It is now safe to connect your app.\n"
	if err := os.WriteFile(log, []byte(done), 0o644); err != nil {
		t.Fatal(err)
	}
	if !ready() {
		t.Fatal("not ready after the emulator said so")
	}
	srv.Close()
	if ready() {
		t.Fatal("ready with nothing answering")
	}
}
