/**
 * The document's type notation ("Alpha, Numeric, Alphanumeric and Char", plus the dates, URL and Email of the
 * field tables), each turned once into the character rule that every derived artefact uses: the JSON Schemas,
 * the reference gateway's field check and the fuzz generators. Nothing else in the kit spells these patterns.
 */

export type TypeClass =
  | 'alpha'
  | 'numeric'
  | 'alphanumeric'
  | 'alphanumeric-underscore'
  | 'alphanumeric-hyphens'
  | 'alphanumeric-symbols'
  | 'numeric-symbols'
  | 'char'
  | 'date-month'
  | 'date'
  | 'timestamp'
  | 'url'
  | 'email'
  | 'text';

export interface TypeClassRule {
  /** The document's own words for the class. */
  readonly notation: string;
  /** A regular expression (source, anchored) that a whole value of the class matches. */
  readonly pattern: string;
  /** Characters that belong to the class: what generators draw from. Empty where the class is a format. */
  readonly alphabet: string;
  /** Characters outside the class that a fuzzer may inject. Empty where no character is outside. */
  readonly outsiders: string;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
/** Printable ASCII symbols; "incl. symbols" in the document admits them. */
const SYMBOLS = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export const TYPE_CLASSES: Readonly<Record<TypeClass, TypeClassRule>> = {
  alpha: { notation: 'Alpha', pattern: '^[A-Za-z]*$', alphabet: LETTERS, outsiders: '0 _-#9' },
  numeric: { notation: 'Numeric', pattern: '^[0-9]*$', alphabet: DIGITS, outsiders: 'A .,-+e' },
  // Plain "Alphanumeric" fields in the document include postcodes, which carry a space ("EC1A 1BB"), so the
  // space is admitted; symbols are not.
  alphanumeric: { notation: 'Alphanumeric', pattern: '^[A-Za-z0-9 ]*$', alphabet: LETTERS + DIGITS, outsiders: '#_<>;' },
  'alphanumeric-underscore': {
    notation: 'Alphanumeric incl. underscore',
    pattern: '^[A-Za-z0-9_]*$',
    alphabet: LETTERS + DIGITS + '_',
    outsiders: ' -#.<',
  },
  'alphanumeric-hyphens': {
    notation: 'Alphanumeric incl. hyphens',
    pattern: '^[A-Za-z0-9-]*$',
    alphabet: LETTERS + DIGITS + '-',
    outsiders: ' _#.<',
  },
  // Any printable character, but no control characters: symbols are allowed, line breaks in a reference are not.
  'alphanumeric-symbols': {
    notation: 'Alphanumeric incl. symbols',
    pattern: '^[^\\u0000-\\u001f\\u007f]*$',
    alphabet: LETTERS + DIGITS + SYMBOLS,
    outsiders: '\u0000\u0007\n',
  },
  'numeric-symbols': {
    notation: 'Numeric and symbols (digits 0-9, spaces, + - ( ))',
    pattern: '^[0-9 +()-]*$',
    alphabet: DIGITS + ' +-()',
    outsiders: 'A#.*',
  },
  char: { notation: 'Char', pattern: '^[\\s\\S]?$', alphabet: LETTERS, outsiders: '' },
  'date-month': { notation: 'Date MM/YYYY', pattern: '^(0[1-9]|1[0-2])/[0-9]{4}$', alphabet: '', outsiders: '' },
  date: {
    notation: 'Date YYYY-MM-DD',
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
    alphabet: '',
    outsiders: '',
  },
  timestamp: {
    notation: 'YYYY-MM-DD HH:MM:SS',
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$',
    alphabet: '',
    outsiders: '',
  },
  url: { notation: 'URL', pattern: '^https?://[^\\s]+$', alphabet: '', outsiders: '' },
  // "At most 64 characters before the @" is the document's one rule; the rest is the ordinary shape.
  email: { notation: 'Email', pattern: '^[^\\s@]{1,64}@[^\\s@]+\\.[^\\s@]+$', alphabet: '', outsiders: '' },
  text: { notation: 'Text, no defined form', pattern: '^[\\s\\S]*$', alphabet: LETTERS + DIGITS + SYMBOLS, outsiders: '' },
};

const compiled = new Map<TypeClass, RegExp>();

/** The compiled rule of a class, built once. */
export function classRegExp(type: TypeClass): RegExp {
  let re = compiled.get(type);
  if (!re) {
    re = new RegExp(TYPE_CLASSES[type].pattern, 'u');
    compiled.set(type, re);
  }
  return re;
}
