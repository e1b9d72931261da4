package archtest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkersLinkNoTokenChecks: the workers and the setup command serve no
// gRPC and the gateway passes the caller's token on (each service checks
// it), so none of them checks an ID token, and none may link the Firebase
// Admin SDK, which brings Firestore, Cloud Storage and gRPC's xDS with it
// (the gateway's binary 60 → 33 MB, the review worker's 65 → 36 MB):
// program holds their start-up apart from package service. One that
// imports service (or auth) again fails here.
func TestWorkersLinkNoTokenChecks(t *testing.T) {
	t.Parallel()
	programs := []string{
		"uplift.dev/gateway/cmd/gateway",
		"uplift.dev/studio/cmd/studioworker",
		"uplift.dev/review/cmd/reviewworker",
		"uplift.dev/platform/cmd/natssetup",
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, programs...)...)
	cmd.Dir = filepath.Join(servicesDir, "..") // the repository, whose go.work names every module
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "firebase.google.com/") || dep == "uplift.dev/platform/auth" || dep == "uplift.dev/platform/service" {
			t.Errorf("a worker links %s", dep)
		}
	}
}
