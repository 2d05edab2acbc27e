import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import ar from '../../../public/locales/ar/translation.json';
import en from '../../../public/locales/en/translation.json';
import { ApiError, detailOf, messageOf } from './client';

// The instance the screens translate with (react-i18next's), as the app sets it up.
const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({
  lng: 'ar',
  resources: { en: { translation: en }, ar: { translation: ar } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

/** A refusal as the server words it: `detail` and `message` the same text. */
const refusal = (status: number, text: string, code: string) => new ApiError(status, { detail: text, message: text, code });

describe("the server's refusals in the user's language", () => {
  afterEach(() => i18n.changeLanguage('ar'));

  it('are shown as the server sent them in English', async () => {
    await i18n.changeLanguage('en');
    expect(messageOf(refusal(401, 'Invalid credentials', 'invalid_credentials'), 'Login failed')).toBe('Invalid credentials');
    expect(detailOf(refusal(409, 'A contact with the number 15550001111 already exists', 'conflict'), 'Failed')).toBe('A contact with the number 15550001111 already exists');
    expect(detailOf(refusal(500, 'Internal server error', 'internal'), 'Failed')).toBe('Internal server error');
  });

  it('are translated in Arabic when they are well known: sign-in, registration, sessions', () => {
    expect(messageOf(refusal(401, 'Invalid credentials', 'invalid_credentials'), 'x')).toBe('اسم المستخدم أو كلمة المرور غير صحيحة.');
    expect(messageOf(refusal(409, 'Username already exists', 'conflict'), 'x')).toBe('اسم المستخدم هذا مستخدم بالفعل.');
    expect(messageOf(refusal(409, 'Email already exists', 'conflict'), 'x')).toBe('يوجد حساب بهذا البريد الإلكتروني بالفعل.');
    expect(messageOf(refusal(401, 'Session revoked; please sign in again', 'token_revoked'), 'x')).toBe('تم تسجيل خروجك. يرجى تسجيل الدخول مرة أخرى.');
    expect(detailOf(new ApiError(403, { detail: 'expired', message: 'Forbidden: Token expired', code: 'token_expired' }), 'x')).toBe(
      'انتهت جلستك. يرجى تسجيل الدخول مرة أخرى.',
    );
    expect(messageOf(refusal(401, 'Invalid or expired refresh token', 'unauthorized'), 'x')).toBe('انتهت جلستك. يرجى تسجيل الدخول مرة أخرى.');
  });

  it('name the wait of a lock-out in the right plural form', () => {
    expect(messageOf(refusal(429, 'Too many attempts; try again in 300 seconds', 'too_many_requests'), 'x')).toBe(
      'محاولات كثيرة جدًا. حاول مرة أخرى بعد 300 ثانية.',
    );
    expect(messageOf(refusal(429, 'Too many attempts; try again in 5 seconds', 'too_many_requests'), 'x')).toBe('محاولات كثيرة جدًا. حاول مرة أخرى بعد 5 ثوانٍ.');
  });

  it('name the field of a validation refusal in Arabic, and only a field they know', () => {
    expect(messageOf(refusal(422, 'firstName is required', 'validation_failed'), 'x')).toBe('حقل «الاسم الأول» مطلوب.');
    expect(messageOf(refusal(422, 'password must be at least 8 characters', 'validation_failed'), 'x')).toBe('يجب ألا يقل «كلمة المرور» عن 8 من الأحرف.');
    expect(messageOf(refusal(422, 'email is not a valid email address', 'validation_failed'), 'x')).toBe('أدخل عنوان بريد إلكتروني صالحًا.');
    expect(messageOf(refusal(422, 'lastName must not contain invisible or direction-changing characters', 'validation_failed'), 'x')).toContain('«اسم العائلة»');
    expect(detailOf(refusal(422, 'snoozed_until is required', 'validation_failed'), 'تعذّر التأجيل')).toBe('تعذّر التأجيل');
  });

  it('translate duplicates naming what is taken', () => {
    expect(detailOf(refusal(409, 'A contact with the number 15550001111 already exists', 'conflict'), 'x')).toBe('توجد جهة اتصال بالرقم 15550001111 بالفعل.');
    expect(messageOf(refusal(409, 'A label named VIP already exists', 'conflict'), 'x')).toBe('يوجد تصنيف باسم VIP بالفعل.');
    expect(detailOf(refusal(409, 'An automated reply with the trigger "hello" already exists', 'conflict'), 'x')).toBe('يوجد رد تلقائي بكلمة التشغيل «hello» بالفعل.');
  });

  it("name an automated reply's fields, worded as its form words them", () => {
    expect(detailOf(refusal(422, 'Trigger is required', 'validation_failed'), 'x')).toBe('حقل «كلمة التشغيل» مطلوب.');
    expect(detailOf(refusal(422, 'Response text must be at most 4096 characters', 'validation_failed'), 'x')).toContain('«نص الرد»');
    expect(detailOf(refusal(422, 'Caption must be at most 1024 characters', 'validation_failed'), 'x')).toContain('«التعليق»');
    expect(detailOf(refusal(422, 'Response text with quick reply buttons must be at most 1024 characters', 'validation_failed'), 'تعذر الحفظ')).toBe('تعذر الحفظ');
  });

  it("fall back to the screen's own message for any other text", () => {
    expect(detailOf(refusal(500, 'Internal server error', 'internal'), 'فشل إضافة جهة الاتصال')).toBe('فشل إضافة جهة الاتصال');
    expect(detailOf(refusal(404, 'Agent not found', 'not_found'), 'فشل الحذف')).toBe('فشل الحذف');
    expect(messageOf(new ApiError(502, {}), 'فشل')).toBe('فشل');
  });
});
