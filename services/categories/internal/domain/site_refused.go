package domain

import (
	"errors"
	"strings"
)

// The business profile's messages under Website for a site that could not
// be read on save. An address that is not a web address at all keeps the
// spec's UnreadableSiteMessage.
const (
	SiteNotFoundMessage = "We could not find that website: no site answers at this domain. Please check the address for typos."
	SitePrivateMessage  = "That address is on a private network, not the public internet. Please enter your store's public web address."
)

// SiteRefusedMessage is what the owner reads under Website when the save's
// check could not read the site: which of the three it was, and for any
// other failure the engine's reason ("its server refused the connection").
func SiteRefusedMessage(e *UnreadableError) string {
	switch e.Problem {
	case SiteNotFound:
		return SiteNotFoundMessage
	case SitePrivate:
		return SitePrivateMessage
	}
	reason := strings.TrimSpace(e.Reason)
	if reason == "" {
		reason = UnknownReason
	}
	return "We could not read that website: " + reason + ". Please check the address and try again."
}

// SiteRefused is the error a save returns for a site its check could not
// read: a validation error on siteUrl carrying SiteRefusedMessage, which is
// also ErrUnreadableSite, so callers that only ask "was the site refused"
// still see it.
func SiteRefused(e *UnreadableError) error {
	return errors.Join(ErrUnreadableSite, &ValidationError{Field: SiteURLField, Message: SiteRefusedMessage(e)})
}

// SiteURLField is the field a website error names (the JSON name of the
// profile's website, which the form maps to its Website box).
const SiteURLField = "siteUrl"
