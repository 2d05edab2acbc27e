//! How the profile routes show a user, the business's number and the team settings.

use serde::Serialize;
use utoipa::ToSchema;

use crate::store::{Business, TeamSettings, User};

/// A user (the caller or an agent).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserJson<'a> {
    #[serde(rename = "_id")]
    id: &'a str,
    first_name: &'a str,
    last_name: &'a str,
    username: &'a str,
    email: &'a str,
    /// `admin` for the owner, `agent` for the staff.
    role: &'a str,
    /// `en` or `ar`.
    language: &'a str,
}

impl<'a> From<&'a User> for UserJson<'a> {
    fn from(user: &'a User) -> Self {
        UserJson {
            id: &user.id,
            first_name: &user.first_name,
            last_name: &user.last_name,
            username: &user.username,
            email: &user.email,
            role: &user.role,
            language: &user.language,
        }
    }
}

/// The caller and the team settings (`/api/users/profile`).
#[derive(Serialize, ToSchema)]
pub struct UserProfile<'a> {
    #[serde(flatten)]
    pub user: UserJson<'a>,
    #[serde(flatten)]
    pub settings: TeamSettings,
}

/// The caller, the business's number and team settings, and for the owner the provider
/// credentials (`/identity/users/profile`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile<'a> {
    #[serde(flatten)]
    user: UserJson<'a>,
    /// The business's WhatsApp number id (empty before it is set).
    phone_number_id: &'a str,
    phone_number: &'a str,
    #[serde(rename = "whatsappBusinessAccountID")]
    waba_id: &'a str,
    app_id: &'a str,
    #[serde(flatten)]
    settings: TeamSettings,
    /// The provider access token; the owner only.
    #[serde(skip_serializing_if = "Option::is_none")]
    access_token: Option<&'a str>,
    /// The webhook verify token; the owner only.
    #[serde(skip_serializing_if = "Option::is_none")]
    verify_token: Option<&'a str>,
    /// Whether an app secret is set (never the secret itself); the owner only.
    #[serde(skip_serializing_if = "Option::is_none")]
    app_secret_set: Option<bool>,
}

impl<'a> Profile<'a> {
    /// The profile; `owner` adds the credentials.
    pub fn new(
        user: &'a User,
        business: &'a Business,
        settings: TeamSettings,
        owner: bool,
    ) -> Self {
        let secret = |value: &'a str| owner.then_some(value);
        Profile {
            user: user.into(),
            phone_number_id: business.phone_number_id.as_deref().unwrap_or_default(),
            phone_number: &business.phone_number,
            waba_id: &business.waba_id,
            app_id: &business.app_id,
            settings,
            access_token: secret(&business.access_token),
            verify_token: secret(&business.verify_token),
            app_secret_set: owner.then_some(!business.app_secret.is_empty()),
        }
    }
}

/// The user's language after a toggle.
#[derive(Serialize, ToSchema)]
pub struct LanguageJson {
    /// `en` or `ar`.
    pub language: &'static str,
}
