/**
 * The panel's labels, `[Persian, English]`: react-admin's words this panel words differently and its own screens
 * (`app`); the API's enums are in choices.ts. A refusal naming a permission
 * (`app.errors.permission_denied.<permission>`) is made for every permission of the API description in `index.ts`.
 */
import type { Bilingual } from './bilingual';

export const panel = {
  ra: {
    navigation: {
      partial_page_range_info: [
        '%{offsetBegin} تا %{offsetEnd} از بیش از %{offsetEnd}',
        '%{offsetBegin}-%{offsetEnd} of more than %{offsetEnd}',
      ],
      page_range_info: ['%{offsetBegin} تا %{offsetEnd} از %{total}', '%{offsetBegin}-%{offsetEnd} of %{total}'],
    },
    locales: {
      fa: ['فارسی', 'فارسی'],
      en: ['English', 'English'],
    },
    validation: {
      error: ['فرم خطا دارد', 'The form has errors'],
    },
    page: {
      dashboard: ['پیشخوان', 'Dashboard'],
    },
    auth: {
      sign_in_error: ['نام کاربری یا گذرواژه درست نیست', 'Wrong username or password'],
    },
  },
  app: {
    title: ['پنل کارکنان mathisland', 'mathisland staff panel'],
    toman: ['تومان', 'toman'],
    yes: ['بله', 'Yes'],
    no: ['خیر', 'No'],
    none: ['—', '—'],
    days: ['%{days} روز', '%{days} day |||| %{days} days'],
    unavailable: ['در دسترس نیست', 'unavailable'],
    not_deletable: ['حذف‌نشدنی', 'Cannot be deleted'],
    permission_missing: ['برای این کار مجوز «%{permission}» لازم است.', 'This needs the “%{permission}” permission.'],
    superuser_only: ['فقط مدیر کل به این بخش دسترسی دارد.', 'Only a superuser may use this part.'],
    menu: {
      dashboard: ['پیشخوان', 'Dashboard'],
      marketplace: ['اتصال فروشگاه', 'Marketplace connection'],
      apidocs: ['مستندات API', 'API docs'],
    },
    errors: {
      sku_taken: ['این شناسهٔ کالا را طرح دیگری دارد', 'Another plan has this SKU'],
      code_taken: ['این کد تخفیف از قبل هست', 'This discount code exists already'],
      username_taken: ['این نام کاربری گرفته شده است', 'This username is taken'],
      plan_has_orders: [
        'این طرح سفارش دارد و حذف نمی‌شود؛ به‌جای حذف، آن را از فروش خارج کنید.',
        'This plan has orders and cannot be deleted; take it off sale instead.',
      ],
      discount_code_used: [
        'این کد استفاده شده و حذف نمی‌شود؛ به‌جای حذف، غیرفعالش کنید.',
        'This code was used and cannot be deleted; deactivate it instead.',
      ],
      database_busy: [
        'سرور الان سرش شلوغ است؛ چند ثانیه دیگر دوباره امتحان کنید.',
        'The server is busy right now; try again in a few seconds.',
      ],
      throttled: [
        'درخواست‌ها در زمان کوتاه زیاد شد؛ کمی صبر کنید و دوباره امتحان کنید.',
        'Too many requests in a short time; wait a little and try again.',
      ],
      server_error: [
        'سرور پاسخ نداد؛ دوباره امتحان کنید و اگر باز هم نشد به برنامه‌نویس‌ها خبر دهید.',
        'The server failed to answer; try again, and if it keeps failing tell the developers.',
      ],
    },
    dashboard: {
      title: ['پیشخوان', 'Dashboard'],
      today: ['امروز، %{day}', 'Today, %{day}'],
      signIns: ['ورودهای امروز', 'Sign-ins today'],
      newUsers: ['کاربران تازه', 'New users'],
      orders: ['سفارش‌های امروز', 'Orders today'],
      paidOrders: ['سفارش‌های پرداخت‌شده', 'Paid orders'],
      revenue: ['درآمد امروز', 'Revenue today'],
      unavailable: ['آمار امروز از سرور نیامد: %{error}', 'Today’s figures did not come: %{error}'],
      welcome: ['خوش آمدید، %{name}', 'Welcome, %{name}'],
    },
    orders: {
      refund: ['بازپرداخت', 'Refund'],
      cancel: ['لغو سفارش', 'Cancel order'],
      cancel_confirm_title: ['لغو سفارش #%{id}', 'Cancel order #%{id}'],
      cancel_confirm: [
        'این سفارش در انتظار پرداخت لغو شود؟ اگر خریدار بعداً پرداخت کند، باز هم پرداخت‌شده می‌شود.',
        'Cancel this pending order? Should the buyer pay later after all, it becomes paid.',
      ],
      cancelled: ['سفارش لغو شد', 'Order cancelled'],
      events: ['رویدادهای پرداخت', 'Payment events'],
      user_orders: ['سفارش‌های این کاربر', 'This user’s orders'],
      marketplace: {
        title: ['خرید در فروشگاه', 'Marketplace purchase'],
        token: ['توکن خرید (آغاز SHA-256)', 'Purchase token (SHA-256, start)'],
        productType: ['نوع کالا', 'Product type'],
        orderPeriod: ['پایان دورهٔ این سفارش', 'This order’s period ends'],
        validUntil: ['پایان دورهٔ کنونی (به گفتهٔ فروشگاه)', 'Current period ends (marketplace)'],
        autoRenewing: ['تمدید خودکار', 'Renews itself'],
        renewalState: ['بررسی و تمدید', 'Checks and renewals'],
        periods: ['دوره‌های پرداخت‌شده', 'Periods paid'],
        current_order: ['دورهٔ کنونی:', 'current period:'],
        nextCheckAt: ['بررسی بعدی با فروشگاه', 'Next check with the marketplace'],
        lastAnswer: ['آخرین پاسخ فروشگاه', 'Marketplace’s last answer'],
        answer: ['%{outcome} (HTTP %{status})، %{at}%{until}%{renews}', '%{outcome} (HTTP %{status}), %{at}%{until}%{renews}'],
        answer_until: ['؛ دوره تا %{until}', '; period until %{until}'],
        answer_renews: ['؛ تمدید می‌شود', '; renews'],
        answer_stops: ['؛ تمدید نمی‌شود', '; does not renew'],
        yes: ['بله', 'Yes'],
        no: ['خیر', 'No'],
      },
    },
    plans: {
      quota_hint: [
        'برای خریدهای بعدی؛ اشتراکی که پرداخت شده سهمیهٔ زمان خریدش را نگه می‌دارد.',
        'For purchases from now on; a period already paid keeps the quota it was bought with.',
      ],
      sku_hint: [
        'همان شناسهٔ کالا در پنل توسعه‌دهندهٔ فروشگاه؛ خالی: این طرح در فروشگاه فروخته نمی‌شود.',
        'The product id in the marketplace’s developer panel; empty: not sold in the marketplace.',
      ],
      product_type_hint: [
        'اشتراک خودکار تمدید می‌شود؛ درون‌برنامه‌ای یک دوره برای هر خرید است. سفارش‌های قبلی نوع خودشان را نگه می‌دارند.',
        'A subscription renews itself; in-app is one period per purchase. Past orders keep their own type.',
      ],
    },
    discounts: {
      every_plan: ['همهٔ طرح‌ها', 'Every plan'],
      no_bound: ['بدون محدودیت', 'No limit'],
      max_uses_hint: ['خالی: بی‌سقف', 'Empty: no cap'],
      plans_hint: ['خالی: همهٔ طرح‌ها', 'Empty: every plan'],
      code_hint: ['۳ تا ۳۲ نویسه از A-Z، رقم، _ و -؛ با حروف بزرگ ذخیره می‌شود.', '3 to 32 of A-Z, digits, _ and -; stored upper case.'],
      advertised_hint: ['کد نمایش‌داده‌شده در صفحهٔ پیشنهادهای برنامه دیده می‌شود.', 'An advertised code shows on the app’s offers page.'],
      advertise: ['نمایش در پیشنهادها', 'Advertise as an offer'],
      advertised: ['این کد حالا در پیشنهادهاست', 'The code is an offer now'],
    },
    refund: {
      title: ['تأیید بازپرداخت سفارش #%{id}', 'Confirm the refund of order #%{id}'],
      intro: ['با تأیید، این موارد پس گرفته می‌شود:', 'Confirming takes back:'],
      amount: ['مبلغ سفارش', 'Order amount'],
      days: ['روزهایی که از اشتراک کم می‌شود', 'Days taken off the subscription'],
      expires_before: ['پایان اشتراک اکنون', 'Subscription ends now'],
      expires_after: ['پایان اشتراک پس از بازپرداخت', 'Subscription ends after the refund'],
      commission: ['پورسانت معرف که برگردانده می‌شود', 'Referrer’s commission reversed'],
      commission_none: ['این سفارش پورسانتی نداشته است', 'This order paid no commission'],
      referrer: ['معرف', 'Referrer'],
      confirm: ['تأیید بازپرداخت', 'Confirm refund'],
      back: ['بازگشت به سفارش', 'Back to the order'],
      done: ['سفارش بازپرداخت شد', 'The order was refunded'],
      days_taken_back: ['روزهای پس‌گرفته', 'Days taken back'],
      commission_reversed: ['پورسانت برگشتی', 'Commission reversed'],
      preview_unavailable: ['پیش‌نمایش بازپرداخت نیامد: %{error}', 'The refund preview did not come: %{error}'],
      not_paid: [
        'فقط سفارش پرداخت‌شده بازپرداخت می‌شود؛ وضعیت این سفارش «%{status}» است.',
        'Only a paid order can be refunded; this one is “%{status}”.',
      ],
      refused: ['بازپرداخت انجام نشد: %{error}', 'The refund was refused: %{error}'],
    },
    tickets: {
      reply: ['پاسخ', 'Reply'],
      reply_placeholder: ['متن پاسخ به کاربر', 'Your answer to the learner'],
      send_reply: ['ارسال پاسخ', 'Send reply'],
      replied: ['پاسخ فرستاده شد', 'Reply sent'],
      close: ['بستن تیکت', 'Close ticket'],
      closed: ['تیکت بسته شد', 'Ticket closed'],
      conversation: ['گفتگو', 'Conversation'],
      too_long: ['پاسخ حداکثر %{max} نویسه است', 'A reply is at most %{max} characters'],
    },
    notifications: {
      send: ['ارسال اعلان', 'Send notification'],
      sent: ['اعلان فرستاده شد', 'Notification sent'],
      audience_hint: [
        'یا «ارسال به همهٔ کاربران» را روشن کنید، یا یک کاربر را انتخاب کنید.',
        'Either turn on “send to every learner”, or pick one learner.',
      ],
      user_hint: [
        'شناسهٔ عمومی (User123456)، تلفن یا نام را بنویسید و کاربر را انتخاب کنید.',
        'Type a public id (User123456), phone or name and pick the learner.',
      ],
      user_id_hint: ['شناسهٔ عددی کاربر', 'The learner’s numeric id'],
    },
    marketplace: {
      title: ['اتصال فروشگاه', 'Marketplace connection'],
      mode: ['روش اتصال', 'Mode'],
      connected: ['متصل', 'Connected'],
      window: ['پنجرهٔ اجازه', 'Authorize window'],
      window_open: ['باز است تا %{until}', 'open until %{until}'],
      window_closed: ['بسته', 'closed'],
      hours: ['مدت باز بودن (ساعت)', 'Open for (hours)'],
      open_window: ['باز کردن پنجرهٔ اجازه', 'Open the authorize window'],
      link: ['پیوند اجازه', 'Authorize link'],
      link_hint: [
        'این پیوند در پنجرهٔ تازه باز شد؛ اگر مرورگر جلویش را گرفت، روی آن بزنید.',
        'The link opened in a new window; if the browser blocked it, click it.',
      ],
      opened: ['پنجرهٔ اجازه باز شد', 'Authorize window opened'],
      hours_hint: ['۱ تا %{max} ساعت؛ خالی: پیش‌فرض سرویس (۷۲ ساعت)', '1 to %{max} hours; empty: the service default (72 hours)'],
      mode_hint: {
        static_secret: [
          'کلید ثابت فروشگاه تنظیم شده و بر OAuth مقدم است؛ پنجرهٔ اجازه لازم نیست.',
          'A static marketplace secret is set and takes precedence over OAuth; no window is needed.',
        ],
        oauth: [
          'با OAuth وصل می‌شود: اگر متصل نیست، پنجرهٔ اجازه را باز کنید و پیوند را با حساب توسعه‌دهنده تأیید کنید.',
          'Connects with OAuth: when not connected, open the window and approve the link with the developer account.',
        ],
        none: [
          'هیچ اعتبارنامه‌ای تنظیم نشده: خریدهای فروشگاه تأیید نمی‌شوند.',
          'No credential is set: marketplace purchases cannot be verified.',
        ],
      },
    },
    staff: {
      password_hint: ['دست‌کم ۱۰ نویسه؛ برای تغییر ندادن، خالی بگذارید.', 'At least 10 characters; leave empty to keep it.'],
      new_password_hint: ['۱۰ تا ۲۵۶ نویسه', '10 to 256 characters'],
      username_hint: ['۳ تا ۶۴ نویسه از حروف لاتین، رقم و _ . @ -', '3 to 64 of latin letters, digits and _ . @ -'],
      superuser_hint: [
        'مدیر کل همهٔ مجوزها را دارد و کارکنان، نشست‌ها و کدهای یکبارمصرف را هم می‌بیند.',
        'A superuser holds every permission and also sees staff, sessions and OTP records.',
      ],
      end_sessions: ['پایان نشست‌ها', 'End sessions'],
      end_sessions_title: ['پایان همهٔ نشست‌های %{username}', 'End every session of %{username}'],
      end_sessions_confirm: [
        '%{username} همین حالا در همهٔ مرورگرها از پنل خارج می‌شود. گذرواژه تغییر نمی‌کند و می‌تواند دوباره وارد شود. وقتی دستگاهی گم شده یا حساب سوءاستفاده شده از آن استفاده کنید.',
        '%{username} is signed out of the panel in every browser at once, this minute. The password stays; they may sign in again. Use it when a device may be lost or the account misused.',
      ],
      sessions_ended: ['همهٔ نشست‌های %{username} پایان یافت', 'Every session of %{username} ended'],
    },
    sessions: {
      revoke: ['باطل کردن', 'Revoke'],
      revoked: ['نشست باطل شد', 'Session revoked'],
      revoke_title: ['باطل کردن نشست %{user}', 'Revoke the session of %{user}'],
      revoke_confirm: [
        'کاربر از برنامه خارج می‌شود و باید دوباره با کد پیامکی وارد شود.',
        'The learner is signed out of the app and must sign in again with an SMS code.',
      ],
    },
    account: {
      sign_out_everywhere: ['خروج از همه‌جا', 'Sign out everywhere'],
      sign_out_everywhere_title: ['خروج از همه‌جا', 'Sign out everywhere'],
      sign_out_everywhere_confirm: [
        'همهٔ نشست‌های شما در همهٔ مرورگرها، از جمله همین‌جا، پایان می‌یابد و باید دوباره وارد شوید.',
        'Every session of yours ends, in every browser and this one too; you sign in again.',
      ],
    },
    users: {
      search_hint: ['شناسهٔ عمومی (User123456)، تلفن یا بخشی از نام', 'Public id (User123456), phone, or part of the name'],
      learning: ['رشتهٔ روزها و مرور اشتباه‌ها', 'Streak and mistakes review'],
      parent_report: ['گزارش هفتگی به والدین', "Parent's weekly report"],
    },
    validation: {
      whole_toman: ['مبلغ باید عدد صحیح (تومان) و دست‌کم ۰ باشد', 'Whole toman, 0 or more'],
      whole_number: ['باید عدد صحیح باشد', 'Must be a whole number'],
      sku: ['فقط حروف لاتین، رقم، نقطه، خط تیره و زیرخط (تا ۱۰۰ نویسه)', 'Latin letters, digits, dot, dash and underscore (up to 100)'],
      discount_code: ['۳ تا ۳۲ نویسه از A-Z، رقم، _ و -', '3 to 32 of A-Z, digits, _ and -'],
      username: ['۳ تا ۶۴ نویسه از حروف لاتین، رقم و _ . @ -', '3 to 64 of latin letters, digits and _ . @ -'],
      password: ['گذرواژه دست‌کم ۱۰ نویسه باشد', 'At least 10 characters'],
      valid_until: ['پایان اعتبار باید بعد از آغاز آن باشد', 'Must be after the start'],
      audience: ['یا یک کاربر، یا همه', 'Either one user or all'],
      blank: ['نباید فقط فاصله باشد', 'Must not be only spaces'],
      features_count: ['حداکثر ۲۰ ویژگی', 'At most 20 features'],
      feature: ['هر ویژگی ۱ تا ۲۰۰ نویسه', 'Each feature is 1 to 200 characters'],
    },
  },
} satisfies Bilingual;
