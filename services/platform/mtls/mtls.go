// Package mtls is mutual TLS for every gRPC port and every outbound dial:
// a workload's certificate, key and CA bundle read from files (as
// cert-manager and a Kubernetes Secret volume write them) and read again
// when they change, so a rotated certificate is used by the next handshake
// with no restart; and the Uplift identity a peer's certificate names.
package mtls

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Files names a workload's PEM files. The one certificate serves the
// workload's port and identifies it on its own calls (cert-manager's
// usages "server auth" and "client auth"): a workload has one identity.
type Files struct {
	// Cert is the certificate chain, leaf first (tls.crt).
	Cert string
	// Key is the leaf's private key (tls.key).
	Key string
	// CA is the bundle that peers' certificates must chain to (ca.crt).
	CA string
}

// Set reports whether any file is named.
func (f Files) Set() bool { return f.Cert != "" || f.Key != "" || f.CA != "" }

// Validate says which files are missing when only some are named.
func (f Files) Validate() error {
	if !f.Set() {
		return nil
	}
	var missing []string
	for _, v := range [][2]string{{"GRPC_TLS_CERT_FILE", f.Cert}, {"GRPC_TLS_KEY_FILE", f.Key}, {"GRPC_TLS_CA_FILE", f.CA}} {
		if v[1] == "" {
			missing = append(missing, v[0])
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("mtls: %v not set: TLS needs the certificate, its key and the CA bundle", missing)
	}
	return nil
}

// Source holds the files' current contents. Each handshake asks it for
// them; it looks at the files' modification times (three stats, far
// cheaper than the handshake) and reads them again when one changed. A
// rotation caught half written (the key not yet matching the certificate)
// keeps the previous pair until the files agree again.
type Source struct {
	files Files

	mu      sync.Mutex
	stamps  [3]stamp
	cert    *tls.Certificate
	pool    *x509.CertPool
	server  *tls.Config
	lastErr error
}

// stamp is what tells a file changed: a Secret volume swaps a symlink, so
// both the time and the size are compared.
type stamp struct {
	mod  time.Time
	size int64
}

// Load reads the files; an error names the file that is missing or bad.
func Load(f Files) (*Source, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if !f.Set() {
		return nil, errors.New("mtls: no files named")
	}
	s := &Source{files: f}
	stamps, err := s.stat()
	if err != nil {
		return nil, err
	}
	if err := s.read(stamps); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Source) stat() ([3]stamp, error) {
	var st [3]stamp
	for i, p := range []string{s.files.Cert, s.files.Key, s.files.CA} {
		fi, err := os.Stat(p)
		if err != nil {
			return st, fmt.Errorf("mtls: %w", err)
		}
		st[i] = stamp{mod: fi.ModTime(), size: fi.Size()}
	}
	return st, nil
}

// read loads the files stamped st; the caller holds mu or owns s.
func (s *Source) read(st [3]stamp) error {
	cert, err := tls.LoadX509KeyPair(s.files.Cert, s.files.Key)
	if err != nil {
		return fmt.Errorf("mtls: %s and %s: %w", s.files.Cert, s.files.Key, err)
	}
	pem, err := os.ReadFile(s.files.CA)
	if err != nil {
		return fmt.Errorf("mtls: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return fmt.Errorf("mtls: %s holds no PEM certificate", s.files.CA)
	}
	s.cert, s.pool, s.stamps = &cert, pool, st
	s.server = &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{cert},
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		// gRPC refuses a TLS connection that did not agree on HTTP/2.
		NextProtos: []string{"h2"},
	}
	return nil
}

// current returns the certificate and the CA pool as the files hold them
// now (or, when they cannot be read, as they last could).
func (s *Source) current() (*tls.Certificate, *x509.CertPool, *tls.Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.stat()
	if err == nil && st != s.stamps {
		err = s.read(st)
	}
	s.lastErr = err
	return s.cert, s.pool, s.server
}

// Err is why the files could not be read again at the last handshake; nil
// when what is in use is what they hold.
func (s *Source) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// ServerConfig is the TLS a gRPC port serves: TLS 1.3, the current
// certificate, and a client certificate required and verified against the
// current CA bundle.
func (s *Source) ServerConfig() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS13,
		NextProtos: []string{"h2"},
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			_, _, cfg := s.current()
			return cfg, nil
		},
	}
}

// ClientConfig is the TLS of an outbound dial: the current certificate
// offered as the caller's identity, and the server's certificate verified
// against the current CA bundle for the name dialled (gRPC sets ServerName
// from the target's host).
//
// crypto/tls reads RootCAs once per Config; to follow a rotated CA bundle
// the check is made here, as crypto/tls would make it, with the pool the
// files hold now.
func (s *Source) ClientConfig() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS13,
		GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			cert, _, _ := s.current()
			return cert, nil
		},
		InsecureSkipVerify: true, // VerifyConnection verifies, against the current pool
		VerifyConnection: func(cs tls.ConnectionState) error {
			_, pool, _ := s.current()
			return verifyServer(cs, pool)
		},
	}
}

func verifyServer(cs tls.ConnectionState, roots *x509.CertPool) error {
	if len(cs.PeerCertificates) == 0 {
		return errors.New("mtls: the server sent no certificate")
	}
	inter := x509.NewCertPool()
	for _, c := range cs.PeerCertificates[1:] {
		inter.AddCert(c)
	}
	_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{
		Roots: roots, Intermediates: inter, DNSName: cs.ServerName,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
	return err
}
