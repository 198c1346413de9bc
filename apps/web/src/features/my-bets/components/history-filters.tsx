import {
  HISTORY_STATUSES,
  HistoryGameFilterSchema,
  type HistoryStatusFilter,
} from '@pm/core/contract/history';
import { useId } from 'react';
import { useTranslation } from '#i18n/use-translation.ts';
import type { HistoryFilters } from '../api/get-history.ts';

const GAMES = HistoryGameFilterSchema.options;

/** Game and status filters of the history list: two native selects, labelled, that fit 360 px. */
export function HistoryFiltersBar({
  value,
  onChange,
}: {
  value: HistoryFilters;
  onChange: (next: HistoryFilters) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const select =
    'mt-1 block min-h-10 w-full rounded-lg border border-line-strong bg-surface-2 px-3 py-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-brand';
  return (
    <fieldset className="mb-4 grid grid-cols-2 gap-3 sm:max-w-md">
      <legend className="sr-only">{t('history.filters.label')}</legend>
      <label htmlFor={`${id}-game`} className="text-xs text-muted">
        {t('history.filters.game')}
        <select
          id={`${id}-game`}
          className={select}
          value={value.game}
          onChange={(event) => {
            const game = GAMES.find((candidate) => candidate === event.target.value) ?? 'all';
            onChange({ ...value, game });
          }}
        >
          {GAMES.map((game) => (
            <option key={game} value={game}>
              {t(`history.filters.games.${game}`)}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${id}-status`} className="text-xs text-muted">
        {t('history.filters.status')}
        <select
          id={`${id}-status`}
          className={select}
          value={value.status}
          onChange={(event) => {
            const status: HistoryStatusFilter =
              HISTORY_STATUSES.find((candidate) => candidate === event.target.value) ?? 'all';
            onChange({ ...value, status });
          }}
        >
          {HISTORY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`history.filters.statuses.${status}`)}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
