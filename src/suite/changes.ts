/**
 * The ways a scenario changes a value the document names exactly ("submitted in full and unmodified", the
 * credentials, a listed value): a value cut, with a surrounding space, in another letter case. One list, so that
 * every step that sends a changed value changes it the same way and says so in the same words.
 */
export const CHANGES = {
  'cut by its last character': (v: string): string => v.slice(0, -1),
  'with a leading space': (v: string): string => ` ${v}`,
  'with a trailing space': (v: string): string => `${v} `,
  'in another letter case': (v: string): string => [...v].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join(''),
} as const;

export type Change = keyof typeof CHANGES;

/** The value changed as named; undefined when the change leaves it as it was (no letter to change the case of). */
export function changed(value: string, change: string): string | undefined {
  const fn = (CHANGES as Record<string, ((v: string) => string) | undefined>)[change];
  if (!fn) throw new Error(`unknown change "${change}" (known: ${Object.keys(CHANGES).join(', ')})`);
  const out = fn(value);
  return out === value ? undefined : out;
}
