// The flags every run of the compiled server and ops CLI passes to Node (decision 023,
// docs/operations.md "Memory"): `compiledServerCommand`, the root `serve` script (and so the
// Dockerfile, which runs it) and the `ops` script, each after `--import <dist>/source-maps.js`
// (stack traces name our TypeScript sources: src/runtime/source-maps.ts). A test keeps the scripts
// equal to this list.
export const NODE_FLAGS = [
  // V8's young generation grows to 2 × 32 MB under load; 8 MB semi-spaces cap it at 16 MB.
  '--max-semi-space-size=8',
  // A full collection when the heap has grown 50% past what the last one kept, not 4×: under
  // the read load the live heap is ~57 MB and V8 let it reach ~245 MB before collecting.
  '--heap-growing-percent=50',
  // PGlite's WebAssembly stays on V8's baseline compiler: optimising PostgreSQL's hot functions
  // took ~450 MB at its peak (and kept ~100 MB) for no faster queries here. Nothing else runs WASM.
  '--liftoff-only',
] as const;
