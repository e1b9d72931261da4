package page

import (
	"reflect"
	"testing"
)

func TestAddLinkHeaders(t *testing.T) {
	p := ParsePage("https://shop.example/products/mug", []byte(`<html><head><title>Mug</title></head><body></body></html>`))
	p.AddLinkHeaders([]string{
		`<https://cdn.example/mug.css>; rel=preload; as=style, </products/mug>; rel="canonical"`,
		`<https://shop.example/de/products/mug>; rel="alternate"; hreflang="de"; title="Becher, blau"`,
	})
	if want := []string{"/products/mug"}; !reflect.DeepEqual(p.Canonicals, want) {
		t.Errorf("Canonicals = %q, want %q", p.Canonicals, want)
	}
	if !p.HasCanonical || p.Canonical != "https://shop.example/products/mug" {
		t.Errorf("Canonical = %q (%v)", p.Canonical, p.HasCanonical)
	}
	want := []Hreflang{{Lang: "de", RawHref: "https://shop.example/de/products/mug", InHead: true}}
	if !reflect.DeepEqual(p.Hreflangs, want) {
		t.Errorf("Hreflangs = %+v, want %+v", p.Hreflangs, want)
	}
}
