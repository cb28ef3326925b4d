/**
 * Every item key of the single table, declared once (DESIGN §2, §5). Queries live beside their entity in
 * the domain folders; they build keys only through this module.
 *
 * | entity              | pk                         | sk                         | notes                          |
 * |---------------------|----------------------------|----------------------------|--------------------------------|
 * | user                | USER#<userId>              | PROFILE                    | hearts, xp, stars, session id  |
 * | phone → user        | PHONE#<phone>              | PHONE                      | unique constraint, exact phone |
 * | publicId → user     | PUBLICID#<publicId>        | PUBLICID                   | unique constraint              |
 * | one-time code       | OTP#<phone>                | OTP                        | hashed code, TTL               |
 * | refresh session     | SESSION#<sha256(token)>    | SESSION                    | TTL                            |
 * | node progress       | USER#<userId>              | NODE#<nodeId>              |                                |
 * | lesson completion   | USER#<userId>              | LESSON#<lessonId>          |                                |
 * | latest answer       | USER#<userId>              | ANSWER#<nodeId>#<questionId> | one per question             |
 * | answer attempt      | USER#<userId>              | ATTEMPT#<attemptId>        | replay of a retried answer, TTL |
 * | daily activity      | USER#<userId>              | DAY#<YYYY-MM-DD Tehran>    | counters of one Tehran day, TTL |
 * | content             | CONTENT#<gradeId>          | <kind>#<id>                | GRADE, UNIT, NODE, LESSON, QUESTION |
 * | content index       | CONTENT                    | GRADE#<gradeId>            | list of grades                 |
 * | throttle window     | THROTTLE#<scope>#<subject> | <windowStart>              | TTL                            |
 * | id counter          | COUNTER                    | <name>                     | atomic ADD                     |
 * | applied migration   | MIGRATION                  | <migrationId>              |                                |
 * | leaderboard entry   | USER#<userId>              | BOARD#<board>              | gsi1: BOARD#<board> / rank key |
 * | XP histogram bucket | BOARDXP#<board>            | <xp, 10 digits>            | learners at exactly that XP    |
 * | notification        | USER#<userId>              | NOTIF#<notificationId>     | TTL                            |
 * | support ticket      | USER#<userId>              | TICKET#<ticketId>          | gsi1: TICKETS / updatedAt      |
 * | ticket message      | USER#<userId>              | TICKET#<ticketId>#MSG#<at>#<n> |                            |
 * | plan                | PLAN                       | PLAN#<planId>              | one partition: the few plans   |
 * | marketplace SKU     | SKU#<sku>                  | SKU                        | unique constraint → planId     |
 * | order               | ORDER#<orderId>            | ORDER                      | gsi1 USERORDERS#<userId> / ORDER#<id>; gsi2 ORDERS / <createdAt ms>#<id> (admin list) |
 * | payment event       | ORDER#<orderId>            | EVENT#<at ms>#<seq>#<rand> | audit row of one purchase step |
 * | unmatched event     | PAYEVENT#UNMATCHED#<YYYY-MM-DD> | <at ms>#<seq>#<rand>  | callback of an unknown authority, TTL |
 * | gateway authority   | AUTHORITY#<authority>      | AUTHORITY                  | unique constraint → orderId    |
 * | purchase key        | USER#<userId>              | IDEMPOTENCY#purchase#<key> | Idempotency-Key → orderId + request |
 * | discount code       | DISCOUNT#<CODE>            | DISCOUNT                   | gsi1 OFFERS / <CODE> when advertised |
 * | discount redemption | DISCOUNT#<CODE>            | REDEMPTION#<orderId>       | one per order                  |
 * | discount uses of a user | DISCOUNT#<CODE>        | USER#<userId>              | per-user limit counter         |
 * | referral code       | REFCODE#<code>             | REFCODE                    | unique constraint → userId     |
 * | invitee             | USER#<referrerId>          | INVITEE#<inviteeId>        | bound by POST /api/affiliate/referrer |
 * | commission          | USER#<referrerId>          | COMMISSION#<orderId>       | earned on a first real payment; reversedAt on refund |
 * | staff member        | STAFF#<username>           | STAFF                      | admin user, scrypt password hash |
 * | staff session       | STAFFSESSION#<sha256(token)> | STAFFSESSION             | admin cookie session, TTL      |
 * | last wrong answer   | USER#<userId>              | WRONG#<questionId>         | the tutor's questionId grounding |
 * | tutor quota         | USER#<userId>              | AIQUOTA#<YYYY-MM-DD Tehran> | used/limit, tokens; TTL       |
 * | tutor message       | USER#<userId>              | AIMSG#<epochMs13>#<hex8>   | gsi1: AICONV#<userId>#<context> / <epochMs13> |
 * | tutor answer cache  | AICACHE#<sha256>           | AICACHE                    | TTL                            |
 * | tutor daily usage   | AIUSAGE#<YYYY-MM-DD Tehran> | AIUSAGE                   | tokens and answers of all users |
 * | textbook document   | RAGDOC#<docId>             | RAGDOC                     | grade, lesson, title, chunk count |
 * | textbook chunk      | RAG#<gradeId>              | CHUNK#<docId>#<n>          | text + embedding vector (binary) |
 *
 * `<board>` is `overall` or `week#<Saturday YYYY-MM-DD>` (leaderboard/board.ts).
 */
export interface Key {
  pk: string;
  sk: string;
}

/** `n` as a fixed-width decimal string, so numeric ids sort as strings in a sort key. */
export const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The partition of a learner's own items (user item, progress, notifications, tickets, ...): `USER#<userId>`. */
export const userPartition = (userId: number): string => `USER#${userId}`;

/** Upper bound of XP a rank key can hold (10 digits). */
export const MAX_XP = 9_999_999_999;

export const keys = {
  user: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userPartition: (userId: number): string => `USER#${userId}`,
  phone: (phone: string): Key => ({ pk: `PHONE#${phone}`, sk: 'PHONE' }),
  publicId: (publicId: string): Key => ({ pk: `PUBLICID#${publicId}`, sk: 'PUBLICID' }),
  otp: (phone: string): Key => ({ pk: `OTP#${phone}`, sk: 'OTP' }),
  session: (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),

  nodeProgress: (userId: number, nodeId: number): Key => ({ pk: `USER#${userId}`, sk: `NODE#${pad(nodeId, 8)}` }),
  nodeProgressPrefix: 'NODE#',
  lessonCompletion: (userId: number, lessonId: number): Key => ({ pk: `USER#${userId}`, sk: `LESSON#${pad(lessonId, 8)}` }),
  lessonCompletionPrefix: 'LESSON#',
  answer: (userId: number, nodeId: number, questionId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `ANSWER#${pad(nodeId, 8)}#${pad(questionId, 10)}`,
  }),
  answerPrefix: (nodeId: number): string => `ANSWER#${pad(nodeId, 8)}#`,
  allAnswersPrefix: 'ANSWER#',
  attempt: (userId: number, attemptId: string): Key => ({ pk: `USER#${userId}`, sk: `ATTEMPT#${attemptId}` }),
  attemptPrefix: 'ATTEMPT#',
  dayActivity: (userId: number, day: string): Key => ({ pk: `USER#${userId}`, sk: `DAY#${day}` }),
  dayActivityPrefix: 'DAY#',

  contentIndex: (gradeId: number): Key => ({ pk: 'CONTENT', sk: `GRADE#${pad(gradeId, 4)}` }),
  contentIndexPartition: 'CONTENT',
  contentPartition: (gradeId: number): string => `CONTENT#${pad(gradeId, 4)}`,
  content: (gradeId: number, kind: 'GRADE' | 'UNIT' | 'NODE' | 'LESSON' | 'QUESTION', id: number): Key => ({
    pk: `CONTENT#${pad(gradeId, 4)}`,
    sk: `${kind}#${pad(id, 10)}`,
  }),

  throttle: (scope: string, subject: string, windowStart: number): Key => ({
    pk: `THROTTLE#${scope}#${subject}`,
    sk: String(windowStart),
  }),
  counter: (name: string): Key => ({ pk: 'COUNTER', sk: name }),
  migration: (id: string): Key => ({ pk: 'MIGRATION', sk: id }),
  migrationPartition: 'MIGRATION',

  boardEntry: (userId: number, board: string): Key => ({ pk: `USER#${userId}`, sk: `BOARD#${board}` }),
  boardEntryPrefix: 'BOARD#',
  boardIndexPartition: (board: string): string => `BOARD#${board}`,
  /**
   * Rank key of a leaderboard entry in gsi1: XP descending (stored as 9999999999 - xp), then the time the XP
   * was reached ascending (ties break by who reached the score first), then the user id.
   */
  boardRankKey: (xp: number, reachedAt: number, userId: number): string =>
    `${pad(MAX_XP - xp, 10)}#${pad(reachedAt, 13)}#${pad(userId, 10)}`,
  /** The smallest rank key of any entry with exactly `xp`. */
  boardRankKeyFloor: (xp: number): string => `${pad(MAX_XP - xp, 10)}#`,
  boardHistogramPartition: (board: string): string => `BOARDXP#${board}`,
  boardHistogram: (board: string, xp: number): Key => ({ pk: `BOARDXP#${board}`, sk: pad(xp, 10) }),

  notification: (userId: number, notificationId: number): Key => ({ pk: `USER#${userId}`, sk: `NOTIF#${pad(notificationId, 12)}` }),
  notificationPrefix: 'NOTIF#',

  ticket: (userId: number, ticketId: number): Key => ({ pk: `USER#${userId}`, sk: `TICKET#${pad(ticketId, 10)}` }),
  ticketPrefix: 'TICKET#',
  /** Sorts after its ticket, in time order; `n` breaks ties within one millisecond. */
  ticketMessage: (userId: number, ticketId: number, atMs: number, n: string): Key => ({
    pk: `USER#${userId}`,
    sk: `TICKET#${pad(ticketId, 10)}#MSG#${pad(atMs, 13)}#${n}`,
  }),
  ticketIndexPartition: 'TICKETS',

  plan: (planId: number): Key => ({ pk: 'PLAN', sk: `PLAN#${pad(planId, 6)}` }),
  planPartition: 'PLAN',
  marketplaceSku: (sku: string): Key => ({ pk: `SKU#${sku}`, sk: 'SKU' }),
  order: (orderId: number): Key => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  /** gsi1 of an order: the user's orders by id. */
  userOrders: (userId: number, orderId: number) => ({ gsi1pk: `USERORDERS#${userId}`, gsi1sk: `ORDER#${pad(orderId, 12)}` }),
  userOrdersPartition: (userId: number): string => `USERORDERS#${userId}`,
  /** gsi2 of an order: every order by creation time (the admin list). */
  allOrders: (createdAtMs: number, orderId: number) => ({ gsi2pk: 'ORDERS', gsi2sk: `${pad(createdAtMs, 15)}#${pad(orderId, 12)}` }),
  allOrdersPartition: 'ORDERS',
  paymentEvent: (orderId: number, atMs: number, seq: number, rand: string): Key => ({
    pk: `ORDER#${orderId}`,
    sk: `EVENT#${pad(atMs, 15)}#${pad(seq, 2)}#${rand}`,
  }),
  paymentEventPrefix: 'EVENT#',
  unmatchedPaymentEvent: (day: string, atMs: number, seq: number, rand: string): Key => ({
    pk: `PAYEVENT#UNMATCHED#${day}`,
    sk: `${pad(atMs, 15)}#${pad(seq, 2)}#${rand}`,
  }),
  unmatchedPaymentEventPartition: (day: string): string => `PAYEVENT#UNMATCHED#${day}`,
  gatewayAuthority: (authority: string): Key => ({ pk: `AUTHORITY#${authority}`, sk: 'AUTHORITY' }),
  purchaseKey: (userId: number, idempotencyKey: string): Key => ({ pk: `USER#${userId}`, sk: `IDEMPOTENCY#purchase#${idempotencyKey}` }),
  discount: (code: string): Key => ({ pk: `DISCOUNT#${code}`, sk: 'DISCOUNT' }),
  /** gsi1 of an advertised discount code (an offer). */
  offer: (code: string) => ({ gsi1pk: 'OFFERS', gsi1sk: code }),
  offersPartition: 'OFFERS',
  discountRedemption: (code: string, orderId: number): Key => ({ pk: `DISCOUNT#${code}`, sk: `REDEMPTION#${pad(orderId, 12)}` }),
  discountUserUses: (code: string, userId: number): Key => ({ pk: `DISCOUNT#${code}`, sk: `USER#${userId}` }),
  referralCode: (code: string): Key => ({ pk: `REFCODE#${code}`, sk: 'REFCODE' }),
  invitee: (referrerId: number, inviteeId: number): Key => ({ pk: `USER#${referrerId}`, sk: `INVITEE#${pad(inviteeId, 12)}` }),
  inviteePrefix: 'INVITEE#',
  commission: (referrerId: number, orderId: number): Key => ({ pk: `USER#${referrerId}`, sk: `COMMISSION#${pad(orderId, 12)}` }),
  commissionPrefix: 'COMMISSION#',
  staff: (username: string): Key => ({ pk: `STAFF#${username}`, sk: 'STAFF' }),
  staffSession: (tokenHash: string): Key => ({ pk: `STAFFSESSION#${tokenHash}`, sk: 'STAFFSESSION' }),

  wrongAnswer: (userId: number, questionId: number): Key => ({ pk: `USER#${userId}`, sk: `WRONG#${pad(questionId, 10)}` }),
  wrongAnswerPrefix: 'WRONG#',
  aiQuota: (userId: number, day: string): Key => ({ pk: `USER#${userId}`, sk: `AIQUOTA#${day}` }),
  aiQuotaPrefix: 'AIQUOTA#',
  /** A tutor message; `messageId` is `<epochMs 13 digits>-<8 hex>` (see tutor/conversation.ts). */
  aiMessage: (userId: number, messageId: string): Key => ({ pk: `USER#${userId}`, sk: `AIMSG#${messageId.replace('-', '#')}` }),
  aiMessagePrefix: 'AIMSG#',
  /** gsi1 partition of one conversation: a learner's messages about one context (book, lesson or question). */
  aiConversation: (userId: number, context: string): string => `AICONV#${userId}#${context}`,
  aiCache: (hash: string): Key => ({ pk: `AICACHE#${hash}`, sk: 'AICACHE' }),
  aiUsage: (day: string): Key => ({ pk: `AIUSAGE#${day}`, sk: 'AIUSAGE' }),
  ragDocument: (docId: number): Key => ({ pk: `RAGDOC#${docId}`, sk: 'RAGDOC' }),
  ragPartition: (gradeId: number): string => `RAG#${pad(gradeId, 4)}`,
  ragChunk: (gradeId: number, docId: number, n: number): Key => ({
    pk: `RAG#${pad(gradeId, 4)}`,
    sk: `CHUNK#${pad(docId, 10)}#${pad(n, 4)}`,
  }),
  ragChunkPrefix: 'CHUNK#',
};
