package domain

import (
	"fmt"
	"strings"
	"time"
)

// Google Analytics 4 as a source of sessions and purchases
// (../shared/research/ga4.md). GA4 counts its days in the property's
// reporting time zone (§1 "date dimension"), which is what its `date`
// values are; they are kept as GA4 gives them, and when the property's
// zone is not the store's, the notes say so rather than pretend the days
// line up.

// SessionsSource is where a store's sessions (and so conversion) come from.
type SessionsSource string

// Sources of sessions.
const (
	SessionsNone    SessionsSource = ""
	SessionsShopify SessionsSource = "shopify"
	SessionsGA4     SessionsSource = "ga4"
)

// ParseGA4Date reads GA4's `date` dimension value, YYYYMMDD.
func ParseGA4Date(v string) (Date, error) {
	if len(v) != 8 {
		return Date{}, fmt.Errorf("GA4 date %q is not YYYYMMDD", v)
	}
	return ParseDate(v[:4] + "-" + v[4:6] + "-" + v[6:])
}

// GA4Window is the days a refresh reads, in the property's zone: on the
// first refresh the last backfill days up to today, afterwards the last
// few days again, since GA4 keeps processing a day for 24–48 hours (§2
// "Freshness": re-fetch the last 2–3 days).
func GA4Window(now time.Time, loc *time.Location, backfilled bool) (from, to Date) {
	to = Today(now, loc)
	if backfilled {
		return to.AddDays(-3), to
	}
	return to.AddDays(-(GA4BackfillDays - 1)), to
}

// GA4BackfillDays is how far back the first refresh reads: as far as a
// metrics range may reach.
const GA4BackfillDays = 400

// QuotaRetry is when to ask GA4 again after RESOURCE_EXHAUSTED: a daily
// quota resets at midnight Pacific, an hourly one within the hour (§2).
// The message names the quota; one not named daily is taken as hourly.
func QuotaRetry(now time.Time, message string) time.Time {
	if strings.Contains(strings.ToLower(message), "per day") {
		pt, err := time.LoadLocation("America/Los_Angeles")
		if err == nil {
			d := Today(now, pt).AddDays(1)
			midnight, _ := d.In(pt)
			return midnight.Add(time.Minute)
		}
		return now.Add(24 * time.Hour)
	}
	return now.Truncate(time.Hour).Add(time.Hour + time.Minute)
}

// GA4Notes are what Analytics says plainly about GA4's numbers over a
// range: its purchases against the store's orders (GA4 sees only the
// visits its tag recorded, §5), a property zone other than the store's,
// and GA4's own sampling and thresholding flags.
func GA4Notes(property string, purchases *int64, orders int64, hasOrders bool, propertyZone, storeZone string, sampled, thresholded bool) []string {
	var notes []string
	if purchases != nil && hasOrders && *purchases != orders {
		notes = append(notes, fmt.Sprintf("Google Analytics 4 counted %d %s in this range; the store recorded %d %s. "+
			"GA4 counts only the visits its tag saw (consent, ad blockers), so conversion uses GA4's own purchases and sessions.",
			*purchases, plural(*purchases, "purchase", "purchases"), orders, plural(orders, "order", "orders")))
	}
	if propertyZone != "" && storeZone != "" && propertyZone != storeZone {
		notes = append(notes, fmt.Sprintf("GA4 property %s counts its days in %s; the store's days are in %s.", property, propertyZone, storeZone))
	}
	if sampled {
		notes = append(notes, "Google Analytics 4 says this data is sampled: its sessions and purchases are estimates.")
	}
	if thresholded {
		notes = append(notes, "Google Analytics 4 says this data is thresholded: it withholds days with too few visitors, so some days may have no sessions.")
	}
	return notes
}

// GA4Formulas are the words for sessions and conversion when they come
// from Google Analytics 4 (ecommercePurchases, not transactions, which
// counts refunds too: §1).
func GA4Formulas(property string) map[string]string {
	return map[string]string{
		"sessions":       "Sessions = sessions, from Google Analytics 4 property " + property,
		"conversionRate": "Conversion rate = purchases ÷ sessions, both from Google Analytics 4 property " + property + " (its ecommercePurchases and sessions)",
	}
}
