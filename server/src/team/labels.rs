//! Labels: the form's rules for a label (a name of 1–50 characters, a `#RRGGBB` colour), the
//! owner's changes to the business's labels, and the labels a member puts on a conversation.
//! Every change is published once stored.

use unicode_normalization::UnicodeNormalization;

use super::{Member, Team, TeamError};
use crate::store::{ContactRow, Label};
use crate::visible::{hidden_refusal, shows_nothing};

/// The longest label name, in characters.
pub const MAX_LABEL_NAME: usize = 50;

/// A label's name: trimmed, each run of spaces, tabs or line breaks inside read as one space (a
/// chip shows one line), 1–50 characters, in the composed form (NFC) so that names which look
/// the same are the same, with a character that shows (not only accents) and none that only hides.
pub fn label_name(raw: &str) -> Result<String, TeamError> {
    let words: Vec<&str> = raw.split_whitespace().collect();
    let name: String = words.join(" ").nfc().collect();
    if shows_nothing(&name) {
        return Err(TeamError::Invalid("name is required".into()));
    }
    if let Some(refusal) = hidden_refusal("name", &name) {
        return Err(TeamError::Invalid(refusal));
    }
    if name.chars().count() > MAX_LABEL_NAME {
        return Err(TeamError::Invalid(format!(
            "name must be at most {MAX_LABEL_NAME} characters"
        )));
    }
    Ok(name)
}

/// A label's colour: `#` and six hex digits, kept as written.
pub fn label_color(raw: &str) -> Result<String, TeamError> {
    let color = raw.trim();
    let hex = color.strip_prefix('#').unwrap_or_default();
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(TeamError::Invalid(
            "color must be a colour written #RRGGBB".into(),
        ));
    }
    Ok(color.to_string())
}

impl Team {
    /// A new label of the business.
    pub async fn create_label(
        &self,
        business_id: &str,
        name: &str,
        color: &str,
    ) -> Result<Label, TeamError> {
        let (label, events) = self
            .store
            .create_label(business_id, &label_name(name)?, &label_color(color)?)
            .await?;
        self.bus.publish(events);
        Ok(label)
    }

    /// Renames and/or recolours a label (`None` keeps a value).
    pub async fn update_label(
        &self,
        business_id: &str,
        id: &str,
        name: Option<&str>,
        color: Option<&str>,
    ) -> Result<Label, TeamError> {
        let name = name.map(label_name).transpose()?;
        let color = color.map(label_color).transpose()?;
        let (label, events) = self
            .store
            .update_label(business_id, id, name.as_deref(), color.as_deref())
            .await?;
        self.bus.publish(events);
        Ok(label)
    }

    /// Deletes a label from the business and from every conversation that carried it.
    pub async fn delete_label(&self, member: &Member, id: &str) -> Result<(), TeamError> {
        let by = self.person(&member.business_id, &member.user_id).await?;
        let events = self
            .store
            .delete_label(&member.business_id, id, &by)
            .await?;
        self.bus.publish(events);
        Ok(())
    }

    /// Sets the labels a conversation carries; any member of the business may.
    pub async fn set_labels(
        &self,
        member: &Member,
        phone: &str,
        label_ids: &[String],
    ) -> Result<ContactRow, TeamError> {
        let by = self.person(&member.business_id, &member.user_id).await?;
        let key = member.conversation(phone);
        let (row, events) = self
            .store
            .set_conversation_labels(&key, label_ids, &by)
            .await?;
        self.bus.publish(events);
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_at_most_fifty_characters() {
        assert_eq!(label_name("  VIP ").expect("name"), "VIP");
        assert_eq!(label_name("Follow \t\n up").expect("name"), "Follow up");
        assert!(label_name("   ").is_err());
        assert!(label_name(&"é".repeat(50)).is_ok());
        assert!(label_name(&"é".repeat(51)).is_err());
    }

    #[test]
    fn a_colour_is_six_hex_digits_after_a_hash() {
        assert_eq!(label_color("#1A2b3C").expect("colour"), "#1A2b3C");
        for bad in ["1A2B3C", "#1A2B3", "#1A2B3CD", "#GGGGGG", "red", ""] {
            assert!(label_color(bad).is_err(), "{bad}");
        }
    }
}
