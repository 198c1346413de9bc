import { unsupportedNodeMessage } from './supported-node.ts';

// Imported first by every entry point (the server, the ops CLI): on an older Node, one clear line
// and exit code 1, before any other module is loaded.
const message = unsupportedNodeMessage(process.versions.node);
if (message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
