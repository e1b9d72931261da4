package domain

// SiteProblem is why a website could not be read, in the kinds an owner
// fixes differently: a typo in the domain, an address that is not on the
// public internet, or a site that is there but did not let itself be read.
type SiteProblem int

const (
	// SiteUnreadable is any other failure; UnreadableError.Reason says which.
	SiteUnreadable SiteProblem = iota
	// SiteNotFound is a domain that does not resolve to any address.
	SiteNotFound
	// SitePrivate is an address on a private, loopback or link-local
	// network, which Uplift never reads.
	SitePrivate
)
