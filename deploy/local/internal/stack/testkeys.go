package stack

import (
	"net"
	"net/http"
	"path/filepath"
	"time"

	"uplift.dev/platform/auth/testkeys"
)

// TestSigningKeyEnv names the file holding the private key that signs the
// benchmark's ID tokens, for the command `devstack exec -test-keys` runs.
const TestSigningKeyEnv = "UPLIFT_TEST_SIGNING_KEY"

// UseTestKeys makes the services started next check ID tokens as in
// production (RS256 against a key set, revocation looked up) against a key
// set this stack makes and serves on loopback, so the benchmark signs its
// own tokens and the emulator, which checks no signature, is out of the
// measurement. Call it after StartInfra and before StartApps.
func (s *Stack) UseTestKeys() error {
	keys, err := testkeys.New()
	if err != nil {
		return err
	}
	path := filepath.Join(s.StateDir, "test-signing-key.pem")
	if err := keys.WriteKeyFile(path); err != nil {
		return err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: keys.Handler(), ReadHeaderTimeout: 10 * time.Second}
	s.servers = append(s.servers, srv)
	go func() { _ = srv.Serve(lis) }()
	certs := "http://" + lis.Addr().String() + "/certs"
	// The services started next read the key set's address from the
	// environment like the rest of the stack's (auth.TestCertsURLEnv; the
	// name is spelled out to keep the Admin SDK out of devstack's build).
	s.env = append(s.env, "FIREBASE_TEST_CERTS_URL="+certs, TestSigningKeyEnv+"="+path)
	s.say("test keys    %s (ID tokens signed by the benchmark; key in %s)", certs, path)
	return nil
}
