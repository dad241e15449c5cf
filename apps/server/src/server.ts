// The process's entry point. Node caches the code it compiles (and the TypeScript it strips)
// on disk from here on, so later starts skip most of that work; the cache has to be on before
// the server's modules load, hence this file and the dynamic import (serve.ts is the server).
// The resolve hook (lib/module-resolve.ts) saves Node's resolver ~0.45 s of CPU per start.
import { enableCompileCache, registerHooks } from 'node:module';
import { resolveDrizzle } from './lib/module-resolve.ts';

enableCompileCache();
registerHooks({ resolve: resolveDrizzle });
await import('./serve.ts');
