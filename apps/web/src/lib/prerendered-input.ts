type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function isField(target: EventTarget | null): target is Field {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** What the server's markup put in the field. */
function markupValue(field: Field): string {
  if (field instanceof HTMLSelectElement) {
    return [...field.options].find((option) => option.defaultSelected)?.value ?? '';
  }
  return field.defaultValue;
}

/**
 * Keeps what a visitor types or chooses in a prerendered page (`prerender.ts`) before React
 * takes it over. React listens only once the page is hydrated, and hydration keeps each
 * controlled field's state at the markup's value (the field is put back at the next render): a
 * join code typed on a slow phone, or a language chosen, would be lost. Call before hydrating; call what it returns once the page is live: it
 * enters each kept value again as the visitor's own input, so the page's handlers see it.
 */
export function keepPrerenderedInput(root: HTMLElement): () => void {
  const kept = new Map<Field, string>();
  const keep = (event: Event) => {
    if (isField(event.target)) kept.set(event.target, event.target.value);
  };
  // Whatever came before this script ran…
  for (const field of root.querySelectorAll('input, textarea, select')) {
    if (isField(field) && field.value !== markupValue(field)) kept.set(field, field.value);
  }
  // …and while React hydrates.
  root.addEventListener('input', keep, true);
  root.addEventListener('change', keep, true);
  return () => {
    root.removeEventListener('input', keep, true);
    root.removeEventListener('change', keep, true);
    for (const [field, value] of kept) {
      // Even if the field still shows it: hydration took what it shows as already seen, and the
      // page's state still holds the markup's value.
      if (!field.isConnected) continue;
      // The markup's value through the element's own setter (React's value tracker notes it),
      // then the kept one through the prototype's: React sees the visitor's change.
      field.value = markupValue(field);
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(
        field,
        value,
      );
      const eventName = field instanceof HTMLSelectElement ? 'change' : 'input';
      field.dispatchEvent(new Event(eventName, { bubbles: true }));
    }
  };
}
