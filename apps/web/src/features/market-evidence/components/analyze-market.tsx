import type { MarketDuration } from '@pm/core/constants';
import { LoaderCircle } from 'lucide';
import { Suspense } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import { ApiError } from '#lib/api-client.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { lazyWithPreload } from '#ui/lazy-with-preload.ts';
import { toast } from '#ui/toast.ts';
import { useAnalyzeMarket } from '../api/analyze-market.ts';

// The answer (and the strings it needs) loads when the button is reached, not with the dialog.
// Not from lazy-parts.tsx: the dialog's chunk importing the page's lazy parts regroups the chunks
// shared with every route (docs/decisions/006).
const AnalyzeResult = lazyWithPreload(() =>
  import('./analyze-result.tsx').then((module) => module.AnalyzeResult),
);

/**
 * docs/product.md §2 "AI resolution instructions with Analyze button", for real (decision 019): asks
 * the judge whether the question can be decided from public sources by its deadline, and offers
 * its suggested instructions. An empty description is refused here, without a request (§5).
 */
export function AnalyzeMarket({
  description,
  title,
  instructions,
  duration,
  onUseInstructions,
}: {
  description: string;
  title: string;
  instructions: string;
  duration: MarketDuration;
  onUseInstructions: (instructions: string) => void;
}) {
  const { t } = useTranslation();
  const analyze = useAnalyzeMarket();
  const run = () => {
    if (!description.trim()) return void toast.error(t('marketActions.validation.descriptionFirst'));
    if (analyze.isPending) return;
    analyze.mutate({
      description,
      ...(title.trim() ? { title } : {}),
      ...(instructions.trim() ? { resolutionInstructions: instructions } : {}),
      duration,
    });
  };
  // Worked out here, not in the lazy answer: its chunk importing the API client would split the
  // contract's shared chunk on every route (docs/decisions/006).
  const code = analyze.error instanceof ApiError ? analyze.error.code : '';
  const failure = analyze.error
    ? {
        // 429 ANALYZE_RATE_LIMITED / ANALYZE_DAILY_LIMIT, NETWORK, …: each code has its message.
        message: apiErrorMessage(t, analyze.error, t('errors.NETWORK')),
        // A day's budget used up or a refused text does not change with a retry.
        retryable: code !== 'ANALYZE_DAILY_LIMIT' && code !== 'VALIDATION_FAILED',
      }
    : null;
  return (
    <div className="flex flex-col items-start gap-2">
      <Button
        variant="outline"
        size="sm"
        aria-busy={analyze.isPending}
        onClick={run}
        onPointerEnter={AnalyzeResult.preload}
        onFocus={AnalyzeResult.preload}
      >
        {analyze.isPending && (
          <Icon node={LoaderCircle} aria-hidden="true" className="size-4 motion-safe:animate-spin" />
        )}
        {analyze.isPending ? t('marketActions.create.analyzing') : t('marketActions.create.analyze')}
      </Button>
      {!analyze.isPending && (analyze.data || analyze.error) && (
        <Suspense fallback={null}>
          <AnalyzeResult
            // A new answer starts with its suggestion not yet taken.
            key={analyze.submittedAt}
            result={analyze.data ?? null}
            failure={failure}
            onRetry={run}
            onUseInstructions={onUseInstructions}
          />
        </Suspense>
      )}
    </div>
  );
}
