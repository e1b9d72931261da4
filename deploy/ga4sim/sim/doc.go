// Package sim is a Google Analytics 4 simulator for local runs and tests:
// Google's OAuth 2.0 web-server flow (offline access, PKCE, refresh, revoke),
// the Admin API's accountSummaries, the Data API's runReport for daily
// sessions and purchases, property quotas, sampling and thresholding
// signals, and a control API. deploy/ga4sim/README.md says what is modelled
// and where it departs from Google.
package sim
