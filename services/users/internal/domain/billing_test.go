package domain

import (
	"testing"
	"time"
)

func TestShouldApplyBilling(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		stored *time.Time
		change BillingChange
		want   bool
	}{
		{"first", nil, BillingChange{Tier: "pro", SourceTime: t0}, true},
		{"newer", &t0, BillingChange{Tier: "free", SourceTime: t0.Add(time.Second)}, true},
		{"same time", &t0, BillingChange{Tier: "free", SourceTime: t0}, true},
		{"older", &t0, BillingChange{Tier: "free", SourceTime: t0.Add(-time.Second)}, false},
		{"empty tier", nil, BillingChange{SourceTime: t0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ShouldApplyBilling(tt.stored, tt.change); got != tt.want {
				t.Fatalf("got %v", got)
			}
		})
	}
}
