import type { z } from 'zod';

/**
 * Run a contract schema over the body a form would send and turn its issues into Mantine form
 * errors. `fieldOf` maps a body path ("priceMinor", "recurrence.until") to the form field
 * that shows it; unmapped paths land on the field of the same name.
 */
export function contractErrors(
  schema: z.ZodType,
  body: unknown,
  fieldOf: Record<string, string> = {},
): Record<string, string> {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    const field = fieldOf[path] ?? (path || 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}
