import runPageTask, { type PageTask } from '../../src/evidence/page-worker.ts';

// The page reader's thread (src/evidence/page-worker.ts) for tests of its time budget: a body holding
// `<!-- stall -->` never finishes reading (a synchronous wait nothing in the thread can end, as a
// pathological page's loop would be), one holding `<!-- crash -->` kills its thread. Every other
// task runs as in production. A stalled thread says so on the STALLED_CHANNEL broadcast channel.

export const STALLED_CHANNEL = 'stuck-page-worker:stalled';

export default function runStuckPageTask(task: PageTask) {
  if (task.kind === 'read' && task.body.includes('<!-- stall -->')) {
    task.started.postMessage(null);
    const channel = new BroadcastChannel(STALLED_CHANNEL);
    channel.postMessage('stalled');
    channel.close();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  if (task.kind === 'read' && task.body.includes('<!-- crash -->')) process.exit(1);
  return runPageTask(task);
}
