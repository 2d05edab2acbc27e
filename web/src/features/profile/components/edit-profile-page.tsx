import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getStoredRole } from '../../../lib/api/session-store';
import { getProfile, type Profile } from '../api/profile-api';
import { AgentsSection } from './agents-section';
import { AssignmentSection } from './assignment-section';
import { LabelsSection } from './labels-section';
import { NotificationsSection } from './notifications-section';
import { ProfileSection } from './profile-section';

/** /edit-profile: the caller's profile and this device's notifications, and for the owner how conversations are assigned, the business's agents and its labels. */
export function EditProfilePage() {
  const { t } = useTranslation();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    let live = true;
    getProfile()
      .then((answer) => live && setProfile(answer))
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, []);
  // The profile answer carries the role; until it arrives, the one the session check stored.
  const isOwner = (profile?.role ?? getStoredRole()) === 'admin';
  return (
    <main className="edit-profile">
      <header className="page-header">
        <Link to="/dashboard"><span className="icon-mirror" aria-hidden="true">←</span> {t('profile.back')}</Link>
        {/* An agent has no agents section: its page is named as the settings menu names it. */}
        <h1>{t(isOwner ? 'profile.title' : 'settings.editProfile')}</h1>
      </header>
      {loadFailed && (
        <p role="alert" className="form-error">
          {t('failedToLoadData')}
        </p>
      )}
      {profile ? <ProfileSection profile={profile} isOwner={isOwner} /> : !loadFailed && <p className="muted">{t('loading')}</p>}
      <NotificationsSection />
      {isOwner && profile && <AssignmentSection profile={profile} />}
      {isOwner && <AgentsSection />}
      {isOwner && <LabelsSection />}
    </main>
  );
}
