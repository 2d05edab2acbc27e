//! Private notes: kept in the history for the team only, with `@username` mentions that reach
//! the mentioned agents.

use crate::store::{MessageRow, Person};
use crate::visible::is_hidden;

use super::{Member, Team, TeamError};

/// The longest note, in characters.
pub const MAX_NOTE_CHARS: usize = 4096;

/// A stored note, its author, and the users it mentions.
pub struct Note {
    pub message: MessageRow,
    pub by: Person,
    pub mentioned: Vec<String>,
}

impl Team {
    /// Stores a note (1–4096 characters, at least one of them shown) and tells each mentioned
    /// member of the business.
    pub async fn add_note(
        &self,
        member: &Member,
        phone: &str,
        text: &str,
    ) -> Result<Note, TeamError> {
        let text = text.trim();
        let length = text.chars().count();
        let shows_nothing = text.chars().all(|c| c.is_whitespace() || is_hidden(c));
        if shows_nothing || length > MAX_NOTE_CHARS {
            return Err(TeamError::Invalid(format!(
                "text must be 1 to {MAX_NOTE_CHARS} characters"
            )));
        }
        let by = self.person(&member.business_id, &member.user_id).await?;
        let mut mentioned = self
            .store
            .user_ids_by_username(&member.business_id, &usernames(text))
            .await?;
        mentioned.retain(|id| *id != member.user_id);
        let key = member.conversation(phone);
        let (message, events) = self.store.add_note(&key, text, &mentioned, &by).await?;
        self.bus.publish(events);
        Ok(Note {
            message,
            by,
            mentioned,
        })
    }
}

/// The distinct usernames an `@name` may mention (usernames are lower-case, without spaces): a
/// `.` or `-` that ends it is the sentence's more often than the name's, so both are looked up.
fn usernames(text: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (i, _) in text.match_indices('@') {
        let after_word = text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric());
        let name: String = text[i + 1..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
            .collect();
        let whole = name.to_lowercase();
        let trimmed = whole.trim_end_matches(['.', '-']).to_string();
        for name in [trimmed, whole] {
            if !after_word && !name.is_empty() && !found.contains(&name) {
                found.push(name);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::usernames;

    #[test]
    fn mentions_are_read_from_at_names_but_not_from_email_addresses() {
        assert_eq!(
            usernames("@Sara please call, cc @omar.k. Mail bob@example.com @sara"),
            vec!["sara", "omar.k", "omar.k."]
        );
        assert_eq!(
            usernames("ping @dev-, @ann-lee"),
            vec!["dev", "dev-", "ann-lee"]
        );
    }
}
