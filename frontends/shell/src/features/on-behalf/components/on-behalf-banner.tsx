import { useState } from 'react';
import {
  browser,
  ON_BEHALF_BANNER_TEXT,
  serverMessage,
  switchMetricsCategory,
  toast,
  UNKNOWN_ERROR_MESSAGE,
  useUser,
} from '@uplift/platform';
import { isActingOnBehalf } from '../lib/on-behalf';

/**
 * The fixed red banner shown while an uplifter views another user's category;
 * 'exit' switches back to their own and reloads /dashboard (spec section 4).
 */
export function OnBehalfBanner({ userId }: { userId: string }) {
  const user = useUser(userId);
  const [exiting, setExiting] = useState(false);
  if (!isActingOnBehalf(user.data)) return null;
  const original = user.data?.originalCategoryId ?? '';

  const exit = async () => {
    setExiting(true);
    try {
      await switchMetricsCategory(userId, original);
      // A full reload: every cached query belongs to the other user's category.
      browser.assign('/dashboard');
    } catch (error) {
      toast.error(serverMessage(error, UNKNOWN_ERROR_MESSAGE));
      setExiting(false);
    }
  };

  return (
    <div className="on-behalf-banner" role="region" aria-label="On behalf of another user">
      <span>{ON_BEHALF_BANNER_TEXT}</span>
      <button type="button" onClick={exit} disabled={exiting}>
        exit
      </button>
    </div>
  );
}
