import { type Config, ConfigError, loadConfig } from './config.ts';

/**
 * The environment parsed once at start, for the server and the ops CLI alike. A bad value is told
 * on stderr and the process ends with 78 (EX_CONFIG) before anything opens.
 */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
