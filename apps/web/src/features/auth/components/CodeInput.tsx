import { TextInput, type TextInputProps } from '@mantine/core';

/** A one-time code field: digits only, offered by the phone keyboard and by autofill. */
export function CodeInput(props: Omit<TextInputProps, 'type'>) {
  return (
    <TextInput
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={10}
      {...props}
      onChange={(event) => {
        event.currentTarget.value = event.currentTarget.value.replace(/\D/g, '');
        props.onChange?.(event);
      }}
    />
  );
}
