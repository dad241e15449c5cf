/**
 * The database floor of bench/start.ts: bare PGlite opening the directory given (initdb when it
 * is empty), one `select 1`, "ready" on stdout, then idle until SIGTERM closes it.
 */
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node start-pglite.ts <data directory>');
const client = await PGlite.create(dataDir);
await client.query('select 1');
console.log('ready');
const idle = setInterval(() => {}, 60_000);
process.once('SIGTERM', () => {
  clearInterval(idle);
  void client.close();
});
