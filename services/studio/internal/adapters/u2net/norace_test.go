//go:build !race

package u2net_test

const raceMB = 0
