import { formatBnbWithUnit } from '@pm/core/money';
import type { Db } from '../db/client.ts';
import { type EscrowTarget, escrowTargetOf } from '../escrow/escrow-target.ts';
import { findLatestEvidence, toMarketEvidenceDto } from '../settlement/evidence-repository.ts';
import {
  confirmProposedVerdict,
  OPS_CLI_ACTOR,
  resolveMarketByOperator,
  voidMarketByOperator,
} from '../settlement/operator-actions.ts';
import type { SettlementSummary } from '../settlement/settle-market.ts';
import { listMarketsAwaitingResolution } from '../settlement/settlement-repository.ts';
import { listFlaggedMarkets, listMarketFlags } from './flagged-markets-repository.ts';
import { type OpsArgs, type OpsCommand, type OpsContext, UsageError } from './ops-commands.ts';

// Operator commands for AI-judged markets (docs/architecture.md "Operators", docs/operations.md).

export const marketsCommands: OpsCommand[] = [
  {
    name: 'markets:pending',
    readOnly: true,
    usage: 'markets:pending',
    summary: 'List markets waiting for a verdict (settling), oldest deadline first.',
    async run({ db, out }) {
      const rows = await listMarketsAwaitingResolution(db);
      if (rows.length === 0) {
        out('No market is waiting for resolution.');
        return;
      }
      for (const market of rows) {
        const pool = formatBnbWithUnit(market.totalYesAmount + market.totalNoAmount);
        out(`#${market.id}  ${market.title}`);
        out(
          `    deadline ${market.deadline.toISOString()}  judge ${market.resolverModel}  pool ${pool}  ` +
            `YES ${market.yesCount} / NO ${market.noCount}  attempts ${market.resolutionAttempts}` +
            (market.nextResolutionAt ? `  next ${market.nextResolutionAt.toISOString()}` : ''),
        );
        if (market.resolutionError) out(`    last error: ${market.resolutionError}`);
      }
      out(`${rows.length} market(s) waiting for resolution.`);
    },
  },
  settlingCommand({
    name: 'markets:resolve',
    usage: 'markets:resolve <id> YES|NO --analysis "why"',
    summary: 'Settle a market whose betting has closed; winners can then claim.',
    why: 'analysis',
    verdict: (args) => readResult(args, ['YES', 'NO']),
    settle: (db, settlement, result, analysis) =>
      resolveMarketByOperator(db, { ...settlement, result, analysis }),
  }),
  settlingCommand({
    name: 'markets:void',
    usage: 'markets:void <id> --reason "why"',
    summary: 'Void a market that is not settled yet; every stake is refunded.',
    why: 'reason',
    verdict: () => null,
    settle: (db, settlement, _none, reason) => voidMarketByOperator(db, { ...settlement, reason }),
  }),
  {
    name: 'markets:flagged',
    readOnly: true,
    usage: 'markets:flagged',
    summary: 'List proposed verdicts flagged by bettors: they wait for markets:confirm or markets:overturn.',
    async run({ db, out }) {
      const rows = await listFlaggedMarkets(db);
      if (rows.length === 0) {
        out('No flagged market is waiting for an operator.');
        return;
      }
      for (const market of rows) {
        out(`#${market.id}  ${market.title}`);
        out(
          `    proposed ${market.proposedResult} by ${market.proposedBy} (confidence ${market.proposedConfidence ?? '-'}) ` +
            `at ${market.proposedAt?.toISOString()}  window ended ${market.reviewEndsAt?.toISOString()}`,
        );
        const flags = await listMarketFlags(db, market.id);
        for (const flag of flags)
          out(`    flagged by ${flag.address} at ${flag.createdAt.toISOString()}: ${flag.reason}`);
      }
      out(`${rows.length} flagged market(s) waiting for an operator.`);
    },
  },
  {
    name: 'markets:evidence',
    readOnly: true,
    usage: 'markets:evidence <id>',
    summary: "Show the latest judged attempt's pages (hash, status) and citations, verified ✔ or not ✖.",
    async run({ db, out }, args) {
      const marketId = parseMarketId(args);
      const found = await findLatestEvidence(db, marketId);
      if (!found) {
        out(`Market #${marketId} has no evidence: no attempt on evidence has been judged.`);
        return;
      }
      const evidence = toMarketEvidenceDto(found);
      out(
        `Market #${marketId}, attempt ${evidence.attempt}: ${evidence.pagesRead} page(s) read from ${evidence.sitesRead} site(s); ` +
          `search ${evidence.searchProvider ?? 'none'}; judged by ${evidence.models.join(', ')}`,
      );
      for (const query of evidence.queries) out(`  query: ${query}`);
      out('Pages:');
      for (const page of evidence.pages) {
        out(
          `  ${page.shownToJudge ? '*' : ' '} ${page.httpStatus ?? '---'} ${page.contentSha256 ?? '-'.repeat(64)} ${page.bytes}B ${page.finalUrl}` +
            (page.finalUrl !== page.url ? ` (from ${page.url})` : '') +
            (page.namedByCreator ? '  [named by the creator]' : '') +
            (page.error ? `  error: ${page.error}` : ''),
        );
      }
      out('Citations:');
      if (evidence.citations.length === 0) out('  (none)');
      for (const citation of evidence.citations) {
        out(
          `  ${citation.verified ? '✔' : '✖'} ${citation.url}${citation.namedByCreator ? '  [named by the creator]' : ''}`,
        );
        out(`      "${citation.quote}"`);
      }
      const verification = evidence.verification;
      out(
        verification
          ? `Verification: ${verification.status} (${verification.distinctSites} of ${verification.minSites} site(s) required)` +
              (verification.reason ? `: ${verification.reason}` : '')
          : 'Verification: none (the verdict was UNDECIDABLE or no model answered)',
      );
    },
  },
  settlingCommand({
    name: 'markets:confirm',
    usage: 'markets:confirm <id> --note "why"',
    summary: 'Confirm the proposed verdict of a market in review; it settles at once.',
    why: 'note',
    verdict: () => null,
    settle: (db, settlement, _none, note) => confirmProposedVerdict(db, { ...settlement, note }),
  }),
  settlingCommand({
    name: 'markets:overturn',
    usage: 'markets:overturn <id> YES|NO|VOID --reason "why"',
    summary: 'Overturn the proposed verdict of a market in review; it settles at once on the new result.',
    why: 'reason',
    verdict: (args) => readResult(args, ['YES', 'NO', 'VOID']),
    settle: (db, settlement, result, reason) =>
      result === 'VOID'
        ? voidMarketByOperator(db, { ...settlement, reason })
        : resolveMarketByOperator(db, { ...settlement, result, analysis: reason }),
  }),
];

type Settlement = {
  marketId: number;
  feeBps: number;
  now: Date;
  actor: string;
  /** A market whose stakes are on the escrow has its settlement posted there (the server's job sends it). */
  escrow: EscrowTarget | null;
};

/**
 * A command that settles one market (resolve, void, confirm, overturn), read in one order: the id,
 * then the verdict from the next positional, then the text that says why; then the report.
 */
function settlingCommand<Verdict>(command: {
  name: string;
  usage: string;
  summary: string;
  /** The option that says why, required: --analysis, --reason or --note. */
  why: string;
  verdict: (args: OpsArgs) => Verdict;
  settle: (db: Db, settlement: Settlement, verdict: Verdict, why: string) => Promise<SettlementSummary>;
}): OpsCommand {
  return {
    name: command.name,
    usage: command.usage,
    summary: command.summary,
    options: { [command.why]: { type: 'string' } },
    async run(context, args) {
      const settlement: Settlement = {
        marketId: parseMarketId(args),
        feeBps: context.config.fees.marketBps,
        now: context.clock.now(),
        actor: OPS_CLI_ACTOR,
        escrow: escrowTargetOf(context.config),
      };
      const verdict = command.verdict(args);
      const why = requireText(args, command.why);
      report(context, await command.settle(context.db, settlement, verdict, why));
    },
  };
}

/** The result named after the id, upper-cased, if it is one of `allowed`. */
function readResult<const Result extends string>(args: OpsArgs, allowed: readonly Result[]): Result {
  const text = args.positionals[1]?.toUpperCase();
  const result = allowed.find((candidate) => candidate === text);
  if (result === undefined) {
    const names = `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
    throw new UsageError(`The result must be ${names}.`);
  }
  return result;
}

function parseMarketId(args: OpsArgs): number {
  const text = args.positionals[0] ?? '';
  if (!/^[1-9][0-9]*$/.test(text)) throw new UsageError('Give the market id as a positive whole number.');
  return Number(text);
}

function requireText(args: OpsArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} "…" is required.`);
  return value.trim();
}

function report({ out }: OpsContext, summary: SettlementSummary): void {
  const pool = formatBnbWithUnit(summary.poolWei);
  if (summary.refunded) {
    out(
      `Market #${summary.marketId} settled ${summary.outcome}: ${summary.refundedBets} bet(s) refunded (pool ${pool}).`,
    );
    return;
  }
  out(
    `Market #${summary.marketId} settled ${summary.outcome}: ${summary.winningBets} winning and ` +
      `${summary.losingBets} losing bet(s), pool ${pool}, fee ${formatBnbWithUnit(summary.feeWei)}.`,
  );
}
