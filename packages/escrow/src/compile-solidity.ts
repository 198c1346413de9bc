import solc from 'solc';
import { z } from 'zod';

// Solidity compiled offline by solc-js, the npm package's bundled wasm: never `loadRemoteVersion`, so
// nothing is ever downloaded. Used by packages/escrow/scripts/compile.ts and
// apps/server/scripts/build-contracts.ts.

const DiagnosticsSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
});

const OutputSchema = z.object({
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.unknown()),
          evm: z.object({
            bytecode: z.object({ object: z.string() }),
            deployedBytecode: z.object({
              object: z.string(),
              immutableReferences: z
                .record(z.string(), z.array(z.object({ start: z.number(), length: z.number() })))
                .optional(),
            }),
          }),
        }),
      ),
    )
    .optional(),
});

/** Where the compiler left room in the runtime code for an immutable, which the constructor fills. */
export type ImmutableReference = { start: number; length: number };

export type CompiledContract = {
  abi: unknown[];
  /** The creation code (constructor and runtime), hex without 0x. */
  bytecode: string;
  /** The runtime code as deployed, hex without 0x, with zeros where each immutable goes. */
  deployedBytecode: string;
  /** Every immutable's places in the runtime code, in byte offsets, in order. */
  immutableReferences: ImmutableReference[];
};

export type CompileOptions = {
  sources: Record<string, { content: string }>;
  evmVersion: string;
  optimizerRuns: number;
  /** Resolves an import the sources do not hold (e.g. from node_modules). */
  findImport?: (path: string) => { contents: string } | { error: string };
};

/** Compiles `sources`; throws with the compiler's messages on any error. */
export function compileSolidity(options: CompileOptions): {
  version: string;
  contract(source: string, name: string): CompiledContract;
} {
  const input = {
    language: 'Solidity',
    sources: options.sources,
    settings: {
      evmVersion: options.evmVersion,
      optimizer: { enabled: true, runs: options.optimizerRuns },
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'evm.bytecode.object',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.immutableReferences',
          ],
        },
      },
    },
  };
  // solc's types say `any`: pin down what we call and parse what comes back.
  const compile: (input: string, callbacks?: { import: CompileOptions['findImport'] }) => string =
    solc.compile;
  const version: () => string = solc.version;
  const callbacks = options.findImport ? { import: options.findImport } : undefined;
  const raw: unknown = JSON.parse(compile(JSON.stringify(input), callbacks));
  // The errors first: a contract that fails code generation (stack too deep) comes back without `evm`.
  const errors = (DiagnosticsSchema.parse(raw).errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const output = OutputSchema.parse(raw);
  return {
    version: version(),
    contract(source, name) {
      const compiled = output.contracts?.[source]?.[name];
      if (!compiled) throw new Error(`${name} missing from the compiler output`);
      const { deployedBytecode } = compiled.evm;
      const immutableReferences = Object.values(deployedBytecode.immutableReferences ?? {})
        .flat()
        .sort((a, b) => a.start - b.start);
      return {
        abi: compiled.abi,
        bytecode: compiled.evm.bytecode.object,
        deployedBytecode: deployedBytecode.object,
        immutableReferences,
      };
    },
  };
}
