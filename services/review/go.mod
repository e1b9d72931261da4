module uplift.dev/review

go 1.26.0

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
	uplift.dev/platform v0.0.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect

replace (
	uplift.dev/platform => ../platform
	uplift.dev/proto => ../../proto
)
