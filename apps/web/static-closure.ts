import type { Rolldown } from 'vite';

export type ModuleGraph = { getModuleInfo(id: string): Rolldown.ModuleInfo | null };

/** Every module `entry` imports statically, at any depth (the builds' start chunks). */
export function staticClosure(entry: string, graph: ModuleGraph): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const imported of graph.getModuleInfo(id)?.importedIds ?? []) {
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return seen;
}
