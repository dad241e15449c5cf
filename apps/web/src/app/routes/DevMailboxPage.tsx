import { Container } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder.tsx';

export function Component() {
  return (
    <Container size="md" py={{ base: 40, sm: 64 }}>
      <ScreenPlaceholder i18nKey="devMailbox" icon={<IconMail aria-hidden />} />
    </Container>
  );
}
