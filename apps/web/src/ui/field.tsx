import type { ReactNode } from 'react';
import { cx } from '#lib/cx.ts';

/** The look of a form's text input, select or textarea. */
export const fieldControlClassName =
  'min-h-10 w-full rounded-lg border border-line bg-surface-2 px-3 py-2 text-sm';

/** What a field's control takes to be labelled, described and marked invalid (spread it on the control). */
export type FieldControlProps = {
  id: string;
  className: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
};

/**
 * A form field: its label, its control (an input, select or textarea, rendered by `children` with the
 * props it is given), then a hint or, in its place, an error. The label names the control (`htmlFor`),
 * the hint or error describes it (`aria-describedby`, with `describedBy`: ids of more text such as a
 * counter in `after`), and an error marks it invalid (`aria-invalid`).
 */
export function Field({
  id,
  label,
  hint,
  error,
  describedBy,
  after,
  hidden,
  className = 'flex flex-col gap-1',
  children,
}: {
  /** The control's id; the hint's and the error's ids derive from it. */
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown instead of the hint while there is one. */
  error?: ReactNode;
  describedBy?: string;
  /** More below the field (a counter, a related action). */
  after?: ReactNode;
  hidden?: boolean;
  /** The wrapper's layout; `contents` leaves the parts to the parent's. */
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const hasError = error !== undefined && error !== null && error !== false;
  const note = hasError ? error : hint;
  const noteId = hasError ? `${id}-error` : `${id}-hint`;
  const hasNote = note !== undefined && note !== null && note !== false;
  const describedIds = [hasNote ? noteId : null, describedBy].filter(Boolean).join(' ');
  return (
    <div hidden={hidden} className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({
        id,
        className: fieldControlClassName,
        ...(describedIds ? { 'aria-describedby': describedIds } : {}),
        ...(hasError ? { 'aria-invalid': true } : {}),
      })}
      {hasNote && (
        <p id={noteId} className={cx('text-xs', hasError ? 'text-danger' : 'text-muted')}>
          {note}
        </p>
      )}
      {after}
    </div>
  );
}
