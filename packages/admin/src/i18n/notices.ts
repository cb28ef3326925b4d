/**
 * What react-admin says after a create, a save or a delete, naming the kind of record ("plan saved") instead of its
 * generic "element updated" (react-admin reads `resources.<name>.notifications.<created|updated|deleted>`).
 */
export const faNotices = {
  plans: { notifications: { created: 'طرح ساخته شد', updated: 'طرح ذخیره شد', deleted: 'طرح حذف شد' } },
  'discount-codes': { notifications: { created: 'کد تخفیف ساخته شد', updated: 'کد تخفیف ذخیره شد', deleted: 'کد تخفیف حذف شد' } },
  offers: { notifications: { updated: 'پیشنهاد ذخیره شد' } },
  notifications: { notifications: { created: 'اعلان فرستاده شد' } },
  staff: { notifications: { created: 'حساب کارمند ساخته شد', updated: 'حساب کارمند ذخیره شد', deleted: 'حساب کارمند حذف شد' } },
  sessions: { notifications: { deleted: 'نشست کاربر باطل شد' } },
};

export const enNotices: typeof faNotices = {
  plans: { notifications: { created: 'Plan created', updated: 'Plan saved', deleted: 'Plan deleted' } },
  'discount-codes': {
    notifications: { created: 'Discount code created', updated: 'Discount code saved', deleted: 'Discount code deleted' },
  },
  offers: { notifications: { updated: 'Offer saved' } },
  notifications: { notifications: { created: 'Notification sent' } },
  staff: { notifications: { created: 'Staff account created', updated: 'Staff account saved', deleted: 'Staff account deleted' } },
  sessions: { notifications: { deleted: "Learner's session revoked" } },
};

/** react-admin's saved-filter menu, which ra-language-farsi does not have yet. */
export const faSavedQueries = {
  label: 'فیلترهای ذخیره‌شده',
  query_name: 'نام فیلتر',
  new_label: 'ذخیرهٔ فیلتر کنونی…',
  new_dialog_title: 'ذخیرهٔ فیلتر کنونی با نام',
  remove_label: 'حذف فیلتر ذخیره‌شده',
  remove_label_with_name: 'حذف فیلتر «%{name}»',
  remove_dialog_title: 'فیلتر ذخیره‌شده حذف شود؟',
  remove_message: 'این فیلتر از فهرست فیلترهای ذخیره‌شدهٔ شما حذف شود؟',
  help: 'فهرست را فیلتر کنید و برای بعد ذخیره‌اش کنید',
};
