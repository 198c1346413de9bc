export type ToastKind = 'success' | 'error' | 'info';
export type Toast = { id: number; kind: ToastKind; message: string };

/** At most this many at once; the oldest gives way. */
const MAX_TOASTS = 3;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function show(kind: ToastKind, message: string) {
  // The same message again (a double click) moves to the front instead of stacking twice.
  const others = toasts.filter((toast) => toast.message !== message);
  publish([...others, { id: nextId++, kind, message }].slice(-MAX_TOASTS));
}

export function dismissToast(id: number) {
  publish(toasts.filter((toast) => toast.id !== id));
}

export function subscribeToToasts(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = () => toasts;

/**
 * docs/product.md §8 toasts, shown by <Toaster>. Ours rather than sonner's: a few lines where sonner's ~9 kB
 * gzip counted against every page that shows one (docs/decisions/006).
 */
export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
};
