import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in of the few Stripe endpoints UpNext uses, for tests: the real `stripe`
 * package talks to it through its `host`, `port` and `protocol` options, so no test reaches
 * Stripe. It reads Stripe's form-encoded bodies (`line_items[0][price_data][currency]=eur`)
 * and answers JSON objects shaped like Stripe's, with Stripe's rules that matter to us (a
 * Checkout Session expires 30 minutes to 24 hours after it is created; only an open one can
 * be expired). It is not Stripe: see the README for trying a real Stripe test account.
 */

type Json = Record<string, unknown>;
type StandinRequest = {
  method: string;
  path: string;
  body: Json;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
};

type Session = Json & { id: string; status: string; payment_status: string };

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` into `{ a: { b: [{ c: 'v' }] } }`, as Stripe reads its form bodies. */
function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1] ?? '');
      container[part] ??= nextIsIndex ? [] : {};
      node = container[part] as Record<string, unknown>;
    });
  }
  return root;
}

function stripeError(res: ServerResponse, status: number, message: string, param?: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type: 'invalid_request_error', message, param } }));
}

function send(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': newId('req') });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandin() {
  const sessions = new Map<string, Session>();
  const subscriptions = new Map<string, Json>();
  const requests: StandinRequest[] = [];
  /** Answers by idempotency key, as Stripe replays them. */
  const replays = new Map<string, unknown>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      stripeError(res, 500, String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin');
    const body = parseStripeForm(
      req.method === 'GET' ? url.searchParams.toString() : await readBody(req),
    );
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      body,
      authorization: req.headers.authorization,
      idempotencyKey,
    });
    if (!req.headers.authorization?.startsWith('Bearer sk_')) {
      return stripeError(res, 401, 'Invalid API Key provided.');
    }
    const replayKey = idempotencyKey ? `${req.method} ${url.pathname} ${idempotencyKey}` : null;
    if (replayKey && replays.has(replayKey)) return send(res, replays.get(replayKey));
    const answer = route(req.method ?? '', url.pathname, body, res);
    if (answer === undefined) return;
    if (replayKey) replays.set(replayKey, answer);
    send(res, answer);
  }

  function route(method: string, path: string, body: Json, res: ServerResponse): unknown {
    const sessionPath = path.match(/^\/v1\/checkout\/sessions\/(\w+)$/);
    const expirePath = path.match(/^\/v1\/checkout\/sessions\/(\w+)\/expire$/);
    const subscriptionPath = path.match(/^\/v1\/subscriptions\/(\w+)$/);
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const expiresAt = Number(body.expires_at ?? nowSeconds() + 86_400);
      const created = nowSeconds();
      if (expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
        stripeError(
          res,
          400,
          'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
          'expires_at',
        );
        return undefined;
      }
      const items = (body.line_items ?? []) as Json[];
      const amount = items.reduce((sum, item) => {
        const price = (item.price_data ?? {}) as Json;
        return sum + Number(price.unit_amount ?? 0) * Number(item.quantity ?? 1);
      }, 0);
      const id = newId('cs');
      const session: Session = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        url: `http://${address()}/pay/${id}`,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        customer_email: body.customer_email ?? null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        expires_at: expiresAt,
        created,
        amount_total: amount,
        currency: (items[0]?.price_data as Json | undefined)?.currency ?? null,
        payment_intent: null,
        subscription: null,
        livemode: false,
      };
      sessions.set(id, session);
      return session;
    }
    if (sessionPath && method === 'GET') {
      const session = sessions.get(sessionPath[1] ?? '');
      if (!session) return notFound(res, 'checkout session');
      return session;
    }
    if (expirePath && method === 'POST') {
      const session = sessions.get(expirePath[1] ?? '');
      if (!session) return notFound(res, 'checkout session');
      if (session.status !== 'open') {
        stripeError(res, 400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
        return undefined;
      }
      session.status = 'expired';
      return session;
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = body.payment_intent;
      const paidSession = [...sessions.values()].find((s) => s.payment_intent === intent);
      if (!paidSession) return notFound(res, 'payment intent');
      return {
        id: newId('re'),
        object: 'refund',
        amount: Number(body.amount ?? paidSession.amount_total),
        currency: paidSession.currency,
        payment_intent: intent,
        reason: body.reason ?? null,
        metadata: body.metadata ?? {},
        status: 'succeeded',
        created: nowSeconds(),
      };
    }
    if (subscriptionPath) {
      const subscription = subscriptions.get(subscriptionPath[1] ?? '');
      if (!subscription) return notFound(res, 'subscription');
      if (method === 'POST' && body.cancel_at_period_end !== undefined) {
        subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
      }
      return subscription;
    }
    stripeError(res, 404, `Unrecognized request URL (${method}: ${path}).`);
    return undefined;
  }

  function notFound(res: ServerResponse, what: string): undefined {
    stripeError(res, 404, `No such ${what}.`);
    return undefined;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = () => {
    const info = server.address() as AddressInfo;
    return `127.0.0.1:${info.port}`;
  };

  return {
    url: `http://${address()}`,
    requests,
    sessions,
    /** The payer completes the checkout: paid, with a payment intent (and a subscription in subscription mode). */
    complete(sessionId: string, periodEnd = nowSeconds() + 30 * 86_400): Session {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      if (session.mode === 'subscription') {
        const id = newId('sub');
        subscriptions.set(id, {
          id,
          object: 'subscription',
          status: 'active',
          cancel_at_period_end: false,
          metadata: session.metadata,
          items: {
            object: 'list',
            data: [{ id: newId('si'), object: 'subscription_item', current_period_end: periodEnd }],
          },
        });
        session.subscription = id;
      } else {
        session.payment_intent = newId('pi');
      }
      return session;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;
