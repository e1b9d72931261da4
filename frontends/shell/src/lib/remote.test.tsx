import { act, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError, parseEnv } from '@uplift/platform';
import { renderWithProviders, type Rendered } from '@uplift/platform/testing';
import { EnvProvider } from './env-context';
import { preloadRemoteModule, RemoteModule } from './remote';

const loadRemoteModule = vi.fn();
vi.mock('./federation', () => ({ loadRemoteModule: (...args: unknown[]) => loadRemoteModule(...args) }));

const env = parseEnv({ skipEnvValidation: 'true', remoteAnalyticsUrl: 'http://remotes.test/analytics.js' });

/** Renders in the shell's providers, inside an awaited act: a page that suspends on use() is retried only there. */
async function renderAsync(ui: ReactNode) {
  let result!: Rendered;
  await act(async () => {
    result = renderWithProviders(ui, { wrapper: ({ children }: { children: ReactNode }) => <EnvProvider env={env}>{children}</EnvProvider> });
  });
  return result;
}

describe('RemoteModule', () => {
  it("renders the remote's module from the configured URL, with 'loading...' meanwhile", async () => {
    let arrive!: (module: unknown) => void;
    loadRemoteModule.mockReturnValueOnce(new Promise((resolve) => (arrive = resolve)));
    await renderAsync(<RemoteModule remote="analytics" module="./App" />);
    expect(screen.getByText('loading...')).toBeTruthy();
    await act(async () => arrive({ default: () => <h1>Analytics</h1> }));
    expect(await screen.findByRole('heading', { name: 'Analytics' })).toBeTruthy();
    expect(loadRemoteModule).toHaveBeenCalledWith(
      { scope: 'uplift_analytics', url: 'http://remotes.test/analytics.js' },
      './App',
    );
  });

  it('shows an error card when the remote fails, and can try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    loadRemoteModule.mockRejectedValueOnce(new Error('Could not load'));
    await renderAsync(
      <>
        <p>rest of the page</p>
        <RemoteModule remote="connections" module="./App" />
      </>,
    );
    expect(await screen.findByRole('heading', { name: 'Connections could not be loaded' })).toBeTruthy();
    expect(screen.getByText('rest of the page')).toBeTruthy();

    loadRemoteModule.mockResolvedValueOnce({ default: () => <h1>Connections</h1> });
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(await screen.findByRole('heading', { name: 'Connections' })).toBeTruthy();
  });

  it("shows a remote page's HTTP error as its status and status text; other errors reach the card", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    loadRemoteModule.mockResolvedValueOnce({
      default: () => {
        throw new HttpError(403, 'Forbidden');
      },
    });
    const { unmount } = await renderAsync(<RemoteModule remote="home" module="./Forbidden" />);
    expect(await screen.findByRole('heading', { name: '403 Forbidden' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toBeTruthy();
    unmount();

    loadRemoteModule.mockResolvedValueOnce({
      default: () => {
        throw new TypeError('a bug');
      },
    });
    await renderAsync(<RemoteModule remote="home" module="./Buggy" />);
    expect(await screen.findByRole('heading', { name: 'Home could not be loaded' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /^\d{3} / })).toBeNull();
  });

  it('renders a preloaded module from the one fetch the preload started', async () => {
    loadRemoteModule.mockClear();
    loadRemoteModule.mockResolvedValueOnce({ default: () => <h1>Ideas</h1> });
    preloadRemoteModule('home', env.remotes.home, './Ideas');
    expect(loadRemoteModule).toHaveBeenCalledTimes(1);
    await renderAsync(<RemoteModule remote="home" module="./Ideas" />);
    expect(await screen.findByRole('heading', { name: 'Ideas' })).toBeTruthy();
    expect(loadRemoteModule).toHaveBeenCalledTimes(1);
    expect(loadRemoteModule).toHaveBeenCalledWith({ scope: 'uplift_home', url: env.remotes.home }, './Ideas');
  });

  it('shows a failed preload as the error card when rendered, and tries again on request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    loadRemoteModule.mockRejectedValueOnce(new Error('Could not load'));
    preloadRemoteModule('home', env.remotes.home, './Studio');
    await renderAsync(<RemoteModule remote="home" module="./Studio" />);
    expect(await screen.findByRole('heading', { name: 'Home could not be loaded' })).toBeTruthy();

    loadRemoteModule.mockResolvedValueOnce({ default: () => <h1>Studio</h1> });
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(await screen.findByRole('heading', { name: 'Studio' })).toBeTruthy();
  });
});
