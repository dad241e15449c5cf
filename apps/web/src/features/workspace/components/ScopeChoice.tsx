import { Radio, Stack } from '@mantine/core';
import type { SessionScope } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';

/** For a session of a series: change only this one, or this and the following ones. */
export function ScopeChoice({
  value,
  onChange,
}: {
  value: SessionScope;
  onChange: (scope: SessionScope) => void;
}) {
  const { t } = useTranslation('workspace');
  return (
    <Radio.Group
      label={t('sessions.scope.label')}
      value={value}
      onChange={(next) => onChange(next as SessionScope)}
    >
      <Stack gap="xs" mt="xs">
        <Radio value="this" label={t('sessions.scope.this')} />
        <Radio value="following" label={t('sessions.scope.following')} />
      </Stack>
    </Radio.Group>
  );
}
