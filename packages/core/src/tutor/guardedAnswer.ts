/**
 * The answer stream of a session with what the service adds to the model's text (issue 16 §3, §4): the prelude
 * (the privacy note when personal data was removed from the request, and whether the learner's attempt at the
 * practice question was right) sent before the model's first text, and the answer guard (`answerGuard.ts`) that
 * masks the practice question's answer in everything sent, prelude included.
 *
 * Wraps an `answerStream.ts` stream and keeps its contract: `push`/`end`/`cut` return the text to send now, `refused`
 * tells that the refusal marker arrived (then the prelude is left out when nothing was sent yet, so a refusal is
 * the fixed refusal text alone), `sent` is everything sent.
 */
import { createAnswerGuard } from './answerGuard';
import type { AnswerStream } from './answerStream';
import type { ReplyShape } from './session';

/** `inner` with the prelude and the answer guard of `reply` (see the module doc). */
export function guardedAnswer(inner: AnswerStream, reply: ReplyShape): AnswerStream {
  const guard = reply.answerKey ? createAnswerGuard(reply.answerKey, reply.persian) : undefined;
  let prelude = reply.prelude ? `${reply.prelude}\n\n` : '';
  let sent = '';
  const out = (text: string, final: boolean) => {
    let piece = text;
    if (prelude && piece && !inner.refused) {
      piece = prelude + piece;
      prelude = '';
    }
    const guarded = guard ? guard.push(piece) + (final || inner.refused ? guard.end() : '') : piece;
    sent += guarded;
    return guarded;
  };
  return {
    push(delta) {
      if (inner.refused || inner.cutShort) return '';
      return out(inner.push(delta), false);
    },
    end() {
      if (inner.refused || inner.cutShort) return '';
      return out(inner.end(), true);
    },
    cut(closing) {
      if (inner.refused || inner.cutShort) return '';
      return out(inner.cut(closing), true);
    },
    get refused() {
      return inner.refused;
    },
    get cutShort() {
      return inner.cutShort;
    },
    get sent() {
      return sent;
    },
  };
}
