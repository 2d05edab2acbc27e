//! Quick-reply buttons, as the reply and its flow steps send them.

use serde_json::Value;

use super::{FormResult, invalid, text};
use crate::store::QuickReplyButton;

pub const QUICK_REPLY_MAX: usize = 3;
/// The Cloud API's limit on a reply button's title.
pub const BUTTON_TITLE_MAX: usize = 20;
/// The Cloud API's limit on a reply button's id.
pub const BUTTON_ID_MAX: usize = 256;

/// Quick-reply buttons from JSON: only entries with both id and title count, at most 3.
pub(super) fn buttons(raw: &str, what: &str) -> FormResult<Vec<QuickReplyButton>> {
    let list: Vec<Value> = serde_json::from_str(raw)
        .or_else(|_| invalid(format!("{what} must be a JSON list of {{id, title}}")))?;
    buttons_of(&list)
}

pub(super) fn buttons_of(list: &[Value]) -> FormResult<Vec<QuickReplyButton>> {
    let mut kept: Vec<QuickReplyButton> = Vec::new();
    for entry in list {
        let id = text(entry, "id");
        let title = text(entry, "title");
        if id.is_empty() || title.is_empty() {
            continue;
        }
        if title.chars().count() > BUTTON_TITLE_MAX {
            return invalid(format!(
                "Quick reply button \"{title}\" must be at most 20 characters"
            ));
        }
        if id.chars().count() > BUTTON_ID_MAX {
            return invalid(format!(
                "Quick reply button \"{title}\" id must be at most {BUTTON_ID_MAX} characters"
            ));
        }
        if kept.iter().any(|b| b.id == id) {
            return invalid("Quick reply button ids must be unique");
        }
        kept.push(QuickReplyButton {
            id: id.to_string(),
            title: title.to_string(),
        });
    }
    if kept.len() > QUICK_REPLY_MAX {
        return invalid("At most 3 quick reply buttons are allowed");
    }
    Ok(kept)
}
