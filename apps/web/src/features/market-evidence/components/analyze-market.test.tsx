import { createServer, type ServerResponse } from 'node:http';
import type { AnalyzeMarketResponse } from '@pm/core/contract/analyze';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Language } from '#i18n/translate.ts';
import { renderWithApp } from '#testing/test-app.tsx';
import { AnalyzeMarket } from './analyze-market.tsx';

// The create dialog's Analyze button asks POST /api/markets/analyze for real.

type Answer = { status: number; body: unknown } | 'hang' | 'drop';

/** A loopback stand-in for the API that records the bodies it gets and answers as told. */
let answer: Answer = { status: 200, body: {} };
const bodies: unknown[] = [];
const held: ServerResponse[] = [];
const server = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk) => {
    text += chunk;
  });
  request.on('end', () => {
    bodies.push(JSON.parse(text || 'null'));
    if (answer === 'drop') return void request.socket.destroy();
    if (answer === 'hang') return void held.push(response);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  });
});
const base = document.createElement('base');
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base.href = `http://127.0.0.1:${address.port}/`;
  document.head.append(base);
});
afterAll(async () => {
  for (const response of held) response.end();
  base.remove();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  cleanup();
  bodies.length = 0;
});

const SLOW = { timeout: 10_000 };

const analysis = (overrides: Partial<AnalyzeMarketResponse> = {}): AnalyzeMarketResponse => ({
  aiConfigured: true,
  decidable: false,
  problems: [
    { kind: 'ambiguous', detail: '"soon" has no date' },
    { kind: 'no_source', detail: 'No public record names the winner' },
  ],
  suggestedInstructions: 'YES if the official site lists the launch before the deadline.',
  model: 'gpt-4o-mini',
  ...overrides,
});

/** The Analyze button with an instructions field it can fill, as in the create dialog. */
function Form({ description }: { description: string }) {
  const [instructions, setInstructions] = useState('my rule');
  return (
    <>
      <label>
        Instructions
        <textarea value={instructions} onChange={(event) => setInstructions(event.target.value)} />
      </label>
      <AnalyzeMarket
        description={description}
        title="A title"
        instructions={instructions}
        duration="daily"
        onUseInstructions={setInstructions}
      />
    </>
  );
}

const render = (description = 'Will the rocket launch soon?', language?: Language) =>
  renderWithApp(<Form description={description} />, language ? { language } : {});

/** The analysis' error (an alert), told apart from the toasts an earlier test may have left. */
async function errorShown(message: RegExp): Promise<HTMLElement> {
  const alert = (await screen.findByText(message, undefined, SLOW)).closest<HTMLElement>('[role="alert"]');
  if (!alert) throw new Error('The error is not an alert');
  return alert;
}

describe('The Analyze button', () => {
  test('with an empty description says so, and sends nothing', async () => {
    await render('   ');
    fireEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    expect(await screen.findByText('Please enter a bet description first')).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(bodies).toEqual([]);
  });

  test('sends the texts and the duration, and is busy while it waits', async () => {
    answer = 'hang';
    await render();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    const busy = await screen.findByRole('button', { name: 'Analyzing…' });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      description: 'Will the rocket launch soon?',
      title: 'A title',
      resolutionInstructions: 'my rule',
      duration: 'daily',
    });
  });

  test('lists the problems, and "Use these instructions" fills the field in one click', async () => {
    answer = { status: 200, body: analysis() };
    await render();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    const result = await screen.findByRole('region', { name: 'Analysis' }, SLOW);
    const problems = within(result).getByRole('list', { name: 'Problems found' });
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Ambiguous terms: "soon" has no date', 'No source: No public record names the winner']);
    expect(within(result).getByText(/may not be able to decide this/)).toBeVisible();
    expect(within(result).getByText('Analysis by gpt-4o-mini')).toBeVisible();
    fireEvent.click(within(result).getByRole('button', { name: 'Use these instructions' }));
    expect((screen.getByLabelText('Instructions') as HTMLTextAreaElement).value).toBe(
      'YES if the official site lists the launch before the deadline.',
    );
    expect(within(result).getByRole('status').textContent).toBe(
      'The suggested instructions are in the field.',
    );
  });

  test('in Chinese', async () => {
    answer = { status: 200, body: analysis() };
    await render(undefined, 'zh');
    fireEvent.click(screen.getByRole('button', { name: '分析' }));
    const result = await screen.findByRole('region', { name: '分析结果' }, SLOW);
    expect(within(result).getByText('措辞含糊')).toBeVisible();
    expect(within(result).getByRole('button', { name: '使用此说明' })).toBeVisible();
  });

  test('without AI says an operator decides', async () => {
    answer = {
      status: 200,
      body: analysis({
        aiConfigured: false,
        decidable: null,
        problems: [],
        suggestedInstructions: null,
        model: null,
      }),
    };
    await render();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    expect(
      await screen.findByText('No AI is configured: an operator decides this market.', undefined, SLOW),
    ).toBeVisible();
  });

  test.each([
    ['ANALYZE_RATE_LIMITED', /Wait a minute and try again/, true],
    ['ANALYZE_DAILY_LIMIT', /Try tomorrow/, false],
  ])('a 429 %s gets its clear message', async (code, message, retry) => {
    answer = { status: 429, body: { error: { code, message: 'limited' } } };
    await render();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    const alert = await errorShown(message);
    expect(within(alert).queryByRole('button', { name: 'Try again' }) !== null).toBe(retry);
  });

  test('a network error can be retried', async () => {
    answer = 'drop';
    await render();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze' }));
    const alert = await errorShown(/Could not reach the server/);
    answer = { status: 200, body: analysis() };
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Analysis' }, SLOW)).toBeVisible();
    expect(bodies).toHaveLength(2);
  });
});
