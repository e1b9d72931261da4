package domain

// Caller is who is asking, from the verified token.
type Caller struct {
	UID, Email      string
	Admin, Uplifter bool
}
