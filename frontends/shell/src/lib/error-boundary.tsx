import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  fallback: (error: unknown, reset: () => void) => ReactNode;
  children: ReactNode;
}

interface State {
  error: unknown;
  failed: boolean;
}

/** Keeps a failing part of the page (usually a remote) from taking the rest down. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A part of the page failed to render', error, info.componentStack);
  }

  reset = (): void => this.setState({ error: null, failed: false });

  override render() {
    return this.state.failed ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}
