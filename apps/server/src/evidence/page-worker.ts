import type { MessagePort } from 'node:worker_threads';
import type { EvidencePassage } from './evidence-types.ts';
import { type RankablePage, type RankOptions, rankPassages } from './rank-passages.ts';
import { loadHtmlLibraries, type ReadPage, readPage } from './read-page.ts';

// A page reader's thread (docs/decisions/027): reading a page (DOM, Readability) and ranking the
// passages run here, off the server's event loop, one task at a time; page-readers.ts holds each task
// to its time budget and ends the thread when it is over. Built to dist/page-worker.js beside the
// server.

export type PageJob =
  | { kind: 'read'; body: string; contentType: string | null }
  | { kind: 'rank'; pages: RankablePage[]; question: string; options: RankOptions };

/** `started` tells the pool the task has begun, so its budget does not count the wait for a thread. */
export type PageTask = PageJob & { started: MessagePort };

// The thread exists to read pages: the libraries load with it, so a page's budget is its own.
loadHtmlLibraries();

export default function runPageTask(task: PageTask): ReadPage | EvidencePassage[] {
  task.started.postMessage(null);
  task.started.close();
  return task.kind === 'read'
    ? readPage(task.body, task.contentType)
    : rankPassages(task.pages, task.question, task.options);
}
