import { shortenAddress } from '@pm/core/address';
import { PRICE_FEED_ACTOR } from '@pm/core/constants';
import type { Market } from '@pm/core/contract/markets';
import type { ResolutionEvent } from '@pm/core/contract/review';
import { History, Hourglass } from 'lucide';
import { lazy, type ReactNode, Suspense, useRef } from 'react';
import { useHasBet } from '#api/get-market-bets.ts';
import { useNamespace } from '#i18n/use-namespace.ts';
import { type TFunction, useTranslation } from '#i18n/use-translation.ts';
import { formatCountdown, formatDateTime, useFormat } from '#lib/use-format.ts';
import { Card } from '#ui/card.tsx';
import { Icon } from '#ui/icon.tsx';
import { useWallet } from '#wallet/hooks/use-wallet.ts';

// The flag form (typed-data signing) loads only for a connected bettor during a review window.
const FlagVerdictForm = lazy(() =>
  import('./flag-verdict-form.tsx').then((module) => ({ default: module.FlagVerdictForm })),
);

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * An actor as the timeline shows it: addresses shortened, the price feed in words, names
 * (models, "ops CLI") as they are.
 */
function actorLabel(actor: string, t: TFunction): string {
  if (actor === PRICE_FEED_ACTOR) return t('review.actors.priceFeed');
  return ADDRESS.test(actor) ? shortenAddress(actor) : actor;
}

/**
 * The verdict under review (decision 011): the proposal with its confidence, analysis and sources, a
 * countdown to the end of its window on the server's clock, the flag form for a connected bettor
 * during the window, and the resolution timeline. Nothing while a market has neither.
 */
export function MarketReviewPanel({
  market,
  timeline,
  nowMs,
  priceAnalysis,
}: {
  market: Market;
  timeline: ResolutionEvent[];
  nowMs: number;
  /** A price market's settlement said from its fields (price-markets' analysis), for the feed's event. */
  priceAnalysis: ReactNode;
}) {
  useNamespace('review');
  const { t } = useTranslation();
  const wallet = useWallet();
  const review = market.review ?? null;
  const inReview = market.status === 'settling' && review !== null;

  const msLeft = review ? Date.parse(review.endsAt) - nowMs : 0;
  const me = wallet.address?.toLowerCase();
  // The market page carries only its newest bets (decision 016); the server says whether this wallet bet.
  const isBettor = useHasBet(market.id, inReview ? me : undefined).data === true;
  const flaggedByMe =
    me !== undefined &&
    timeline.some((event) => event.kind === 'flagged' && event.actor.toLowerCase() === me);
  const canFlag = inReview && msLeft > 0 && isBettor && !flaggedByMe && wallet.address !== undefined;
  // Once offered, the form (and its payment dialog) stays while the verdict is in review,
  // so the window's end cannot unmount a bond being paid; the contract takes no bond past the window's
  // end (the chain's claimableAt, which `endsAt` shows), and the server refunds a refused one.
  const bondRef = useRef<string | null>(null);
  if (canFlag && review?.bondWei) bondRef.current = review.bondWei;
  // Decision 026: a flag's bond disputes the settlement on chain, and one dispute sends it back: once
  // another bettor's flag holds the verdict, no second bond can be taken (the contract refuses it).
  const heldByAFlag = (review?.flagCount ?? 0) > 0;
  const bondWei = inReview && !flaggedByMe && !heldByAFlag ? bondRef.current : null;

  if (!inReview && timeline.length === 0) return null;
  return (
    <Card className="p-4">
      <div className="flex flex-col gap-3 text-sm">
        {inReview && review && (
          <section aria-labelledby="review-title" className="flex flex-col gap-2">
            <h2 id="review-title" className="flex items-center gap-2 font-semibold text-muted">
              <Icon node={Hourglass} aria-hidden="true" className="size-4 text-brand" />
              {t('review.title')}
            </h2>
            <p className="text-lg font-bold">{t('review.proposed', { result: review.result })}</p>
            {review.confidence !== null && (
              <p className="text-muted">
                {t('markets.detail.confidence', { confidence: review.confidence })}
              </p>
            )}
            <p className="whitespace-pre-wrap break-words">{review.analysis}</p>
            {review.sources.length > 0 && (
              <div>
                <h3 className="text-xs font-semibold text-muted">{t('review.sources')}</h3>
                <ul className="list-disc pl-5">
                  {review.sources.map((source) => (
                    <li key={source} className="break-all">
                      {/^https?:\/\//.test(source) ? (
                        <a
                          href={source}
                          target="_blank"
                          rel="noopener noreferrer nofollow"
                          className="underline"
                        >
                          {source}
                        </a>
                      ) : (
                        source
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <p className="text-xs text-muted">
              {t('review.proposedBy', { model: review.model, version: review.promptVersion })}
            </p>
            <p role="status" className="font-semibold text-brand">
              {review.flagCount > 0
                ? t('review.flagged', { count: review.flagCount })
                : msLeft > 0
                  ? t('review.endsIn', { time: formatCountdown(msLeft / 1000) })
                  : t('review.ended')}
            </p>
            <p className="text-xs text-muted">{t('review.claimsWait')}</p>
            {flaggedByMe && <p className="text-xs">{t('review.flag.done')}</p>}
            {bondWei && wallet.address && market.escrowId && market.closesAt && (
              <Suspense fallback={null}>
                <FlagVerdictForm
                  marketId={market.id}
                  address={wallet.address}
                  nowMs={nowMs}
                  bondWei={bondWei}
                  escrowMarket={{ escrowId: market.escrowId as `0x${string}`, closesAt: market.closesAt }}
                />
              </Suspense>
            )}
          </section>
        )}
        {timeline.length > 0 && <Timeline events={timeline} priceAnalysis={priceAnalysis} />}
      </div>
    </Card>
  );
}

type EventKey = ResolutionEvent['kind'] | 'settledSystem' | 'flaggedBond' | 'bond_returnedNoReward';

/** The timeline's line for one event; a flag shows its bond, a bond's fate its amounts. */
function eventKey(event: ResolutionEvent): EventKey {
  if (event.kind === 'settled' && event.actor === 'system') return 'settledSystem';
  if (event.kind === 'flagged' && event.amountWei) return 'flaggedBond';
  if (event.kind === 'bond_returned' && (event.rewardWei ?? '0') === '0') return 'bond_returnedNoReward';
  return event.kind;
}

function Timeline({ events, priceAnalysis }: { events: ResolutionEvent[]; priceAnalysis: ReactNode }) {
  const { t, language } = useTranslation();
  const format = useFormat();
  const bnb = (wei: string | null | undefined) => format.bnb(wei ?? '0', { decimals: 5, trim: true });
  return (
    <section aria-labelledby="timeline-title" className="flex flex-col gap-2">
      <h2 id="timeline-title" className="flex items-center gap-2 font-semibold text-muted">
        <Icon node={History} aria-hidden="true" className="size-4 text-brand" />
        {t('review.timeline')}
      </h2>
      <ol className="flex flex-col gap-2 border-l border-line pl-3">
        {events.map((event) => (
          <li key={event.id} className="flex flex-col">
            <span className="font-medium">
              {t(`review.events.${eventKey(event)}`, {
                result: event.result ?? '',
                actor: actorLabel(event.actor, t),
                amount: bnb(event.amountWei),
                reward: bnb(event.rewardWei),
              })}
            </span>
            <time dateTime={event.at} className="text-xs text-muted">
              {formatDateTime(event.at, language)}
            </time>
            {event.kind === 'settled' && event.actor === PRICE_FEED_ACTOR ? (
              // The feed's English analysis, said from the market's fields.
              <span className="break-words text-xs">{priceAnalysis}</span>
            ) : (
              event.detail &&
              !event.kind.startsWith('bond_') && (
                <span className="whitespace-pre-wrap break-words text-xs">
                  {event.kind === 'flagged' ? `“${event.detail}”` : event.detail}
                </span>
              )
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
