// Package e2e holds end-to-end tests of the running stack that a browser
// cannot see: what one store's data does to the events every service
// shares. `make test` runs them on the whole stack (devstack exec -apps).
package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"uplift.dev/gateway/internal/stacktest"
	"uplift.dev/platform/validation"
)

// TestAHugeTitleDoesNotStopOtherStoresEvents: one store's best seller has a
// megabyte title (its shop, on the Shopify simulator, sends it). Its store
// signals and its daily report used to carry the whole title; NATS refused
// them (over 1 MiB), and the stores service's outbox, published in order,
// stopped there: no store's signals or daily report went out again. Now the
// title is cut to its bound, a store after it still gets its signals (its
// campaign ideas) and its daily report email, and so does the store with
// the huge title.
func TestAHugeTitleDoesNotStopOtherStoresEvents(t *testing.T) {
	t.Parallel()
	s := stacktest.FromEnv(t)
	sim := s.Sim(t)
	admin := s.SignUpAdmin(t)
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	shop := func(title string) string {
		domain := "bounds-" + uuid.NewString()[:8] + ".myshopify.com"
		sim.Control(t, "shops", map[string]any{"domain": domain, "name": "Bounds test", "currency": "USD", "timezone": "UTC"})
		sim.Control(t, "shops/"+domain+"/products", map[string]any{"id": 1, "title": title})
		for i := range 3 {
			sim.Control(t, "shops/"+domain+"/orders", map[string]any{"name": fmt.Sprintf("#10%d", i),
				"createdAt":  time.Date(yesterday.Year(), yesterday.Month(), yesterday.Day(), 9+i, 0, 0, 0, time.UTC),
				"customerId": 100 + i,
				"lines":      []map[string]any{{"title": title, "sku": "SKU-1", "productId": 1, "quantity": 2, "unitPrice": 2500}}})
		}
		return domain
	}
	sendReport := func(u stacktest.User) {
		t.Helper()
		code, b, err := s.Do(http.MethodPost, "/internal/categories/"+u.CategoryID+"/business-data/dailyReport/send", admin.Token, []byte(`{}`))
		// 409: the 07:00 round sent yesterday's report first; one either way.
		if err != nil || (code != http.StatusOK && code != http.StatusConflict) {
			t.Fatalf("send the daily report: %d %s %v", code, stacktest.Excerpt(b), err)
		}
	}

	huge := strings.Repeat("Mug ", 1<<18) // 1 MiB
	first := s.SignUp(t)
	s.ConnectShopify(t, first, shop(huge))
	sendReport(first)
	// Only now the other store: its events are behind the first's in the
	// stores service's outbox.
	second := s.SignUp(t)
	s.ConnectShopify(t, second, shop("Trail Mug"))
	sendReport(second)

	bestSellerIdea := func(u stacktest.User) string {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			code, b, err := s.Do(http.MethodGet, "/internal/categories/"+u.CategoryID+"/business-data/reports/ideas/recent", u.Token, nil)
			var ideas struct {
				Ideas []struct{ Title string }
			}
			if err == nil && code == http.StatusOK && json.Unmarshal(b, &ideas) == nil {
				for _, i := range ideas.Ideas {
					if title, ok := strings.CutPrefix(i.Title, "Feature your best seller: "); ok {
						return title
					}
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("no best-seller idea from the store signals after 60 s: %d %s %v", code, stacktest.Excerpt(b), err)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	if got := bestSellerIdea(second); got != "Trail Mug" {
		t.Errorf("the second store's best seller is %q", got)
	}
	s.WaitForMail(t, second.Email, regexp.MustCompile(`^Yesterday at `), 60*time.Second)

	got := bestSellerIdea(first)
	if n := utf8.RuneCountInString(got); n != validation.MaxTitleRunes || !strings.HasPrefix(got, "Mug Mug") {
		t.Errorf("the first store's best seller: %d characters (%.20q…), want cut to %d", n, got, validation.MaxTitleRunes)
	}
	s.WaitForMail(t, first.Email, regexp.MustCompile(`^Yesterday at `), 60*time.Second)
}
