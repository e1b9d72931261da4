package auth

import "os"

// setEmulatorEnv is the one place below cmd/ that touches the environment:
// the Firebase Admin SDK has no other way to be pointed at the emulator.
func setEmulatorEnv(host string) error {
	if host == "" {
		return os.Unsetenv("FIREBASE_AUTH_EMULATOR_HOST")
	}
	return os.Setenv("FIREBASE_AUTH_EMULATOR_HOST", host)
}
