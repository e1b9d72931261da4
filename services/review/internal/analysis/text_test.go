package analysis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/corpus"
	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/write"
)

// atOriginalHost serves a corpus page at / and makes the analyzer resolve
// the page's original host name to it, so the review sees the store's real
// address (its name, its domain) while everything stays on loopback.
func atOriginalHost(t *testing.T, row map[string]string, o Options) (*Analyzer, string) {
	t.Helper()
	body := corpus.Page(t, row["file"])
	srv := servePage(t, body)
	o.Resolve = toLoopback
	a := newTestAnalyzer(t, srv, o)
	orig, _ := url.Parse(row["url"])
	port := srv.URL[strings.LastIndexByte(srv.URL, ':'):]
	return a, "http://" + orig.Hostname() + port + "/"
}

// dayRE finds the dates plans are written in ("Fri Nov 27").
var dayRE = regexp.MustCompile(`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{1,2})\b`)

// datesIn resolves each date in text to the year that puts it nearest to
// today, and checks its weekday, so a wrong year cannot hide a past date.
func datesIn(t *testing.T, text string, today time.Time) []time.Time {
	t.Helper()
	var out []time.Time
	for _, m := range dayRE.FindAllStringSubmatch(text, -1) {
		var best time.Time
		for _, y := range []int{today.Year() - 1, today.Year(), today.Year() + 1} {
			d, err := time.Parse("Jan 2 2006", fmt.Sprintf("%s %s %d", m[2], m[3], y))
			if err != nil {
				t.Fatal(err)
			}
			if best.IsZero() || absDays(d, today) < absDays(best, today) {
				best = d
			}
		}
		if best.Format("Mon") != m[1] {
			t.Errorf("%q: %s is a %s", m[0], best.Format(time.DateOnly), best.Format("Monday"))
		}
		out = append(out, best)
	}
	return out
}

func absDays(a, b time.Time) float64 {
	d := a.Sub(b).Hours() / 24
	if d < 0 {
		return -d
	}
	return d
}

// clocks are the moments the plans are tested at: two days before Black
// Friday, Christmas Eve evening on the US west coast (already Christmas
// Day in UTC), the night New York leaves daylight saving time, London's
// spring change, a day before Valentine's Day in Auckland, New Year's Eve
// in Tokyo, and the real clock.
func clocks(t *testing.T) map[string]time.Time {
	t.Helper()
	zone := func(name string) *time.Location {
		l, err := time.LoadLocation(name)
		if err != nil {
			t.Skipf("time zone %s: %v", name, err)
		}
		return l
	}
	return map[string]time.Time{
		"two days before Black Friday": time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC),
		"24 December, Los Angeles":     time.Date(2026, 12, 24, 20, 0, 0, 0, zone("America/Los_Angeles")),
		"DST ends, New York":           time.Date(2026, 11, 1, 1, 30, 0, 0, zone("America/New_York")),
		"DST starts, London":           time.Date(2026, 3, 29, 1, 30, 0, 0, zone("Europe/London")),
		"13 February, Auckland":        time.Date(2027, 2, 13, 23, 30, 0, 0, zone("Pacific/Auckland")),
		"New Year's Eve, Tokyo":        time.Date(2026, 12, 31, 23, 59, 0, 0, zone("Asia/Tokyo")),
		"now":                          time.Now(),
	}
}

func TestPlansAreNeverInThePast(t *testing.T) {
	rows := corpus.Rows(t)
	for name, now := range clocks(t) {
		t.Run(name, func(t *testing.T) {
			today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
			for _, row := range rows {
				a, u := atOriginalHost(t, row, Options{Now: func() time.Time { return now }})
				res, err := a.Analyze(context.Background(), u, nil, nil)
				if err != nil {
					t.Fatalf("%s: %v", row["file"], err)
				}
				checkIdeaText(t, row["file"], res, today)
			}
			// A store with a catalogue gets the occasion ideas too.
			srv := shopifyStore(t)
			res := analyze(t, newTestAnalyzer(t, srv, Options{Now: func() time.Time { return now }}), srv.URL, nil)
			checkIdeaText(t, "shopify store", res, today)
			if !strings.HasPrefix(res.Ideas[0].Timing, "Send ") {
				t.Errorf("first idea is not a dated campaign: %+v", res.Ideas[0])
			}
		})
	}
}

// checkIdeaText checks what a store owner reads in the ideas: no date
// before today, no empty product list, no "1 days".
func checkIdeaText(t *testing.T, page string, res domain.Analysis, today time.Time) {
	t.Helper()
	for _, i := range res.Ideas {
		text := strings.Join([]string{i.Title, i.WhyNow, i.SubjectLine, i.Body, i.Timing}, "\n")
		for _, d := range datesIn(t, text, today) {
			if d.Before(today) {
				t.Errorf("%s on %s: idea %q names %s, before today:\n%s", page, today.Format(time.DateOnly), i.Title, d.Format("Mon Jan 2, 2006"), text)
			}
		}
		if strings.Contains(text, "this season:\n\n\n") || strings.Contains(text, ":\n\n\n") {
			t.Errorf("%s: idea %q lists no products:\n%s", page, i.Title, text)
		}
		// Whole numbers only: "21 days away" is right where "1 days" is not.
		if bad := wrongPlural.FindString(text); bad != "" {
			t.Errorf("%s: idea %q says %q", page, i.Title, bad)
		}
	}
}

// wrongPlural finds a count the words do not agree with: "1 days", "1
// products", "1 posts", "0 days".
var wrongPlural = regexp.MustCompile(`\b(1 (days|products|posts)|0 days)\b`)

func TestTheNextOccasionThatLeavesTime(t *testing.T) {
	srv := shopifyStore(t)
	for _, tt := range []struct {
		now                    time.Time
		emailFor, timingPrefix string
	}{
		// Two days before Black Friday: too late for an email campaign,
		// so the email is for Cyber Monday, sent today.
		{time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), "Cyber Monday", "Send today (Wed Nov 25), 5 days before"},
		// Christmas Eve: Christmas is tomorrow; the email is for New Year.
		{time.Date(2026, 12, 24, 9, 0, 0, 0, time.UTC), "New Year", "Send today (Thu Dec 24), 8 days before"},
		// Mid-November: Black Friday, ten days ahead, with every step: the
		// reminder the day before the last order date, never after it.
		{time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC), "Black Friday", "Send Tue Nov 17, 10 days before; reminder Sat Nov 21; last order date Sun Nov 22."},
	} {
		res := analyze(t, newTestAnalyzer(t, srv, Options{Now: func() time.Time { return tt.now }}), srv.URL, nil)
		var email *domain.Idea
		for i := range res.Ideas {
			if res.Ideas[i].Channel == write.ChannelEmail && strings.Contains(res.Ideas[i].Title, tt.emailFor) {
				email = &res.Ideas[i]
			}
		}
		if email == nil {
			t.Errorf("%s: no email idea for %s: %+v", tt.now.Format(time.DateOnly), tt.emailFor, res.Ideas)
			continue
		}
		if !strings.HasPrefix(email.Timing, tt.timingPrefix) {
			t.Errorf("%s: timing %q, want it to start %q", tt.now.Format(time.DateOnly), email.Timing, tt.timingPrefix)
		}
	}
}

func TestFindingIDsSurviveAMoveOfSchemeHostAndPort(t *testing.T) {
	serve := func(tls bool) *httptest.Server {
		mux := http.NewServeMux()
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/":
				w.Header().Set("Content-Type", "text/html")
				fmt.Fprint(w, `<html><head><title>Hi</title><script src="/js/a.js"></script></head><body><img src="/img/big.jpg"></body></html>`)
			case "/img/big.jpg":
				w.Write(make([]byte, 400<<10))
			case "/js/a.js":
				w.Write([]byte("x"))
			default:
				http.NotFound(w, r)
			}
		})
		var srv *httptest.Server
		if tls {
			srv = httptest.NewTLSServer(mux)
		} else {
			srv = httptest.NewServer(mux)
		}
		t.Cleanup(srv.Close)
		return srv
	}
	ids := func(srv *httptest.Server, host string) []string {
		a := newTestAnalyzer(t, srv, Options{Resolve: toLoopback})
		u := strings.Replace(srv.URL, "127.0.0.1", host, 1)
		rv, err := a.Score(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range append(rv.Findings, rv.Notes...) {
			if !strings.HasPrefix(f.ID, review.CheckHTTPS) {
				out = append(out, f.ID)
			}
		}
		return out
	}
	before := ids(serve(false), "127.0.0.1")
	after := ids(serve(true), "example.com") // the test certificate's name
	if strings.Join(before, ",") != strings.Join(after, ",") || len(before) < 3 {
		t.Errorf("ids changed with scheme, host and port:\n%v\n%v", before, after)
	}
}

// toLoopback resolves every name to 127.0.0.1.
func toLoopback(context.Context, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// TestPlansFollowTheStoresCalendar: the service's clock reads UTC, but a
// plan's "today" is the store's calendar day in its own time zone. One
// instant, several zones: each plan starts on that zone's day, never on a
// day already gone there, across a DST change, and with the real clock.
func TestPlansFollowTheStoresCalendar(t *testing.T) {
	zone := func(name string) *time.Location {
		l, err := time.LoadLocation(name)
		if err != nil {
			t.Fatalf("time zone %s: %v", name, err)
		}
		return l
	}
	srv := shopifyStore(t)
	for _, tt := range []struct {
		name string
		at   time.Time
		zone *time.Location
		want string // what the plans say, counted from that zone's day
	}{
		{"Christmas Day in UTC, still 24 December in Los Angeles", time.Date(2026, 12, 25, 3, 0, 0, 0, time.UTC), zone("America/Los_Angeles"), "today (Thu Dec 24)"},
		{"the same instant in UTC", time.Date(2026, 12, 25, 3, 0, 0, 0, time.UTC), time.UTC, "today (Fri Dec 25)"},
		{"two days before Black Friday in Sydney", time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC), zone("Australia/Sydney"), "today (Wed Nov 25)"},
		{"the same instant in Los Angeles", time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC), zone("America/Los_Angeles"), "today (Tue Nov 24)"},
		{"New York's last evening of daylight saving time", time.Date(2026, 11, 1, 3, 30, 0, 0, time.UTC), zone("America/New_York"), "Black Friday is 27 days away"}, // 26 from UTC's 1 November
		{"London's first night of summer time", time.Date(2026, 3, 29, 23, 30, 0, 0, time.UTC), zone("Europe/London"), "today (Mon Mar 30)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestAnalyzer(t, srv, Options{Now: func() time.Time { return tt.at }})
			res, err := a.AnalyzeIn(context.Background(), srv.URL, nil, tt.zone, nil)
			if err != nil {
				t.Fatal(err)
			}
			local := tt.at.In(tt.zone)
			checkIdeaText(t, "shopify store", res, time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC))
			var all strings.Builder
			for _, i := range res.Ideas {
				all.WriteString(i.Timing + "\n" + i.WhyNow + "\n")
			}
			if !strings.Contains(all.String(), tt.want) {
				t.Errorf("plans do not say %q there:\n%s", tt.want, all.String())
			}
		})
	}
	// The real clock, at both ends of the world's zones: no plan names a
	// day already gone in the store's own zone.
	for _, name := range []string{"Pacific/Kiritimati", "Pacific/Pago_Pago"} {
		loc := zone(name)
		res, err := newTestAnalyzer(t, srv, Options{Now: time.Now}).AnalyzeIn(context.Background(), srv.URL, nil, loc, nil)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().In(loc)
		checkIdeaText(t, "shopify store, "+name, res, time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC))
	}
}
