import { type MantineSize, TextInput } from '@mantine/core';
import type { WalkInForm } from '../hooks/useWalkInForm.ts';

/** A walk-in's name and optional phone: the desk's form and the kiosk's, in their own words. */
export function WalkInFields({
  form,
  size,
  labels,
}: {
  form: WalkInForm;
  size?: MantineSize;
  labels: { name: string; phone: string; phoneHint: string };
}) {
  return (
    <>
      <TextInput
        size={size}
        label={labels.name}
        required
        autoComplete="off"
        maxLength={100}
        {...form.getInputProps('visitorName')}
      />
      <TextInput
        size={size}
        label={labels.phone}
        description={labels.phoneHint}
        type="tel"
        autoComplete="off"
        {...form.getInputProps('visitorPhone')}
      />
    </>
  );
}
