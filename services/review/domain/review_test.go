package domain

import "testing"

func TestBandOfUsesTheSpecThresholds(t *testing.T) {
	tests := []struct {
		score int
		want  Band
	}{{0, BandPoor}, {4, BandPoor}, {5, BandLow}, {29, BandLow}, {30, BandMedium}, {69, BandMedium}, {70, BandHigh}, {100, BandHigh}}
	for _, tt := range tests {
		if got := BandOf(tt.score); got != tt.want {
			t.Errorf("BandOf(%d) = %s, want %s", tt.score, got, tt.want)
		}
	}
}
