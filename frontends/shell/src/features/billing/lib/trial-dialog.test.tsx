import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS, type Session, type UserJson } from '@uplift/platform';
import { renderHookWithProviders, signedInAs } from '@uplift/platform/testing';
import { askedForTrial, nextForced, trialDialogOpen } from './trial-dialog';
import { useTrialDialog } from './use-trial-dialog';

describe('trial dialog rules', () => {
  it('is asked for by showTrialDialog=true or requirePayment=true', () => {
    expect(askedForTrial('?showTrialDialog=true')).toBe(true);
    expect(askedForTrial('?requirePayment=true')).toBe(true);
    expect(askedForTrial('?showTrialDialog=false')).toBe(false);
    expect(askedForTrial('')).toBe(false);
  });

  it('is forced when asked or stored, and cleared once billing info exists', () => {
    expect(nextForced(false, true, 'none')).toBe(true);
    expect(nextForced(false, true, 'unknown')).toBe(true);
    expect(nextForced(true, false, 'none')).toBe(true);
    expect(nextForced(false, false, 'none')).toBe(false);
    expect(nextForced(true, true, 'present')).toBe(false);
  });

  it('is open only while forced and billing info is null', () => {
    expect(trialDialogOpen(true, 'none')).toBe(true);
    expect(trialDialogOpen(true, 'unknown')).toBe(false);
    expect(trialDialogOpen(true, 'present')).toBe(false);
    expect(trialDialogOpen(false, 'none')).toBe(false);
  });
});

const signedIn = signedInAs('u1');

function renderTrial(path: string, user: UserJson | null, session: Session = signedIn) {
  const queryClient = new QueryClient();
  if (user) queryClient.setQueryData(['users', 'u1'], user);
  return renderHookWithProviders(() => useTrialDialog(), { path, session, queryClient });
}

const stored = () => window.localStorage.getItem(STORAGE_KEYS.forceShowTrialDialog);

describe('useTrialDialog', () => {
  afterEach(() => window.localStorage.clear());

  it('opens and stores the flag for a user without billing info', () => {
    const { result } = renderTrial('/?showTrialDialog=true', { id: 'u1' });
    expect(result.current.open).toBe(true);
    expect(stored()).toBe('true');
  });

  it('keeps opening from the stored flag once the parameter is gone', () => {
    window.localStorage.setItem(STORAGE_KEYS.forceShowTrialDialog, 'true');
    const { result } = renderTrial('/analytics', { id: 'u1' });
    expect(result.current.open).toBe(true);
  });

  it('clears the flag and stays closed once billing info exists', () => {
    window.localStorage.setItem(STORAGE_KEYS.forceShowTrialDialog, 'true');
    const { result } = renderTrial('/?showTrialDialog=true', { id: 'u1', billingInfo: { tier: 'free' } });
    expect(result.current.open).toBe(false);
    expect(stored()).toBeNull();
  });

  it('remembers the request of a signed-out visitor for after sign-up, without opening', () => {
    const { result } = renderTrial('/?requirePayment=true', null, { status: 'signedOut', user: null });
    expect(result.current.open).toBe(false);
    expect(stored()).toBe('true');
  });

  it('stays closed while a finished checkout is being confirmed', () => {
    window.localStorage.setItem(STORAGE_KEYS.forceShowTrialDialog, 'true');
    const { result } = renderTrial('/?checkout=success', { id: 'u1' });
    expect(result.current.open).toBe(false);
    expect(stored()).toBe('true');
  });

  it('does nothing without a request', () => {
    const { result } = renderTrial('/', { id: 'u1' });
    expect(result.current.open).toBe(false);
    expect(stored()).toBeNull();
  });
});
