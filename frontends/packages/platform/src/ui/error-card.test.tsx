import { render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http/http-error';
import { HttpErrorView } from './error-card';

class Catch extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>caught: {String(this.state.error)}</p> : this.props.children;
  }
}

describe('HttpErrorView', () => {
  it('shows the status and status text of an HTTP error', () => {
    render(<HttpErrorView error={new HttpError(404, 'Not Found')} />);
    expect(screen.getByRole('alert').textContent).toContain('404 Not Found');
  });

  it('rethrows anything else', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Catch>
        <HttpErrorView error={new Error('a bug')} />
      </Catch>,
    );
    expect(screen.getByText('caught: Error: a bug')).toBeTruthy();
  });
});
