package stacktest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// ShopifySim is the stack's Shopify simulator, driven through its control
// API (/_sim/...) to make shops with the orders a test needs.
type ShopifySim struct {
	URL string
}

// Sim returns the stack's simulator (UPLIFT_SHOPIFY_SIM_URL).
func (s *Stack) Sim(t testing.TB) *ShopifySim {
	t.Helper()
	u := os.Getenv("UPLIFT_SHOPIFY_SIM_URL")
	if u == "" {
		t.Fatal("UPLIFT_SHOPIFY_SIM_URL not set; `make test` runs the stack with the Shopify simulator")
	}
	return &ShopifySim{URL: strings.TrimRight(u, "/")}
}

// Control posts body (JSON) to the control API's path and fails the test
// unless it answers 2xx.
func (sim *ShopifySim) Control(t testing.TB, path string, body any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(sim.URL+"/_sim/"+strings.TrimPrefix(path, "/"), "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var e struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		t.Fatalf("shopify sim %s: %d %s", path, resp.StatusCode, e.Error)
	}
}

// ConnectShopify connects owner's store to shop the way the web and a
// merchant do: Connections asks for the consent address, the browser goes
// through the gateway (which binds the state to a cookie) to the
// simulator's consent page, the merchant installs, and the callback comes
// back through the gateway. It then waits for the first sync to finish.
func (s *Stack) ConnectShopify(t testing.TB, owner User, shop string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"shop": shop})
	var (
		code int
		b    []byte
		err  error
	)
	// A new owner's business reaches the categories service from the
	// sign-up event: until then the store is not found (404).
	for wait := time.Now().Add(30 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		code, b, err = s.Do(http.MethodPost, "/internal/categories/"+owner.CategoryID+"/connections/shopify", owner.Token, body)
		if err != nil || code != http.StatusNotFound || time.Now().After(wait) {
			break
		}
	}
	if err != nil || code != http.StatusOK {
		t.Fatalf("start connect: %d %s %v", code, Excerpt(b), err)
	}
	var started struct {
		RedirectURL string `json:"redirectUrl"`
	}
	if err := json.Unmarshal(b, &started); err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	redirect := func(resp *http.Response, err error) *url.URL {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, err := resp.Location()
		if err != nil {
			t.Fatalf("%s %s answered %d, not a redirect", resp.Request.Method, resp.Request.URL, resp.StatusCode)
		}
		return loc
	}
	consent := redirect(browser.Get(started.RedirectURL))
	form := consent.Query()
	form.Set("decision", "install")
	consent.RawQuery = ""
	callback := redirect(browser.PostForm(consent.String(), form))
	if back := redirect(browser.Get(callback.String())); !strings.Contains(back.RawQuery, "shopify=connected") {
		t.Fatalf("the callback led to %s", back)
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		code, b, err := s.Do(http.MethodGet, "/internal/categories/"+owner.CategoryID+"/connections", owner.Token, nil)
		var c struct {
			Shopify struct {
				Sync struct{ Phase, Error string }
			}
		}
		if err == nil && code == http.StatusOK && json.Unmarshal(b, &c) == nil {
			switch c.Shopify.Sync.Phase {
			case "DONE":
				return
			case "FAILED":
				t.Fatalf("the sync of %s failed: %s", shop, c.Shopify.Sync.Error)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sync of %s did not finish in 90 s: %d %s %v", shop, code, Excerpt(b), err)
		}
		time.Sleep(300 * time.Millisecond)
	}
}
