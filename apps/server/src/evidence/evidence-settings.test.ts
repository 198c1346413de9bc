import { describe, expect, it } from 'vitest';
import {
  creatorPageSlots,
  EVIDENCE_DEFAULTS,
  evidenceUserAgent,
  resolveEvidenceSettings,
} from './evidence-settings.ts';

describe('evidence settings', () => {
  it('fills what is not given (or given as undefined) with the defaults', () => {
    const settings = resolveEvidenceSettings({ search: null, maxPages: 10, concurrency: undefined });
    expect(settings).toEqual({ ...EVIDENCE_DEFAULTS, search: null, maxPages: 10 });
    expect(settings.maxBodyBytes).toBe(2 * 1024 * 1024);
    expect(settings.pageTimeoutMs).toBe(10_000);
  });

  it("reads at most 5 of the creator's URLs, and with a search engine at most half the pages", () => {
    expect(EVIDENCE_DEFAULTS.maxCreatorPages).toBe(5);
    expect(creatorPageSlots({ maxPages: 25, maxCreatorPages: 5 }, true)).toBe(5);
    expect(creatorPageSlots({ maxPages: 6, maxCreatorPages: 5 }, true)).toBe(3);
    expect(creatorPageSlots({ maxPages: 1, maxCreatorPages: 5 }, true)).toBe(0);
    expect(creatorPageSlots({ maxPages: 3, maxCreatorPages: 5 }, false)).toBe(3);
    expect(creatorPageSlots({ maxPages: 25, maxCreatorPages: 5 }, false)).toBe(5);
  });

  it('names the bot, and where to read about it when the deployment has a public URL', () => {
    expect(evidenceUserAgent()).toBe('BNBPredictEvidenceBot/1.0');
    expect(evidenceUserAgent('https://app.example.com')).toBe(
      'BNBPredictEvidenceBot/1.0 (+https://app.example.com)',
    );
  });
});
