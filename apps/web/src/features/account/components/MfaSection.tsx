import {
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Factor, User } from '@supabase/auth-js';
import { IconDeviceMobile, IconShieldLock, IconUsb } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn, getAuthClient } from '../../../lib/auth-client.ts';
import { useRefreshUser } from '../hooks/useAccountUser.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Notice, Section } from './Section.tsx';

type Enrolment =
  | { kind: 'totp'; factorId: string; qrCode: string; secret: string }
  | { kind: 'phone-number' }
  | { kind: 'phone-code'; factorId: string; challengeId: string; phone: string };

type FactorWithPhone = Factor & { phone?: string };

/**
 * auth-js hands the QR code over as `data:image/svg+xml;utf-8,<svg…>` with the SVG unescaped;
 * its `#` colours would end the data URL early, so the SVG is re-encoded for the <img>.
 */
export function qrCodeSrc(qrCode: string): string {
  const svg = qrCode.replace(/^data:image\/svg\+xml;(?:charset=)?utf-8,/, '');
  if (!svg.trimStart().startsWith('<')) return qrCode;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** `base`, or `base 2`, `base 3`, ...: factor names are unique per user. */
function unusedName(base: string, taken: ReadonlyArray<string | undefined>): string {
  let name = base;
  for (let n = 2; taken.includes(name); n++) name = `${base} ${n}`;
  return name;
}

/**
 * MFA factors: list, enrol TOTP (QR code and secret, then the first code), a phone or a
 * security key (auth-js `mfa.webauthn.register`: the browser's create dialog), remove.
 * A verified factor can only be removed from an aal2 session; the server says so otherwise.
 */
export function MfaSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const refresh = useRefreshUser();
  const factors = (user.factors ?? []) as FactorWithPhone[];
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const action = useAuthAction();

  /** Unverified leftovers of an abandoned enrolment would clash by name: remove them first. */
  async function dropUnverified(type: 'totp' | 'phone' | 'webauthn') {
    const mfa = getAuthClient().mfa;
    for (const factor of factors) {
      if (factor.factor_type === type && factor.status !== 'verified') {
        await mfa.unenroll({ factorId: factor.id });
      }
    }
  }

  const startTotp = () =>
    void action.run(async () => {
      await dropUnverified('totp');
      const { data, error } = await getAuthClient().mfa.enroll({
        factorType: 'totp',
        friendlyName: t('mfa.totpName'),
      });
      if (error) return { error };
      setCode('');
      setEnrolment({
        kind: 'totp',
        factorId: data.id,
        qrCode: qrCodeSrc(data.totp.qr_code),
        secret: data.totp.secret,
      });
      return undefined;
    });

  const addSecurityKey = async () => {
    const ok = await action.run(async () => {
      await dropUnverified('webauthn');
      const verified = factors.filter((f) => f.status === 'verified');
      return getAuthClient().mfa.webauthn.register({
        friendlyName: unusedName(
          t('mfa.webauthnName'),
          verified.map((f) => f.friendly_name),
        ),
      });
    });
    if (ok) notifications.show({ color: 'green', message: t('mfa.enabled') });
    await refresh();
  };

  const startPhone = async (event: FormEvent) => {
    event.preventDefault();
    const number = phone.trim();
    await action.run(async () => {
      await dropUnverified('phone');
      const mfa = getAuthClient().mfa;
      const enrolled = await mfa.enroll({
        factorType: 'phone',
        phone: number,
        friendlyName: t('mfa.phoneName'),
      });
      if (enrolled.error) return { error: enrolled.error };
      const challenge = await mfa.challenge({ factorId: enrolled.data.id });
      if (challenge.error) return { error: challenge.error };
      setCode('');
      setEnrolment({
        kind: 'phone-code',
        factorId: enrolled.data.id,
        challengeId: challenge.data.id,
        phone: number,
      });
      return undefined;
    });
  };

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (!enrolment || enrolment.kind === 'phone-number') return;
    const mfa = getAuthClient().mfa;
    const ok = await action.run(() =>
      enrolment.kind === 'totp'
        ? mfa.challengeAndVerify({ factorId: enrolment.factorId, code: code.trim() })
        : mfa.verify({
            factorId: enrolment.factorId,
            challengeId: enrolment.challengeId,
            code: code.trim(),
          }),
    );
    if (ok) {
      setEnrolment(null);
      notifications.show({ color: 'green', message: t('mfa.enabled') });
      await refresh();
    }
  };

  const cancel = () => {
    const pending = enrolment;
    setEnrolment(null);
    action.setError(null);
    if (pending && pending.kind !== 'phone-number') {
      void getAuthClient()
        .mfa.unenroll({ factorId: pending.factorId })
        .then(() => refresh());
    }
  };

  const remove = async (factor: Factor) => {
    const ok = await action.run(() => getAuthClient().mfa.unenroll({ factorId: factor.id }));
    if (ok) {
      notifications.show({ color: 'green', message: t('mfa.removed') });
      await refresh();
    }
  };

  const codeField = (
    <TextInput
      label={t('mfa.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={10}
      value={code}
      onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
      maw={200}
    />
  );

  return (
    <Section title={t('mfa.title')} description={t('mfa.description')}>
      {factors.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('mfa.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {factors.map((factor) => {
            const name = factor.friendly_name || t(`mfa.types.${factor.factor_type}`);
            return (
              <Group key={factor.id} component="li" justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  {factor.factor_type === 'phone' ? (
                    <IconDeviceMobile size={20} aria-hidden />
                  ) : factor.factor_type === 'webauthn' ? (
                    <IconUsb size={20} aria-hidden />
                  ) : (
                    <IconShieldLock size={20} aria-hidden />
                  )}
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} truncate>
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {factor.phone ?? t(`mfa.types.${factor.factor_type}`)}
                    </Text>
                  </div>
                  <Badge
                    color={factor.status === 'verified' ? 'green' : 'gray'}
                    variant="light"
                    size="sm"
                  >
                    {t(`mfa.status.${factor.status}`)}
                  </Badge>
                </Group>
                <Button
                  variant="subtle"
                  color="red"
                  size="compact-sm"
                  style={{ flexShrink: 0 }}
                  aria-label={t('mfa.removeLabel', { name })}
                  onClick={() => void remove(factor)}
                  disabled={action.busy}
                >
                  {t('mfa.remove')}
                </Button>
              </Group>
            );
          })}
        </Stack>
      )}

      {enrolment?.kind === 'totp' ? (
        <form onSubmit={(event) => void verify(event)} noValidate>
          <Stack gap="md">
            <Text size="sm">{t('mfa.scan')}</Text>
            <Group align="flex-start" gap="lg">
              <Image
                src={enrolment.qrCode}
                alt={t('mfa.qrAlt')}
                w={176}
                h={176}
                bg="white"
                p={8}
                radius="md"
                style={{ border: '1px solid var(--mantine-color-gray-3)' }}
              />
              <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
                <Text size="sm" fw={500}>
                  {t('mfa.secret')}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                    {enrolment.secret}
                  </Code>
                  <CopyButton value={enrolment.secret}>
                    {({ copied, copy }) => (
                      <Button variant="default" size="compact-sm" onClick={copy}>
                        {copied ? t('mfa.copied') : t('mfa.copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                {codeField}
              </Stack>
            </Group>
            <ErrorAlert message={action.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={cancel}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={action.busy} disabled={!code}>
                {t('mfa.verify')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : enrolment?.kind === 'phone-code' ? (
        <form onSubmit={(event) => void verify(event)} noValidate>
          <Stack gap="md">
            <Notice>{t('mfa.smsSent', { phone: enrolment.phone })}</Notice>
            {codeField}
            <ErrorAlert message={action.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={cancel}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={action.busy} disabled={!code}>
                {t('mfa.verify')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : enrolment?.kind === 'phone-number' ? (
        <form onSubmit={(event) => void startPhone(event)} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('mfa.phone')}
              type="tel"
              autoComplete="tel"
              value={phone}
              onChange={(event) => setPhone(event.currentTarget.value)}
              maw={320}
            />
            <ErrorAlert message={action.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={cancel}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={action.busy} disabled={!phone.trim()}>
                {t('mfa.enrolPhone')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <>
          <ErrorAlert message={action.error} />
          <Group gap="sm">
            <Button
              leftSection={<IconShieldLock size={18} aria-hidden />}
              onClick={startTotp}
              loading={action.busy}
            >
              {t('mfa.enrolTotp')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconDeviceMobile size={18} aria-hidden />}
              onClick={() => {
                action.setError(null);
                setEnrolment({ kind: 'phone-number' });
              }}
            >
              {t('mfa.enrolPhone')}
            </Button>
            {browserSupportsWebAuthn() ? (
              <Button
                variant="default"
                leftSection={<IconUsb size={18} aria-hidden />}
                onClick={() => void addSecurityKey()}
                disabled={action.busy}
              >
                {t('mfa.enrolWebauthn')}
              </Button>
            ) : null}
          </Group>
        </>
      )}
    </Section>
  );
}
