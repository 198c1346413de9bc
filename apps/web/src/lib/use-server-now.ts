import { useEffect, useState } from 'react';

const TICK_MS = 500;

/**
 * The server's clock, in unix seconds, ticking: docs/architecture.md says server time decides deadlines, never
 * the browser's. `serverTime` is what the server answered; `receivedAt` (Date.now() then) gives
 * the browser clock's offset, so a wrong browser clock shows the right countdown.
 */
export function useServerNow(serverTime: string | undefined, receivedAt: number): number {
  const [localNow, setLocalNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setLocalNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const offsetMs = serverTime === undefined || receivedAt === 0 ? 0 : Date.parse(serverTime) - receivedAt;
  return (localNow + offsetMs) / 1000;
}
