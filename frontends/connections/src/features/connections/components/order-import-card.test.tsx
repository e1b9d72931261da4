import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { categoryKeys, configureHttp, queryDefaults } from '@uplift/platform';
import { ORDER_IMPORT_MAX_BYTES } from '@uplift/platform/connections';
import { describedBy, json } from '@uplift/platform/testing';
import { CONNECTIONS, gateway, renderPage } from './connections-test-kit';
import { FILE_TOO_LARGE_MESSAGE } from './order-import-card';

const IMPORT = 'POST /internal/categories/cat1/business-data/orders/import';

const CSV = 'Name,Email,Financial Status,Paid at,Currency,Subtotal\n#1001,a@b.c,paid,2024-01-02 10:00:00 +0100,EUR,40.00\n';

const card = () => screen.findByRole('region', { name: 'Import an order export' });
const csvFile = (text = CSV, name = 'orders_export_1.csv') => new File([text], name, { type: 'text/csv' });

describe('Order export import', () => {
  beforeEach(() => configureHttp({ baseUrl: 'http://gateway.test/' }));
  afterEach(() => vi.unstubAllGlobals());

  it('posts the format and the file text, shows the result with its warnings, and refreshes the whole business', async () => {
    let imported = false;
    const api = gateway({
      [CONNECTIONS]: () =>
        json(
          imported
            ? { lastImport: { orders: 3, firstDay: '2024-01-02', lastDay: '2024-01-31', currency: 'EUR', importedAt: new Date().toISOString() } }
            : {},
        ),
      [IMPORT]: () => {
        imported = true;
        return json({
          orders: 3,
          firstDay: '2024-01-02',
          lastDay: '2024-01-31',
          currency: 'EUR',
          warnings: ['Row 4: order #1003 is a test order; it is counted as Shopify counts it.'],
        });
      },
    });
    // Another part of the business (Home's report) is cached; the import must make it stale.
    const queryClient = new QueryClient({ defaultOptions: queryDefaults });
    queryClient.setQueryData(categoryKeys.currentReport('cat1'), { status: 'REPORT_STATUS_READY' });
    renderPage('/connections', { queryClient });

    const imports = await card();
    expect(within(imports).getByText(/Orders → Export/)).toBeTruthy();
    const input = within(imports).getByLabelText('Order export (CSV)') as HTMLInputElement;
    expect(input.accept).toBe('.csv,text/csv');
    await userEvent.upload(input, csvFile());
    await userEvent.click(within(imports).getByRole('button', { name: 'Import' }));

    const note = await within(imports).findByText('Imported 3 orders from Jan 2, 2024 to Jan 31, 2024 (EUR)');
    expect(note).toBeTruthy();
    expect(api.calls(IMPORT)).toHaveLength(1);
    expect(JSON.parse(String(api.calls(IMPORT)[0]?.body))).toEqual({ format: 'shopify-orders-csv', csv: CSV });
    expect(within(imports).getByRole('listitem').textContent).toBe(
      'Row 4: order #1003 is a test order; it is counted as Shopify counts it.',
    );

    expect(queryClient.getQueryState(categoryKeys.currentReport('cat1'))?.isInvalidated).toBe(true);
    // The connections were part of the business too: they refetch and show the import.
    expect(await within(imports).findByText(/Last import: 3 orders from Jan 2, 2024 to Jan 31, 2024 \(EUR\), imported just now/)).toBeTruthy();
  });

  it("shows the server's message naming the row and column when the file is refused", async () => {
    const message = 'Row 7, column "Paid at": "yesterday" is not a date like 2024-01-31 10:00:00 +0100.';
    gateway({ [CONNECTIONS]: () => json({}), [IMPORT]: () => json({ message, code: 3 }, 400) });
    renderPage();
    const imports = await card();
    await userEvent.upload(within(imports).getByLabelText('Order export (CSV)'), csvFile());
    await userEvent.click(within(imports).getByRole('button', { name: 'Import' }));
    expect((await within(imports).findByRole('alert')).textContent).toBe(message);
    expect(within(imports).queryByText(/^Imported/)).toBeNull();
  });

  it('refuses a file over 20 MB without uploading it', async () => {
    const api = gateway({ [CONNECTIONS]: () => json({}) });
    renderPage();
    const imports = await card();
    const big = csvFile();
    Object.defineProperty(big, 'size', { value: ORDER_IMPORT_MAX_BYTES + 1 });
    const input = within(imports).getByLabelText('Order export (CSV)');
    await userEvent.upload(input, big);

    expect(within(imports).getByRole('alert').textContent).toMatch(/larger than 20 MB/);
    // The message is the file field's error: it describes the input and marks it invalid.
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toEqual([FILE_TOO_LARGE_MESSAGE]);
    const button = within(imports).getByRole('button', { name: 'Import' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await userEvent.click(button);
    expect(api.calls(IMPORT)).toHaveLength(0);

    // A file of exactly 20 MB is still allowed.
    const limit = csvFile();
    Object.defineProperty(limit, 'size', { value: ORDER_IMPORT_MAX_BYTES });
    await userEvent.upload(input, limit);
    expect(within(imports).queryByRole('alert')).toBeNull();
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(button.disabled).toBe(false);
  });
});
