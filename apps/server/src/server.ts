// The process's entry point. Node caches the code it compiles (and the TypeScript it strips)
// on disk from here on, so later starts skip most of that work; the cache has to be on before
// the server's modules load, hence this file and the dynamic import (serve.ts is the server).
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./serve.ts');
