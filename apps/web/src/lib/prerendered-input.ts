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
 * listens to it: until `hydrateRoot`, nothing hears the page's fields, and hydration keeps each
 * controlled field's state at the markup's value (the field is put back at the next render): a
 * join code typed on a slow phone, or a language chosen, would be lost. Once React listens, it
 * hears (and after hydrating, replays) what comes itself.
 */
export function keepPrerenderedInput(root: HTMLElement) {
  const kept = new Map<Field, string>();
  const keep = (event: Event) => {
    if (isField(event.target)) kept.set(event.target, event.target.value);
  };
  // Whatever came before this script ran…
  for (const field of root.querySelectorAll('input, textarea, select')) {
    if (isField(field) && field.value !== markupValue(field)) kept.set(field, field.value);
  }
  // …and until React listens.
  root.addEventListener('input', keep, true);
  root.addEventListener('change', keep, true);
  const stopListening = () => {
    root.removeEventListener('input', keep, true);
    root.removeEventListener('change', keep, true);
  };
  return {
    /** Call right before React listens (`hydrateRoot`). */
    stopListening,
    /** Once the page is live: enters each kept value again as the visitor's own input. */
    enter() {
      stopListening();
      for (const [field, value] of kept) {
        // Even if the field still shows it: hydration took what it shows as already seen, and
        // the page's state still holds the markup's value.
        if (!field.isConnected) continue;
        // The markup's value through the element's own setter (React's value tracker notes
        // it), then the kept one through the prototype's: React sees the visitor's change.
        field.value = markupValue(field);
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(
          field,
          value,
        );
        const eventName = field instanceof HTMLSelectElement ? 'change' : 'input';
        field.dispatchEvent(new Event(eventName, { bubbles: true }));
      }
      kept.clear();
    },
  };
}
