/**
 * The language of a mail Tablo writes for a request: the first language of its Accept-Language
 * header (by weight) that the web app speaks. The web app sends its chosen language there on every
 * call, so an invite or a password reset mail reads as the screen it was asked from. English when
 * none fits.
 */
export const MAIL_LANGUAGES = ['en', 'zh_CN', 'fr', 'es', 'pt'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** The mail language of an Accept-Language header (`fr-CA,fr;q=0.9,en;q=0.8` -> `fr`). */
export function mailLanguageOf(header: string | null | undefined): MailLanguage {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    if (tag.startsWith('zh')) return 'zh_CN';
    const base = tag.split(/[-_]/)[0];
    const hit = MAIL_LANGUAGES.find((l) => l === base);
    if (hit) return hit;
  }
  return 'en';
}
