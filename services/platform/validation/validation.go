// Package validation holds the one error type every service uses for a
// client's mistake in one field. Each service's domain names it
// ValidationError (a type alias), and grpcerr turns it into InvalidArgument
// with the field attached, so the gateway answers 400 with a message a
// person can act on. It has no dependencies, so domain packages may use it.
package validation

// Error is a client's mistake in one field, with a message for people.
type Error struct {
	Field   string
	Message string
}

func (e *Error) Error() string { return e.Field + ": " + e.Message }

// New is an Error for field.
func New(field, message string) *Error { return &Error{Field: field, Message: message} }
