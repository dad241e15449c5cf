import { isUniqueViolation } from '../db/refusals.ts';
import { audit } from './audit.repository.ts';
import { phoneChannel, sendCode } from './channels.ts';
import type { AuthContext, RequestInfo } from './context.ts';
import { errors } from './errors.ts';
import { assertPasswordAcceptable, hashPassword } from './passwords.ts';
import { assertPhoneEnabled, assertSmsChannel, sendAuthSms } from './phone.ts';
import { startSession } from './sessions.service.ts';
import { signUpUser } from './users.service.ts';
import { fakeUserJson, identitiesOf, userJson } from './users.ts';

/** The phone half of /signup (GoTrue's behaviour with an SMS provider): codes go out by SMS. */
export async function phoneSignup(
  ctx: AuthContext,
  info: RequestInfo,
  body: {
    phone: string;
    password?: string | null | undefined;
    channel?: string | null | undefined;
  },
  userMetadata: Record<string, unknown>,
) {
  assertPhoneEnabled(ctx);
  assertSmsChannel(body.channel);
  const phone = phoneChannel.parse(ctx, body.phone);
  if (!body.password) throw errors.validation('Signup requires a valid password');
  assertPasswordAcceptable(body.password, ctx.auth.passwordMinLength);
  // Hash whatever happens next, so every branch costs the same time.
  const encryptedPassword = await hashPassword(body.password);
  const autoconfirm = ctx.auth.sms.autoconfirm;

  const repeated = async () => {
    const existing = await phoneChannel.findUser(ctx.db, phone);
    if (!existing) return undefined;
    if (autoconfirm) throw errors.userAlreadyExists();
    await phoneChannel.claimSlot(ctx, phone);
    if (existing.phoneConfirmedAt) {
      // Tell the owner, not the caller: the answer looks like a brand-new sign-up.
      await audit(ctx.db, info, 'user_repeated_signup', existing.id, { provider: 'phone' });
      await sendAuthSms(ctx, 'existing_account', phone, undefined, info.language);
      return {
        ...fakeUserJson('', userMetadata, ctx.clock()),
        phone,
        app_metadata: { provider: 'phone', providers: ['phone'] },
      };
    }
    await sendCode(ctx, info, phoneChannel, existing, phone, 'confirm');
    const fresh = (await phoneChannel.findUser(ctx.db, phone)) ?? existing;
    return userJson(fresh, await identitiesOf(ctx.db, existing.id));
  };

  const answer = await repeated();
  if (answer) return answer;
  try {
    if (autoconfirm) {
      return await ctx.db.transaction(async (tx) => {
        const now = ctx.clock();
        const user = await signUpUser(tx, info, {
          phone: { address: phone, confirmed: true },
          encryptedPassword,
          userMetadata,
          now,
          aud: ctx.auth.jwtAud,
        });
        return startSession(ctx, tx, user, 'password', info);
      });
    }
    await phoneChannel.claimSlot(ctx, phone);
    const user = await ctx.db.transaction(async (tx) => {
      const now = ctx.clock();
      return signUpUser(tx, info, {
        phone: { address: phone, confirmed: false },
        encryptedPassword,
        userMetadata,
        now,
        aud: ctx.auth.jwtAud,
      });
    });
    await sendCode(ctx, info, phoneChannel, user, phone, 'confirm');
    const fresh = (await phoneChannel.findUser(ctx.db, phone)) ?? user;
    return userJson(fresh, await identitiesOf(ctx.db, user.id));
  } catch (error) {
    // Two sign-ups for one new number at once: the loser is answered as a repeat.
    if (!isUniqueViolation(error)) throw error;
    const again = await repeated();
    if (again) return again;
    throw error;
  }
}
