import { describe, expect, it } from 'vitest';
import { HttpError } from '@uplift/platform';
import { profileFieldErrors } from './field-errors';

describe('profileFieldErrors', () => {
  it("maps the gateway's field names to the form's fields", () => {
    const error = new HttpError(400, 'Bad Request', {
      message: 'x',
      fields: [
        { field: 'siteUrl', message: 'Not found.' },
        { field: 'competitorUrls', message: 'Too many.' },
        { field: 'name', message: 'Too long.' },
      ],
    });
    expect(profileFieldErrors(error)).toEqual({ website: 'Not found.', competitors: 'Too many.', name: 'Too long.' });
  });

  it('ignores fields the form does not have, malformed entries and other errors', () => {
    const error = new HttpError(400, 'Bad Request', {
      fields: [{ field: 'somethingElse', message: 'x' }, null, 'siteUrl', { field: 'siteUrl' }, { field: 'siteUrl', message: '  ' }],
    });
    expect(profileFieldErrors(error)).toEqual({});
    expect(profileFieldErrors(new HttpError(400, 'Bad Request', { fields: 'siteUrl' }))).toEqual({});
    expect(profileFieldErrors(new Error('network'))).toEqual({});
  });
});
