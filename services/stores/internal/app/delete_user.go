package app

import (
	"context"
	"errors"
)

// EventStore is the storage an event from another service changes, bound
// to the consumer's transaction (which also records the message as
// handled), so the effect and its record commit together.
type EventStore interface {
	// DeleteCategory deletes everything stored for a category: orders,
	// numbers, connection and imports.
	DeleteCategory(ctx context.Context, categoryID string) error
	// DeleteUserStates deletes the OAuth states a user started.
	DeleteUserStates(ctx context.Context, userID string) error
}

// ErrNoUser is a UserDeleted without a user id: it can never apply.
var ErrNoUser = errors.New("event names no user")

// DeleteUserData removes what is stored for a deleted user: their category's
// orders, numbers, connection and imports, and the connections they started.
func (a *App) DeleteUserData(ctx context.Context, s EventStore, userID, categoryID string) error {
	if userID == "" {
		return ErrNoUser
	}
	if categoryID != "" {
		if err := s.DeleteCategory(ctx, categoryID); err != nil {
			return err
		}
	}
	return s.DeleteUserStates(ctx, userID)
}
