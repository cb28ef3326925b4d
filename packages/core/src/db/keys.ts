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
 */
export interface Key {
  pk: string;
  sk: string;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

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
  attempt: (userId: number, attemptId: string): Key => ({ pk: `USER#${userId}`, sk: `ATTEMPT#${attemptId}` }),
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
};
