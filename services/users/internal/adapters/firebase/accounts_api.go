package firebase

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/oauth2/google"
)

// AccountsAPI is Identity Toolkit's accounts API, called directly for the
// one change the Go Admin SDK cannot make: removing every second factor.
// Its UpdateUser sends {"mfa": {"enrollments": null}} for an empty list,
// which the API refuses ("/mfa/enrollments must be array"); an empty "mfa"
// object is what removes them all (as the Node Admin SDK sends).
type AccountsAPI struct {
	// base is …/v1/projects/{project}.
	base string
	http *http.Client
	// bearer is the emulator's fixed admin token; real Firebase gets the
	// service's credentials from http's transport instead.
	bearer string
}

// NewAccountsAPI reaches the Auth emulator at emulatorHost, or with
// emulatorHost empty, Firebase with the service's default Google
// credentials (the Admin SDK's own).
func NewAccountsAPI(ctx context.Context, projectID, emulatorHost string) (*AccountsAPI, error) {
	project := url.PathEscape(projectID)
	if emulatorHost != "" {
		return &AccountsAPI{base: "http://" + emulatorHost + "/identitytoolkit.googleapis.com/v1/projects/" + project,
			http: &http.Client{Timeout: 10 * time.Second}, bearer: "owner"}, nil
	}
	client, err := google.DefaultClient(ctx, "https://www.googleapis.com/auth/cloud-platform")
	if err != nil {
		return nil, fmt.Errorf("firebase accounts API credentials: %w", err)
	}
	client.Timeout = 10 * time.Second
	return &AccountsAPI{base: "https://identitytoolkit.googleapis.com/v1/projects/" + project, http: client}, nil
}

// ClearSecondFactors unenrols every second factor of the account.
func (a *AccountsAPI) ClearSecondFactors(ctx context.Context, uid string) error {
	body, err := json.Marshal(map[string]any{"localId": uid, "mfa": map[string]any{}})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/accounts:update", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if a.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+a.bearer)
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return fmt.Errorf("firebase clear second factors: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("firebase clear second factors: %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}
