type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | undefined;
const listeners = new Set<() => void>();

/**
 * Sonner, loaded with the first toast rather than with the page: most visits show none, and its
 * ~9 kB gzip counts against every app route's JS budget (issue 5). The <Toaster> mounts once it is
 * here, and sonner replays the toasts raised before it subscribed.
 */
export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import('sonner');
    sonner.catch(() => {
      sonner = undefined;
    });
    for (const listener of listeners) listener();
  }
  return sonner;
}

export function subscribeToSonner(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isSonnerRequested = () => sonner !== undefined;

function show(kind: 'success' | 'error' | 'info', message: string) {
  loadSonner().then(
    ({ toast }) => toast[kind](message),
    // The chunk could not load (offline): the message still reaches the console.
    (error: unknown) => console.error(message, error),
  );
}

/** Spec §8 toasts: the same calls as sonner's `toast`, for the messages the app shows. */
export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};
