/** `GET /api/offers` (spec "Ticket, offer, affiliate, discount code"): the advertised discount codes usable now. */
import type { Deps } from '../deps';
import { advertisedCodes } from './discountCode.entity';
import { usableNow } from './discounts';

export interface Offer {
  code: string;
  title: string;
  /** Whole percent off the list price. */
  percent: number;
  /** Epoch ms (exclusive), or null for no end. */
  validUntil: number | null;
  /** Plans it applies to, or null for every plan. */
  planIds: number[] | null;
}

/** Advertised codes that are active, in their window and not used up (gsi1 `OFFERS`, by code). */
export async function listOffers(deps: Deps): Promise<Offer[]> {
  const now = deps.clock.now();
  return (await advertisedCodes(deps.db))
    .filter((d) => usableNow(d, now))
    .map((d) => ({ code: d.code, title: d.title, percent: d.percent, validUntil: d.validUntil ?? null, planIds: d.planIds ?? null }));
}
