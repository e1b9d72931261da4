package fetch

import "strings"

// robotsRules are the Allow/Disallow lines of the robots.txt group that
// applies to the bot (RFC 9309): the group naming the bot's token if there
// is one, else the "*" group.
type robotsRules struct {
	rules    []robotsRule
	sitemaps []string
}

type robotsRule struct {
	allow   bool
	pattern string
}

func disallowAll() *robotsRules {
	return &robotsRules{rules: []robotsRule{{allow: false, pattern: "/"}}}
}

// parseRobots reads a robots.txt body for the given product token.
func parseRobots(body, agent string) *robotsRules {
	agent = strings.ToLower(agent)
	type group struct {
		agents []string
		rules  []robotsRule
	}
	var (
		groups   []*group
		cur      *group
		inAgents bool // the previous line was a user-agent line
		sitemaps []string
	)
	for line := range strings.Lines(body) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		switch key {
		case "user-agent":
			if !inAgents {
				cur = &group{}
				groups = append(groups, cur)
			}
			cur.agents = append(cur.agents, strings.ToLower(val))
			inAgents = true
		case "allow", "disallow":
			inAgents = false
			if cur == nil || (key == "disallow" && val == "") {
				continue // an empty Disallow allows everything
			}
			cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: val})
		case "sitemap":
			sitemaps = append(sitemaps, val)
		default:
			inAgents = false
		}
	}
	var mine, star []robotsRule
	var foundMine bool
	for _, g := range groups {
		for _, a := range g.agents {
			switch {
			case a == "*":
				star = append(star, g.rules...)
			case agent != "" && (a == agent || strings.HasPrefix(agent, a)):
				foundMine = true
				mine = append(mine, g.rules...)
			}
		}
	}
	r := &robotsRules{rules: star, sitemaps: sitemaps}
	if foundMine {
		r.rules = mine
	}
	return r
}

// allows reports whether a path (escaped, with optional query) may be read:
// the longest matching rule wins, and Allow wins a tie.
func (r *robotsRules) allows(path, query string) bool {
	if r == nil {
		return true
	}
	if path == "" {
		path = "/"
	}
	target := path
	if query != "" {
		target += "?" + query
	}
	best, allow := -1, true
	for _, rule := range r.rules {
		if !robotsMatch(rule.pattern, target) {
			continue
		}
		n := len(rule.pattern)
		if n > best || (n == best && rule.allow) {
			best, allow = n, rule.allow
		}
	}
	return allow
}

// robotsMatch matches a robots.txt path pattern, where "*" is any run of
// characters and a trailing "$" anchors the end.
func robotsMatch(pattern, target string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(target, parts[0]) {
		return false
	}
	pos := len(parts[0])
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		if last && anchored {
			return strings.HasSuffix(target[pos:], part)
		}
		j := strings.Index(target[pos:], part)
		if j < 0 {
			return false
		}
		pos += j + len(part)
	}
	if anchored && len(parts) == 1 {
		return pos == len(target)
	}
	return true
}
