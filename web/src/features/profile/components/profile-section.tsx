import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { detailOf } from '../../../lib/api/client';
import { setLanguage } from '../../../lib/i18n/i18n';
import { useToast } from '../../../lib/toast/toast-context';
import { updateProfile, type Profile } from '../api/profile-api';
import { CREDENTIAL_FIELDS, profileFormFrom, profilePatch, SECRET_FIELDS, type ProfileForm } from '../profile-forms';
import { SecretInput } from './secret-input';

/**
 * After a successful save the page goes to /dashboard after this long (spec section 4): the inbox,
 * as every path without a screen of its own shows it.
 */
export const REDIRECT_AFTER_SAVE_MS = 2000;

export function ProfileSection({ profile, isOwner }: { profile: Profile; isOwner: boolean }) {
  const { t } = useTranslation();
  const showToast = useToast();
  const navigate = useNavigate();
  const [form, setForm] = useState<ProfileForm>(() => profileFormFrom(profile));
  const [appSecretSet, setAppSecretSet] = useState(profile.appSecretSet === true);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => navigate('/dashboard'), REDIRECT_AFTER_SAVE_MS);
    return () => window.clearTimeout(timer);
  }, [saved, navigate]);

  const set = (field: keyof ProfileForm) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const answer = await updateProfile(profilePatch(form, isOwner));
      setAppSecretSet(answer.appSecretSet === true);
      setForm((current) => ({ ...current, appSecret: '' }));
      showToast(t('profileUpdatedSuccessfully'), 'success');
      setSaved(true);
      void setLanguage(form.language);
    } catch (error) {
      showToast(detailOf(error, t('updateFailed')), 'error');
      setSaving(false);
    }
  };

  return (
    <section className="panel-card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">{t('profile.profileTitle')}</h2>
      <form className="form profile-form" onSubmit={(event) => void submit(event)}>
        <label>
          {t('auth.firstName')}
          <input value={form.firstName} onChange={(event) => set('firstName')(event.target.value)} />
        </label>
        <label>
          {t('auth.lastName')}
          <input value={form.lastName} onChange={(event) => set('lastName')(event.target.value)} />
        </label>
        <label>
          {t('profile.language')}
          <select value={form.language} onChange={(event) => set('language')(event.target.value)}>
            <option value="en">English</option>
            <option value="ar">العربية</option>
          </select>
        </label>
        {isOwner && (
          <fieldset className="credentials">
            <legend>{t('profile.credentials')}</legend>
            {CREDENTIAL_FIELDS.map((field) =>
              SECRET_FIELDS.has(field) ? (
                <SecretInput key={field} label={t(`profile.fields.${field}`)} value={form[field]} onValue={set(field)} />
              ) : (
                <label key={field}>
                  {t(`profile.fields.${field}`)}
                  <input value={form[field]} autoComplete="off" spellCheck={false} onChange={(event) => set(field)(event.target.value)} />
                </label>
              ),
            )}
            <SecretInput
              label={t('profile.fields.appSecret')}
              value={form.appSecret}
              onValue={set('appSecret')}
              autoComplete="new-password"
              placeholder={appSecretSet ? t('profile.appSecretKept') : ''}
              aria-describedby="app-secret-note"
            />
            <p id="app-secret-note" className="note">
              {appSecretSet ? t('profile.appSecretSet') : t('profile.appSecretNotSet')}
            </p>
          </fieldset>
        )}
        <button type="submit" className="primary" disabled={saving}>
          {t('profile.saveProfile')}
        </button>
      </form>
    </section>
  );
}
