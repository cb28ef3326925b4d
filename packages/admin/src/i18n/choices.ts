/** The translated values of the API's enums and codes (`choices.<group>.<value>`), `[Persian, English]`. */
import type { Bilingual } from './bilingual';

export const choices = {
  status: {
    pending: ['در انتظار پرداخت', 'Pending'],
    paid: ['پرداخت‌شده', 'Paid'],
    failed: ['ناموفق', 'Failed'],
    refunded: ['بازپرداخت‌شده', 'Refunded'],
    cancelled: ['لغوشده', 'Cancelled'],
  },
  provider: {
    gateway: ['درگاه بانکی', 'Bank gateway'],
    marketplace: ['فروشگاه اپلیکیشن', 'App marketplace'],
  },
  ticket: {
    open: ['باز', 'Open'],
    answered: ['پاسخ داده‌شده', 'Answered'],
    closed: ['بسته', 'Closed'],
  },
  rating: {
    up: ['مفید 👍', 'Helpful 👍'],
    down: ['نامفید 👎', 'Not helpful 👎'],
  },
  otp: {
    live: ['زنده', 'Live'],
    dead: ['باطل', 'Dead'],
    expired: ['منقضی', 'Expired'],
  },
  parentStatus: {
    none: ['ثبت نشده', 'Not set'],
    active: ['فعال', 'Active'],
    stopped: ['متوقف به خواست والد', 'Stopped by the parent'],
  },
  reportStatus: {
    sent: ['فرستاده شد', 'Sent'],
    uncertain: ['نامعلوم (دوباره فرستاده نمی‌شود)', 'Unclear (not sent again)'],
    failed: ['ناموفق', 'Failed'],
  },
  audience: {
    user: ['یک کاربر', 'One user'],
    all: ['همه', 'All'],
  },
  mode: {
    static_secret: ['کلید ثابت', 'Static secret'],
    oauth: ['OAuth', 'OAuth'],
    none: ['بدون اتصال', 'Not connected'],
  },
  from: {
    learner: ['کاربر', 'Learner'],
    staff: ['پشتیبان', 'Staff'],
  },
  productType: {
    subscription: ['اشتراک (تمدید خودکار)', 'Subscription (renews)'],
    inapp: ['درون‌برنامه‌ای (یک دوره)', 'In-app (one period)'],
  },
  paymentEventKind: {
    order_created: ['ثبت سفارش', 'Order created'],
    discount_applied: ['اعمال کد تخفیف', 'Discount applied'],
    gateway_redirect: ['رفتن به درگاه', 'Sent to the gateway'],
    gateway_request_failed: ['خطای درخواست درگاه', 'Gateway request failed'],
    callback_received: ['بازگشت از درگاه', 'Back from the gateway'],
    callback_unknown_authority: ['بازگشت ناشناخته از درگاه', 'Unknown gateway callback'],
    payment_result: ['نتیجهٔ پرداخت', 'Payment result'],
    marketplace_start: ['شروع خرید در فروشگاه', 'Marketplace purchase started'],
    admin_cancel: ['لغو به دست کارکنان', 'Cancelled by staff'],
    admin_refund: ['بازپرداخت به دست کارکنان', 'Refunded by staff'],
  },
  via: {
    callback: ['بازگشت از درگاه', 'Gateway callback'],
    recheck: ['بررسی دوباره', 'Re-check'],
    discount: ['کد ۱۰۰٪', '100% code'],
    marketplace: ['فروشگاه', 'Marketplace'],
    marketplace_renewal: ['تمدید در فروشگاه', 'Marketplace renewal'],
  },
  result: {
    paid: ['پرداخت شد', 'Paid'],
    failed: ['ناموفق', 'Failed'],
    unchanged: ['بی‌تغییر', 'Unchanged'],
    refunded: ['بازپرداخت شد', 'Refunded'],
    cancelled: ['لغو شد', 'Cancelled'],
  },
  endedVia: {
    marketplace: ['فروشگاه', 'The marketplace'],
  },
  renewalState: {
    active: ['در جریان', 'Running'],
    ended: ['پایان‌یافته', 'Ended'],
  },
  endedReason: {
    not_found: ['بازپرداخت یا حذف در فروشگاه (۴۰۴)', 'refunded or gone at the marketplace (404)'],
    cancelled: ['لغو در فروشگاه', 'cancelled at the marketplace'],
    not_renewed: ['تمدید نشد', 'not renewed'],
    token_unreadable: ['توکن خواندنی نیست (SECRET_KEY عوض شده)', 'token unreadable (SECRET_KEY changed)'],
    staff_refund: ['بازپرداخت به دست کارکنان', 'refunded by staff'],
  },
  storeAnswer: {
    valid: ['معتبر', 'Valid'],
    not_found: ['پیدا نشد', 'Not found'],
  },
  permission: {
    view_user: ['دیدن کاربران', 'View users'],
    view_order: ['دیدن سفارش‌ها', 'View orders'],
    change_order: ['لغو و بازپرداخت سفارش', 'Cancel and refund orders'],
    view_paymentevent: ['دیدن رویدادهای پرداخت', 'View payment events'],
    view_plan: ['دیدن طرح‌ها', 'View plans'],
    add_plan: ['افزودن طرح', 'Add plans'],
    change_plan: ['ویرایش طرح', 'Change plans'],
    delete_plan: ['حذف طرح', 'Delete plans'],
    view_discountcode: ['دیدن کدهای تخفیف', 'View discount codes'],
    delete_discountcode: ['حذف کد تخفیف', 'Delete discount codes'],
    view_offer: ['دیدن پیشنهادها', 'View offers'],
    change_offer: ['ویرایش پیشنهادها', 'Change offers'],
    view_ticket: ['دیدن تیکت‌ها', 'View tickets'],
    change_ticket: ['پاسخ و بستن تیکت', 'Reply to and close tickets'],
    view_notification: ['دیدن اعلان‌ها', 'View notifications'],
    add_notification: ['فرستادن اعلان', 'Send notifications'],
    view_marketplacecredential: ['دیدن اتصال فروشگاه', 'View the marketplace connection'],
    change_marketplacecredential: ['باز کردن پنجرهٔ اجازهٔ فروشگاه', 'Open the marketplace authorize window'],
    view_tutorfeedback: ['دیدن بازخورد دستیار', 'View tutor feedback'],
    view_tutorusage: ['دیدن مصرف دستیار', 'View tutor usage'],
    view_apidocs: ['دیدن مستندات API', 'View the API documentation'],
  },
} satisfies Bilingual;
