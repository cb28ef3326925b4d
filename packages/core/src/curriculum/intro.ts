/**
 * The intro (onboarding) screens of the app, served without login by `GET /api/intro` (issue 3 §7).
 * Static content in Persian: what islands, stars and XP, hearts, the streak and the tutor are. The numbers
 * in it are read from the rules and settings, so the intro never disagrees with the service: the hearts from
 * `settings`, the XP of a right answer from the caller (`XP_PER_CORRECT` of progress, which the edge passes in:
 * progress reads the curriculum, so the curriculum does not import progress).
 */
import type { Settings } from '../config/settings';

export interface IntroSlide {
  id: string;
  title: string;
  text: string;
}

const fa = (n: number) => String(n).replace(/\d/g, (d) => '۰۱۲۳۴۵۶۷۸۹'.charAt(Number(d)));

/** The scoring numbers the intro quotes (progress/rules.ts). */
export interface IntroScoring {
  /** XP for one correctly answered question. */
  xpPerCorrect: number;
}

/** The intro slides in order; the hearts slide only while hearts are enforced (HEARTS_ENFORCED). */
export function introSlides(settings: Settings, scoring: IntroScoring): IntroSlide[] {
  const refillHours = Math.round(settings.hearts.refillSeconds / 3600);
  return [
    {
      id: 'islands',
      title: 'به سرزمین جزیره‌ها خوش آمدی!',
      text: 'هر جزیره یک درس ریاضی است. با تمام کردن هر جزیره، جزیرهٔ بعدی باز می‌شود.',
    },
    {
      id: 'stars',
      title: 'ستاره و امتیاز جمع کن',
      text: `برای هر پاسخ درست ${fa(scoring.xpPerCorrect)} امتیاز می‌گیری. هر چه درست‌تر جواب بدهی، ستاره‌های بیشتری (تا ${fa(3)} ستاره) به دست می‌آوری.`,
    },
    ...(settings.hearts.enforced
      ? [
          {
            id: 'hearts',
            title: 'مراقب قلب‌هایت باش',
            text: `${fa(settings.hearts.max)} قلب داری و هر پاسخ نادرست یک قلب کم می‌کند. هر ${fa(refillHours)} ساعت یک قلب برمی‌گردد.`,
          },
        ]
      : []),
    {
      id: 'streak',
      title: 'هر روز کمی تمرین کن',
      text: 'اگر هر روز دست‌کم یک درس را تمام کنی، زنجیرهٔ روزهای پشت‌سرهمت بلندتر می‌شود.',
    },
    {
      id: 'tutor',
      title: 'از «پای» بپرس',
      text: 'هر جا در ریاضی گیر کردی، از دستیار ریاضی بپرس تا قدم‌به‌قدم راهنمایی‌ات کند.',
    },
  ];
}
