import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { AuthError, Provider, Session } from '@supabase/auth-js';
import { IconLogin2, IconMailCheck } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  browserSupportsWebAuthn,
  getAuthClient,
  loginRedirectUrl,
  recoveryRedirectUrl,
} from '../../../lib/auth-client.ts';
import { getAuthStatus } from '../../../lib/auth-session.ts';
import { safeRedirectPath } from '../../../lib/safe-redirect.ts';
import { useAuthSettings } from '../hooks/useAuthSettings.ts';
import { AuthErrorAlert } from './AuthErrorAlert.tsx';
import { CodeInput } from './CodeInput.tsx';
import { MfaStep } from './MfaStep.tsx';
import { OAuthButtons } from './OAuthButtons.tsx';

interface SignInDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The guarded page the visitor was sent away from (`/?redirect=...`), if any. */
  redirectTo?: string | null;
}

type Method = 'email' | 'phone';
interface Target {
  email?: string;
  phone?: string;
}
type Step =
  | { kind: 'signIn' }
  | { kind: 'signUp' }
  | { kind: 'otp' }
  | { kind: 'code'; purpose: 'otp' | 'signup'; target: Target }
  | { kind: 'signUpSent'; target: Target }
  | { kind: 'forgot' }
  | { kind: 'forgotSent'; email: string }
  | { kind: 'mfa' };

const titles: Record<Step['kind'], string> = {
  signIn: 'dialog.signInTitle',
  signUp: 'dialog.signUpTitle',
  otp: 'dialog.otpTitle',
  code: 'dialog.codeTitle',
  signUpSent: 'dialog.confirmTitle',
  forgot: 'dialog.forgotTitle',
  forgotSent: 'dialog.forgotTitle',
  mfa: 'dialog.mfaTitle',
};

function initialStep(): Step {
  return getAuthStatus() === 'mfa_required' ? { kind: 'mfa' } : { kind: 'signIn' };
}

function describe(target: Target): string {
  return target.email ?? target.phone ?? '';
}

/**
 * Sign in, sign up, one-time codes, OAuth, password reset and the MFA step, all through
 * auth-js. Errors are auth-js's own messages; the only text of ours is the spec §5 rule that
 * an email or a phone number and a password are required.
 */
export function SignInDialog({ opened, onClose, redirectTo }: SignInDialogProps) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const settings = useAuthSettings();
  const phoneEnabled = settings.data?.external.phone === true;
  const signUpDisabled = settings.data?.disable_signup === true;

  const [step, setStep] = useState<Step>(initialStep);
  const [method, setMethod] = useState<Method>('email');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Re-opened: start over (or at the MFA step when a first factor is already done).
  useEffect(() => {
    if (opened) {
      setStep(initialStep());
      setError(null);
      setCode('');
      setPassword('');
    }
  }, [opened]);

  const go = (next: Step) => {
    setError(null);
    setCode('');
    setStep(next);
  };

  const usePhone = phoneEnabled && method === 'phone';
  const target = (): Target => (usePhone ? { phone: phone.trim() } : { email: email.trim() });

  /** Runs one auth-js call; its error message is shown as is. */
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  }

  function throwIf(authError: AuthError | Error | null) {
    if (authError) throw authError;
  }

  function finish() {
    onClose();
    void navigate(safeRedirectPath(redirectTo));
  }

  /** After a first factor: the MFA step when the user has verified factors, else done. */
  async function afterFirstFactor(session: Session | null) {
    if (!session) return;
    const { data, error: aalError } = await getAuthClient().mfa.getAuthenticatorAssuranceLevel();
    throwIf(aalError);
    if (data?.nextLevel === 'aal2' && data.currentLevel !== 'aal2') {
      go({ kind: 'mfa' });
      return;
    }
    finish();
  }

  const credentialsMissing = () => {
    const { email: e, phone: p } = target();
    return (!e && !p) || !password;
  };

  const submitSignIn = (event: FormEvent) => {
    event.preventDefault();
    if (credentialsMissing()) {
      setError(t('messages.missingCredentials'));
      return;
    }
    void run(async () => {
      const { email: e, phone: p } = target();
      const { data, error: authError } = await getAuthClient().signInWithPassword(
        e ? { email: e, password } : { phone: p ?? '', password },
      );
      throwIf(authError);
      await afterFirstFactor(data.session);
    });
  };

  const submitSignUp = (event: FormEvent) => {
    event.preventDefault();
    if (credentialsMissing()) {
      setError(t('messages.missingCredentials'));
      return;
    }
    void run(async () => {
      const who = target();
      const { data, error: authError } = await getAuthClient().signUp(
        who.email
          ? {
              email: who.email,
              password,
              options: { emailRedirectTo: loginRedirectUrl(redirectTo) },
            }
          : { phone: who.phone ?? '', password },
      );
      throwIf(authError);
      if (data.session) {
        await afterFirstFactor(data.session);
        return;
      }
      // Same answer whether or not the address already had an account (no enumeration).
      go({ kind: 'signUpSent', target: who });
    });
  };

  const submitOtp = (event: FormEvent) => {
    event.preventDefault();
    const who = target();
    if (!who.email && !who.phone) {
      setError(t('messages.missingOtpTarget'));
      return;
    }
    void run(async () => {
      const { error: authError } = await getAuthClient().signInWithOtp(
        who.email
          ? { email: who.email, options: { emailRedirectTo: loginRedirectUrl(redirectTo) } }
          : { phone: who.phone ?? '' },
      );
      throwIf(authError);
      go({ kind: 'code', purpose: 'otp', target: who });
    });
  };

  const submitCode = (event: FormEvent, purpose: 'otp' | 'signup', who: Target) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('messages.missingCode'));
      return;
    }
    void run(async () => {
      const token = code.trim();
      const { data, error: authError } = await getAuthClient().verifyOtp(
        who.email
          ? { email: who.email, token, type: purpose === 'signup' ? 'signup' : 'email' }
          : { phone: who.phone ?? '', token, type: 'sms' },
      );
      throwIf(authError);
      await afterFirstFactor(data.session);
    });
  };

  const submitForgot = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      setError(t('messages.missingEmail'));
      return;
    }
    void run(async () => {
      const { error: authError } = await getAuthClient().resetPasswordForEmail(address, {
        redirectTo: recoveryRedirectUrl(),
      });
      throwIf(authError);
      go({ kind: 'forgotSent', email: address });
    });
  };

  /** The browser's passkey picker; a passkey is a first factor (MFA may follow). */
  const passkey = () => {
    void run(async () => {
      const { signInWithPasskey } = await import('../webauthn-ceremonies.ts');
      const { data, error: authError } = await signInWithPasskey();
      throwIf(authError);
      await afterFirstFactor(data?.session ?? null);
    });
  };
  const passkeysOffered = settings.data?.passkeys_enabled === true && browserSupportsWebAuthn();

  const oauth = (provider: string) => {
    void run(async () => {
      const { error: authError } = await getAuthClient().signInWithOAuth({
        provider: provider as Provider,
        options: { redirectTo: loginRedirectUrl(redirectTo) },
      });
      throwIf(authError);
    });
  };

  const identifierFields = (
    <>
      {phoneEnabled ? (
        <SegmentedControl
          aria-label={t('fields.method')}
          value={method}
          onChange={(value) => setMethod(value as Method)}
          data={[
            { value: 'email', label: t('methods.email') },
            { value: 'phone', label: t('methods.phone') },
          ]}
          fullWidth
        />
      ) : null}
      {usePhone ? (
        <TextInput
          label={t('fields.phone')}
          type="tel"
          autoComplete="tel"
          placeholder={t('fields.phonePlaceholder')}
          value={phone}
          onChange={(event) => setPhone(event.currentTarget.value)}
          data-autofocus
        />
      ) : (
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          data-autofocus
        />
      )}
    </>
  );

  const passwordField = (autoComplete: 'current-password' | 'new-password') => (
    <PasswordInput
      label={t('fields.password')}
      autoComplete={autoComplete}
      value={password}
      onChange={(event) => setPassword(event.currentTarget.value)}
    />
  );

  const link = (label: string, onClick: () => void): ReactNode => (
    <Anchor component="button" type="button" size="sm" onClick={onClick}>
      {label}
    </Anchor>
  );

  let body: ReactNode;
  switch (step.kind) {
    case 'signIn':
    case 'signUp': {
      const signingUp = step.kind === 'signUp';
      body = (
        <Stack gap="md">
          {signingUp || !passkeysOffered ? null : (
            <Button variant="default" disabled={busy} onClick={passkey} fullWidth>
              {t('actions.passkey')}
            </Button>
          )}
          <OAuthButtons disabled={busy} onSelect={oauth} />
          <form onSubmit={signingUp ? submitSignUp : submitSignIn} noValidate>
            <Stack gap="md">
              {identifierFields}
              {passwordField(signingUp ? 'new-password' : 'current-password')}
              {signingUp ? null : (
                <Group justify="flex-end" mt={-8}>
                  {link(t('actions.forgot'), () => go({ kind: 'forgot' }))}
                </Group>
              )}
              <AuthErrorAlert message={error} />
              <Button type="submit" loading={busy} fullWidth>
                {signingUp ? t('actions.signUp') : t('actions.signIn')}
              </Button>
            </Stack>
          </form>
          <Stack gap={6} align="center">
            {signingUp ? null : link(t('actions.useCode'), () => go({ kind: 'otp' }))}
            {signingUp
              ? link(t('actions.toSignIn'), () => go({ kind: 'signIn' }))
              : signUpDisabled
                ? null
                : link(t('actions.toSignUp'), () => go({ kind: 'signUp' }))}
          </Stack>
        </Stack>
      );
      break;
    }
    case 'otp':
      body = (
        <form onSubmit={submitOtp} noValidate>
          <Stack gap="md">
            {identifierFields}
            <AuthErrorAlert message={error} />
            <Button type="submit" loading={busy} fullWidth>
              {t('actions.sendCode')}
            </Button>
            <Group justify="center">
              {link(t('actions.usePassword'), () => go({ kind: 'signIn' }))}
            </Group>
          </Stack>
        </form>
      );
      break;
    case 'signUpSent':
      body = (
        <Stack gap="md">
          <Alert color="brand" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
            {t('messages.signUpSent', { target: describe(step.target) })}
          </Alert>
          <Button
            variant="default"
            onClick={() => go({ kind: 'code', purpose: 'signup', target: step.target })}
            fullWidth
          >
            {t('actions.enterCode')}
          </Button>
          <Group justify="center">
            {link(t('actions.backToSignIn'), () => go({ kind: 'signIn' }))}
          </Group>
        </Stack>
      );
      break;
    case 'code': {
      const { purpose, target: who } = step;
      body = (
        <form onSubmit={(event) => submitCode(event, purpose, who)} noValidate>
          <Stack gap="md">
            <Text size="sm">
              {t(who.phone ? 'messages.smsSent' : 'messages.codeSent', {
                target: describe(who),
              })}
            </Text>
            <CodeInput
              label={t('fields.code')}
              description={t('fields.codeHint', { target: describe(who) })}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              data-autofocus
            />
            <AuthErrorAlert message={error} />
            <Button type="submit" loading={busy} fullWidth>
              {t('actions.verify')}
            </Button>
            <Group justify="center">
              {link(t('actions.backToSignIn'), () => go({ kind: 'signIn' }))}
            </Group>
          </Stack>
        </form>
      );
      break;
    }
    case 'forgot':
      body = (
        <form onSubmit={submitForgot} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('fields.email')}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              data-autofocus
            />
            <AuthErrorAlert message={error} />
            <Button type="submit" loading={busy} fullWidth>
              {t('actions.sendLink')}
            </Button>
            <Group justify="center">
              {link(t('actions.backToSignIn'), () => go({ kind: 'signIn' }))}
            </Group>
          </Stack>
        </form>
      );
      break;
    case 'forgotSent':
      body = (
        <Stack gap="md">
          <Alert color="brand" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
            {t('messages.recoverySent', { target: step.email })}
          </Alert>
          <Group justify="center">
            {link(t('actions.backToSignIn'), () => go({ kind: 'signIn' }))}
          </Group>
        </Stack>
      );
      break;
    case 'mfa':
      body = (
        <MfaStep
          onVerified={finish}
          onOtherAccount={() => {
            void getAuthClient()
              .signOut({ scope: 'local' })
              .then(() => go({ kind: 'signIn' }));
          }}
        />
      );
      break;
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(titles[step.kind])}
      closeButtonProps={{ 'aria-label': t('dialog.close') }}
    >
      <Stack gap="md">
        {redirectTo && step.kind === 'signIn' ? (
          <Alert color="brand" variant="light" icon={<IconLogin2 aria-hidden />} role="note">
            {t('dialog.continueNotice')}
          </Alert>
        ) : null}
        {body}
      </Stack>
    </Modal>
  );
}
