import { type ComponentType, Suspense, useState } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { LoadingOverlay } from './loading-overlay.tsx';

/**
 * Renders a lazy dialog from its first opening on, and keeps it (and its form's state) mounted; while
 * its chunk is on its way an opened dialog shows the loading overlay (docs/decisions/006).
 */
export function OnceOpened<Props extends object>({
  open,
  dialog: Dialog,
  props,
}: {
  open: boolean;
  dialog: ComponentType<Props>;
  props: Props;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={open ? <LoadingOverlay label={t('app.loading')} /> : null}>
      <Dialog {...props} />
    </Suspense>
  );
}
