import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { http } from '@uplift/platform';
import { DigestButton } from './digest-button';

afterEach(() => vi.restoreAllMocks());

// Home redraws the ideas card when the website review finishes: an ask made
// just before must still say it went.
test('the digest button still says it was sent after the card is drawn again', async () => {
  const post = vi.spyOn(http, 'post').mockResolvedValue({});
  const client = new QueryClient();
  const view = (key: string) => (
    <QueryClientProvider client={client}>
      <DigestButton key={key} categoryId="c1" />
    </QueryClientProvider>
  );
  const { rerender } = render(view('generating'));
  await userEvent.click(screen.getByRole('button', { name: 'Email me the AI digest' }));
  expect(await screen.findByText(/^Sent: your insights/)).toBeTruthy();
  rerender(view('ready'));
  expect(screen.getByRole('status').textContent).toBe(
    'Sent: your insights and campaign ideas are on their way to your account email.',
  );
  expect(post).toHaveBeenCalledTimes(1);
});
