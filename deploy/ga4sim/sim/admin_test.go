package sim

import (
	"fmt"
	"net/http"
	"testing"
)

func TestAccountSummariesPagesTheUsersAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.must(e.s.CreateUser("bo@example.com"))
	e.must(e.s.CreateAccount(AccountSpec{ID: "900", DisplayName: "Bo's", Users: []string{"bo@example.com"}}))
	for i := range 4 {
		id := fmt.Sprint(600 + i)
		e.must(e.s.CreateAccount(AccountSpec{ID: id, DisplayName: "Shop " + id, Users: []string{testUser, "bo@example.com"}}))
	}
	e.must(e.s.CreateProperty(PropertySpec{ID: "2002", Account: "601", DisplayName: "Shop 601 - GA4"}))
	at := e.connect()["access_token"].(string)
	var names []any
	token, pages := "", 0
	for {
		st, out := e.call(http.MethodGet, "/v1beta/accountSummaries?pageSize=2&pageToken="+token, at, nil)
		if st != 200 {
			t.Fatalf("page %d: %d %v", pages, st, out)
		}
		for _, a := range out["accountSummaries"].([]any) {
			names = append(names, dig(a, "account"))
			if dig(a, "account") == "accounts/601" &&
				(dig(a, "propertySummaries", 0, "property") != "properties/2002" || dig(a, "propertySummaries", 0, "parent") != "accounts/601") {
				t.Fatalf("account 601: %v", a)
			}
		}
		pages++
		token, _ = out["nextPageToken"].(string)
		if token == "" {
			break
		}
	}
	want := []any{"accounts/500", "accounts/600", "accounts/601", "accounts/602", "accounts/603"}
	if pages != 3 || fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("%d pages: %v", pages, names)
	}
	if st, out := e.call(http.MethodGet, "/v1beta/accountSummaries?pageToken=garbage", at, nil); st != 400 || apiStatus(out) != "INVALID_ARGUMENT" {
		t.Fatalf("bad page token: %d %v", st, out)
	}
	if st, out := e.call(http.MethodGet, "/v1beta/accountSummaries", "", nil); st != 401 || apiStatus(out) != "UNAUTHENTICATED" {
		t.Fatalf("no token: %d %v", st, out)
	}
}

func TestAccountSummariesEmptyForAUserWithoutAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.must(e.s.CreateUser("cy@example.com"))
	resp := e.authorizeResp(authQuery(), map[string][]string{"decision": {"allow"}, "user": {"cy@example.com"}, "grant_scope": {ScopeReadonly}})
	code := resp.Header.Get("Location")
	_, tok := e.token(exchangeForm(mustQuery(t, code).Get("code")))
	st, out := e.call(http.MethodGet, "/v1beta/accountSummaries", tok["access_token"].(string), nil)
	if st != 200 || len(out) != 0 {
		t.Fatalf("%d %v", st, out)
	}
}
