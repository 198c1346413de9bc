import WebSocket from 'ws';

/**
 * Opens a realtime socket as the client `forwardedFor` (the app must trust one proxy: TRUST_PROXY=1);
 * resolves with it once open, or with the HTTP status that refused the upgrade.
 */
export function connectAs(url: string, forwardedFor: string) {
  return new Promise<{ socket: WebSocket } | { refused: number }>((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { 'x-forwarded-for': forwardedFor } });
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) =>
      resolve({ refused: response.statusCode ?? 0 }),
    );
    socket.once('error', reject);
  });
}
