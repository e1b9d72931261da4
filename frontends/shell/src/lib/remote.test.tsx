import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { parseEnv } from '@uplift/platform';
import { EnvProvider } from './env-context';
import { RemoteModule } from './remote';

const loadRemoteModule = vi.fn();
vi.mock('./federation', () => ({ loadRemoteModule: (...args: unknown[]) => loadRemoteModule(...args) }));

const env = parseEnv({ skipEnvValidation: 'true', remoteAnalyticsUrl: 'http://remotes.test/analytics.js' });

describe('RemoteModule', () => {
  it("renders the remote's module from the configured URL, with 'loading...' meanwhile", async () => {
    loadRemoteModule.mockResolvedValueOnce({ default: () => <h1>Analytics</h1> });
    render(
      <EnvProvider env={env}>
        <RemoteModule remote="analytics" module="./App" />
      </EnvProvider>,
    );
    expect(screen.getByText('loading...')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Analytics' })).toBeTruthy();
    expect(loadRemoteModule).toHaveBeenCalledWith(
      { scope: 'uplift_analytics', url: 'http://remotes.test/analytics.js' },
      './App',
    );
  });

  it('shows an error card when the remote fails, and can try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    loadRemoteModule.mockRejectedValueOnce(new Error('Could not load'));
    render(
      <EnvProvider env={env}>
        <p>rest of the page</p>
        <RemoteModule remote="connections" module="./App" />
      </EnvProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Connections could not be loaded' })).toBeTruthy();
    expect(screen.getByText('rest of the page')).toBeTruthy();

    loadRemoteModule.mockResolvedValueOnce({ default: () => <h1>Connections</h1> });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Connections' })).toBeTruthy();
  });
});
