import type { ClaimableBetViews } from './escrow/claims/claimable.ts';
import { toUserBetDto } from './markets/market-serializers.ts';
import { toWireOracleBet } from './oracle/oracle-rounds.ts';

/**
 * How GET claimable shows each bet: as the markets and oracle rooms show one. The claims live in the
 * escrow room, below both (docs/architecture.md "Rooms and the direction rule"), so they are passed in.
 */
export const claimableBetViews: ClaimableBetViews = { marketBet: toUserBetDto, roundBet: toWireOracleBet };
