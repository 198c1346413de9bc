import { runDoctor } from '../doctor/run-doctor.ts';
import type { OpsCommandHelp } from './ops-commands.ts';

// `npm run ops -- doctor` (docs/operations.md "Preflight"). Not in the OPS_COMMANDS table: those
// run on a database the CLI has opened and migrated, and doctor must read the settings itself and
// never migrate.

export const doctorCommandHelp: OpsCommandHelp = {
  name: 'doctor',
  usage: 'doctor',
  summary:
    'checks the deployment before it takes real BNB: settings, RPC and chain id, the operator key’s gas, the escrow contract (ESCROW_ADDRESS: code, roles, limits, pause, balance against liabilities), price feeds, database and migrations, AI, search, PUBLIC_RPC_URL; exit 1 on any ✖',
};

/** Runs doctor with the process's environment; answers the exit code. */
export async function runDoctorCommand(args: string[], out: (line: string) => void): Promise<number> {
  if (args.length > 0) {
    out(`doctor takes no arguments\nUsage: npm run ops -- ${doctorCommandHelp.usage}`);
    return 64;
  }
  return runDoctor({
    env: process.env,
    out,
    // npm runs workspace scripts inside apps/server: a relative DATA_DIR is taken from where
    // `npm run ops` was typed, as the server takes it.
    base: process.env.INIT_CWD ?? process.cwd(),
  });
}
