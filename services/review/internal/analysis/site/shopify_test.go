package site

import (
	"fmt"
	"testing"
)

// Shopify's catalogue gives the product studio each product's id and
// photos; an id written as a string, or missing, still reads.
func TestShopifyProductIDsAndImages(t *testing.T) {
	body := []byte(`{"products":[
{"id":7001,"title":"Mug","handle":"mug","images":[{"src":"https://cdn.shopify.example/mug.jpg"},{"src":"//cdn.shopify.example/mug-2.jpg"},{}],"variants":[{"price":"12.00"}]},
{"id":"7002","title":"Cup","handle":"cup","images":[],"variants":[{"price":"9.00"}]},
{"title":"Saucer","handle":"saucer","variants":[{"price":"5.00"}]}]}`)
	ps, err := parseShopifyProducts(body, "https://shop.example", "USD")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintln(ps[0].ID, ps[0].ImageURLs, ps[1].ID, ps[1].ImageURLs, ps[2].ID)
	want := "7001 [https://cdn.shopify.example/mug.jpg https://cdn.shopify.example/mug-2.jpg] 7002 [] saucer\n"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
