// The compiled server's page reader (dist/page-worker.js, given as the argument) run in a piscina
// thread as the server's pool runs it: one page read, its { title, text } printed as JSON.
// test/compiled-server.test.ts starts it with the server's own Node flags, which the thread inherits.
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';

const pool = new Piscina({ filename: pathToFileURL(process.argv[2] ?? '').href, maxThreads: 1 });
const { port2: started } = new MessageChannel();
const body =
  '<html><head><title>Box score</title></head><body><nav>Menu</nav>' +
  '<article><p>The Lakers beat the Celtics 110 to 102.</p></article></body></html>';
const page = await pool.run(
  { kind: 'read', body, contentType: 'text/html', started },
  { transferList: [started] },
);
process.stdout.write(JSON.stringify(page));
await pool.destroy();
