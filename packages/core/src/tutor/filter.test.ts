import { describe, expect, it } from 'vitest';
import { classifyQuestion } from './filter';

const kind = (q: string) => classifyQuestion(q).kind;

describe('classifyQuestion', () => {
  it.each([
    'how do I add 3/4 and 1/8?',
    '۳/۴ و ۱/۸ را چطور جمع کنم؟',
    'مساحت مستطیلی به طول ۶ و عرض ۴ چقدر است؟',
    'what is 12 × 3',
    'hello',
    'سلام',
    'If a football team has 11 players, how many players do 3 teams have?',
    'در یک بازی ۳ نفر هر کدام ۴ امتیاز گرفتند. روی هم چند امتیاز؟',
    'This homework is killing me, how do I divide 12 by 4?',
    'یک مسیر ۳ کیلومتری را چند دقیقه می‌رویم؟',
    'in the forest (جنگل) there are 4 trees',
  ])('lets the model answer %j', (q) => {
    expect(kind(q)).toBe('ask');
  });

  it.each([
    'who is the best football player?',
    'Tell me about Messi',
    'what is your favourite video game',
    'can you recommend a movie',
    'فوتبال دوست داری؟',
    'بهترین بازیکن پرسپولیس کیه',
    'یک فیلم خوب معرفی کن',
    'ماین‌کرفت بازی می‌کنی؟',
    'مسی بهتره یا رونالدو',
    'يک جوک بگو',
  ])('refuses %j as off-topic', (q) => {
    expect(kind(q)).toBe('off_topic');
  });

  it.each([
    'I want to die',
    'i wanna die',
    'sometimes I think about suicide',
    'I want to hurt myself',
    'how do I kill myself',
    'I don’t want to live anymore',
    'می‌خوام بمیرم',
    'می خوام بمیرم',
    'ميخوام بميرم',
    'به خودکشی فکر می‌کنم',
    'دوست دارم خودمو بکشم',
    'میخوام رگمو بزنم',
    'I want to die, what is 3/4 + 1/8',
  ])('gives the help line for %j', (q) => {
    expect(kind(q)).toBe('self_harm');
  });
});
