// Command reviewcli reviews one store website from the command line, the way
// Lighthouse CI checks a page: for people who build store themes and want
// the review in their own CI. It runs the same engine and the same guarded
// fetcher as the reviews store owners see on Home.
//
//	reviewcli [--json] [--fail-under N] [--allow-loopback] URL
//
// Exit status: 0 when reviewed (and at or above --fail-under), 1 when the
// score is under --fail-under, 2 when the arguments are wrong or the site
// cannot be read.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
