// Package devcerts mints a private CA and a certificate per workload, for
// the local stack and tests, so they run gRPC with mutual TLS as a cluster
// does rather than in plaintext. ECDSA P-256: the CA and nine
// certificates take 50–80 ms on a 2-core machine. Never for production, whose
// certificates come from cert-manager (deploy/k8s/base/grpc-tls.example.yaml).
package devcerts

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"uplift.dev/platform/mtls"
)

// CA is a certificate authority held in memory.
type CA struct {
	cert *x509.Certificate
	der  []byte
	key  *ecdsa.PrivateKey
}

// validity is long enough for any local run and short enough that a
// leaked local key is soon worthless.
const validity = 30 * 24 * time.Hour

// NewCA makes a CA named name.
func NewCA(name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(validity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{cert: cert, der: der, key: key}, nil
}

// PEM is the CA's certificate, the bundle peers verify against.
func (ca *CA) PEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.der})
}

// Leaf is one workload's certificate and key, PEM encoded.
type Leaf struct{ Cert, Key []byte }

// Issue makes a certificate for id, good as a server for hosts (DNS names
// or IP addresses) and as a client.
func (ca *CA) Issue(id mtls.Identity, hosts ...string) (Leaf, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Leaf{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: id.Name},
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(validity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		URIs:         []*url.URL{id.URI()},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return Leaf{}, err
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return Leaf{}, err
	}
	return Leaf{
		Cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		Key:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}),
	}, nil
}

// Write issues id's certificate into dir as NAME.crt and NAME.key (with
// ca.crt beside them) and returns the files.
func (ca *CA) Write(dir string, id mtls.Identity, hosts ...string) (mtls.Files, error) {
	leaf, err := ca.Issue(id, hosts...)
	if err != nil {
		return mtls.Files{}, err
	}
	f := mtls.Files{
		Cert: filepath.Join(dir, id.Name+".crt"),
		Key:  filepath.Join(dir, id.Name+".key"),
		CA:   filepath.Join(dir, "ca.crt"),
	}
	for path, b := range map[string][]byte{f.Cert: leaf.Cert, f.Key: leaf.Key, f.CA: ca.PEM()} {
		if err := os.WriteFile(path, b, 0o600); err != nil {
			return mtls.Files{}, fmt.Errorf("devcerts: %w", err)
		}
	}
	return f, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return n
}
