import { Container } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { ScreenPlaceholder } from '../components/ScreenPlaceholder.tsx';

export function Component() {
  return (
    <Container size="md" py={{ base: 40, sm: 64 }}>
      <ScreenPlaceholder i18nKey="join" icon={<IconQrcode aria-hidden />} />
    </Container>
  );
}
