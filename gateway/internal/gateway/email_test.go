package gateway

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"

	"uplift.dev/platform/pagesec/pagesectest"
)

// fakeDigest accepts the token "good/+=" (characters a link must carry
// intact) and refuses any other as the digest service does.
type fakeDigest struct {
	digestv1.UnimplementedDigestServiceServer
}

const goodToken = "good/+="

func (fakeDigest) Unsubscribe(_ context.Context, r *digestv1.UnsubscribeRequest) (*digestv1.UnsubscribeResponse, error) {
	if r.GetToken() != goodToken {
		return nil, status.Error(codes.InvalidArgument, "This unsubscribe link is not valid.")
	}
	return &digestv1.UnsubscribeResponse{Kind: digestv1.DigestKind_DIGEST_KIND_AI_DIGEST,
		Message: "You will no longer receive the <AI> email digest."}, nil
}

func (fakeDigest) Resubscribe(_ context.Context, r *digestv1.ResubscribeRequest) (*digestv1.ResubscribeResponse, error) {
	if r.GetToken() != goodToken {
		return nil, status.Error(codes.InvalidArgument, "This unsubscribe link is not valid.")
	}
	return &digestv1.ResubscribeResponse{Kind: digestv1.DigestKind_DIGEST_KIND_AI_DIGEST, Message: "The AI email digest is on again."}, nil
}

func page(t *testing.T, method, u string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(method, u, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// The link in an email opens a page for a person that first asks (a GET
// changes nothing, so a link scanner unsubscribes nobody), then says what
// was turned off, with a button that turns it back on with the same token.
func TestUnsubscribeLinkShowsAPage(t *testing.T) {
	t.Parallel()
	e := setup(t)
	code, ctype, body := page(t, "GET", e.url+"/email/unsubscribe?token=good%2F%2B%3D")
	if code != 200 || !strings.HasPrefix(ctype, "text/html") || !strings.Contains(body, "Unsubscribe from these emails?") ||
		!strings.Contains(strings.ToLower(body), `action="/email/unsubscribe/confirm?token=good%2f%2b%3d"`) ||
		strings.Contains(body, "You are unsubscribed") {
		t.Fatalf("confirm page: %d %s\n%s", code, ctype, body)
	}
	code, ctype, body = page(t, "POST", e.url+"/email/unsubscribe/confirm?token=good%2F%2B%3D")
	if code != 200 || !strings.HasPrefix(ctype, "text/html") {
		t.Fatalf("unsubscribe page: %d %s", code, ctype)
	}
	for _, want := range []string{"You are unsubscribed", "You will no longer receive the &lt;AI&gt; email digest.",
		`action="/email/resubscribe?token=good%2f%2b%3d"`, "Turn it back on", `href="http://web.test/"`} {
		if !strings.Contains(strings.ToLower(body), strings.ToLower(want)) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}

	code, _, body = page(t, "POST", e.url+"/email/resubscribe?token=good%2F%2B%3D")
	if code != 200 || !strings.Contains(body, "The AI email digest is on again.") {
		t.Fatalf("resubscribe: %d\n%s", code, body)
	}

	code, ctype, body = page(t, "POST", e.url+"/email/unsubscribe/confirm?token=forged")
	if code != 400 || !strings.HasPrefix(ctype, "text/html") || !strings.Contains(body, "This unsubscribe link is not valid.") ||
		strings.Contains(body, "Turn it back on") {
		t.Fatalf("forged token: %d %s\n%s", code, ctype, body)
	}
}

// Mail clients unsubscribe with one POST (RFC 8058): the form body
// "List-Unsubscribe=One-Click" and the token in the link.
func TestOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for token, want := range map[string]int{"good%2F%2B%3D": 200, "forged": 400} {
		resp, err := http.Post(e.url+"/email/unsubscribe?token="+token, "application/x-www-form-urlencoded",
			strings.NewReader("List-Unsubscribe=One-Click"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("one-click with %s: %d %s, want %d", token, resp.StatusCode, b, want)
		}
	}
}

// The email pages carry a token in their address and act on a press, so
// another site must not frame them (clickjacking) or run anything in them:
// each answer has a policy that allows nothing but the page's own style (by
// the hash of the very style it serves) and its own forms, refuses framing,
// and sends no Referer.
func TestEmailPagesHaveAStrictPolicy(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, p := range []struct{ method, path string }{
		{"GET", "/email/unsubscribe?token=good%2F%2B%3D"},
		{"GET", "/email/unsubscribe"},
		{"POST", "/email/unsubscribe/confirm?token=good%2F%2B%3D"},
		{"POST", "/email/unsubscribe/confirm?token=forged"},
		{"POST", "/email/resubscribe?token=good%2F%2B%3D"},
	} {
		req, _ := http.NewRequest(p.method, e.url+p.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err := pagesectest.Check(resp.Header, string(b)); err != nil {
			t.Errorf("%s %s: %v", p.method, p.path, err)
		}
	}
}
