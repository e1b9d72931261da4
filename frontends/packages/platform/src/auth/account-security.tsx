import { createContext, useContext, type ReactNode } from 'react';

/**
 * Two-step sign-in (time-based codes) as the shell offers it to remotes. The
 * shell owns Firebase; remotes never import it, so they get these functions
 * through context instead.
 */
export interface TotpEnrollment {
  /** The shared secret, for typing into an authenticator app by hand. */
  secretKey: string;
  /** The otpauth:// URL the QR code encodes. */
  otpauthUrl: string;
  /** Verifies a code from the app and turns two-step sign-in on. */
  finish(code: string): Promise<void>;
}

export interface AccountSecurity {
  /** Whether the signed-in user already has a time-based code factor. */
  hasTotp(): boolean;
  /** Starts enrolment: a new secret for the signed-in user. */
  startTotpEnrollment(): Promise<TotpEnrollment>;
  /**
   * Turns two-step sign-in off, after proving it is the owner: the password
   * and a fresh code from the authenticator app (a fresh sign-in).
   */
  disableTotp(password: string, code: string): Promise<void>;
  /**
   * Signs in again with the password and a current code (two-step sign-in
   * on), so the server sees a fresh sign-in: new recovery codes need one.
   */
  confirmSignIn(password: string, code: string): Promise<void>;
  /** Signs in again with a token the server gave, e.g. after an email change ended the session. */
  resumeSession(signInToken: string): Promise<void>;
}

const AccountSecurityContext = createContext<AccountSecurity | null>(null);

export function AccountSecurityProvider({ value, children }: { value: AccountSecurity; children: ReactNode }) {
  return <AccountSecurityContext.Provider value={value}>{children}</AccountSecurityContext.Provider>;
}

/** The shell's two-step functions, or null where no shell provides them (a remote running alone). */
export function useAccountSecurity(): AccountSecurity | null {
  return useContext(AccountSecurityContext);
}
