import { LoaderCircle } from 'lucide';
import { Icon } from './icon.tsx';

/** Shown while a dialog's code arrives after the click that opens it (a slow network). */
export function LoadingOverlay({ label }: { label: string }) {
  return (
    <div role="status" className="fixed inset-0 z-50 flex items-center justify-center bg-black/70">
      <Icon node={LoaderCircle} aria-hidden="true" className="size-8 text-brand motion-safe:animate-spin" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
