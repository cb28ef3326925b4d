/**
 * The words of the staff's everyday tools (issue 25: history, export, bulk actions, charts, related records, own
 * password, saved filters, success messages, reasons), `[Persian, English]` (bilingual.ts).
 */
import { type Bilingual, pick } from './bilingual';

const tools = {
  ra: {
    saved_queries: {
      label: ['فیلترهای ذخیره‌شده', 'Saved queries'],
      query_name: ['نام فیلتر', 'Query name'],
      new_label: ['ذخیرهٔ فیلتر کنونی…', 'Save current query...'],
      new_dialog_title: ['ذخیرهٔ فیلتر کنونی با نام', 'Save current query as'],
      remove_label: ['حذف فیلتر ذخیره‌شده', 'Remove saved query'],
      remove_label_with_name: ['حذف فیلتر «%{name}»', 'Remove query "%{name}"'],
      remove_dialog_title: ['فیلتر ذخیره‌شده حذف شود؟', 'Remove saved query?'],
      remove_message: ['این فیلتر از فهرست فیلترهای ذخیره‌شدهٔ شما حذف شود؟', 'Remove that query from your saved queries?'],
      help: ['فهرست را فیلتر کنید و برای بعد ذخیره‌اش کنید', 'Filter the list and save this query for later'],
    },
  },
  app: {
    validation: { time: ['تاریخ یا ساعت کامل نیست', 'Incomplete date or time'] },
    account: {
      password_title: ['تغییر گذرواژهٔ من', 'Change my password'],
      password_menu: ['تغییر گذرواژه', 'Change password'],
      old_password: ['گذرواژهٔ کنونی', 'Current password'],
      new_password: ['گذرواژهٔ تازه (دست‌کم ۱۰ نویسه)', 'New password (10 characters or more)'],
      repeat_password: ['تکرار گذرواژهٔ تازه', 'New password again'],
      change_password: ['تغییر گذرواژه', 'Change password'],
      password_mismatch: ['با گذرواژهٔ تازه یکی نیست', 'Not the same as the new password'],
      password_changed: ['گذرواژه عوض شد؛ نشست‌های دیگر شما پایان یافت', 'Password changed; your other sessions ended'],
    },
    tabs: { details: ['مشخصات', 'Details'], history: ['تاریخچه', 'History'], related: ['سوابق', 'Records'] },
    history: {
      changed: ['تغییر کرد', 'changed'],
      empty: ['هنوز تغییری ثبت نشده است.', 'No change recorded yet.'],
      created: ['ساخته شد', 'created'],
      object_needs_model: ['شناسه: اول نوع را برگزینید', 'Id: choose a kind first'],
    },
    bulk: {
      done: [
        '%{changed} انجام شد، %{unchanged} از پیش چنین بود، %{failed} ناموفق',
        '%{changed} done, %{unchanged} already so, %{failed} failed',
      ],
      results: ['نتیجهٔ هر سطر', 'Result of each row'],
      ok_changed: ['انجام شد', 'Done'],
      ok_unchanged: ['از پیش چنین بود', 'Already so'],
      close: ['بستن', 'Close'],
      action: {
        activate: ['فعال کردن', 'Activate'],
        deactivate: ['غیرفعال کردن', 'Deactivate'],
        close: ['بستن تیکت‌ها', 'Close tickets'],
        end_sessions: ['پایان نشست‌ها', 'End sessions'],
      },
      offers: {
        activate: ['نمایش در پیشنهادها', 'Advertise'],
        deactivate: ['برداشتن از پیشنهادها', 'Withdraw'],
      },
    },
    charts: {
      title: ['۳۰ روز گذشته (به وقت تهران)', 'The last 30 days (Tehran time)'],
      unavailable: ['نمودارها از سرور نیامد: %{error}', 'The charts did not load: %{error}'],
      signIns: ['ورودها', 'Sign-ins'],
      newUsers: ['کاربران تازه', 'New users'],
      orders: ['سفارش‌ها', 'Orders'],
      paidOrders: ['سفارش‌های پرداخت‌شده', 'Paid orders'],
      revenue: ['درآمد (تومان)', 'Revenue (toman)'],
    },
  },
  resources: {
    history: {
      name: ['رویداد تاریخچه |||| تاریخچهٔ کارکنان', 'History entry |||| Staff history'],
      fields: {
        at: ['زمان', 'Time'],
        staff: ['کارمند', 'Staff member'],
        action: ['کار', 'Action'],
        model: ['نوع', 'Kind'],
        objectId: ['شناسهٔ مورد', 'Record id'],
        objectRepr: ['مورد', 'Record'],
        changes: ['تغییرها', 'Changes'],
        from: ['از روز', 'From day'],
        to: ['تا روز', 'To day'],
      },
    },
    orders: {
      fields: { q: ['شماره یا شمارهٔ فاکتور', 'Number or invoice number'], from: ['از روز', 'From day'], to: ['تا روز', 'To day'] },
    },
    'payment-events': { fields: { from: ['از روز', 'From day'], to: ['تا روز', 'To day'] } },
    tickets: { fields: { from: ['از روز', 'From day'], to: ['تا روز', 'To day'] } },
    plans: {
      notifications: {
        created: ['طرح ساخته شد', 'Plan created'],
        updated: ['طرح ذخیره شد', 'Plan saved'],
        deleted: ['طرح حذف شد', 'Plan deleted'],
      },
    },
    'discount-codes': {
      notifications: {
        created: ['کد تخفیف ساخته شد', 'Discount code created'],
        updated: ['کد تخفیف ذخیره شد', 'Discount code saved'],
        deleted: ['کد تخفیف حذف شد', 'Discount code deleted'],
      },
    },
    offers: { notifications: { updated: ['پیشنهاد ذخیره شد', 'Offer saved'] } },
    notifications: { notifications: { created: ['اعلان فرستاده شد', 'Notification sent'] } },
    staff: {
      notifications: {
        created: ['حساب کارمند ساخته شد', 'Staff account created'],
        updated: ['حساب کارمند ذخیره شد', 'Staff account saved'],
        deleted: ['حساب کارمند حذف شد', 'Staff account deleted'],
      },
    },
    sessions: { notifications: { deleted: ['نشست کاربر باطل شد', "Learner's session revoked"] } },
  },
  choices: {
    permission: { view_logentry: ['دیدن تاریخچهٔ تغییرات', 'View the change history'] },
    model: {
      user: ['کاربر', 'Learner'],
      order: ['سفارش', 'Order'],
      paymentevent: ['رویداد پرداخت', 'Payment event'],
      plan: ['طرح', 'Plan'],
      discountcode: ['کد تخفیف', 'Discount code'],
      offer: ['پیشنهاد', 'Offer'],
      ticket: ['تیکت', 'Ticket'],
      notification: ['اعلان', 'Notification'],
      marketplacecredential: ['اتصال فروشگاه', 'Marketplace connection'],
      tutorfeedback: ['بازخورد دستیار', 'Tutor feedback'],
      tutorusage: ['مصرف دستیار', 'Tutor usage'],
      staff: ['کارمند', 'Staff member'],
      session: ['نشست کاربر', "Learner's session"],
      otprecord: ['کد یکبارمصرف', 'OTP record'],
      logentry: ['تاریخچه', 'History'],
    },
    action: {
      add: ['ساختن', 'Create'],
      change: ['تغییر', 'Change'],
      delete: ['حذف', 'Delete'],
      cancel: ['لغو', 'Cancel'],
      refund: ['بازپرداخت', 'Refund'],
      reply: ['پاسخ', 'Reply'],
      close: ['بستن', 'Close'],
      end_sessions: ['پایان نشست‌ها', 'End sessions'],
      sign_in: ['ورود', 'Sign in'],
      sign_out: ['خروج', 'Sign out'],
      export: ['خروجی CSV', 'CSV export'],
    },
    reason: {
      duplicate: ['تکراری (پیش‌تر ثبت شده)', 'Duplicate (already recorded)'],
      purchase_token_used: ['توکن خرید پیش‌تر برای سفارش دیگری به کار رفته', 'Purchase token already used by another order'],
      marketplace_refused: ['فروشگاه خرید را رد کرد', 'The marketplace refused the purchase'],
      marketplace_unavailable: ['فروشگاه در دسترس نبود', 'The marketplace was unavailable'],
      no_credential: ['اتصال فروشگاه تنظیم نشده', 'No marketplace connection configured'],
      developer_payload_mismatch: ['شناسهٔ سفارش در خرید فروشگاه نمی‌خواند', 'The purchase names another order'],
      subscription_expired: ['دورهٔ اشتراک در فروشگاه تمام شده', 'The marketplace period had ended'],
      unknown_authority: ['شناسهٔ پرداخت درگاه ناشناخته', 'Unknown gateway payment id'],
      marketplace_not_found: ['فروشگاه خرید را پیدا نکرد (بازپرداخت یا حذف)', 'The marketplace found no purchase (refunded or removed)'],
      marketplace_cancelled: ['لغو در فروشگاه', 'Cancelled at the marketplace'],
      marketplace_refunded: ['بازپرداخت در فروشگاه (خرید درون‌برنامه‌ای)', 'Refunded at the marketplace (in-app purchase)'],
      renewals_ended_not_found: ['پایان تمدید: فروشگاه خرید را پیدا نکرد', 'Renewals ended: the marketplace found no purchase'],
      renewals_ended_cancelled: ['پایان تمدید: لغو در فروشگاه', 'Renewals ended: cancelled at the marketplace'],
      renewals_ended_not_renewed: ['پایان تمدید: تمدید نشد', 'Renewals ended: not renewed'],
      renewals_ended_token_unreadable: ['پایان تمدید: توکن خواندنی نیست', 'Renewals ended: token unreadable'],
      renewals_ended_staff_refund: ['پایان تمدید: بازپرداخت به دست کارکنان', 'Renewals ended: refunded by staff'],
      order_pending: ['سفارش هنوز در انتظار پرداخت است', 'The order is still pending'],
      order_failed: ['سفارش پیش‌تر ناموفق شده', 'The order had failed'],
      order_refunded: ['سفارش پیش‌تر بازپرداخت شده', 'The order had been refunded'],
      order_cancelled: ['سفارش پیش‌تر لغو شده', 'The order had been cancelled'],
      account_deleted: ['خریدار حسابش را حذف کرده بود؛ چیزی داده نشد', 'The buyer had deleted the account; nothing was granted'],
      not_paid: ['پرداخت نشد', 'Not paid'],
      expired: ['تا یک ساعت پس از خرید پرداختش شروع نشد؛ منقضی شد', 'Not started within an hour of the purchase: expired'],
    },
    bulkError: {
      not_found: ['پیدا نشد', 'Not found'],
      database_busy: ['همزمان تغییر می‌کرد؛ دوباره امتحان کنید', 'It kept changing meanwhile; try again'],
      server_error: ['خطای سرور', 'Server error'],
    },
  },
} satisfies Bilingual;

/** The tools' messages in one language, to merge over the panel's own. */
export const toolMessages = (locale: 'fa' | 'en'): Record<string, unknown> => pick(tools, locale);
