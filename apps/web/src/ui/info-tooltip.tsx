import { TOOLTIP_DELAY_MS } from '@pm/core/constants';
import { Info } from 'lucide';
import {
  type CSSProperties,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { Icon } from './icon.tsx';

const EDGE_PX = 12;
const GAP_PX = 8;

/**
 * An info button with a tooltip (docs/product.md §2: open delay 700 ms). Hover opens it after the delay,
 * keyboard focus at once, a tap toggles it on touch screens; Escape, blur, leaving and scrolling
 * close it. The text is the button's accessible description, so screen readers hear it on focus.
 * Hand-made rather than Radix Tooltip, whose positioning engine (~23 kB gzip) would not fit the
 * landing page's JS budget (docs/decisions/006).
 */
export function InfoTooltip({ label, children }: { label: string; children: ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<CSSProperties>({});
  const triggerRef = useRef<HTMLButtonElement>(null);
  const tooltipRef = useRef<HTMLSpanElement>(null);
  const timerRef = useRef<number | undefined>(undefined);
  const touchRef = useRef(false);

  const cancelTimer = () => window.clearTimeout(timerRef.current);
  const close = () => {
    cancelTimer();
    setOpen(false);
  };

  useEffect(() => {
    if (!open) return;
    const hide = () => setOpen(false);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hide();
    };
    document.addEventListener('keydown', onKeyDown);
    window.addEventListener('scroll', hide, { passive: true });
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('scroll', hide);
    };
  }, [open]);

  // No timer may fire after the page is gone.
  useEffect(() => () => window.clearTimeout(timerRef.current), []);

  // Above the button, centred on it, kept inside the viewport (a 360 px screen included).
  useLayoutEffect(() => {
    const trigger = triggerRef.current?.getBoundingClientRect();
    const tooltip = tooltipRef.current?.getBoundingClientRect();
    if (!open || !trigger || !tooltip) return;
    const centre = trigger.left + trigger.width / 2;
    const maxLeft = window.innerWidth - EDGE_PX - tooltip.width;
    const left = Math.max(EDGE_PX, Math.min(centre - tooltip.width / 2, maxLeft));
    const above = trigger.top - GAP_PX - tooltip.height;
    const top = above >= EDGE_PX ? above : trigger.bottom + GAP_PX;
    setPosition({ left, top });
  }, [open]);

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        aria-label={label}
        aria-describedby={id}
        className="relative z-10 inline-flex size-10 cursor-help items-center justify-center rounded-full text-muted hover:text-fg"
        onPointerEnter={(event) => {
          if (event.pointerType === 'touch') return;
          cancelTimer();
          timerRef.current = window.setTimeout(() => setOpen(true), TOOLTIP_DELAY_MS);
        }}
        onPointerLeave={(event) => {
          if (event.pointerType !== 'touch') close();
        }}
        onPointerDown={(event) => {
          touchRef.current = event.pointerType === 'touch';
        }}
        onFocus={() => {
          // Keyboard focus opens at once; the focus a click or tap brings does not.
          if (triggerRef.current?.matches(':focus-visible')) setOpen(true);
        }}
        onBlur={close}
        onClick={() => {
          if (touchRef.current) setOpen((wasOpen) => !wasOpen);
        }}
      >
        <Icon node={Info} aria-hidden="true" className="size-4" />
      </button>
      <span
        ref={tooltipRef}
        id={id}
        role="tooltip"
        hidden={!open}
        style={position}
        className="fixed z-50 w-max max-w-[min(18rem,calc(100vw-1.5rem))] rounded-lg border border-line-strong bg-surface-2 px-3 py-2 text-sm leading-relaxed text-fg shadow-xl"
      >
        {children}
      </span>
    </>
  );
}
