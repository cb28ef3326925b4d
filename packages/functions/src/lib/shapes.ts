/**
 * Response shapes several endpoint groups answer with, declared once each and registered as OpenAPI components
 * (`.meta({ id })`): the error body, list pages, times, and the core shapes of DESIGN §3 that more than one route
 * returns. A shape only one route answers stays beside that route in its group file.
 *
 * These describe what the service sends (an answer's output), so they are permissive where the service may add
 * fields (DESIGN §3: "extra fields are welcome") only through explicit optional fields: the test stacks check real
 * answers against them, so a renamed or retyped field fails CI.
 */
import { lazySchema } from '@mathisland/core';
import * as z from 'zod';
import { isoTime } from './http';

/**
 * A response shape built at its first read instead of when its module loads ({@link lazySchema}). Answers are not
 * validated at run time (the test stacks check them against the API description), so a Lambda never reads one and
 * its cold start builds none (issue 30 §5). The wrapper is transparent to the API description: zod-openapi renders
 * the built shape, with its `.meta({ id })` component. A shape built on another:
 * `responseShape(() => Plan.unwrap().extend({ ... }))`.
 */
export const responseShape: typeof lazySchema = lazySchema;

/** The error body of every failure (DESIGN §3). */
export const ErrorBody = z
  .object({
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .meta({ description: 'Stable snake_case error code', example: 'validation_error' }),
    detail: z.string().meta({ description: 'Human readable explanation', example: 'The request body is not valid' }),
    fields: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: 'Per field, what is wrong with it (`_` for the body as a whole)', example: { phone: ['Required'] } }),
  })
  .meta({ id: 'Error', description: 'Every error answer: `{ code, detail, fields? }` (DESIGN §3).' });

/** An ISO 8601 time the service wrote (`2026-11-20T08:00:00.000Z`). */
export const IsoTime = z
  .string()
  .meta({ id: 'IsoTime', format: 'date-time', description: 'ISO 8601 time, UTC', example: '2026-11-20T08:00:00.000Z' });

/** A Tehran day `YYYY-MM-DD` (Asia/Tehran). */
export const Day = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/)
  .meta({ id: 'TehranDay', description: 'A Tehran calendar day', example: '2026-11-20' });

/** A numeric id (ASCII decimal in paths). */
export const Id = z.number().int().positive();

/** Whole toman (money in every body; the gateway itself is sent rial). */
export const Toman = z.number().int().min(0).meta({ description: 'Whole toman' });

/** `nextCursor`: present only when there is more. */
const nextCursor = z.string().optional().meta({ description: 'Pass as `cursor` to read the next page; absent on the last page' });

/** A list answer `{ items, nextCursor? }` (DESIGN §3). */
export const page = <T extends z.ZodType>(item: T) => responseShape(() => z.object({ items: z.array(item), nextCursor }));

/** An admin list `{ items, nextCursor?, total? }` (DESIGN §9; `total` where the whole list is read). */
export const adminPage = <T extends z.ZodType>(item: T) =>
  responseShape(() =>
    z.object({
      items: z.array(item),
      nextCursor,
      total: z.number().int().min(0).optional().meta({ description: 'Items in the whole list' }),
    }),
  );

/** A plan as learners see it (DESIGN §3 core shape). */
export const Plan = responseShape(() =>
  z
    .object({
      id: Id,
      title: z.string(),
      price: Toman,
      durationDays: z.number().int().positive(),
      aiDailyQuota: z.number().int().min(0).meta({ description: 'Tutor questions per Tehran day while subscribed' }),
      features: z.array(z.string()),
      badge: z.string().nullable(),
      popular: z.boolean(),
    })
    .meta({ id: 'Plan' }),
);

/** The hearts of a learner (`nextHeartAt` null when full or not enforced). */
export const Hearts = responseShape(() =>
  z
    .object({
      hearts: z.number().int().min(0),
      maxHearts: z.number().int().positive(),
      enforced: z.boolean().meta({ description: 'Whether hearts limit answering (HEARTS_ENFORCED)' }),
      nextHeartAt: IsoTime.nullable().meta({ description: 'When the next heart comes back; null when full or not enforced' }),
    })
    .meta({ id: 'Hearts' }),
);

/** A learner's streak. */
export const Streak = responseShape(() =>
  z.object({ current: z.number().int().min(0), longest: z.number().int().min(0) }).meta({ id: 'Streak' }),
);

/** A learner's streak with its freezes, as the summary and the home screen show it (DESIGN §13). */
export const StreakWithFreezes = responseShape(() =>
  z
    .object({
      current: z.number().int().min(0),
      longest: z.number().int().min(0),
      today: z.boolean().meta({ description: 'Active today (Tehran)' }),
      freezes: z
        .number()
        .int()
        .min(0)
        .max(2)
        .meta({ description: 'Streak freezes held (each keeps the streak over one missed Tehran day)' }),
      freezesMax: z.literal(2).meta({ description: 'Freezes a learner can hold' }),
    })
    .meta({ id: 'StreakWithFreezes' }),
);

/** A question of the bank: never its answer (DESIGN §3). */
export const Question = responseShape(() =>
  z
    .object({
      id: Id,
      type: z.enum(['choice', 'number']),
      text: z.string(),
      choices: z
        .array(z.object({ id: z.string(), text: z.string() }))
        .optional()
        .meta({ description: 'Choice questions only; answer with the choice id' }),
    })
    .meta({ id: 'Question' }),
);

/** A staff member's identity (`POST /api/admin/login`, `GET /api/admin/me`). */
export const StaffIdentity = responseShape(() =>
  z.object({ username: z.string(), isSuperuser: z.boolean(), permissions: z.array(z.string()) }).meta({ id: 'StaffIdentity' }),
);

/** Order statuses (DESIGN §3). */
export const OrderStatus = z.enum(['pending', 'paid', 'failed', 'refunded', 'cancelled']).meta({ id: 'OrderStatus' });

/** A learner's subscription state (`GET /api/subscription/status`, and the marketplace verify's answer). */
export const SubscriptionStatus = responseShape(() =>
  z
    .object({
      status: z.enum(['active', 'expired', 'none']),
      active: z.boolean(),
      plan: z.object({ id: Id, title: z.string() }).nullable(),
      expiresAt: IsoTime.nullable(),
      source: z.enum(['gateway', 'marketplace']).nullable().meta({
        description:
          'What set `expiresAt`: a marketplace subscription’s period (and paid days held after it), or paid days (bought at the gateway, or as a marketplace in-app product)',
      }),
      marketplaceValidUntil: IsoTime.nullable().meta({
        description:
          'While a marketplace subscription runs: the end of its period as the marketplace says; `expiresAt` is later by the paid days held after it',
      }),
      aiDailyQuota: z.number().int().min(0).meta({ description: 'Tutor questions per Tehran day now (the plan’s, or the free quota)' }),
      freeAiDailyQuota: z.number().int().min(0),
      recheckedOrders: z.array(z.object({ orderId: Id, status: OrderStatus })).meta({
        description:
          'Orders this read settled, with their status now: unpaid orders re-checked with the gateway, checkouts never started that expired (failed) an hour after their purchase, and marketplace checkouts started but not verified that expired a day after their last start',
      }),
    })
    .meta({ id: 'SubscriptionStatus' }),
);

/** A subscription state (epoch ms times) as the API answers it: {@link SubscriptionStatus}, times ISO 8601. */
export const subscriptionAnswer = <T extends { expiresAt: number | null; marketplaceValidUntil: number | null }>(status: T) => ({
  ...status,
  expiresAt: isoTime(status.expiresAt),
  marketplaceValidUntil: isoTime(status.marketplaceValidUntil),
});
