/** The worker thread of copyPgdataTemplate (pgdata-template.ts): copies, then renames. */
import { cpSync, existsSync, mkdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { workerData } from 'node:worker_threads';

const { dataDir, template } = workerData as { dataDir: string; template: string };
const copy = `${dataDir}.copying-${process.pid}`;
rmSync(copy, { recursive: true, force: true });
mkdirSync(dirname(dataDir), { recursive: true });
cpSync(template, copy, { recursive: true });
if (existsSync(dataDir)) rmdirSync(dataDir); // empty (rmdir refuses otherwise)
renameSync(copy, dataDir);
