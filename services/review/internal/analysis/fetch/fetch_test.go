package fetch

import (
	"net/netip"
	"strings"
	"testing"
)

func TestIsPublic(t *testing.T) {
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "93.184.216.34": true, "2606:4700::1111": true,
		"127.0.0.1": false, "::1": false, "10.0.0.1": false, "172.16.5.4": false, "192.168.1.1": false,
		"169.254.169.254": false, "fd00:ec2::254": false, "100.64.0.1": false, "100.100.100.200": false,
		"0.0.0.0": false, "::": false, "224.0.0.1": false, "ff02::1": false, "fe80::1": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "64:ff9b::808:808": true,
		"255.255.255.255": false, "198.18.0.1": false,
	} {
		if got := isPublic(netip.MustParseAddr(ip)); got != want {
			t.Errorf("isPublic(%s) = %v, want %v", ip, got, want)
		}
	}
}

// TestEmbeddedIPv4AndSpecialPurposeIPv6 covers IPv6 addresses that carry an
// IPv4 address a connection could really reach (IPv4-compatible, IPv4-mapped,
// 6to4, Teredo, NAT64) and the IANA special-purpose ranges that are not
// globally reachable.
func TestEmbeddedIPv4AndSpecialPurposeIPv6(t *testing.T) {
	for _, tc := range []struct {
		name, ip string
		want     bool
	}{
		// IPv4-compatible ::a.b.c.d (deprecated, RFC 4291 2.5.5.1): never a real host.
		{"compatible loopback", "::127.0.0.1", false},
		{"compatible private", "::10.0.0.1", false},
		{"compatible metadata", "::169.254.169.254", false},
		{"compatible 192.168", "::192.168.1.1", false},
		{"compatible public", "::8.8.8.8", false},
		// IPv4-mapped ::ffff:a.b.c.d: judged as the IPv4 address.
		{"mapped loopback", "::ffff:127.0.0.1", false},
		{"mapped metadata", "::ffff:169.254.169.254", false},
		{"mapped shared", "::ffff:100.64.0.1", false},
		{"mapped public", "::ffff:8.8.8.8", true},
		// IPv4-translated ::ffff:0:a.b.c.d (SIIT): outside global unicast.
		{"translated private", "::ffff:0:a00:1", false},
		// 6to4 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
		{"6to4 loopback", "2002:7f00:1::1", false},
		{"6to4 private", "2002:a00:1::", false},
		{"6to4 metadata", "2002:a9fe:a9fe::1", false},
		{"6to4 192.168", "2002:c0a8:101::1", false},
		{"6to4 shared", "2002:6440:1::1", false},
		{"6to4 this network", "2002::1", false},
		{"6to4 public", "2002:808:808::1", true},
		// Teredo 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client IPv4 XOR 0xffffffff.
		{"teredo client loopback", "2001:0:4136:e378:8000:63bf:80ff:fffe", false},
		{"teredo client private", "2001:0:4136:e378:8000:63bf:f5ff:fffe", false},
		{"teredo client metadata", "2001:0:4136:e378:8000:63bf:5601:5601", false},
		{"teredo client 192.168", "2001:0:4136:e378:8000:63bf:3f57:fefe", false},
		{"teredo server private", "2001:0:a00:1:8000:63bf:f7f7:f7f7", false},
		{"teredo public", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", true},
		// NAT64: the well-known prefix by the IPv4 inside; local-use never.
		{"nat64 loopback", "64:ff9b::7f00:1", false},
		{"nat64 metadata", "64:ff9b::a9fe:a9fe", false},
		{"nat64 private", "64:ff9b::a00:1", false},
		{"nat64 public", "64:ff9b::808:808", true},
		{"nat64 local-use public", "64:ff9b:1::808:808", false},
		{"nat64 local-use private", "64:ff9b:1::a00:1", false},
		// The rest of IANA's IPv6 special-purpose registry that is not globally reachable.
		{"discard-only", "100::1", false},
		{"dummy prefix", "100:0:0:1::1", false},
		{"ietf protocol assignments", "2001:1::1", false},
		{"benchmarking", "2001:2::1", false},
		{"orchid", "2001:10::1", false},
		{"documentation", "2001:db8::1", false},
		{"documentation 3fff", "3fff::1", false},
		{"srv6 sids", "5f00::1", false},
		{"unique local", "fd12:3456::1", false},
		{"site-local", "fec0::1", false},
		{"link-local", "fe80::1", false},
		{"scoped", "2606:4700::1111%eth0", false},
		// IPv4 special-purpose, not globally reachable.
		{"6to4 relay anycast", "192.88.99.1", false},
		{"nat64 discovery", "192.0.0.170", false},
		{"limited broadcast", "255.255.255.255", false},
		// Ordinary public addresses stay allowed, including next to the ranges above.
		{"cloudflare", "2606:4700::1111", true},
		{"google dns", "2001:4860:4860::8888", true},
		{"just past 2001::/23", "2001:200::1", true},
		{"as112 direct delegation", "2620:4f:8000::1", true},
		{"public v4", "93.184.216.34", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := isPublic(netip.MustParseAddr(tc.ip)); got != tc.want {
				t.Errorf("isPublic(%s) = %v, want %v", tc.ip, got, tc.want)
			}
		})
	}
}

func TestRobotsRules(t *testing.T) {
	r := parseRobots("User-agent: *\nDisallow: /cart\nAllow: /cart/share\nDisallow: /*?sort_by=\nDisallow: /*.pdf$\nSitemap: https://x/s.xml\n", "UpliftBot")
	for path, want := range map[string]bool{
		"/": true, "/cart": false, "/cart/x": false, "/cart/share": true,
		"/collections/all?sort_by=price": false, "/files/a.pdf": false, "/files/a.pdf.html": true,
	} {
		p, q, _ := strings.Cut(path, "?")
		if got := r.allows(p, q); got != want {
			t.Errorf("allows(%s) = %v, want %v", path, got, want)
		}
	}
	if len(r.sitemaps) != 1 {
		t.Errorf("sitemaps %v", r.sitemaps)
	}
}
