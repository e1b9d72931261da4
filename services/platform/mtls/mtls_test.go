package mtls_test

import (
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"uplift.dev/platform/devcerts"
	"uplift.dev/platform/mtls"
)

func newCA(t *testing.T) *devcerts.CA {
	t.Helper()
	ca, err := devcerts.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	return ca
}

func write(t *testing.T, ca *devcerts.CA, dir string, id mtls.Identity) mtls.Files {
	t.Helper()
	f, err := ca.Write(dir, id, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func load(t *testing.T, f mtls.Files) *mtls.Source {
	t.Helper()
	s, err := mtls.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serve accepts TLS connections with cfg until the test ends.
func serve(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	lis, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lis.Close() })
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.(*tls.Conn).Handshake()
				_, _ = c.Read(make([]byte, 1))
			}()
		}
	}()
	return lis.Addr().String()
}

// handshake dials addr and returns the server's leaf common name.
func handshake(addr string, cfg *tls.Config) (string, error) {
	cfg = cfg.Clone()
	cfg.ServerName = "127.0.0.1"
	cfg.NextProtos = []string{"h2"}
	c, err := tls.Dial("tcp", addr, cfg)
	if err != nil {
		return "", err
	}
	defer c.Close()
	// TLS 1.3 reports a refused client certificate on the first read.
	_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
		return "", err
	}
	return c.ConnectionState().PeerCertificates[0].Subject.CommonName, nil
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// rotate writes id's new certificate over f's files, as cert-manager
// does, with a later modification time.
func rotate(t *testing.T, ca *devcerts.CA, f mtls.Files, id mtls.Identity) {
	t.Helper()
	dir := t.TempDir()
	next := write(t, ca, dir, id)
	later := time.Now().Add(time.Minute)
	for from, to := range map[string]string{next.Cert: f.Cert, next.Key: f.Key, next.CA: f.CA} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(to, later, later); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRotatedFilesServeTheNextHandshake: cert-manager writes a renewed
// certificate (here under a new CA, the hardest case) into the mounted
// files; the next handshake, on both sides, uses it with no restart.
func TestRotatedFilesServeTheNextHandshake(t *testing.T) {
	t.Parallel()
	ca := newCA(t)
	server := write(t, ca, t.TempDir(), mtls.Identity{Kind: mtls.KindService, Name: "users"})
	client := write(t, ca, t.TempDir(), mtls.Identity{Kind: mtls.KindBackend, Name: "support"})
	ss, cs := load(t, server), load(t, client)
	addr := serve(t, ss.ServerConfig())

	if cn, err := handshake(addr, cs.ClientConfig()); err != nil || cn != "users" {
		t.Fatalf("first handshake: %q, %v", cn, err)
	}

	next := newCA(t)
	rotate(t, next, server, mtls.Identity{Kind: mtls.KindService, Name: "users-renewed"})
	// The client still trusts only the old CA: it refuses the renewed server.
	if _, err := handshake(addr, cs.ClientConfig()); err == nil {
		t.Fatal("a client that trusts only the old CA accepted the server's new certificate")
	}
	rotate(t, next, client, mtls.Identity{Kind: mtls.KindBackend, Name: "support"})
	if cn, err := handshake(addr, cs.ClientConfig()); err != nil || cn != "users-renewed" {
		t.Fatalf("after rotation: %q, %v", cn, err)
	}
	if ss.Err() != nil || cs.Err() != nil {
		t.Fatalf("reload errors: %v, %v", ss.Err(), cs.Err())
	}
}

// TestHalfWrittenRotationKeepsThePreviousPair: a key that does not match
// the certificate (caught between two writes) does not break serving.
func TestHalfWrittenRotationKeepsThePreviousPair(t *testing.T) {
	t.Parallel()
	ca := newCA(t)
	server := write(t, ca, t.TempDir(), mtls.Identity{Kind: mtls.KindService, Name: "users"})
	client := write(t, ca, t.TempDir(), mtls.Identity{Kind: mtls.KindService, Name: "gateway"})
	ss := load(t, server)
	addr := serve(t, ss.ServerConfig())

	other := write(t, ca, t.TempDir(), mtls.Identity{Kind: mtls.KindService, Name: "other"})
	b, _ := os.ReadFile(other.Key)
	later := time.Now().Add(time.Minute)
	if err := os.WriteFile(server.Key, b, 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(server.Key, later, later)

	if cn, err := handshake(addr, load(t, client).ClientConfig()); err != nil || cn != "users" {
		t.Fatalf("handshake during a half-written rotation: %q, %v", cn, err)
	}
	if ss.Err() == nil {
		t.Fatal("the mismatched key was not reported")
	}
}

// TestClientWithoutCertificateIsRefused: the port requires a certificate
// from the CA.
func TestClientWithoutCertificateIsRefused(t *testing.T) {
	t.Parallel()
	ca := newCA(t)
	server := write(t, ca, t.TempDir(), mtls.Identity{Kind: mtls.KindService, Name: "users"})
	addr := serve(t, load(t, server).ServerConfig())
	cfg := load(t, server).ClientConfig()
	cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &tls.Certificate{}, nil }
	if _, err := handshake(addr, cfg); err == nil {
		t.Fatal("a client with no certificate was served")
	}
	stranger := write(t, newCA(t), t.TempDir(), mtls.Identity{Kind: mtls.KindBackend, Name: "support"})
	if _, err := handshake(addr, load(t, stranger).ClientConfig()); err == nil {
		t.Fatal("a certificate from another CA was accepted")
	}
}

func TestLoadNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	_, err := mtls.Load(mtls.Files{Cert: filepath.Join(t.TempDir(), "tls.crt")})
	if err == nil || !strings.Contains(err.Error(), "GRPC_TLS_KEY_FILE") || !strings.Contains(err.Error(), "GRPC_TLS_CA_FILE") {
		t.Fatalf("err = %v", err)
	}
}

func TestTLSIsOnByDefaultOutsideLocalMode(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	if _, err := (mtls.Settings{}).Open(false, log); !errors.Is(err, mtls.ErrTLSRequired) {
		t.Fatalf("no files outside local mode: %v", err)
	}
	for _, s := range []struct {
		settings mtls.Settings
		local    bool
	}{{mtls.Settings{Insecure: true}, false}, {mtls.Settings{}, true}} {
		if src, err := s.settings.Open(s.local, log); err != nil || src != nil {
			t.Fatalf("%+v: %v, %v", s, src, err)
		}
	}
	f := write(t, newCA(t), t.TempDir(), mtls.Identity{Kind: mtls.KindService, Name: "users"})
	if src, err := (mtls.Settings{CertFile: f.Cert, KeyFile: f.Key, CAFile: f.CA}).Open(false, log); err != nil || src == nil {
		t.Fatalf("with files: %v, %v", src, err)
	}
}
