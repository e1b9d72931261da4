import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { onOpenSupportChat, useSession } from '@uplift/platform';
import { chatModeFor } from '../lib/chat-mode';
import { createIntercomMessenger } from '../lib/messenger';
import { SupportChat } from '../lib/support-chat';

/**
 * Runs the support chat for the whole app (spec section 4): started for the
 * signed-in user, anonymous on website-score and marketing pages with
 * `?email=`, shut down otherwise, updated on every route change. 'Contact us'
 * and other callers open it through openSupportChat().
 */
export function useSupportChat(appId: string): void {
  const session = useSession();
  const { pathname, search } = useLocation();
  const [chat] = useState(() => new SupportChat(createIntercomMessenger(appId)));
  const mode = chatModeFor(session, pathname, search);
  const modeKey = JSON.stringify(mode);

  useEffect(() => {
    if (mode) chat.apply(mode);
    // The mode is compared by value (modeKey); a new route means an update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chat, modeKey, pathname]);

  useEffect(() => onOpenSupportChat(() => chat.open()), [chat]);
}
