import { setSourceMapsSupport } from 'node:module';

// Preloaded before the server and the ops CLI (`node --import …/dist/source-maps.js`, decision 023):
// stack traces name our TypeScript sources (decision 021), as `--enable-source-maps` would, but without
// parsing the source map of every npm package the server imports (~15 MB held for the process's life).
// Only modules loaded after this call get their source maps, hence a preload.
setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
