// The oldest Node.js the server runs on: root package.json's `engines` (a test keeps the two
// equal). Node 24 LTS is what the project runs and is tested on (decision 021).
export const MINIMUM_NODE = { major: 22, minor: 12 } as const;

/** Null when `version` (process.versions.node) is supported, else the one line to print. */
export function unsupportedNodeMessage(version: string): string | null {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor))
    return null;
  return (
    `BNB Predict needs Node.js ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or newer (24 LTS recommended), ` +
    `and this is Node.js ${version}: run it through npm (the project installs Node 24) or install Node 24.`
  );
}
