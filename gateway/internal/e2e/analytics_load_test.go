package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/gateway/internal/stacktest"
	"uplift.dev/proto/categoryaccess"
)

// BenchmarkAnalyticsLoad is one load of the Analytics page's API through the
// gateway, as the page makes it: the last 30 days' numbers, then the top
// products and the 30 days before together. Each of the three asks the
// categories service whether the caller may see the store; the benchmark
// reports how many calls each load cost categories for that
// (categories-calls/load: its GetLabel and CheckCategoryAccess, read from
// its /metrics at CATEGORIES_METRICS_URL) beside the time. "cold" is a
// load after any remembered answer expired (a page opened), "warm" a load
// right after another (a reload, another range).
//
//	UPLIFT_PORT_OFFSET=40 .bin/devstack exec -apps -- sh -c \
//	  'CATEGORIES_METRICS_URL=http://127.0.0.1:9142/metrics go test ./gateway/internal/e2e -run ^$ -bench AnalyticsLoad -benchtime 5x'
func BenchmarkAnalyticsLoad(b *testing.B) {
	s := stacktest.FromEnv(b)
	metricsURL := os.Getenv("CATEGORIES_METRICS_URL")
	if metricsURL == "" {
		b.Skip("CATEGORIES_METRICS_URL not set: the categories service's /metrics on the stack")
	}
	sim := s.Sim(b)
	domain := "analytics-" + uuid.NewString()[:8] + ".myshopify.com"
	sim.Control(b, "shops", map[string]any{"domain": domain, "name": "Analytics bench", "currency": "USD", "timezone": "UTC"})
	sim.Control(b, "shops/"+domain+"/products", map[string]any{"id": 1, "title": "Trail Mug"})
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	for i := range 3 {
		sim.Control(b, "shops/"+domain+"/orders", map[string]any{"name": fmt.Sprintf("#20%d", i),
			"createdAt":  time.Date(yesterday.Year(), yesterday.Month(), yesterday.Day(), 9+i, 0, 0, 0, time.UTC),
			"customerId": 200 + i,
			"lines":      []map[string]any{{"title": "Trail Mug", "sku": "MUG-1", "productId": 1, "quantity": 1, "unitPrice": 2500}}})
	}
	owner := s.SignUp(b)
	s.ConnectShopify(b, owner, domain)
	base := "/internal/categories/" + owner.CategoryID + "/business-data/"
	get := func(path string) []byte {
		code, body, err := s.Do(http.MethodGet, base+path, owner.Token, nil)
		if err != nil || code != http.StatusOK {
			b.Fatalf("GET %s: %d %s %v", path, code, stacktest.Excerpt(body), err)
		}
		return body
	}
	load := func() {
		var m struct{ From, To, Source string }
		if err := json.Unmarshal(get("metrics?lastDays=30"), &m); err != nil || m.Source == "none" || m.Source == "" {
			b.Fatalf("the store's numbers: %+v %v", m, err)
		}
		from, _ := time.Parse(time.DateOnly, m.From)
		to, _ := time.Parse(time.DateOnly, m.To)
		days := int(to.Sub(from).Hours()/24) + 1
		var wg sync.WaitGroup
		wg.Go(func() { get("top-products?from=" + m.From + "&to=" + m.To + "&limit=10") })
		wg.Go(func() {
			get("metrics?from=" + from.AddDate(0, 0, -days).Format(time.DateOnly) + "&to=" + from.AddDate(0, 0, -1).Format(time.DateOnly))
		})
		wg.Wait()
	}
	load() // the first sync's numbers are in, and the connection warm
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			calls := 0
			for b.Loop() {
				if !warm {
					b.StopTimer()
					time.Sleep(categoryaccess.TTL + 100*time.Millisecond)
					b.StartTimer()
				}
				before := accessChecks(b, metricsURL)
				load()
				b.StopTimer()
				calls += accessChecks(b, metricsURL) - before
				b.StartTimer()
			}
			b.ReportMetric(float64(calls)/float64(b.N), "categories-calls/load")
		})
	}
}

// accessChecks is how many access checks the categories service has
// answered: its GetLabel (how stores and studio asked before) and
// CheckCategoryAccess calls, from grpc_server_handled_total.
func accessChecks(b *testing.B, metricsURL string) int {
	b.Helper()
	resp, err := http.Get(metricsURL)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	n := 0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "grpc_server_handled_total{") ||
			!(strings.Contains(line, "/GetLabel\"") || strings.Contains(line, "/CheckCategoryAccess\"")) {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err != nil {
			b.Fatalf("metrics line %q: %v", line, err)
		}
		n += int(v)
	}
	return n
}
