import { CircleAlert, CircleCheck, Info, X } from 'lucide';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { cx } from '#lib/cx.ts';
import { Icon } from './icon.tsx';
import { dismissToast, getToasts, subscribeToToasts, type Toast } from './toast.ts';

/** How long a toast stays, unless the pointer or focus is on it. Errors stay longer to be read. */
const DURATION_MS = { success: 4000, info: 4000, error: 6000 } as const;

const ICONS = {
  success: <Icon node={CircleCheck} aria-hidden="true" className="size-5 shrink-0 text-yes" />,
  error: <Icon node={CircleAlert} aria-hidden="true" className="size-5 shrink-0 text-no" />,
  info: <Icon node={Info} aria-hidden="true" className="size-5 shrink-0 text-brand" />,
};

/**
 * The toasts of toast.ts, top centre below the top bar (so none hides the wallet button it is
 * about). A polite live region announces each one; an error is an alert.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts);
  return (
    <section
      aria-label={t('app.notifications')}
      className="pointer-events-none fixed inset-x-0 top-[72px] z-[60] flex justify-center px-3 sm:top-[76px]"
    >
      <div aria-live="polite" className="flex w-full max-w-sm flex-col gap-2">
        {toasts.map((toast) => (
          <ToastView key={toast.id} toast={toast} dismissLabel={t('app.dismiss')} />
        ))}
      </div>
    </section>
  );
}

function ToastView({ toast, dismissLabel }: { toast: Toast; dismissLabel: string }) {
  const [paused, setPaused] = useState(false);
  const remainingRef = useRef<number>(DURATION_MS[toast.kind]);

  // Counts down while not paused; hovering or focusing it stops the clock, leaving resumes it.
  useEffect(() => {
    if (paused) return;
    const startedAt = Date.now();
    const timer = window.setTimeout(() => dismissToast(toast.id), remainingRef.current);
    return () => {
      window.clearTimeout(timer);
      remainingRef.current -= Date.now() - startedAt;
    };
  }, [paused, toast.id]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only pause the timer; the one control is Dismiss.
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={cx(
        'pointer-events-auto flex items-start gap-3 rounded-xl border bg-surface-2 p-3 text-sm shadow-2xl',
        'transition duration-200 motion-reduce:transition-none starting:-translate-y-2 starting:opacity-0',
        toast.kind === 'error' ? 'border-no/50' : toast.kind === 'success' ? 'border-yes/40' : 'border-line',
      )}
    >
      {ICONS[toast.kind]}
      <p className="min-w-0 flex-1 self-center break-words">{toast.message}</p>
      <button
        type="button"
        aria-label={dismissLabel}
        onClick={() => dismissToast(toast.id)}
        className="-m-2 inline-flex size-10 shrink-0 cursor-pointer items-center justify-center rounded-md text-muted hover:text-fg"
      >
        <Icon node={X} aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
