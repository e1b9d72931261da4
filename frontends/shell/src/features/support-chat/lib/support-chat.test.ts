import { describe, expect, it, vi } from 'vitest';
import type { Session } from '@uplift/platform';
import { chatModeFor } from './chat-mode';
import type { Messenger } from './messenger';
import { SupportChat } from './support-chat';

const signedIn = (email: string, displayName: string | null = null): Session => ({
  status: 'signedIn',
  user: { uid: 'u1', email, displayName, photoURL: null },
});
const signedOut: Session = { status: 'signedOut', user: null };

describe('chatModeFor', () => {
  it('waits while auth state is unknown', () => {
    expect(chatModeFor({ status: 'unknown', user: null }, '/', '')).toBeNull();
  });

  it('names the signed-in user, by display name or the part of the email before @', () => {
    expect(chatModeFor(signedIn('ann@example.com', 'Ann Lee'), '/', '')).toEqual({
      kind: 'user',
      name: 'Ann Lee',
      email: 'ann@example.com',
    });
    expect(chatModeFor(signedIn('bob@example.com'), '/analytics', '?email=x@example.com')).toEqual({
      kind: 'user',
      name: 'bob',
      email: 'bob@example.com',
    });
  });

  it('is anonymous with ?email= only on website-score and marketing pages', () => {
    expect(chatModeFor(signedOut, '/website-score', '?url=a.com&email=v%40example.com')).toEqual({
      kind: 'anonymous',
      email: 'v@example.com',
    });
    expect(chatModeFor(signedOut, '/marketing/spring', '?email=v@example.com')).toEqual({
      kind: 'anonymous',
      email: 'v@example.com',
    });
    expect(chatModeFor(signedOut, '/website-score', '?url=a.com')).toEqual({ kind: 'off' });
    expect(chatModeFor(signedOut, '/website-score', '?email=%20')).toEqual({ kind: 'off' });
    expect(chatModeFor(signedOut, '/', '?email=v@example.com')).toEqual({ kind: 'off' });
  });
});

function fakeMessenger(showWorks = true) {
  const calls: unknown[][] = [];
  const messenger: Messenger = {
    boot: vi.fn((settings) => void calls.push(['boot', settings])),
    update: vi.fn(() => void calls.push(['update'])),
    shutdown: vi.fn(() => void calls.push(['shutdown'])),
    show: vi.fn(() => {
      calls.push(['show']);
      return showWorks;
    }),
  };
  return { messenger, calls };
}

describe('SupportChat', () => {
  it('boots once, updates on each later route, and shuts down when the mode turns off', () => {
    const { messenger, calls } = fakeMessenger();
    const chat = new SupportChat(messenger);
    const user = { kind: 'user', name: 'ann', email: 'ann@example.com' } as const;
    chat.apply(user);
    chat.apply(user);
    chat.apply(user);
    chat.apply({ kind: 'off' });
    chat.apply({ kind: 'off' });
    expect(calls).toEqual([
      ['boot', { name: 'ann', email: 'ann@example.com' }],
      ['update'],
      ['update'],
      ['shutdown'],
    ]);
  });

  it('never calls the messenger for a visitor who stays off', () => {
    const { messenger, calls } = fakeMessenger();
    const chat = new SupportChat(messenger);
    chat.apply({ kind: 'off' });
    expect(calls).toEqual([]);
    expect(chat.open()).toBe(false);
  });

  it('ends an anonymous conversation before booting the user who signed up', () => {
    const { messenger, calls } = fakeMessenger();
    const chat = new SupportChat(messenger);
    chat.apply({ kind: 'anonymous', email: 'v@example.com' });
    chat.apply({ kind: 'user', name: 'v', email: 'v@example.com' });
    expect(calls).toEqual([['boot', { email: 'v@example.com' }], ['shutdown'], ['boot', { name: 'v', email: 'v@example.com' }]]);
  });

  it('opens only while booted, and reports a messenger that could not load', () => {
    const working = fakeMessenger(true);
    const chat = new SupportChat(working.messenger);
    chat.apply({ kind: 'anonymous', email: 'v@example.com' });
    expect(chat.open()).toBe(true);

    const offline = fakeMessenger(false);
    const down = new SupportChat(offline.messenger);
    down.apply({ kind: 'anonymous', email: 'v@example.com' });
    expect(down.open()).toBe(false);
  });
});
