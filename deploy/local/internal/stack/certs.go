package stack

import (
	"os"
	"path/filepath"
	"strconv"

	"uplift.dev/platform/devcerts"
	"uplift.dev/platform/mtls"
)

// ExampleBackend is the backend whose certificate the stack mints for
// docs/grpc.md's grpcurl session: the users service grants it reads.
const ExampleBackend = "support"

// grpcTLSDir is where the stack's gRPC certificates are: the CA (ca.crt)
// and NAME.crt, NAME.key per service, the gateway and ExampleBackend.
func (s *Stack) grpcTLSDir() string { return filepath.Join(s.StateDir, "grpc-tls") }

// mintGRPCCerts makes a new local CA and every certificate, each start
// (under 0.1 s), so the stack's gRPC is mutual TLS as a cluster's
// is. Each certificate serves every copy's address.
func (s *Stack) mintGRPCCerts() error {
	dir := s.grpcTLSDir()
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ca, err := devcerts.NewCA("Uplift local stack CA")
	if err != nil {
		return err
	}
	hosts := []string{"localhost"}
	for i := range s.copies() {
		hosts = append(hosts, "127.0.0."+strconv.Itoa(i+1))
	}
	ids := []mtls.Identity{{Kind: mtls.KindService, Name: "gateway"}, {Kind: mtls.KindBackend, Name: ExampleBackend}}
	for _, name := range ServiceNames {
		ids = append(ids, mtls.Identity{Kind: mtls.KindService, Name: name})
	}
	for _, id := range ids {
		if _, err := ca.Write(dir, id, hosts...); err != nil {
			return err
		}
	}
	return nil
}

// grpcTLSEnv points a program at its certificate.
func (s *Stack) grpcTLSEnv(name string) []string {
	dir := s.grpcTLSDir()
	return []string{
		"GRPC_TLS_CERT_FILE=" + filepath.Join(dir, name+".crt"),
		"GRPC_TLS_KEY_FILE=" + filepath.Join(dir, name+".key"),
		"GRPC_TLS_CA_FILE=" + filepath.Join(dir, "ca.crt"),
	}
}
