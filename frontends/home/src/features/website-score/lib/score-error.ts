import { isHttpError } from '@uplift/platform';

export const RATE_LIMITED_MESSAGE =
  "You've scored a lot of websites in a short time. Please wait a minute and try again.";
export const UNREADABLE_FALLBACK_MESSAGE =
  "We couldn't read that website. Please check the address (for example https://yourstore.com) and try again.";
export const GENERIC_SCORE_ERROR = 'Something went wrong while scoring the website. Please try again.';

/** A 400: the address itself was refused (not a website, or one that cannot be read), so it is the URL field's error. */
export function isAddressRefused(error: unknown): boolean {
  return isHttpError(error) && error.status === 400;
}

/** What the visitor reads when scoring fails: 429 and 400 have their own words. */
export function scoreErrorMessage(error: unknown): string {
  if (!isHttpError(error)) return GENERIC_SCORE_ERROR;
  if (error.status === 429) return RATE_LIMITED_MESSAGE;
  if (isAddressRefused(error)) {
    // The server says why the site could not be read; fall back when it does not.
    const message = typeof error.body.message === 'string' ? error.body.message : '';
    return message || UNREADABLE_FALLBACK_MESSAGE;
  }
  return GENERIC_SCORE_ERROR;
}
