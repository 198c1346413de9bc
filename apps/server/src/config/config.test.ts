import { DEFAULT_MARKET_RESOLUTION_TIMEOUT_S, MIN_AI_CONFIDENCE_FLOOR } from '@pm/core/constants';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('AI judge settings (security review F20)', () => {
  test('AI_MIN_CONFIDENCE below the floor stops start-up, naming the variable', () => {
    for (const value of ['0', '49']) {
      expect(() => loadConfig({ AI_MIN_CONFIDENCE: value })).toThrow(ConfigError);
      expect(() => loadConfig({ AI_MIN_CONFIDENCE: value })).toThrow(/AI_MIN_CONFIDENCE/);
    }
    expect(loadConfig({ AI_MIN_CONFIDENCE: String(MIN_AI_CONFIDENCE_FLOOR) }).ai.minConfidence).toBe(50);
  });

  test('markets wait at most MARKET_RESOLUTION_TIMEOUT_S for a verdict, three days unless set', () => {
    expect(loadConfig({}).ai.resolutionTimeoutS).toBe(DEFAULT_MARKET_RESOLUTION_TIMEOUT_S);
    expect(loadConfig({ MARKET_RESOLUTION_TIMEOUT_S: '7200' }).ai.resolutionTimeoutS).toBe(7200);
    expect(() => loadConfig({ MARKET_RESOLUTION_TIMEOUT_S: '60' })).toThrow(/MARKET_RESOLUTION_TIMEOUT_S/);
  });
});
