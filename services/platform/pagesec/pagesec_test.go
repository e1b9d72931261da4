package pagesec_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"uplift.dev/platform/pagesec"
	"uplift.dev/platform/pagesec/pagesectest"
)

func TestPolicyAllowsOnlyThePagesOwnStyleAndForms(t *testing.T) {
	t.Parallel()
	got := pagesec.Policy([]string{"a"}, "http://localhost:3000", "")
	// sha256("a"), as a browser hashes the text of <style>a</style>.
	want := "default-src 'none'; base-uri 'none'; frame-ancestors 'none'; style-src 'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='; form-action 'self' http://localhost:3000"
	if got != want {
		t.Fatalf("Policy = %q\nwant      %q", got, want)
	}
	if got := pagesec.Policy(nil); strings.Contains(got, "style-src") {
		t.Fatalf("a page without style allows styles: %q", got)
	}
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://localhost:3000/?upgraded=1": "http://localhost:3000",
		"https://app.example.com/x#y":       "https://app.example.com",
		"":                                  "",
		"/relative":                         "",
		"::bad":                             "",
	} {
		if got := pagesec.Origin(in); got != want {
			t.Errorf("Origin(%q) = %q, want %q", in, got, want)
		}
	}
}

// The test helper agrees with SetPage, and catches a page without its
// headers, a style the policy does not allow and a missing form origin.
func TestCheck(t *testing.T) {
	t.Parallel()
	const body = "<html><style>p{color:red}</style><p>hi</p></html>"
	w := httptest.NewRecorder()
	pagesec.SetPage(w.Header(), pagesec.Policy([]string{"p{color:red}"}, "http://web.test"))
	if err := pagesectest.Check(w.Header(), body, "http://web.test"); err != nil {
		t.Fatalf("a page served with SetPage: %v", err)
	}
	if err := pagesectest.Check(http.Header{}, body); err == nil {
		t.Fatal("a page without headers passed")
	}
	if err := pagesectest.Check(w.Header(), strings.Replace(body, "red", "blue", 1)); err == nil {
		t.Fatal("a style the policy does not allow passed")
	}
	if err := pagesectest.Check(w.Header(), body, "http://other.test"); err == nil {
		t.Fatal("a form origin the policy does not allow passed")
	}
}

func TestNoSniff(t *testing.T) {
	t.Parallel()
	h := pagesec.NoSniff(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("headers %v", w.Header())
	}
}
