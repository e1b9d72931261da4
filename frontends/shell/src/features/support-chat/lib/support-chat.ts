import type { ChatMode } from './chat-mode';
import type { Messenger } from './messenger';

/**
 * Keeps the messenger in step with the app: boots it for whoever the mode
 * names, shuts it down when the mode is off or names someone else (before
 * booting them), and sends an update on every route change in between.
 */
export class SupportChat {
  /** Who the messenger is booted for (a key of the mode), or null when it is not. */
  private bootedFor: string | null = null;

  constructor(private readonly messenger: Messenger) {}

  /** Called once per route (and whenever the mode changes). */
  apply(mode: ChatMode): void {
    if (mode.kind === 'off') {
      if (this.bootedFor !== null) this.messenger.shutdown();
      this.bootedFor = null;
      return;
    }
    const key = JSON.stringify(mode);
    if (key === this.bootedFor) {
      this.messenger.update();
      return;
    }
    // Someone else was chatting (e.g. an anonymous visitor who just signed up): end that conversation first.
    if (this.bootedFor !== null) this.messenger.shutdown();
    this.messenger.boot(mode.kind === 'user' ? { name: mode.name, email: mode.email } : { email: mode.email });
    this.bootedFor = key;
  }

  /** Opens the chat if it is running; false sends the caller to its fallback. */
  open(): boolean {
    return this.bootedFor !== null && this.messenger.show();
  }
}
