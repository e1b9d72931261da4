import { isHttpError } from '@uplift/platform';

/** The profile form's fields that a save can refuse. */
export type ProfileField = 'name' | 'website' | 'timeZone' | 'competitors';

/** The gateway names a refused field by the request's JSON name; each is one of the form's fields. */
const FORM_FIELD: Record<string, ProfileField> = {
  name: 'name',
  siteUrl: 'website',
  timeZone: 'timeZone',
  competitorUrls: 'competitors',
};

/** The order the form shows them in: the first refused one takes the focus. */
export const PROFILE_FIELDS: readonly ProfileField[] = ['name', 'website', 'timeZone', 'competitors'];

export type ProfileFieldErrors = Partial<Record<ProfileField, string>>;

/**
 * The messages of a refused save, by the form field each is about (the
 * error body's `fields`, gateway README "Errors"); empty when the failure
 * names no field of this form.
 */
export function profileFieldErrors(error: unknown): ProfileFieldErrors {
  if (!isHttpError(error) || !Array.isArray(error.body.fields)) return {};
  const out: ProfileFieldErrors = {};
  for (const entry of error.body.fields as unknown[]) {
    if (!entry || typeof entry !== 'object') continue;
    const { field, message } = entry as { field?: unknown; message?: unknown };
    const formField = typeof field === 'string' ? FORM_FIELD[field] : undefined;
    if (formField && typeof message === 'string' && message.trim() && !out[formField]) out[formField] = message;
  }
  return out;
}
