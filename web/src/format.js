// Numbers with units and times in the viewer's own time zone.
const timeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});
const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function formatTime(text) {
  if (!text) return '—';
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : timeFormat.format(date);
}

export function formatAge(text, now = Date.now()) {
  if (!text) return '—';
  const seconds = Math.max(0, Math.round((now - new Date(text).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${number.format(seconds / 3600)} h`;
  return `${number.format(seconds / 86400)} d`;
}

// How far ahead a time is, in words: "in about 58 min", "in about 2.5 h";
// "any moment now" when it is due or past.
export function formatIn(text, now = Date.now()) {
  const seconds = Math.round((new Date(text).getTime() - now) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'any moment now';
  if (seconds < 3600) return `in about ${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `in about ${number.format(seconds / 3600)} h`;
  return `in about ${number.format(seconds / 86400)} days`;
}

export function gpus(value) {
  const n = Number(value) || 0;
  return `${number.format(n)} GPU${n === 1 ? '' : 's'}`;
}

const precise = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });

export function hours(value, unit = 'GPU-h') {
  const n = Number(value) || 0;
  return `${(Math.abs(n) < 10 ? precise : number).format(n)} ${unit}`;
}

export function count(value) {
  return number.format(Number(value) || 0);
}

// A quantity of the API ("8", "1Ti", "500m") as a number of its base unit.
export function quantity(text) {
  if (text === undefined || text === null) return 0;
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(String(text));
  if (!match) return Number(text) || 0;
  const factors = { '': 1, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  return Number(match[1]) * (factors[match[2]] ?? 1);
}

// An amount of money in the report's or budget's currency ("12.40 USD").
export function money(value, currency) {
  const n = Number(value) || 0;
  const digits = Math.abs(n) < 1 ? { maximumSignificantDigits: 3 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return `${new Intl.NumberFormat(undefined, digits).format(n)}${currency ? ` ${currency}` : ''}`;
}

export function percent(fraction) {
  return `${number.format((Number(fraction) || 0) * 100)} %`;
}
