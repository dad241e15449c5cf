import { Alert, Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { Factor } from '@supabase/auth-js';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn, getAuthClient } from '../../../lib/auth-client.ts';
import { AuthErrorAlert } from './AuthErrorAlert.tsx';
import { CodeInput } from './CodeInput.tsx';

interface MfaStepProps {
  onVerified: () => void;
  onOtherAccount: () => void;
}

/**
 * The second factor at sign-in: a TOTP code (challengeAndVerify), or for a user with only a
 * phone factor, a code sent by text message (challenge, then verify); and a security key
 * (auth-js `mfa.webauthn.authenticate`) when the user has one, beside a code or alone.
 */
export function MfaStep({ onVerified, onOtherAccount }: MfaStepProps) {
  const { t } = useTranslation('auth');
  const [factor, setFactor] = useState<Factor | null | undefined>(undefined);
  const [keyFactor, setKeyFactor] = useState<Factor | null>(null);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      const auth = getAuthClient();
      const { data, error: listError } = await auth.mfa.listFactors();
      if (!live) return;
      if (listError) {
        setError(listError.message);
        setFactor(null);
        return;
      }
      const chosen = data.totp[0] ?? data.phone[0] ?? null;
      setKeyFactor(browserSupportsWebAuthn() ? (data.webauthn[0] ?? null) : null);
      setFactor(chosen);
      if (chosen?.factor_type === 'phone') {
        const challenge = await auth.mfa.challenge({ factorId: chosen.id });
        if (!live) return;
        if (challenge.error) setError(challenge.error.message);
        else setChallengeId(challenge.data.id);
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!factor) return;
    if (!code.trim()) {
      setError(t('messages.missingCode'));
      return;
    }
    setBusy(true);
    setError(null);
    void (async () => {
      const mfa = getAuthClient().mfa;
      const result =
        factor.factor_type === 'phone' && challengeId
          ? await mfa.verify({ factorId: factor.id, challengeId, code: code.trim() })
          : await mfa.challengeAndVerify({ factorId: factor.id, code: code.trim() });
      setBusy(false);
      if (result.error) {
        setError(result.error.message);
        return;
      }
      onVerified();
    })();
  };

  const verifyWithKey = (factorId: string) => {
    setBusy(true);
    setError(null);
    void (async () => {
      const { verifySecurityKey } = await import('../webauthn-ceremonies.ts');
      const result = await verifySecurityKey(factorId);
      setBusy(false);
      if (result.error) {
        setError(result.error.message);
        return;
      }
      onVerified();
    })();
  };

  const keyButton = keyFactor ? (
    <Button
      variant={factor ? 'default' : 'filled'}
      loading={busy && !factor}
      disabled={busy && Boolean(factor)}
      onClick={() => verifyWithKey(keyFactor.id)}
      fullWidth
    >
      {t('actions.securityKey')}
    </Button>
  ) : null;

  const other = (
    <Group justify="center">
      <Anchor component="button" type="button" size="sm" onClick={onOtherAccount}>
        {t('actions.otherAccount')}
      </Anchor>
    </Group>
  );

  if (factor === undefined) {
    return (
      <Group justify="center" py="md">
        <Loader size="sm" aria-label={t('dialog.mfaTitle')} />
      </Group>
    );
  }
  if (factor === null && keyFactor) {
    return (
      <Stack gap="md">
        <Text size="sm">{t('fields.mfaKeyHint')}</Text>
        <AuthErrorAlert message={error} />
        {keyButton}
        {other}
      </Stack>
    );
  }
  if (factor === null) {
    return (
      <Stack gap="md">
        <AuthErrorAlert message={error} />
        {error ? null : (
          <Alert color="yellow" variant="light">
            {t('messages.mfaNoFactor')}
          </Alert>
        )}
        {other}
      </Stack>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <CodeInput
          label={t('fields.code')}
          description={
            factor.factor_type === 'phone'
              ? t('fields.mfaSmsHint', {
                  target: (factor as Factor & { phone?: string }).phone ?? '',
                })
              : t('fields.mfaCodeHint')
          }
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          data-autofocus
        />
        <AuthErrorAlert message={error} />
        <Button type="submit" loading={busy} fullWidth>
          {t('actions.verify')}
        </Button>
        {keyButton}
        {other}
      </Stack>
    </form>
  );
}
