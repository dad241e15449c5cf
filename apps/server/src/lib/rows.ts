/** Timestamps leave the API as ISO strings (the contract's `timestampSchema`). */
export function iso(value: Date): string;
export function iso(value: Date | null): string | null;
export function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}
