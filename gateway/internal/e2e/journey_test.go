package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/gateway/internal/stacktest"
)

// TestOwnerJourney is a new owner's first hour, through the gateway alone:
// sign up, save the website and wait for its review (the review worker,
// with Chromium), connect a Shopify shop and read Analytics from its
// orders. It is how `make containers` proves the images work together, so
// it runs only when UPLIFT_JOURNEY is set: `make test` covers each step
// already, in more depth.
func TestOwnerJourney(t *testing.T) {
	if os.Getenv("UPLIFT_JOURNEY") == "" {
		t.Skip("UPLIFT_JOURNEY not set: `make containers` runs this against the containers")
	}
	s := stacktest.FromEnv(t)
	store := os.Getenv("UPLIFT_DEMO_STORE_URL")
	if store == "" {
		t.Fatal("UPLIFT_DEMO_STORE_URL not set: the website the review reads")
	}
	step := func(name string, start time.Time) { t.Logf("%-16s %6.1f s", name, time.Since(start).Seconds()) }

	start := time.Now()
	owner := s.SignUp(t)
	step("sign-up", start)

	start = time.Now()
	base := "/internal/categories/" + owner.CategoryID + "/business-data/"
	body, _ := json.Marshal(map[string]any{"siteUrl": store})
	if code, b, err := s.Do(http.MethodPatch, base+"contentGenerationParams", owner.Token, body); err != nil || code != http.StatusOK {
		t.Fatalf("save the website: %d %s %v", code, stacktest.Excerpt(b), err)
	}
	// Reviews queue behind one Chromium on a small machine: give it time.
	for deadline := time.Now().Add(4 * time.Minute); ; time.Sleep(time.Second) {
		code, b, err := s.Do(http.MethodGet, base+"currentReport", owner.Token, nil)
		var r struct {
			Status, ErrorMessage string
			Score                int
		}
		if err == nil && code == http.StatusOK && json.Unmarshal(b, &r) == nil {
			if strings.HasSuffix(r.Status, "READY") {
				t.Logf("review score %d", r.Score)
				break
			}
			if strings.HasSuffix(r.Status, "FAILED") {
				t.Fatalf("the review failed: %s", r.ErrorMessage)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no finished review after 4 minutes: %d %s %v", code, stacktest.Excerpt(b), err)
		}
	}
	step("website review", start)

	start = time.Now()
	sim := s.Sim(t)
	shop := "journey-" + uuid.NewString()[:8] + ".myshopify.com"
	sim.Control(t, "shops", map[string]any{"domain": shop, "name": "Journey shop", "currency": "USD", "timezone": "UTC"})
	sim.Control(t, "shops/"+shop+"/products", map[string]any{"id": 1, "title": "Trail Mug"})
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	for i := range 3 {
		sim.Control(t, "shops/"+shop+"/orders", map[string]any{"name": "#10" + string(rune('0'+i)),
			"createdAt":  time.Date(yesterday.Year(), yesterday.Month(), yesterday.Day(), 9+i, 0, 0, 0, time.UTC),
			"customerId": 100 + i,
			"lines":      []map[string]any{{"title": "Trail Mug", "sku": "MUG-1", "productId": 1, "quantity": 1, "unitPrice": 2500}}})
	}
	s.ConnectShopify(t, owner, shop)
	step("connect Shopify", start)

	start = time.Now()
	code, b, err := s.Do(http.MethodGet, base+"metrics?lastDays=30", owner.Token, nil)
	var m struct{ Source, From, To string }
	if err != nil || code != http.StatusOK || json.Unmarshal(b, &m) != nil || m.Source == "" || m.Source == "none" {
		t.Fatalf("Analytics' numbers: %d %s %v", code, stacktest.Excerpt(b), err)
	}
	code, b, err = s.Do(http.MethodGet, base+"top-products?from="+m.From+"&to="+m.To+"&limit=10", owner.Token, nil)
	if err != nil || code != http.StatusOK || !strings.Contains(string(b), "Trail Mug") {
		t.Fatalf("Analytics' top products: %d %s %v", code, stacktest.Excerpt(b), err)
	}
	step("analytics", start)
}
