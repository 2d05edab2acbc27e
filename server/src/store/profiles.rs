//! A contact as the customer's deliveries describe them: the one rule by which a message, a
//! reaction, an edit, a deletion, an echo or a receipt updates a known contact's name, BSUID and
//! username.

use parley_actors::conversation::{ConversationKey, CustomerProfile};
use sqlx::{AnyConnection, AssertSqlSafe};

use super::Backend;
use super::contacts::{ContactIds, renamed_contact_draft};
use super::events::Draft;
use super::search_index::index_contacts;

/// A contact's name and ids as stored.
#[derive(Clone, Debug, Default)]
pub(super) struct ContactProfile {
    pub(super) name: String,
    /// Their BSUID, when known.
    pub(super) user_id: Option<String>,
    /// Their WhatsApp username, when they took one.
    pub(super) username: Option<String>,
    /// The business named them: the name is theirs to change, not the customer's profile.
    pub(super) given: bool,
}

impl ContactProfile {
    /// A new contact as `profile` describes them (an empty name when it gives none).
    pub(super) fn new(profile: &CustomerProfile) -> Self {
        ContactProfile {
            name: profile.name.clone().unwrap_or_default(),
            user_id: profile.user_id.clone(),
            username: profile.username.clone(),
            given: false,
        }
    }

    /// Takes what a delivery says of the customer: another non-empty profile name (unless the
    /// business named them), another BSUID or username. What it does not send is kept (a
    /// delivery without a username does not take the known one away). Answers whether anything
    /// changed.
    pub(super) fn take(&mut self, profile: &CustomerProfile) -> bool {
        let mut changed = false;
        let name = (profile.name.as_deref()).filter(|name| !name.is_empty() && !self.given);
        if let Some(name) = name.filter(|name| *name != self.name) {
            self.name = name.to_string();
            changed = true;
        }
        for (known, sent) in [
            (&mut self.user_id, &profile.user_id),
            (&mut self.username, &profile.username),
        ] {
            if sent.is_some() && sent != known {
                known.clone_from(sent);
                changed = true;
            }
        }
        changed
    }

    /// The ids it is announced with.
    pub(super) fn ids(&self) -> ContactIds<'_> {
        (self.user_id.as_deref(), self.username.as_deref())
    }
}

/// Writes a known contact's name and ids (its search document follows apart). A name the
/// business gave meanwhile (an agent's edit committed since the contact was read) is kept.
pub(super) async fn save_profile(
    conn: &mut AnyConnection,
    business_id: &str,
    phone: &str,
    contact: &ContactProfile,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE contacts SET \
         name = CASE WHEN named_by_business = 1 THEN name ELSE $1 END, \
         user_id = $2, username = $3 \
         WHERE business_id = $4 AND phone = $5",
    )
    .bind(&contact.name)
    .bind(&contact.user_id)
    .bind(&contact.username)
    .bind(business_id)
    .bind(phone)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Updates a known contact as a delivery of the customer's that is no new message of theirs (a
/// reaction, an edit, a deletion, an echo) describes them, by the rule their messages follow
/// (`ContactProfile::take`), and answers its `new_contact` marked `renamed` with its name and
/// ids as they are now: nothing for an unknown contact (such a delivery creates none), or one
/// it does not change.
pub(super) async fn update_by_profile(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    profile: &CustomerProfile,
    pnid: &str,
) -> Result<Option<Draft>, sqlx::Error> {
    if *profile == CustomerProfile::default() {
        return Ok(None);
    }
    let Some(contact) = stored_profile(conn, key).await? else {
        return Ok(None);
    };
    take_profile(conn, key, contact, profile, pnid).await
}

/// The name and ids of the conversation's contact, when it exists, locked on Postgres until the
/// caller's transaction ends: what it writes back from them is never older than another node's
/// write of the same contact that committed meanwhile.
pub(super) async fn stored_profile(
    conn: &mut AnyConnection,
    key: &ConversationKey,
) -> Result<Option<ContactProfile>, sqlx::Error> {
    let sql = format!(
        "SELECT name, user_id, username, named_by_business FROM contacts \
         WHERE business_id = $1 AND phone = $2{}",
        Backend::of(conn).row_lock(true)
    );
    // Only the backend's lock clause is formatted in; the values are bound.
    let stored: Option<(String, Option<String>, Option<String>, i64)> =
        sqlx::query_as(AssertSqlSafe(sql))
            .bind(&key.business_id)
            .bind(&key.phone)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(
        stored.map(|(name, user_id, username, given)| ContactProfile {
            name,
            user_id,
            username,
            given: given != 0,
        }),
    )
}

/// Updates the known contact `contact` (as read) by `profile` as `update_by_profile` does.
pub(super) async fn take_profile(
    conn: &mut AnyConnection,
    key: &ConversationKey,
    mut contact: ContactProfile,
    profile: &CustomerProfile,
    pnid: &str,
) -> Result<Option<Draft>, sqlx::Error> {
    if !contact.take(profile) {
        return Ok(None);
    }
    save_profile(conn, &key.business_id, &key.phone, &contact).await?;
    index_contacts(conn, &key.business_id, &[&key.phone]).await?;
    let draft = renamed_contact_draft(pnid, &key.phone, &contact.name, contact.ids());
    Ok(Some(draft))
}
