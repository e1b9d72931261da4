import { QueryClient } from '@tanstack/react-query';
import type { Auth } from 'firebase/auth';
import { describe, expect, it, vi } from 'vitest';

const created = vi.fn();
vi.mock('./auth-actions', () => ({
  createAuthActions: (auth: Auth, queryClient: QueryClient) => {
    created(auth, queryClient);
    return {
      signUp: async (email: string) => `up:${email}`,
      signIn: async (email: string, password: string) => `in:${email}:${password}`,
      signInWithGoogle: async () => {
        throw new Error('popup closed');
      },
      signOut: async () => {},
    };
  },
}));

const { lazyAuthActions } = await import('./lazy-auth-actions');

describe('lazyAuthActions', () => {
  it('passes each call to the real flows, made once for the auth and query client it was given', async () => {
    const auth = { name: 'auth' } as unknown as Auth;
    const queryClient = new QueryClient();
    const actions = lazyAuthActions(auth, queryClient);
    expect(created).not.toHaveBeenCalled();
    expect(await actions.signIn('a@example.com', 'pw')).toBe('in:a@example.com:pw');
    expect(await actions.signUp('b@example.com', 'pw')).toBe('up:b@example.com');
    await expect(actions.signInWithGoogle()).rejects.toThrow('popup closed');
    await actions.signOut();
    expect(created).toHaveBeenCalledTimes(1);
    expect(created).toHaveBeenCalledWith(auth, queryClient);
  });
});
