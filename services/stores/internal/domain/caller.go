package domain

// Caller is who is asking, as the auth interceptor verified it.
type Caller struct {
	UID string
	// Admin may run operator actions (a daily report ahead of its hour).
	Admin bool
}
