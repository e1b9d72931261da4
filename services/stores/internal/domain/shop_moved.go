package domain

import "time"

// ShopMoved is a Shopify shop leaving the account FromCategoryID at At,
// connected to another account whose approval on Shopify proved it may
// (ShopifyShopMoved: the digest service tells the account it left).
type ShopMoved struct {
	FromCategoryID, Shop string
	At                   time.Time
}
