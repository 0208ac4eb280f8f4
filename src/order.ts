/**
 * Text order for everything the kit sorts into a report or a listing: by UTF-16 code unit, the same on every machine.
 * `localeCompare` follows the machine's LANG (under da_DK "aa" sorts after "z"), so two machines would write the
 * same run's reports in different orders and a diff of reports would show changes that are not there.
 */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
