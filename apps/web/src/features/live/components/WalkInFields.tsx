import { type MantineSize, TextInput } from '@mantine/core';
import { IntakeFields } from '../../../entities/token/IntakeFields.tsx';
import type { WalkInFormState } from '../hooks/useWalkInForm.ts';

/**
 * A walk-in's name, optional phone and the queue's questions: the desk's form and the
 * kiosk's, in their own words.
 */
export function WalkInFields({
  form: { form, intake },
  size,
  labels,
}: {
  form: Pick<WalkInFormState, 'form' | 'intake'>;
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
      {intake.questions.length > 0 ? <IntakeFields {...intake} size={size} /> : null}
    </>
  );
}
