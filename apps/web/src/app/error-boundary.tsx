import { Component, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ErrorPage } from './error-page.tsx';

type Props = { children: ReactNode; resetKey: string };
type State = { failed: boolean };

/** docs/product.md §8: a rendering failure (or a route chunk that fails to load) shows the error page. */
class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('Unexpected application error', error);
  }

  override componentDidUpdate(previous: Props) {
    // Leaving the page that failed (Back, a link) shows the new page again.
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return <ErrorBoundary resetKey={location}>{children}</ErrorBoundary>;
}
