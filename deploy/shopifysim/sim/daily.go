package sim

import (
	"sort"
	"time"
)

// ShopDay is one shop-local day of a shop's orders, refunds and sessions, as
// another simulator of the same business needs them (the GA4 simulator's demo
// property tracks the demo shop's days).
type ShopDay struct {
	Day          string // YYYY-MM-DD in the shop's time zone
	Orders       int64  // orders placed that day, test orders left out
	Gross        int64  // their totals, minor units
	Refunds      int64  // refunds and cancels of those orders that happened that day
	RefundAmount int64  // what those refunds returned, minor units, positive
	Sessions     int64
}

// Daily returns the shop's days in order: every day with an order, a refund
// or sessions.
func (s *Server) Daily(domain string) ([]ShopDay, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return nil, err
	}
	days := map[string]*ShopDay{}
	at := func(t time.Time) *ShopDay {
		k := t.In(sh.loc).Format("2006-01-02")
		if days[k] == nil {
			days[k] = &ShopDay{Day: k}
		}
		return days[k]
	}
	for _, od := range sh.orders {
		if od.test {
			continue
		}
		for i, ag := range od.agreements {
			var sum int64
			for _, sl := range ag.sales {
				sum += sl.total
			}
			d := at(ag.happenedAt)
			if i == 0 {
				d.Orders++
				d.Gross += sum
			} else {
				d.Refunds++
				d.RefundAmount -= sum
			}
		}
	}
	for k, v := range sh.sessions {
		if days[k] == nil {
			days[k] = &ShopDay{Day: k}
		}
		days[k].Sessions = v[0]
	}
	out := make([]ShopDay, 0, len(days))
	for _, d := range days {
		out = append(out, *d)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Day < out[b].Day })
	return out, nil
}
