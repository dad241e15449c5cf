/** "Ada Lovelace" → "AL", "ada@example.com" → "A": what shows when a camera is off. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : words.slice(0, 1);
  return letters.map((word) => word?.[0]?.toUpperCase() ?? '').join('') || '?';
}
