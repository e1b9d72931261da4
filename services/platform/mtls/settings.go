package mtls

import (
	"errors"
	"log/slog"
)

// Settings are a program's gRPC TLS settings; embed them in its config.
type Settings struct {
	CertFile string `env:"GRPC_TLS_CERT_FILE"`
	KeyFile  string `env:"GRPC_TLS_KEY_FILE"`
	CAFile   string `env:"GRPC_TLS_CA_FILE"`
	// Insecure allows plaintext gRPC outside local mode: a deliberate
	// choice (a mesh that does mTLS itself), logged as a warning at start.
	Insecure bool `env:"GRPC_INSECURE"`
}

// ErrTLSRequired stops a program outside local mode that was given no
// certificates.
var ErrTLSRequired = errors.New("GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE are required outside local mode " +
	"(no Auth emulator): gRPC is mutual TLS by default; set GRPC_INSECURE=true to serve and dial plaintext on purpose")

// Open returns the program's certificates, or nil for plaintext: allowed
// in local mode (the Auth emulator, a demo- project) and with Insecure.
func (s Settings) Open(local bool, log *slog.Logger) (*Source, error) {
	f := Files{Cert: s.CertFile, Key: s.KeyFile, CA: s.CAFile}
	switch {
	case f.Set():
		src, err := Load(f)
		if err != nil {
			return nil, err
		}
		log.Info("gRPC is mutual TLS", "cert", f.Cert, "ca", f.CA)
		return src, nil
	case s.Insecure:
		log.Warn("GRPC_INSECURE=true: gRPC is plaintext, and callers are not identified by certificate")
		return nil, nil
	case local:
		log.Info("gRPC is plaintext (local mode without GRPC_TLS_* files)")
		return nil, nil
	}
	return nil, ErrTLSRequired
}
