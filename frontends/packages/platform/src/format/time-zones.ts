/**
 * IANA zones renamed since ICU took its ids. Browsers (Chromium's
 * `Intl.supportedValuesOf('timeZone')` and `resolvedOptions().timeZone`)
 * and Shopify still hand out some old names, which read as wrong to the
 * people who live there ("Europe/Kiev"). Old names are accepted wherever a
 * zone comes in, and only the current name is stored and shown. The Go
 * services keep the same table (services/categories/internal/domain).
 */
const RENAMED: Readonly<Record<string, string>> = {
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Dacca': 'Asia/Dhaka',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Thimbu': 'Asia/Thimphu',
  'Asia/Ujung_Pandang': 'Asia/Makassar',
  'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Europe/Uzhgorod': 'Europe/Kyiv',
  'Europe/Zaporozhye': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/** A zone's current IANA name ("Asia/Calcutta" → "Asia/Kolkata"); other names, and offsets like "-05:00", as given. */
export function canonicalTimeZone(name: string): string;
export function canonicalTimeZone(name: string | undefined): string | undefined;
export function canonicalTimeZone(name: string | undefined): string | undefined {
  if (!name) return name;
  return RENAMED[name] ?? name;
}

/** Every zone the browser knows, by current name, once each, sorted; `current` is kept in the list. */
export function timeZoneChoices(current = ''): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set(known.map((zone) => canonicalTimeZone(zone)));
  if (current) names.add(canonicalTimeZone(current));
  return [...names].sort();
}
