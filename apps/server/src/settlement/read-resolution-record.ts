import type { DbOrTx } from '../db/client.ts';
import type { ResolutionRecord } from '../markets/markets-service.ts';
import { findLatestEvidence, toMarketEvidenceDto } from './evidence-repository.ts';
import { listResolutionEvents, toResolutionEventDto } from './resolution-events-repository.ts';

/**
 * A market's resolution record, for its page. Handed to the markets module as an argument, so
 * markets/ never imports this room (the settlement room acts on market rows, not the reverse).
 */
export async function readResolutionRecord(db: DbOrTx, marketId: number): Promise<ResolutionRecord> {
  const timeline = await listResolutionEvents(db, marketId);
  const evidence = await findLatestEvidence(db, marketId);
  return {
    timeline: timeline.map(toResolutionEventDto),
    evidence: evidence ? toMarketEvidenceDto(evidence) : null,
  };
}
