import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '@uplift/platform';
import { renderWithProviders } from '@uplift/platform/testing';
import { RootErrorBoundary, RouteErrorBoundary } from './route-error-boundary';

function Throws({ error }: { error: unknown }): never {
  throw error;
}

describe('RouteErrorBoundary', () => {
  it('shows the status and status text of an HTTP error (spec section 8)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <RouteErrorBoundary>
        <Throws error={new HttpError(400, 'Bad Request', { message: 'ideaId is not a valid id.' })} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: '400 Bad Request' })).toBeTruthy();
    expect(screen.getByText('ideaId is not a valid id.')).toBeTruthy();
  });

  it('rethrows any other error to the boundary above', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <RootErrorBoundary>
        <RouteErrorBoundary>
          <Throws error={new Error('boom')} />
        </RouteErrorBoundary>
      </RootErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText('boom')).toBeNull();
  });
});
