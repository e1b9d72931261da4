package domain

import "uplift.dev/platform/validation"

// MaxTitleRunes bounds a product title, and a product key made of a title or
// a SKU: Shopify's own bound on a title (validation.MaxTitleRunes). Titles
// come from Shopify's API and from order exports, written by others, so a
// longer one is cut with ClipTitle, never refused: the sale still counts.
// Titles travel in events (a store's best seller), which NATS refuses over
// 1 MiB; bounded here, no title can make one too large.
const MaxTitleRunes = validation.MaxTitleRunes

// ClipTitle cuts s to MaxTitleRunes characters, ending in "…" when it was cut.
func ClipTitle(s string) string { return validation.Clip(s, MaxTitleRunes) }
