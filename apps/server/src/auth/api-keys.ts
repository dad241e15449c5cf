/**
 * Prints the API keys GoTrue's way: JWTs signed by this server's key with only a role.
 * `anon` may go to browsers; `service_role` opens the admin API and must stay on servers.
 *
 *   node --env-file-if-exists=.env apps/server/src/auth/api-keys.ts
 *
 * Uses the same key as the server (JWT_PRIVATE_KEY, or DATA_DIR/auth-keys, created if absent);
 * replacing that key invalidates these keys too.
 */
import { loadConfig } from '../config.ts';
import { apiKey } from './admin.ts';
import { loadAuthKeys } from './keys.ts';

const config = loadConfig();
const keys = await loadAuthKeys(config.auth, config.dataDir);
console.log(`anon:         ${await apiKey(keys, config.auth, 'anon')}`);
console.log(`service_role: ${await apiKey(keys, config.auth, 'service_role')}`);
