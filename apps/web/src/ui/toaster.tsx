import { type ComponentProps, lazy, Suspense, useSyncExternalStore } from 'react';
import { isSonnerRequested, loadSonner, subscribeToSonner } from './toast.ts';

const SonnerToaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

/** Sonner's <Toaster>, mounted once the first toast asks for it (see toast.ts). */
export function Toaster(props: ComponentProps<typeof SonnerToaster>) {
  const requested = useSyncExternalStore(subscribeToSonner, isSonnerRequested);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster {...props} />
    </Suspense>
  );
}
