import type { ComponentProps } from 'react';
import { Suspense } from 'react';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { Skeleton } from '#ui/skeleton.tsx';

const EvidenceSectionModule = lazyWithPreload(() =>
  import('./evidence-section.tsx').then((module) => module.EvidenceSection),
);

/**
 * What the judge read and quoted, once a market has had a resolution attempt; loaded only for a
 * market that has evidence (docs/decisions/006).
 */
export function EvidenceSection(props: ComponentProps<typeof EvidenceSectionModule>) {
  return (
    <Suspense fallback={<Skeleton className="h-48 w-full" />}>
      <EvidenceSectionModule {...props} />
    </Suspense>
  );
}
