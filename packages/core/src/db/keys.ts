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
 *
 * `<board>` is `overall` or `week#<Saturday YYYY-MM-DD>` (leaderboard/board.ts).
 */
export interface Key {
  pk: string;
  sk: string;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

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
};
