/**
 * The prose of the OpenAPI document (DESIGN §3, §10): the conventions every route follows and the main flows (sign-in,
 * learning, purchase through the gateway and through the marketplace, the tutor's stream), the endpoint groups as tags,
 * and the three security schemes. The routes themselves are described beside their definitions.
 */
import { ADMIN_COOKIE } from '@mathisland/core/admin';
import type { EndpointGroup } from '../../../../infra/routes';

export const API_INTRO = `The backend of a children's math-learning app. Generated from the service's own route definitions and zod
schemas (the same ones that validate requests), so it lists exactly the routes the service serves.

## Conventions
- JSON bodies with camelCase fields; unknown body fields are refused (400 \`validation_error\`). Every \`/api/\` answer
  carries \`Cache-Control: private, no-store\`.
- Errors are always \`{ code, detail, fields? }\` (schema \`Error\`); each operation lists the codes it can answer.
  429 and 503 answers carry \`Retry-After\` (seconds).
- Lists are \`{ items, nextCursor? }\` (admin lists add \`total\` where the whole list is read): pass \`nextCursor\` back
  as \`cursor\`. Path ids are ASCII decimal (\`۱۲\` is 400 \`invalid_id\`). Money is whole toman; times are ISO 8601;
  days are Tehran days (Asia/Tehran).

## Auth
- Learners: \`POST /api/auth/otp/request\` \`{ phone }\` sends a code by SMS; \`POST /api/auth/login\` \`{ phone, otp }\` answers
  \`{ accessToken, refreshToken, isNewUser, expiresIn: 3600 }\`. Send \`Authorization: Bearer <accessToken>\`; renew it with
  \`POST /api/auth/refresh\` \`{ refreshToken }\`; \`POST /api/auth/logout\` ends the session.
- Staff: \`POST /api/admin/login\` sets the \`${ADMIN_COOKIE}\` cookie (HttpOnly, SameSite=Strict, \`Path=/api\`); each admin
  route names the permission it needs. Unsafe admin methods refuse a foreign \`Origin\`.
- Service to service: \`X-Internal-Key\` (the internal RAG ingest).

## Main flows
1. **Sign-in:** otp/request → the code arrives by SMS → login → Bearer token on every learner route; refresh hourly.
2. **Learning:** \`GET /api/home\` (the map) → \`GET /api/nodes/{id}/questions\` → \`POST /api/questions/{id}/answer\` per
   question (checked on the server; hearts) → \`POST /api/lessons/{id}/complete\` or \`POST /api/nodes/{id}/quiz/complete\`
   (stars, XP, next node).
3. **Purchase through the gateway:** \`GET /api/plans\` → \`POST /api/subscription/purchase\` \`{ planId, paymentMethod: 'gateway' }\`
   with an \`Idempotency-Key\` → open \`paymentUrl\` in a browser (302 to the gateway) → the gateway sends the browser to
   \`/api/payment/gateway/callback\`, verified server to server → 302 to the app with \`status=paid\` →
   \`GET /api/subscription/status\`.
4. **Purchase through the marketplace:** \`POST /api/subscription/purchase\` \`{ planId, paymentMethod: 'marketplace' }\` →
   \`POST /api/payment/marketplace/orders/{id}/start\` (SKU, developerPayload) → the marketplace app sells it → \`POST
   /api/payment/marketplace/verify\` \`{ orderId, purchaseToken, purchaseData, dataSignature }\` (what the marketplace
   handed the app) → the subscription status, until the marketplace's \`validUntil\`.
5. **Tutor:** \`POST /api/ai/ask\` \`{ userQuestion, lessonId?, questionId? }\` answers \`text/plain\`, streamed as the model
   writes it (read the body incrementally); \`X-Tutor-Outcome\` says what kind of answer it is and \`X-Message-Id\` is what
   \`POST /api/ai/feedback\` rates. Errors before the first byte are the usual JSON; a failure after it cuts the stream.
`;

export const GROUP_TAGS: Record<EndpointGroup, string> = {
  health: 'Liveness and, for the operators, details.',
  auth: 'Phone sign-in with one-time codes; access and refresh tokens.',
  curriculum: 'The public question bank and the intro screens (no sign-in, never an answer key).',
  learning: 'The map, answering questions, completing lessons and nodes.',
  user: 'The learner’s own hearts, summary, profile, weekly report and account deletion.',
  fallback: 'Unknown routes (404) and methods (405).',
  leaderboard: 'Weekly and overall XP rankings.',
  notifications: 'The learner’s notifications.',
  support: 'The learner’s support tickets.',
  billing: 'Plans, offers, purchases, subscription status, discounts, the referral program, invoices.',
  payment: 'The browser’s way through the web payment gateway.',
  marketplace: 'In-app purchases through the marketplace and its connection.',
  admin: 'Staff sign-in, dashboard, and the superuser-only staff, sessions and OTP records.',
  adminsales: 'Staff: learners, orders (cancel, refund), payment events.',
  admincatalog: 'Staff: plans, discount codes, offers.',
  adminsupport: 'Staff: tickets, notifications, the tutor’s feedback and usage.',
  tutor: 'The math tutor’s streamed answers (a Lambda function URL in RESPONSE_STREAM mode).',
  ai: 'The tutor’s history and feedback.',
  rag: 'Internal: the tutor’s textbook ingest.',
  docs: 'This document and its two viewers (staff with `view_apidocs`).',
  admintools: 'Staff: the history of every change, the dashboard’s charts, bulk actions, a learner’s related records.',
  adminexport:
    'Staff: the CSV export of every admin list, streamed (a Lambda function URL in RESPONSE_STREAM mode): every row the list’s filters select, ' +
    'read a page of 100 at a time (lib/exports.ts EXPORT_PAGE_SIZE) and written as it is read; UTF-8 with a byte order mark; one ISO and one Jalali (Tehran time) column per time; ' +
    "a text cell beginning with `= + - @`, a tab or a carriage return starts with `'`. The export is recorded in the staff history (action `export`). " +
    'Errors before the first byte are JSON; a failure after it cuts the stream.',
};

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'A learner’s accessToken from POST /api/auth/login or /api/auth/refresh (1 hour).',
  },
  adminSession: {
    type: 'apiKey',
    in: 'cookie',
    name: ADMIN_COOKIE,
    description: 'The admin session cookie set by POST /api/admin/login (HttpOnly, SameSite=Strict, Path=/api, 12 hours).',
  },
  internalKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Internal-Key',
    description: 'INTERNAL_SERVICE_KEY; closed when unset or in DEBUG mode.',
  },
} as const;
