import type { AnalyzeMarketResponse } from '@pm/core/contract/analyze';
import { useId, useState } from 'react';
import { useNamespace } from '#i18n/use-namespace.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { Button } from '#ui/button.tsx';

/**
 * What the Analyze button got back: the problems the judge sees, its suggested
 * resolution instructions with a button that puts them in the field, or why there is no analysis
 * (no AI on this deployment, a limit reached, the server unreachable: then a retry).
 */
export function AnalyzeResult({
  result,
  failure,
  onRetry,
  onUseInstructions,
}: {
  result: AnalyzeMarketResponse | null;
  /** Why there is no result, said by the button's module (it has the API error types). */
  failure: { message: string; retryable: boolean } | null;
  onRetry: () => void;
  onUseInstructions: (instructions: string) => void;
}) {
  useNamespace('evidence');
  const { t } = useTranslation();
  const id = useId();
  const [used, setUsed] = useState(false);

  if (failure || !result) {
    return (
      <div role="alert" className="flex w-full flex-col items-start gap-2 text-sm text-no">
        <p>{failure?.message}</p>
        {failure?.retryable && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            {t('evidence.analyze.retry')}
          </Button>
        )}
      </div>
    );
  }

  if (!result.aiConfigured) {
    return (
      <p role="status" className="text-sm text-muted">
        {t('evidence.analyze.noAi')}
      </p>
    );
  }

  const suggestion = result.suggestedInstructions?.trim() ? result.suggestedInstructions : null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex w-full flex-col gap-2 rounded-lg border border-line bg-surface-2 p-3 text-sm"
    >
      <h3 id={`${id}-title`} className="font-semibold">
        {t('evidence.analyze.title')}
      </h3>
      {result.decidable !== null && (
        <p className={result.decidable ? 'text-yes' : 'text-no'}>
          {result.decidable ? t('evidence.analyze.decidable') : t('evidence.analyze.notDecidable')}
        </p>
      )}
      {result.problems.length > 0 ? (
        <>
          <h4 id={`${id}-problems`} className="text-xs font-semibold text-muted">
            {t('evidence.analyze.problems')}
          </h4>
          <ul aria-labelledby={`${id}-problems`} className="flex list-disc flex-col gap-1 pl-5">
            {result.problems.map((problem, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is shown as answered, never reordered
              <li key={index} className="break-words">
                <span className="font-semibold">{t(`evidence.analyze.kinds.${problem.kind}`)}</span>
                {problem.detail ? `: ${problem.detail}` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{t('evidence.analyze.noProblems')}</p>
      )}
      {suggestion && (
        <>
          <h4 id={`${id}-suggested`} className="text-xs font-semibold text-muted">
            {t('evidence.analyze.suggested')}
          </h4>
          <blockquote
            aria-labelledby={`${id}-suggested`}
            className="border-l-4 border-brand/60 pl-3 break-words whitespace-pre-wrap"
          >
            {suggestion}
          </blockquote>
          <Button
            size="sm"
            onClick={() => {
              onUseInstructions(suggestion);
              setUsed(true);
            }}
          >
            {t('evidence.analyze.use')}
          </Button>
          {used && (
            <p role="status" className="text-xs text-muted">
              {t('evidence.analyze.used')}
            </p>
          )}
        </>
      )}
      {result.model && (
        <p className="text-xs text-muted">{t('evidence.analyze.by', { model: result.model })}</p>
      )}
    </section>
  );
}
