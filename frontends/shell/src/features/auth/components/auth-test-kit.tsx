/** Test helpers: the auth actions the AuthProvider would give, as fakes. */
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { AuthActions } from '../lib/auth-actions';
import { AuthActionsContext } from './auth-provider';

/** Every action succeeds (signing in as u1) unless the test says otherwise. */
export function fakeAuthActions(overrides: Partial<AuthActions> = {}): AuthActions {
  return {
    signIn: vi.fn(async () => 'u1'),
    signUp: vi.fn(async () => 'u1'),
    signInWithGoogle: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    ...overrides,
  };
}

/** A `wrapper` for renderWithProviders that provides these actions. */
export function withAuthActions(actions: AuthActions) {
  return function AuthActionsWrapper({ children }: { children: ReactNode }) {
    return <AuthActionsContext.Provider value={actions}>{children}</AuthActionsContext.Provider>;
  };
}
