/**
 * The unit tests' global setup: the panel's modules import its view of the API (`.generated/`, made from the API
 * description by `generate.ts`), which a fresh checkout does not have yet; generated here when missing or stale.
 */
import { generate } from './generate';

export default async function setup() {
  await generate();
}
