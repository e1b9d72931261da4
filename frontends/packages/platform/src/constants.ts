/** The product's business constants (spec section 9), kept in one place. */

/** The top bar turns translucent once the page is scrolled past this many pixels. */
export const TOP_BAR_TRANSLUCENT_AFTER_PX = 100;

/** Current report and recent ideas are polled this often. */
export const POLL_INTERVAL_MS = 30_000;

/** How long the error toast stays on screen. */
export const ERROR_TOAST_MS = 5_000;

/** Cached data is fresh for this long by default. */
export const QUERY_STALE_TIME_MS = 60_000;

/** Cached errors expire after this long, so a failed call is retried soon. */
export const QUERY_ERROR_STALE_TIME_MS = 1_000;

/** Prices arrive in cents and are shown divided by this, per month. */
export const CENTS_PER_UNIT = 100;

/** Website score thresholds; their meaning is not defined yet. */
export const SCORE_THRESHOLDS = { LOW: 5, MED: 30, HIGH: 70 } as const;

/** Avatar sizes in pixels. */
export const AVATAR_SIZES = { xs: 20, sm: 30, md: 50, lg: 64 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

/** Responsive image widths and the default image quality. */
export const IMAGE_WIDTHS = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;
export const IMAGE_DEFAULT_QUALITY = 75;

/** Text areas grow up to this height. */
export const TEXT_AREA_MAX_HEIGHT_PX = 200;

/** The ID token is synced only while it is at most this old (seconds since it was issued). */
export const TOKEN_SYNC_MAX_AGE_SECONDS = 300;

/** The local API gateway's port. */
export const LOCAL_API_PORT = 8080;

/** Keys the app stores in the browser. */
export const STORAGE_KEYS = {
  shopifyCategoryId: 'shopify-categoryId',
  forceShowTrialDialog: 'forceShowTrialDialog',
} as const;

/** Text shown while something loads. */
export const LOADING_TEXT = 'loading...';

/** The generic fallback when an error carries no message. */
export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred. Please try again.';

/** 'Contact us' goes here unless UPLIFT_SUPPORT_URL says otherwise; a placeholder address. */
export const DEFAULT_SUPPORT_URL = 'mailto:support@uplift.dev';

/** The tier a user without billing info is on. */
export const FREE_TIER_ID = 'free';

/** Business profile save failure (spec section 8). */
export const BUSINESS_PROFILE_SAVE_ERROR =
  'Something went wrong. Please ensure the website url is properly formatted and try again.';

/** The reset-password success note; 'as' (not 'has') is the spec's exact text. */
export const resetPasswordSentMessage = (email: string): string => `An email as been sent to ${email}`;

/** The on-behalf banner (spec section 2); the wording is the spec's. */
export const ON_BEHALF_BANNER_TEXT = 'You are navigating the site on behalf an other user';
