package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/users/internal/domain"
)

// ReplaceRecoveryCodes deletes the user's codes, used or not, stores hashes
// in their place and writes audit, in one transaction.
func (r Repo) ReplaceRecoveryCodes(ctx context.Context, userID string, hashes [][]byte, at time.Time, audit domain.AuditEntry) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM recovery_codes WHERE user_id = $1`, userID); err != nil {
			return err
		}
		for _, h := range hashes {
			if _, err := tx.Exec(ctx, `INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES ($1, $2, $3)`,
				userID, h, at); err != nil {
				return err
			}
		}
		return insertAudit(ctx, tx, []domain.AuditEntry{audit})
	})
}

// UseRecoveryCode is one attempt at a user's codes, serialised per user by
// a lock on the user's row: a wrong code is counted (committed) and
// domain.ErrRecoveryCodeRejected returned; past the failure limits
// (domain.RecoveryPaused) nothing is compared (domain.ErrRecoveryLocked); a matching code is marked used, the
// client's failures forgotten and the audit entry written, and a.Then runs before
// that commits. It returns the codes left.
func (r Repo) UseRecoveryCode(ctx context.Context, a domain.RecoveryAttempt) (int, error) {
	remaining := 0
	var rejected error
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, a.UserID).Scan(&one); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				rejected = domain.ErrRecoveryCodeRejected
				return nil
			}
			return err
		}
		var fromClient, fromAll int
		if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE client = $3), count(*) FROM recovery_failures
			WHERE user_id = $1 AND at > $2`, a.UserID, a.At.Add(-domain.RecoveryFailureWindow), a.Client).Scan(&fromClient, &fromAll); err != nil {
			return err
		}
		if domain.RecoveryPaused(fromClient, fromAll) {
			rejected = domain.ErrRecoveryLocked
			return nil
		}
		rows, err := tx.Query(ctx, `SELECT id, code_hash FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL ORDER BY id`, a.UserID)
		if err != nil {
			return err
		}
		var ids []int64
		var hashes [][]byte
		for rows.Next() {
			var id int64
			var h []byte
			if err := rows.Scan(&id, &h); err != nil {
				rows.Close()
				return err
			}
			ids, hashes = append(ids, id), append(hashes, h)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		i := domain.MatchRecoveryCode(a.Hash, hashes)
		if i < 0 {
			rejected = domain.ErrRecoveryCodeRejected
			_, err := tx.Exec(ctx, `INSERT INTO recovery_failures (user_id, at, client) VALUES ($1, $2, $3)`, a.UserID, a.At, a.Client)
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE recovery_codes SET used_at = $2 WHERE id = $1`, ids[i], a.At); err != nil {
			return err
		}
		// The owner's success forgets their own client's failures, not a
		// stranger's: those still pause the stranger.
		if _, err := tx.Exec(ctx, `DELETE FROM recovery_failures WHERE user_id = $1 AND client = $2`, a.UserID, a.Client); err != nil {
			return err
		}
		remaining = len(ids) - 1
		audit := a.Audit
		audit.Detail = a.Detail(remaining)
		if err := insertAudit(ctx, tx, []domain.AuditEntry{audit}); err != nil {
			return err
		}
		// Last, with the code held by this transaction: if the second
		// factors cannot be removed, the code is not spent.
		return a.Then(ctx)
	})
	if err != nil {
		return 0, err
	}
	return remaining, rejected
}
