import { Container } from '@mantine/core';
import { useParams } from 'react-router';
import { VisitByLink } from '../../features/visit/components/VisitByLink.tsx';

/** `/visit/{key}`: a token's status link, for its holder, signed in or not. */
export function Component() {
  const { key = '' } = useParams<'key'>();
  return (
    <Container size="sm" py={{ base: 24, sm: 48 }}>
      <VisitByLink linkKey={key} />
    </Container>
  );
}
