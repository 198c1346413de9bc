import { MIN_ORACLE_BET_WEI, ORACLE_BET_DEFAULT, ORACLE_BET_STEP, type Position } from '@pm/core/constants';
import type { PlaceOracleBetBody, Round } from '@pm/core/contract/oracle';
import { estimateRoundWinWei } from '@pm/core/payouts';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, LoaderCircle } from 'lucide';
import { type FormEvent, useId, useState } from 'react';
import { useAppConfig } from '#api/get-app-config.ts';
import { useTranslation } from '#i18n/use-translation.ts';
import { ApiError } from '#lib/api-client.ts';
import { bnbInputText, parseBnbOrNull } from '#lib/bnb-input.ts';
import { cx } from '#lib/cx.ts';
import { apiErrorMessage } from '#lib/error-message.ts';
import { isFinalRefusal } from '#lib/is-final-refusal.ts';
import { useFormat } from '#lib/use-format.ts';
import { Button } from '#ui/button.tsx';
import { Icon } from '#ui/icon.tsx';
import { toast } from '#ui/toast.ts';
import { useSendPayment } from '#wallet/hooks/use-send-payment.ts';
import { useWallet } from '#wallet/hooks/use-wallet.ts';
import { ROUNDS_QUERY_KEY } from '../api/get-rounds.ts';
import { roundPools, roundTimes } from '../utils/round-view.ts';

type Stage = 'idle' | 'paying' | 'recording';

const MIN_BET_TEXT = bnbInputText(MIN_ORACLE_BET_WEI);

/**
 * docs/product.md §2/§5 bet panel: UP or DOWN, amount (step 0.01, default 0.01), the spec's validation toasts,
 * then the stake deposited into the escrow contract for the round and side (decision 026; GET
 * /api/config `escrow`), its progress, and the bet recorded by the server from the confirmed deposit.
 */
export function BetPanel({ round, nowS }: { round: Round; nowS: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: appConfig } = useAppConfig();
  const wallet = useWallet();
  const payment = useSendPayment();
  const queryClient = useQueryClient();
  const amountId = useId();
  const [position, setPosition] = useState<Position>('bull');
  const [amountText, setAmountText] = useState(ORACLE_BET_DEFAULT);
  const [stage, setStage] = useState<Stage>('idle');
  // Paid, but the server has not taken it yet (network or server error): kept, with Retry.
  const [unrecorded, setUnrecorded] = useState<PlaceOracleBetBody | null>(null);
  const busy = stage !== 'idle';
  const isOpen = round.status === 'live' && nowS < roundTimes(round).lockTime;

  const amountWei = parseBnbOrNull(amountText);
  const pools = roundPools(round);
  const estimate =
    amountWei !== null && amountWei >= MIN_ORACLE_BET_WEI
      ? estimateRoundWinWei({
          stakeWei: amountWei,
          side: position,
          totalBullWei: pools.up,
          totalBearWei: pools.down,
          feeBps: appConfig.oracleFeeBps,
        })
      : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!wallet.isConnected || !wallet.address) return void toast.error(t('oracle.bet.connect'));
    if (amountWei === null || amountWei < MIN_ORACLE_BET_WEI)
      return void toast.error(t('oracle.bet.minimum'));
    if (!isOpen) return void toast.error(t('oracle.bet.onlyLive'));
    if (!wallet.isCorrectChain) return void toast.error(t('wallet.wrongNetworkHint'));
    const escrow = appConfig.escrow;
    if (!escrow) return void toast.error(t('oracle.bet.unavailable'));

    const userAddress = wallet.address;
    // Loaded while the wallet asks, ready when the payment is through (kept off the route's JS).
    const pending = import('../api/pending-oracle-bets.ts');
    pending.catch(() => {}); // a chunk that fails to load is handled where it is awaited
    setStage('paying');
    try {
      let hash: `0x${string}`;
      try {
        // The stake is a deposit into the escrow contract for this round and side (decision 026).
        const { roundDepositCall } = await import('../utils/round-deposit.ts');
        ({ hash } = await payment.mutateAsync(roundDepositCall(escrow.address, round, position, amountWei)));
      } catch (error) {
        // The wallet's error texts load only when a payment fails (decision 006, JS budget).
        const message = await import('#wallet/utils/payment-error-message.ts').then(
          (errors) => errors.paymentErrorMessage(t, error),
          () => t('wallet.sendFailed'),
        );
        toast.error(message);
        return;
      }
      const body = {
        epoch: round.epoch,
        position,
        amountWei: amountWei.toString(),
        userAddress,
        txHash: hash,
      };
      try {
        (await pending).savePendingOracleBet(body);
      } catch {
        // not kept in this browser: the server's escrow reconciliation still records it from the chain
      }
      await record(body);
    } finally {
      setStage('idle');
      payment.reset();
    }
  };

  const record = async (body: PlaceOracleBetBody) => {
    setStage('recording');
    try {
      const { recordOracleBet } = await import('../api/pending-oracle-bets.ts');
      const answer = await recordOracleBet(body);
      setUnrecorded(null);
      if ('bet' in answer) {
        toast.success(
          t('oracle.bet.success', {
            position: t(body.position === 'bull' ? 'oracle.bet.bull' : 'oracle.bet.bear'),
            amount: format.bnb(body.amountWei, { decimals: 18, trim: true, symbol: null }),
          }),
        );
      } else {
        toast.info(t('oracle.bet.pending'));
      }
    } catch (error) {
      const final = isFinalRefusal(error);
      setUnrecorded(final ? null : body);
      // A refused paid bet is kept by the server as a refund owed (spec-conformance 18.18): say so.
      const refund = final && !(error instanceof ApiError && error.code === 'TX_TOO_LATE');
      toast.error(
        refund ? `${betErrorMessage(t, error)} ${t('oracle.bet.refundNote')}` : betErrorMessage(t, error),
      );
    } finally {
      setStage('idle');
    }
    await queryClient.invalidateQueries({ queryKey: ROUNDS_QUERY_KEY });
  };

  const progress =
    stage === 'recording'
      ? t('oracle.bet.recording')
      : stage === 'paying' && payment.stage === 'waiting-for-confirmation'
        ? t('oracle.bet.submitted')
        : stage === 'paying'
          ? t('oracle.bet.confirmInWallet')
          : '';

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-3 border-t border-line pt-4"
      noValidate
    >
      <h3 className="text-sm font-semibold">{t('oracle.bet.title')}</h3>
      <fieldset className="grid grid-cols-2 gap-2" disabled={busy}>
        <legend className="sr-only">{t('oracle.bet.direction')}</legend>
        <SideButton side="bull" selected={position === 'bull'} onSelect={setPosition} />
        <SideButton side="bear" selected={position === 'bear'} onSelect={setPosition} />
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={amountId} className="text-xs text-muted">
          {t('oracle.bet.amount')}
        </label>
        <input
          id={amountId}
          type="number"
          inputMode="decimal"
          min={MIN_BET_TEXT}
          step={ORACLE_BET_STEP}
          value={amountText}
          onChange={(event) => setAmountText(event.target.value)}
          disabled={busy}
          aria-describedby={`${amountId}-hint`}
          className="h-12 rounded-lg border border-line-strong bg-surface-2 px-3 text-lg font-semibold tabular-nums text-fg outline-none focus:border-brand"
        />
        <p id={`${amountId}-hint`} className="flex flex-wrap justify-between gap-2 text-xs text-muted">
          <span>{t('oracle.bet.minHint', { amount: MIN_BET_TEXT })}</span>
          {estimate !== null && (
            <span className="tabular-nums">
              {t('oracle.bet.potentialPayout')}:{' '}
              {t('oracle.bet.potentialPayoutValue', { amount: format.bnb(estimate, { symbol: null }) })}
            </span>
          )}
        </p>
      </div>
      {/* A plain button: the side's colour is the point, and the Button variants own their colours. */}
      <button
        type="submit"
        disabled={busy}
        className={cx(
          'inline-flex h-12 w-full cursor-pointer items-center justify-center gap-2 rounded-lg px-6 text-base font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60',
          // Still pressable when closed (the answer is the spec's 'You can only bet on live rounds'),
          // so it stays at full contrast: an outline instead of a faded fill.
          !isOpen
            ? 'border border-line-strong bg-surface-2 text-muted hover:text-fg'
            : position === 'bull'
              ? 'bg-yes text-bg hover:bg-yes/90'
              : 'bg-danger text-white hover:bg-danger-hover',
        )}
      >
        {busy ? (
          <Icon node={LoaderCircle} aria-hidden="true" className="size-5 motion-safe:animate-spin" />
        ) : position === 'bull' ? (
          <Icon node={ArrowUp} aria-hidden="true" className="size-5" />
        ) : (
          <Icon node={ArrowDown} aria-hidden="true" className="size-5" />
        )}
        {t(position === 'bull' ? 'oracle.bet.submitUp' : 'oracle.bet.submitDown')}
      </button>
      <p role="status" aria-label={t('oracle.bet.progress')} className="min-h-5 text-sm text-brand">
        {progress}
      </p>
      {unrecorded && stage === 'idle' && (
        <div role="alert" className="flex flex-col gap-2 rounded-lg border border-no/40 bg-no/10 p-3 text-sm">
          <p>{t('payment.retryHint')}</p>
          <Button variant="outline" onClick={() => void record(unrecorded)}>
            {t('payment.retry')}
          </Button>
        </div>
      )}
      <p className="text-xs text-muted">{t('payment.directOnly')}</p>
      {!isOpen && (
        <p className="text-xs text-muted">
          {t(round.status === 'upcoming' ? 'oracle.bet.notYet' : 'oracle.bet.closed')}
        </p>
      )}
    </form>
  );
}

function SideButton({
  side,
  selected,
  onSelect,
}: {
  side: Position;
  selected: boolean;
  onSelect: (side: Position) => void;
}) {
  const { t } = useTranslation();
  const up = side === 'bull';
  const arrow = up ? ArrowUp : ArrowDown;
  return (
    <button
      type="button"
      aria-pressed={selected}
      title={t(up ? 'oracle.bet.upHint' : 'oracle.bet.downHint')}
      onClick={() => onSelect(side)}
      className={cx(
        'flex h-12 cursor-pointer items-center justify-center gap-2 rounded-lg border-2 font-bold transition-colors disabled:cursor-not-allowed',
        up ? 'border-yes' : 'border-no',
        selected ? (up ? 'bg-yes text-bg' : 'bg-danger text-white') : up ? 'text-yes' : 'text-no',
      )}
    >
      <Icon node={arrow} aria-hidden="true" className="size-5" />
      {t(up ? 'oracle.bet.up' : 'oracle.bet.down')}
    </button>
  );
}

/** The server's refusal in the spec's words where it has them (§5/§8), else the translated code. */
function betErrorMessage(t: Parameters<typeof apiErrorMessage>[0], error: unknown): string {
  if (error instanceof ApiError && error.code === 'AMOUNT_TOO_LOW') return t('oracle.bet.minimum');
  if (error instanceof ApiError && error.code === 'ROUND_NOT_LIVE') return t('oracle.bet.onlyLive');
  return apiErrorMessage(t, error, t('oracle.bet.failed'));
}
