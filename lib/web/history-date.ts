/**
 * "Jump to a date" on a history: the reader names a UTC day (YYYY-MM-DD, as a date input writes it) and the history
 * starts with that day's last transaction, i.e. below the next day's midnight.
 */
export interface HistoryDate {
  /** The day as written, YYYY-MM-DD. */
  day: string;
  /** Epoch ms of the next UTC midnight: the history shows transactions below it. */
  beforeTime: number;
}

/** The day named by `text`, or null when it is not a real calendar day in YYYY-MM-DD form. */
export function parseHistoryDate(text: string | undefined): HistoryDate | null {
  const match = text === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const start = Date.UTC(year, month - 1, day);
  const check = new Date(start);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { day: text!, beforeTime: Date.UTC(year, month - 1, day + 1) };
}
