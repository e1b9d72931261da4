package app

import "context"

// DeleteUserData removes what is stored for a deleted user: their category's
// orders, numbers, connection and imports, and the connections they started.
func (a *App) DeleteUserData(ctx context.Context, userID, categoryID string) error {
	if categoryID != "" {
		if err := a.repo.DeleteCategory(ctx, categoryID); err != nil {
			return err
		}
	}
	return a.repo.DeleteUserStates(ctx, userID)
}
