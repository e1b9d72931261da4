package domain

import (
	"strings"
	"testing"
	"time"
)

func TestCampaignPlanCheck(t *testing.T) {
	d := func(m time.Month, day int) time.Time { return time.Date(2026, m, day, 0, 0, 0, 0, time.UTC) }
	catalogue := []Pick{{"Assam", 18, "USD"}, {"Darjeeling", 22, "USD"}, {"Sampler", 14.5, "USD"}, {"Teapot", 0, "USD"}}
	good := func() CampaignPlan {
		return CampaignPlan{Today: d(12, 1), Occasion: "Christmas", Date: d(12, 25),
			Send: d(12, 15), Reminder: d(12, 19), LastOrder: d(12, 20),
			Band: &PriceBand{Low: 18, High: 22, Currency: "USD"}, PicksInBand: true,
			Picks: []Pick{{"Assam", 18, "USD"}, {"Darjeeling", 22, "USD"}}}
	}
	if err := good().Check(catalogue); err != nil {
		t.Fatalf("a plan that holds: %v", err)
	}
	for _, tt := range []struct {
		name   string
		change func(*CampaignPlan)
		want   string
	}{
		// The two contradictions an owner met in a real plan.
		{"a reminder after the last order date", func(p *CampaignPlan) { p.Reminder = d(12, 22) }, "the reminder (Tue Dec 22, 2026) is after the last order date (Sun Dec 20, 2026)"},
		{"a pick outside the band it is said to sit in", func(p *CampaignPlan) { p.Picks = append(p.Picks, Pick{"Sampler", 14.5, "USD"}) }, "Sampler at 14.5 USD is said to sit in the band 18–22 USD"},
		{"an unpriced pick said to sit in the band", func(p *CampaignPlan) { p.Picks = append(p.Picks, Pick{"Teapot", 0, "USD"}) }, "Teapot at 0 USD is said to sit in the band"},
		{"a pick in another currency", func(p *CampaignPlan) { p.Band.Currency = "EUR" }, "Assam at 18 USD is said to sit in the band 18–22 EUR"},
		{"a band claim without picks", func(p *CampaignPlan) { p.Picks = nil }, "there are none"},
		{"a band claim without a band", func(p *CampaignPlan) { p.Band = nil }, "a band the plan does not name"},
		{"a band upside down", func(p *CampaignPlan) { p.Band.Low, p.PicksInBand = 30, false }, "does not run from low to high"},
		{"a send before today", func(p *CampaignPlan) { p.Send = d(11, 30) }, "the send, Mon Nov 30, 2026, is before today"},
		{"a step on the occasion", func(p *CampaignPlan) { p.LastOrder = d(12, 25); p.Reminder = time.Time{} }, "the last order date, Fri Dec 25, 2026, is not before Christmas"},
		{"an occasion already begun", func(p *CampaignPlan) { p.Today = d(12, 25) }, "is not after today"},
		{"a reminder before the send", func(p *CampaignPlan) { p.Reminder = d(12, 15) }, "the reminder (Tue Dec 15, 2026) is not after the send"},
		{"a last order date before the send", func(p *CampaignPlan) { p.LastOrder, p.Reminder = d(12, 14), time.Time{} }, "the last order date (Mon Dec 14, 2026) is before the send"},
		{"nothing to do", func(p *CampaignPlan) { p.Send, p.Reminder, p.LastOrder = time.Time{}, time.Time{}, time.Time{} }, "no send day and no posts"},
		{"posts out of order", func(p *CampaignPlan) { p.Posts = []time.Time{d(12, 10), d(12, 10)} }, "post 2 (Thu Dec 10, 2026) is not after post 1"},
		{"a day in another zone", func(p *CampaignPlan) {
			p.Send = time.Date(2026, 12, 15, 0, 0, 0, 0, time.FixedZone("EST", -5*3600))
		}, "the send (2026-12-15 00:00:00 -0500 EST) is not a calendar day"},
		{"a day with a time", func(p *CampaignPlan) { p.Date = d(12, 25).Add(time.Hour) }, "the occasion (2026-12-25 01:00:00 +0000 UTC) is not a calendar day"},
		{"a product the store does not sell", func(p *CampaignPlan) { p.Picks[0].Name = "Oolong" }, "Oolong at 18 USD is not in the store's catalogue"},
		{"a price the store does not charge", func(p *CampaignPlan) { p.Picks[0].Price, p.PicksInBand = 19, false }, "Assam at 19 USD is not in the store's catalogue"},
		{"a pick twice", func(p *CampaignPlan) { p.Picks[1] = p.Picks[0] }, "Assam is picked twice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := good()
			p.Band = &PriceBand{Low: 18, High: 22, Currency: "USD"}
			tt.change(&p)
			err := p.Check(catalogue)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestStoreDay(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	// 03:00 UTC on Christmas Day is still Christmas Eve in Los Angeles.
	at := time.Date(2026, 12, 25, 3, 0, 0, 0, time.UTC)
	if got := StoreDay(at.In(la)); !got.Equal(time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)) || got.Location() != time.UTC {
		t.Errorf("StoreDay in Los Angeles = %v", got)
	}
	if got := StoreDay(at); !got.Equal(time.Date(2026, 12, 25, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("StoreDay in UTC = %v", got)
	}
}
