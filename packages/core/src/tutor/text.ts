/**
 * Text normalization shared by the tutor's pre-filter, cache key and retrieval (issue 5 §3, §4, §6).
 *
 * Children write Persian with Arabic letter forms (ي, ك), Persian or Arabic-Indic digits, zero-width
 * non-joiners (ZWNJ, U+200C) and diacritics in every combination; all of that folds to one form here.
 */

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';

/** Persian (U+06F0..) and Arabic-Indic (U+0660..) digits → ASCII digits; `٫` (Arabic decimal separator) → `.`. */
export function asciiDigits(text: string): string {
  return text.replace(/[۰-۹٠-٩٫]/g, (c) => {
    if (c === '٫') return '.';
    const p = PERSIAN_DIGITS.indexOf(c);
    return String(p >= 0 ? p : ARABIC_DIGITS.indexOf(c));
  });
}

/**
 * The folded form used for matching: NFKC, lower case, ASCII digits, Arabic ي/ى → ی and ك → ک, ة → ه,
 * diacritics and tatweel removed, ZWNJ/ZWJ → space, runs of whitespace → one space, trimmed.
 */
export function fold(text: string): string {
  return asciiDigits(text.normalize('NFKC'))
    .toLowerCase()
    .replace(/[يى]/g, 'ی')
    .replace(/ك/g, 'ک')
    .replace(/ة/g, 'ه')
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '')
    .replace(/[\u200C\u200D]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** {@link fold} without any spaces, so `می خوام`, `می‌خوام` and `میخوام` compare equal. */
export const squash = (text: string): string => fold(text).replace(/ /g, '');

/** Whether the text is mostly Persian/Arabic script (more Arabic-script letters than Latin letters). */
export function isPersian(text: string): boolean {
  const arabic = (text.match(/[\u0600-\u06FF]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  return arabic > latin;
}
