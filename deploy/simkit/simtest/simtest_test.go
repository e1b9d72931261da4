package simtest

import (
	"encoding/json"
	"testing"
)

func TestDig(t *testing.T) {
	t.Parallel()
	var v any
	_ = json.Unmarshal([]byte(`{"a":[{"b":"c"}]}`), &v)
	if Dig(v, "a", 0, "b") != "c" || Dig(v, "a", 1, "b") != nil || Dig(v, "a", -1) != nil || Dig(v, "x", "y") != nil {
		t.Fatal("dig")
	}
}
