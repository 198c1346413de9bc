import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, unsupportedNodeMessage } from './supported-node.ts';

describe('supported Node.js', () => {
  it('accepts the minimum and anything newer', () => {
    for (const version of ['22.12.0', '22.20.1', '23.0.0', '24.21.0', '26.1.0']) {
      expect(unsupportedNodeMessage(version)).toBeNull();
    }
  });

  it('refuses older versions in one line that names both versions', () => {
    for (const version of ['20.20.2', '22.11.0', '18.0.0']) {
      const message = unsupportedNodeMessage(version);
      expect(message).toContain(version);
      expect(message).toContain('22.12');
      expect(message).not.toContain('\n');
    }
  });

  it("matches the root package.json's engines", () => {
    const root = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'));
    expect(root.engines.node).toBe(`>=${MINIMUM_NODE.major}.${MINIMUM_NODE.minor}`);
  });

  it('is what the tests run on: Node 24 from the project', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
