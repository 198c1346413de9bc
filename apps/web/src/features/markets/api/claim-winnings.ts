import { type ClaimBody, ClaimResponseSchema } from '@pm/core/contract/claims';
import { apiPost } from '../../../lib/api-client.ts';

/** POST /api/claims: pays every claimable bet in scope (or one bet) from the vault. */
export function claimWinnings(body: ClaimBody) {
  return apiPost('/api/claims', body, ClaimResponseSchema);
}
