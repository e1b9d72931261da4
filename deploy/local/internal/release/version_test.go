package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A repository of the test's own with the tree's folders, so the script
// meets tags and commits made for each case.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.git("config", "user.email", "test@example.com")
	r.git("config", "user.name", "test")
	for _, d := range []string{"services/users", "services/billing", "services/review", "services/platform", "proto", "gateway", "deploy"} {
		r.write(d+"/README.md", d)
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "..", "version.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "deploy", "version.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	r.commit("start")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	out, err := exec.Command("git", append([]string{"-C", r.dir}, args...)...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(path, text string) {
	r.t.Helper()
	p := filepath.Join(r.dir, path)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) string {
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "--short=12", "HEAD")
}

func (r *repo) version(name string) string {
	r.t.Helper()
	cmd := exec.Command("bash", filepath.Join(r.dir, "deploy", "version.sh"), name)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("version.sh %s: %v\n%s", name, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Each program's version moves only with what goes into its binary (its
// folder, the shared kit, the protos), counted from its own tag; the
// workers follow their service.
func TestEachProgramIsVersionedFromItsOwnPaths(t *testing.T) {
	r := newRepo(t)
	start := r.git("rev-parse", "--short=12", "HEAD")
	if got, want := r.version("users"), "v0.0.0-1-g"+start; got != want {
		t.Errorf("before any tag: users %s, want %s", got, want)
	}

	r.git("tag", "services/users/v1.4.0")
	r.git("tag", "gateway/v0.3.1")
	if got := r.version("users"); got != "v1.4.0" {
		t.Errorf("on its tag: users %s, want v1.4.0", got)
	}
	if got := r.version("gateway"); got != "v0.3.1" {
		t.Errorf("on its tag: gateway %s, want v0.3.1", got)
	}

	r.write("services/billing/plan.go", "package billing")
	r.commit("billing only")
	if got := r.version("users"); got != "v1.4.0" {
		t.Errorf("after a commit to billing: users %s, want v1.4.0 (unchanged)", got)
	}

	r.write("services/platform/kit.go", "package platform")
	kit := r.commit("the shared kit")
	r.write("services/users/users.go", "package users")
	own := r.commit("users itself")
	r.write("deploy/notes.md", "not in any binary")
	r.commit("deploy only")
	if got, want := r.version("users"), "v1.4.0-2-g"+own; got != want {
		t.Errorf("after the kit and users changed: users %s, want %s", got, want)
	}
	if got, want := r.version("gateway"), "v0.3.1-1-g"+kit; got != want {
		t.Errorf("after the kit changed: gateway %s, want %s", got, want)
	}

	r.git("tag", "services/review/v2.0.0")
	if got := r.version("reviewworker"); got != r.version("review") || got != "v2.0.0" {
		t.Errorf("reviewworker %s, review %s: the worker ships with its service (v2.0.0)", got, r.version("review"))
	}

	r.write("services/users/users.go", "package users // changed")
	if got, want := r.version("users"), "v1.4.0-2-g"+own+"-dirty"; got != want {
		t.Errorf("with a change not committed: users %s, want %s", got, want)
	}
	if got := r.version("billing"); strings.HasSuffix(got, "-dirty") {
		t.Errorf("billing %s: a change to users does not make billing dirty", got)
	}
}

// A name that is no program is refused, not versioned as v0.0.0.
func TestAnUnknownProgramIsRefused(t *testing.T) {
	r := newRepo(t)
	cmd := exec.Command("bash", filepath.Join(r.dir, "deploy", "version.sh"), "nosuch")
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no program nosuch") {
		t.Errorf("version.sh nosuch: %v %s, want a refusal naming it", err, out)
	}
}
