import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small local stand-in for GitHub's OAuth endpoints and REST API (github.com cannot be
 * reached from tests): `/login/oauth/authorize` answers at once with a code, then
 * `/login/oauth/access_token`, `/user` and `/user/emails` behave like GitHub's for the
 * fields our provider reads. Point EXTERNAL_GITHUB_URL and EXTERNAL_GITHUB_API_URL at `url`.
 */
export type FakeGitHubUser = {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
};

export async function startFakeGitHub(options: { clientId: string; clientSecret: string }) {
  let user: FakeGitHubUser = {
    id: 4242,
    login: 'octo',
    name: 'Octo Cat',
    emails: [{ email: 'octo@example.com', primary: true, verified: true }],
  };
  const codes = new Map<string, { redirectUri: string }>();
  const tokens = new Set<string>();

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => resolve(body));
    });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('client_id') !== options.clientId) return json(404, {});
      const code = randomBytes(10).toString('hex');
      codes.set(code, { redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(await readBody(req));
      const issued = codes.get(form.get('code') ?? '');
      if (
        form.get('client_id') !== options.clientId ||
        form.get('client_secret') !== options.clientSecret ||
        !issued ||
        issued.redirectUri !== form.get('redirect_uri')
      ) {
        return json(200, { error: 'bad_verification_code' }); // GitHub answers 200 here
      }
      codes.delete(form.get('code') ?? '');
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.add(token);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/user') {
      return json(200, {
        id: user.id,
        login: user.login,
        name: user.name,
        avatar_url: `https://avatars.example.com/u/${user.id}`,
      });
    }
    if (url.pathname === '/user/emails') {
      return json(
        200,
        user.emails.map((entry) => ({ ...entry, visibility: entry.primary ? 'public' : null })),
      );
    }
    return json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    setUser: (next: FakeGitHubUser) => {
      user = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
