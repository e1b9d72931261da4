import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
import { json, renderWithProviders } from '@uplift/platform/testing';
import { AuditLogSection } from './audit-log-section';


function renderSection() {
  renderWithProviders(<AuditLogSection userId="u1" />, {
    queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  });
}

beforeEach(() => configureHttp({ baseUrl: 'http://gw.test/' }));
afterEach(() => vi.unstubAllGlobals());

describe('AuditLogSection', () => {
  it('lists who acted for the owner and what they changed, from their side of the log', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL) =>
      json({
        entries: [
          { actorEmail: 'support@uplift.test', action: 'UpdateLabel', createTime: '2026-11-20T10:00:00Z' },
          { actorEmail: 'admin@uplift.test', action: 'set_billing', detail: 'tier pro', createTime: '2026-11-19T10:00:00Z' },
          { actorId: 'gone', action: 'SomethingNew', createTime: '2026-11-18T10:00:00Z' },
        ],
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderSection();
    const region = screen.getByRole('region', { name: 'Who acted for you' });
    const items = await within(region).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Changed the business nameby support@uplift.test'),
      expect.stringContaining('Set the plan by hand (tier pro)by admin@uplift.test'),
      expect.stringContaining('SomethingNewby A deleted user'),
    ]);
    expect(String(fetchMock.mock.calls[0]![0])).toBe('http://gw.test/internal/users/u1/auditLog?role=subject');
  });

  it('says plainly when nobody acted, and when the log cannot be read', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({})));
    renderSection();
    expect(await screen.findByText('Nobody has acted on your behalf.')).toBeTruthy();
  });

  it('shows an error instead of an empty list when the read fails', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ message: 'boom' }, 500)));
    renderSection();
    expect(await screen.findByText('The list could not be loaded. Please try again later.')).toBeTruthy();
  });
});
