/**
 * Requests a remote makes of the shell. Remotes must not import the shell, so
 * they raise a DOM event on window and the shell, which owns the dialogs, listens.
 */
export const OPEN_BUSINESS_PROFILE_EVENT = 'uplift:open-business-profile';

/** Asks the shell to open the Business profile dialog. */
export function openBusinessProfile(): void {
  window.dispatchEvent(new CustomEvent(OPEN_BUSINESS_PROFILE_EVENT));
}

/** For the shell: calls `listener` whenever a remote asks; returns the unsubscribe. */
export function onOpenBusinessProfile(listener: () => void): () => void {
  window.addEventListener(OPEN_BUSINESS_PROFILE_EVENT, listener);
  return () => window.removeEventListener(OPEN_BUSINESS_PROFILE_EVENT, listener);
}

export const OPEN_UPGRADE_PLAN_EVENT = 'uplift:open-upgrade-plan';

/** Asks the shell to open the Upgrade plan dialog (e.g. the studio's free-plan limit). */
export function openUpgradePlan(): void {
  window.dispatchEvent(new CustomEvent(OPEN_UPGRADE_PLAN_EVENT));
}

/** For the shell: calls `listener` whenever a remote asks; returns the unsubscribe. */
export function onOpenUpgradePlan(listener: () => void): () => void {
  window.addEventListener(OPEN_UPGRADE_PLAN_EVENT, listener);
  return () => window.removeEventListener(OPEN_UPGRADE_PLAN_EVENT, listener);
}

export const OPEN_SUPPORT_CHAT_EVENT = 'uplift:open-support-chat';

/**
 * Asks the shell to open the support chat. Returns true when the chat took the
 * request, false when it is not available (offline, blocked): the caller then
 * falls back to its link (e.g. 'Contact us' follows its mailto:).
 */
export function openSupportChat(): boolean {
  // The shell's listener cancels the event when it opened the chat.
  return !window.dispatchEvent(new CustomEvent(OPEN_SUPPORT_CHAT_EVENT, { cancelable: true }));
}

/** For the shell: `listener` returns whether it opened the chat; returns the unsubscribe. */
export function onOpenSupportChat(listener: () => boolean): () => void {
  const handle = (event: Event) => {
    if (listener()) event.preventDefault();
  };
  window.addEventListener(OPEN_SUPPORT_CHAT_EVENT, handle);
  return () => window.removeEventListener(OPEN_SUPPORT_CHAT_EVENT, handle);
}
