import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BUSINESS_PROFILE_SAVE_ERROR, configureHttp } from '@uplift/platform';
import { fakeGateway, json, renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { createQueryClient } from '../../../lib/query-client';
import { BusinessProfileDialog } from './business-profile-dialog';

const session = signedInAs('u1');


interface Saved {
  name: string;
  siteUrl?: string;
  additionalInfo?: string;
  disableWeeklyEmail?: boolean;
  disableBusinessReport?: boolean;
  timeZone?: string;
  competitorUrls?: string[];
}

/** A fake gateway holding one category; PATCH params fails when `failParams` is set. */
function gateway(saved: Saved, options: { failParams?: boolean; refuse?: { field: string; message: string } } = {}) {
  const base = '/internal/categories/cat1';
  const body = (init: RequestInit | undefined) => JSON.parse(String(init?.body));
  const api = fakeGateway({
    'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }),
    [`GET ${base}/label`]: () => json({ name: saved.name }),
    [`PUT ${base}/label`]: (init) => {
      saved.name = body(init).name;
      return json({ name: saved.name });
    },
    [`GET ${base}/business-data/contentGenerationParams`]: () =>
      json({ siteUrl: saved.siteUrl, disableWeeklyEmail: saved.disableWeeklyEmail, additionalInfo: saved.additionalInfo, timeZone: saved.timeZone, competitorUrls: saved.competitorUrls }),
    [`PATCH ${base}/business-data/contentGenerationParams`]: (init) => {
      if (options.failParams) return json({ message: 'could not read the website', code: 3 }, 400);
      if (options.refuse) return json({ message: options.refuse.message, code: 3, fields: [options.refuse] }, 400);
      const patch = body(init);
      saved.siteUrl = patch.siteUrl ?? undefined;
      saved.disableWeeklyEmail = patch.disableWeeklyEmail;
      if (patch.timeZone) saved.timeZone = patch.timeZone;
      if (patch.competitors) saved.competitorUrls = patch.competitors.urls;
      return json({ siteUrl: saved.siteUrl, disableWeeklyEmail: saved.disableWeeklyEmail });
    },
    [`PATCH ${base}/business-data/emailPreferences`]: (init) => {
      saved.disableBusinessReport = body(init).disableBusinessReport;
      return json({ disableBusinessReport: saved.disableBusinessReport });
    },
    [`GET ${base}/emailPreferences`]: () => json({ disableBusinessReport: saved.disableBusinessReport }),
    [`POST ${base}/business-data/campaign-ideas/invalidate`]: () => json({}),
  });
  /** The request inits sent to one of the category's paths. */
  const calls = (method: string, suffix: string) => api.calls(`${method} ${base}${suffix}`);
  return { calls };
}

function renderDialog() {
  const onClose = vi.fn();
  const { user } = renderWithProviders(<BusinessProfileDialog open onClose={onClose} />, {
    session,
    queryClient: createQueryClient(),
  });
  return { onClose, user };
}

async function dialogLoaded() {
  const dialog = await screen.findByRole('dialog', { name: 'Business profile' });
  await within(dialog).findByPlaceholderText('Enter business name');
  return dialog;
}

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('BusinessProfileDialog', () => {
  it('shows the spec texts, placeholders and the saved values', async () => {
    gateway({ name: 'Acme', siteUrl: 'https://acme.test', additionalInfo: 'Acme sells anvils.', disableWeeklyEmail: true });
    renderDialog();
    const dialog = await dialogLoaded();
    expect(within(dialog).getByText('Your business profile is used to personalize ideas and insights.')).toBeTruthy();
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Acme');
    expect(within(dialog).getByLabelText('Name').getAttribute('placeholder')).toBe('Enter business name');
    expect((within(dialog).getByLabelText('Website') as HTMLInputElement).value).toBe('https://acme.test');
    expect(within(dialog).getByLabelText('Website').getAttribute('placeholder')).toBe('Enter your website URL');
    const summary = within(dialog).getByLabelText('Summary') as HTMLTextAreaElement;
    expect(summary.readOnly).toBe(true);
    expect(summary.value).toBe('Acme sells anvils.');
    expect(summary.getAttribute('placeholder')).toBe(
      'This section will populate automatically once a valid business website has been entered above and saved.',
    );
    expect(summary.style.maxHeight).toBe('200px');
    const weekly = within(dialog).getByRole('switch', { name: 'Weekly Website Review' }) as HTMLInputElement;
    expect(weekly.checked).toBe(false); // disableWeeklyEmail: true
    expect(within(dialog).getByText('Receive a weekly email with an updated website review')).toBeTruthy();
    const daily = within(dialog).getByRole('switch', { name: 'Daily Business Report' }) as HTMLInputElement;
    expect(daily.checked).toBe(true);
    expect(within(dialog).getByText('Receive a daily email with an updated business report')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('saves on Enter in the name field, sends an empty website as null, refetches and closes', async () => {
    const { calls } = gateway({ name: 'Old', siteUrl: 'https://old.test' });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    const website = within(dialog).getByLabelText('Website');
    await user.clear(website);
    await user.type(website, '   ');
    await user.click(within(dialog).getByRole('switch', { name: 'Daily Business Report' }));
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'New name{Enter}');

    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(calls('PUT', '/label')[0]?.body))).toEqual({ name: 'New name' });
    expect(JSON.parse(String(calls('PATCH', '/business-data/contentGenerationParams')[0]?.body))).toEqual({
      siteUrl: null,
      disableWeeklyEmail: false,
    });
    expect(JSON.parse(String(calls('PATCH', '/business-data/emailPreferences')[0]?.body))).toEqual({
      disableBusinessReport: true,
    });
    // The website changed (to none), so the old ideas go.
    expect(calls('POST', '/business-data/campaign-ideas/invalidate')).toHaveLength(1);
    // Params, label and preferences were each fetched again after the save.
    expect(calls('GET', '/label')).toHaveLength(2);
    expect(calls('GET', '/business-data/contentGenerationParams')).toHaveLength(2);
    expect(calls('GET', '/emailPreferences')).toHaveLength(2);
  });

  it('shows the saved time zone and sends it only when changed', async () => {
    const { calls } = gateway({ name: 'Acme', siteUrl: 'https://acme.test', timeZone: 'Europe/Paris' });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    const zone = within(dialog).getByLabelText('Time zone') as HTMLSelectElement;
    expect(zone.value).toBe('Europe/Paris');
    expect(within(dialog).getByText('Your weekly review and daily report arrive in the morning in this time zone.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(calls('PATCH', '/business-data/contentGenerationParams')[0]?.body))).not.toHaveProperty('timeZone');
  });

  it('shows the saved competitors in three boxes and sends them only when changed', async () => {
    const { calls } = gateway({ name: 'Acme', siteUrl: 'https://acme.test', competitorUrls: ['https://rival.test/'] });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    const first = within(dialog).getByRole('textbox', { name: 'Competitor 1' }) as HTMLInputElement;
    expect(first.value).toBe('https://rival.test/');
    expect((within(dialog).getByRole('textbox', { name: 'Competitor 3' }) as HTMLInputElement).value).toBe('');
    expect(within(dialog).queryByRole('textbox', { name: 'Competitor 4' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(calls('PATCH', '/business-data/contentGenerationParams')[0]?.body))).not.toHaveProperty('competitors');
  });

  it('saves changed competitors, blanks left out', async () => {
    const { calls } = gateway({ name: 'Acme', siteUrl: 'https://acme.test', competitorUrls: ['https://rival.test/'] });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Competitor 1' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Competitor 2' }), ' other.test ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(calls('PATCH', '/business-data/contentGenerationParams')[0]?.body))).toEqual({
      siteUrl: 'https://acme.test',
      disableWeeklyEmail: false,
      competitors: { urls: ['other.test'] },
    });
  });

  it('saves a changed time zone with the profile', async () => {
    const { calls } = gateway({ name: 'Acme', siteUrl: 'https://acme.test' });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    const zone = within(dialog).getByLabelText('Time zone') as HTMLSelectElement;
    expect(zone.value).toBe('');
    await user.selectOptions(zone, 'America/New_York');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(calls('PATCH', '/business-data/contentGenerationParams')[0]?.body))).toEqual({
      siteUrl: 'https://acme.test',
      disableWeeklyEmail: false,
      timeZone: 'America/New_York',
    });
  });

  it('does not invalidate ideas when the website is unchanged', async () => {
    const { calls } = gateway({ name: 'Acme', siteUrl: 'https://acme.test' });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls('PATCH', '/business-data/contentGenerationParams')).toHaveLength(1);
    expect(calls('POST', '/business-data/campaign-ideas/invalidate')).toHaveLength(0);
  });

  it('shows the saving state while the save runs', async () => {
    gateway({ name: 'Acme' });
    let release: () => void = () => {};
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'PUT') await new Promise<void>((resolve) => (release = resolve));
      return original(input, init);
    });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const save = within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(save.getAttribute('aria-busy')).toBe('true');
    release();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('keeps the dialog open with the website message when saving fails', async () => {
    const { calls } = gateway({ name: 'Acme' }, { failParams: true });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    await user.type(within(dialog).getByLabelText('Website'), 'http://127.0.0.1:1/');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(BUSINESS_PROFILE_SAVE_ERROR);
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Business profile' })).toBeTruthy();
    expect(calls('POST', '/business-data/campaign-ideas/invalidate')).toHaveLength(0);
    // The button is usable again for another try.
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a refused website under the Website field, scrolled to and focused, until it is edited', async () => {
    const message = 'That address is on a private network, not the public internet. Please enter your store\'s public web address.';
    gateway({ name: 'Acme' }, { refuse: { field: 'siteUrl', message } });
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    const website = within(dialog).getByLabelText('Website');
    await user.type(website, 'http://10.0.0.1/');
    // Saved from the last field, as an owner scrolled down to Save would.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(document.activeElement).toBe(website));
    expect(website.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (website.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(describedBy).toContain(message);
    expect(scrolled).toContain(website);
    // Under its field, not in a banner at the top of the dialog.
    expect(within(dialog).getAllByRole('alert')).toHaveLength(1);
    expect(within(dialog).queryByText(BUSINESS_PROFILE_SAVE_ERROR)).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    await user.type(website, 'x');
    expect(website.getAttribute('aria-invalid')).toBeNull();
    expect(within(dialog).queryByText(message)).toBeNull();
    // jsdom has none of its own.
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('Cancel closes without saving', async () => {
    const { calls } = gateway({ name: 'Acme' });
    const { onClose, user } = renderDialog();
    const dialog = await dialogLoaded();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalled();
    expect(calls('PUT', '/label')).toHaveLength(0);
  });
});
