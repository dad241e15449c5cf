import type { Config, SmsConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { insertDevMail } from './dev-mailbox.repository.ts';
import { errors } from './errors.ts';

/**
 * The SMS path, shared by phone sign-in, MFA phone factors and (later) notifications:
 * `sendSms(ctx, to, body)`. `to` is E.164 digits as stored on users (`4915112345678`, no `+`).
 * Through Twilio when SMS_PROVIDER=twilio, else into the developer mailbox when it is served
 * (DEV_MAILBOX; otherwise phone auth is off: `phone_provider_disabled`).
 */
export interface SmsSender {
  readonly kind: 'twilio' | 'dev-mailbox';
  send(to: string, body: string): Promise<void>;
}

/** A provider refused or failed; `transient` (network, 429, 5xx) means retrying may work. */
export class SmsSendError extends Error {
  override name = 'SmsSendError';
  readonly transient: boolean;
  readonly providerCode: string | undefined;

  constructor(message: string, transient: boolean, providerCode?: string) {
    super(message);
    this.transient = transient;
    this.providerCode = providerCode;
  }
}

/** The subject developer-mailbox rows of SMS carry (the mailbox holds email and SMS alike). */
const SMS_MAILBOX_SUBJECT = 'SMS';

/** Without a provider, SMS are kept in the developer mailbox (`to` is the number, `+` first). */
function devMailboxSms(db: Db): SmsSender {
  return {
    kind: 'dev-mailbox',
    async send(to, body) {
      await insertDevMail(db, { to: `+${to}`, subject: SMS_MAILBOX_SUBJECT, text: body, html: '' });
    },
  };
}

export type TwilioOptions = NonNullable<SmsConfig['twilio']> & {
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  timeoutMs?: number;
};

/** Twilio's REST API: POST /2010-04-01/Accounts/{sid}/Messages.json, basic auth, form body. */
export function twilioSms(options: TwilioOptions): SmsSender {
  const doFetch = options.fetch ?? fetch;
  const url = `${options.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  const sender: [string, string] = options.messageServiceSid.startsWith('MG')
    ? ['MessagingServiceSid', options.messageServiceSid]
    : ['From', `+${options.messageServiceSid.replace(/^\+/, '')}`];
  return {
    kind: 'twilio',
    async send(to, body) {
      const form = new URLSearchParams([['To', `+${to}`], ['Body', body], sender]);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form.toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'unknown';
        throw new SmsSendError(`Twilio could not be reached (${reason})`, true);
      }
      const text = await response.text().catch(() => '');
      let payload: { code?: unknown; message?: unknown; status?: unknown } = {};
      try {
        payload = text ? (JSON.parse(text) as typeof payload) : {};
      } catch {
        payload = {};
      }
      if (!response.ok) {
        const code = payload.code === undefined ? undefined : String(payload.code);
        const message = typeof payload.message === 'string' ? payload.message : response.statusText;
        const transient = response.status === 429 || response.status >= 500;
        throw new SmsSendError(`Twilio answered ${response.status}: ${message}`, transient, code);
      }
      // Twilio accepts (201) but may mark a message failed at once.
      if (payload.status === 'failed' || payload.status === 'undelivered') {
        throw new SmsSendError(`Twilio marked the message ${String(payload.status)}`, false);
      }
    },
  };
}

/** Whether texts can go out: a provider, or a developer mailbox someone can read. */
export function hasSmsPath(config: Pick<Config, 'devMailbox' | 'auth'>): boolean {
  return config.auth.sms.twilio !== null || config.devMailbox;
}

/** The sender for this configuration: Twilio, the developer mailbox, or none. */
export function createSmsSender(
  config: Pick<Config, 'devMailbox' | 'auth'>,
  db: Db,
): SmsSender | null {
  if (!hasSmsPath(config)) return null;
  const { twilio } = config.auth.sms;
  return twilio ? twilioSms(twilio) : devMailboxSms(db);
}

/**
 * What `sendSms` needs: a subset of the AuthContext, so other modules can build one.
 * `smsQuota` is the instance-wide hourly limit (RATE_LIMIT_SMS_SENT).
 */
export type SmsContext = {
  sms: SmsSender | null;
  smsQuota?: { take(): void | Promise<void> };
  log?: { warn(details: object, message: string): void };
};

/**
 * Sends one SMS. Throws GoTrue's errors: 422 `phone_provider_disabled` with no provider,
 * 429 `over_sms_send_rate_limit` over the hourly quota, `sms_send_failed` when the provider
 * fails (500 if retrying may help, else 400). Never logs the body (it holds codes).
 */
export async function sendSms(ctx: SmsContext, to: string, body: string): Promise<void> {
  if (!ctx.sms) {
    throw errors.phoneProviderUnsupported();
  }
  await ctx.smsQuota?.take();
  try {
    await ctx.sms.send(to, body);
  } catch (error) {
    if (error instanceof SmsSendError) {
      // The provider's reason (never the body, which holds the code) for the operator.
      ctx.log?.warn(
        { provider: ctx.sms.kind, providerCode: error.providerCode, transient: error.transient },
        `auth: SMS delivery failed: ${error.message}`,
      );
      throw errors.smsSendFailed(error.transient);
    }
    throw error;
  }
}
