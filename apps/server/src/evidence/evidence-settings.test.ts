import { describe, expect, it } from 'vitest';
import { EVIDENCE_DEFAULTS, evidenceUserAgent, resolveEvidenceSettings } from './evidence-settings.ts';

describe('evidence settings', () => {
  it('fills what is not given (or given as undefined) with the defaults', () => {
    const settings = resolveEvidenceSettings({ search: null, maxPages: 10, concurrency: undefined });
    expect(settings).toEqual({ ...EVIDENCE_DEFAULTS, search: null, maxPages: 10 });
    expect(settings.maxBodyBytes).toBe(2 * 1024 * 1024);
    expect(settings.pageTimeoutMs).toBe(10_000);
  });

  it('names the bot, and where to read about it when the deployment has a public URL', () => {
    expect(evidenceUserAgent()).toBe('BNBPredictEvidenceBot/1.0');
    expect(evidenceUserAgent('https://app.example.com')).toBe(
      'BNBPredictEvidenceBot/1.0 (+https://app.example.com)',
    );
  });
});
