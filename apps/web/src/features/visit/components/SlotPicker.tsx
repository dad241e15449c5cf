import { Button, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { SessionService, Slot } from '@upnext/contract/sessions';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { shortTime } from '../../../entities/session/format.ts';
import { useServiceSlots } from '../api/serviceSlots.ts';
import { useSessionServices } from '../api/sessionServices.ts';

interface SlotPickerProps {
  sessionId: string;
  busy: boolean;
  /** A free slot was chosen (booking it, or moving a booking there, is the caller's next step). */
  onPick: (service: SessionService, slot: Slot) => void;
  /** The slot a booking being moved holds now: shown, not offered. */
  currentSlot?: { serviceId: string; slotNo: number } | undefined;
}

/**
 * The services of a session and their free times; a full slot is shown but cannot be chosen,
 * one that has started is not shown.
 */
export function SlotPicker({ sessionId, busy, onPick, currentSlot }: SlotPickerProps) {
  const { t } = useTranslation('visit');
  const services = useSessionServices(sessionId);
  const [serviceId, setServiceId] = useState<string | null>(null);
  const first = services.data?.[0]?.id ?? null;
  useEffect(() => {
    if (!serviceId && first) setServiceId(first);
  }, [serviceId, first]);
  const slots = useServiceSlots(serviceId);
  const service = services.data?.find((candidate) => candidate.id === serviceId);
  // A slot that has started cannot be booked: it is not offered at all.
  const upcoming = slots.data?.filter((slot) => Date.parse(slot.startsAt) > Date.now());

  if (services.isPending) return <LoadingList rows={2} />;
  if (services.isError) {
    return <LoadError error={services.error} onRetry={() => void services.refetch()} />;
  }

  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <Title order={4}>{t('slots.choose')}</Title>
        {services.data.length > 1 ? (
          <Select
            label={t('slots.service')}
            data={services.data.map((s) => ({ value: s.id, label: s.serviceTypeName }))}
            value={serviceId}
            onChange={setServiceId}
            allowDeselect={false}
          />
        ) : services.data[0] ? (
          <Text size="sm">{services.data[0].serviceTypeName}</Text>
        ) : null}
        {slots.isPending && serviceId ? <LoadingList rows={1} /> : null}
        {slots.isError ? (
          <LoadError error={slots.error} onRetry={() => void slots.refetch()} />
        ) : null}
        {upcoming ? (
          upcoming.some((s) => s.bookable) ? (
            <SimpleGrid
              component="ul"
              cols={{ base: 2, xs: 3, sm: 4 }}
              spacing="xs"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
            >
              {upcoming.map((slot) => {
                const time = shortTime(slot.startTime);
                const held =
                  currentSlot?.serviceId === serviceId && currentSlot.slotNo === slot.slotNo;
                const free = slot.bookable && !held;
                return (
                  <li key={slot.slotNo}>
                    <Button
                      fullWidth
                      variant={held ? 'filled' : free ? 'light' : 'default'}
                      disabled={!free || busy}
                      aria-label={
                        held
                          ? t('slots.current', { time })
                          : free
                            ? t('slots.book', { time })
                            : t('slots.full', { time })
                      }
                      onClick={() => service && onPick(service, slot)}
                    >
                      {time}
                    </Button>
                  </li>
                );
              })}
            </SimpleGrid>
          ) : (
            <Text c="dimmed">{t('slots.empty')}</Text>
          )
        ) : null}
      </Stack>
    </Paper>
  );
}
