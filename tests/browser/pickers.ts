/** Driving the panel's date pickers from a test, as a staff member does with the keyboard. */
import type { Page } from 'playwright-core';

/**
 * Types `digits` into the date picker of form input `source` from its first section on, each section passing to the
 * next when full: in Persian (right to left) hour, minute, then the Jalali year, month and day.
 */
export async function typeInPicker(page: Page, source: string, digits: string): Promise<void> {
  await page.locator(`.ra-input-${source} [role="spinbutton"]`).first().click();
  await page.keyboard.type(digits, { delay: 30 });
}
