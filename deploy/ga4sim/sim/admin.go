package sim

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Page sizes of accountSummaries.list: Google's default and its cap (a larger
// pageSize is lowered to the cap, not refused).
const (
	summariesPageDefault = 50
	summariesPageMax     = 200
)

func pageToken(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("as:" + strconv.Itoa(offset)))
}

func parsePageToken(t string) (int, bool) {
	if t == "" {
		return 0, true
	}
	b, err := base64.RawURLEncoding.DecodeString(t)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "as:"))
	return n, err == nil && strings.HasPrefix(string(b), "as:") && n > 0
}

// handleAccountSummaries lists the accounts the token's user can read, each
// with its properties, paged by account.
func (s *Server) handleAccountSummaries(w http.ResponseWriter, r *http.Request, user string) {
	q := r.URL.Query()
	size := summariesPageDefault
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "page_size must be a non-negative number")
			return
		}
		if n > 0 {
			size = min(n, summariesPageMax)
		}
	}
	offset, ok := parsePageToken(q.Get("pageToken"))
	if !ok {
		apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "Invalid page token.")
		return
	}
	var ids []string
	for id, a := range s.accounts {
		if slices.Contains(a.spec.Users, user) {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	out := map[string]any{}
	if offset < len(ids) {
		end := min(offset+size, len(ids))
		var list []map[string]any
		for _, id := range ids[offset:end] {
			a := s.accounts[id]
			entry := map[string]any{"name": "accountSummaries/" + id, "account": "accounts/" + id, "displayName": a.spec.DisplayName}
			var props []map[string]any
			for _, pid := range a.props {
				props = append(props, map[string]any{"property": "properties/" + pid, "displayName": s.props[pid].spec.DisplayName,
					"propertyType": "PROPERTY_TYPE_ORDINARY", "parent": "accounts/" + id})
			}
			if props != nil { // Google leaves an empty list out
				entry["propertySummaries"] = props
			}
			list = append(list, entry)
		}
		out["accountSummaries"] = list
		if end < len(ids) {
			out["nextPageToken"] = pageToken(end)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
