// What the router does not tell: whether the user has moved within the app yet (so Back can stay
// inside it), and whether the last move was the browser's Back/Forward (so scroll is left to it).

let hasNavigatedInApp = false;
let lastMoveWasPop = false;

/** Called by the router root on every location change after the first. */
export function recordInAppNavigation(): { wasPop: boolean } {
  hasNavigatedInApp = true;
  const wasPop = lastMoveWasPop;
  lastMoveWasPop = false;
  return { wasPop };
}

export function recordPopState() {
  lastMoveWasPop = true;
}

/** False on the page the user opened directly (a shared link): Back would leave the app. */
export function canGoBackInApp(): boolean {
  return hasNavigatedInApp;
}
