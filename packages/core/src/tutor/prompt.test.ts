import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../providers/ports';
import { buildMessages, type Grounding, REFUSAL_MARKER, systemPrompt } from './prompt';

const book: Grounding = { gradeId: 4, chunks: [{ title: 'Fractions', text: 'To add fractions...' }], tone: 'explain', context: 'book:4' };

describe('systemPrompt', () => {
  it('carries the scope rule with the refusal marker, the plain-text rule and the textbook', () => {
    const p = systemPrompt(book);
    expect(p).toContain('grade 4');
    expect(p).toContain(`answer with exactly ${REFUSAL_MARKER} and nothing else`);
    expect(p).toContain('word problems about anything');
    expect(p).toContain('No Markdown');
    expect(p).toContain('No LaTeX');
    expect(p).toContain('--- Fractions\nTo add fractions...');
    expect(p).not.toContain('Practice question');
  });

  it('gives a practice question with its answer and the last wrong answer, and asks to guide', () => {
    const p = systemPrompt({
      ...book,
      tone: 'guide',
      lesson: { id: 40161, title: 'Adding fractions', body: 'Same denominators...' },
      question: { id: 1, text: '3/8 + 2/8 = ?', choices: ['a) 5/8', 'b) 5/16'], correctAnswer: 'a) 5/8', lastWrongAnswer: 'b) 5/16' },
    });
    expect(p).toContain('Lesson: Adding fractions\nSame denominators...');
    expect(p).toContain('Practice question:\n3/8 + 2/8 = ?');
    expect(p).toContain('Correct answer: a) 5/8');
    expect(p).toContain("The child's last wrong answer: b) 5/16");
    expect(p).toContain('Do not state the final answer');
  });
});

describe('buildMessages', () => {
  it('sends the system message, the last 6 messages and the question', () => {
    const history: ChatMessage[] = Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    const messages = buildMessages(book, history, 'why?');
    expect(messages.map((m) => m.content).slice(1)).toEqual(['m2', 'm3', 'm4', 'm5', 'm6', 'm7', 'why?']);
    expect(messages[0]?.role).toBe('system');
  });
});
