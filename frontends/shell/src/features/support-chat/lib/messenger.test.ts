import { afterEach, describe, expect, it } from 'vitest';
import { forgetLoadedScripts } from '@uplift/platform';
import { createIntercomMessenger, messengerScriptUrl } from './messenger';

afterEach(() => {
  delete window.Intercom;
  forgetLoadedScripts();
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

describe('createIntercomMessenger', () => {
  it('queues calls for the script, which is not requested before the first boot', async () => {
    const messenger = createIntercomMessenger('demo-chat');
    expect(document.querySelector('script[src*="intercom"]')).toBeNull();
    expect(messenger.show()).toBe(false);

    messenger.boot({ name: 'ann', email: 'ann@example.com' });
    messenger.update();
    expect(window.Intercom?.q).toEqual([
      ['boot', { app_id: 'demo-chat', name: 'ann', email: 'ann@example.com' }],
      ['update'],
    ]);
    // The script is added once the page is idle, never during the first render.
    await expect
      .poll(() => document.querySelector(`script[src="${messengerScriptUrl('demo-chat')}"]`))
      .not.toBeNull();
  });

  it('says it cannot open once the script failed to load (offline), so the caller falls back', async () => {
    const messenger = createIntercomMessenger('demo-offline');
    messenger.boot({ email: 'v@example.com' });
    const selector = `script[src="${messengerScriptUrl('demo-offline')}"]`;
    await expect.poll(() => document.querySelector(selector)).not.toBeNull();
    const script = document.querySelector<HTMLScriptElement>(selector)!;
    expect(messenger.show()).toBe(true); // still loading: the call waits in the queue
    script.dispatchEvent(new Event('error'));
    await expect.poll(() => messenger.show()).toBe(false);
  });
});
