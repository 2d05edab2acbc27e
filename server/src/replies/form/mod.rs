//! The automated reply form (spec sections 3, 5 and 7) read into a plan: what to store, which
//! uploads to keep, and the first rule broken as a 422 (a trigger in use is a 409).
//!
//! On edit, a field the form leaves out keeps its stored value; `flow_definitions`, when sent,
//! replaces every step of the reply.
//!
//! - `buttons`: quick-reply buttons, of the reply and of its flow steps
//! - `list`: the interactive list and the row ids it sends back
//! - `steps`: `flow_definitions`, the flow's steps and how each is reached
//! - `upload`: an uploaded file's type and size

mod buttons;
mod list;
mod steps;
mod upload;

use std::collections::HashSet;

use serde_json::Value;

use crate::cloud::{CAPTION_MAX, TEXT_MAX};
use crate::multipart::Form;
use crate::store::{FlowStep, MatchMode, QuickReplyButton, Reply, ReplyMedia, trigger_key};
pub use list::check_list;
pub use upload::{Upload, upload};

pub const TRIGGER_MAX: usize = 256;

/// The first rule the form breaks.
#[derive(Debug, thiserror::Error)]
pub enum ReplyFormError {
    /// A field breaks a rule; the text says which and how.
    #[error("{0}")]
    Invalid(String),
    /// Another of the business's replies already answers this trigger.
    #[error("An automated reply with the trigger \"{0}\" already exists")]
    TriggerTaken(String),
}

/// What each of the form's checks gives back.
pub type FormResult<T> = Result<T, ReplyFormError>;

fn invalid<T>(message: impl Into<String>) -> FormResult<T> {
    Err(ReplyFormError::Invalid(message.into()))
}

/// Where a reply's or a step's media comes from.
pub enum MediaChoice<'a> {
    /// A file stored before (or none).
    Keep(Option<ReplyMedia>),
    New(Upload<'a>),
}

/// A flow step to store.
pub struct StepPlan<'a> {
    pub trigger: String,
    pub response_text: String,
    pub caption: String,
    pub buttons: Vec<QuickReplyButton>,
    pub media: MediaChoice<'a>,
}

/// The reply to store: every field, whether it came from the form or was kept.
pub struct Plan<'a> {
    pub trigger: String,
    pub kind: String,
    pub response_text: String,
    pub caption: String,
    pub is_active: bool,
    pub is_default: bool,
    pub cooldown_hours: f64,
    pub match_mode: MatchMode,
    pub buttons: Vec<QuickReplyButton>,
    pub media: MediaChoice<'a>,
    pub interactive: Option<Value>,
    /// `None` keeps the stored steps.
    pub steps: Option<Vec<StepPlan<'a>>>,
}

/// Reads the form. `current` is the reply being edited with its steps; `other_triggers` are
/// the trigger keys of the business's other replies.
pub fn plan<'a>(
    form: &'a Form,
    current: Option<(&Reply, &[FlowStep])>,
    other_triggers: &HashSet<String>,
) -> FormResult<Plan<'a>> {
    let reply = current.map(|(reply, _)| reply);
    let field = |name: &str| form.text(name);
    let trigger = field("trigger")
        .or_else(|| reply.map(|r| r.trigger.clone()))
        .map(|t| t.trim().to_string())
        .unwrap_or_default();
    if trigger.is_empty() {
        return invalid("Trigger is required");
    }
    if trigger.chars().count() > TRIGGER_MAX {
        return invalid("Trigger must be at most 256 characters");
    }
    if other_triggers.contains(&trigger_key(&trigger)) {
        return Err(ReplyFormError::TriggerTaken(trigger));
    }
    let kind = field("type")
        .map(|t| t.trim().to_lowercase())
        .filter(|t| !t.is_empty())
        .or_else(|| reply.map(|r| r.kind.clone()))
        .unwrap_or_else(|| "text".into());
    if kind != "text" && kind != "interactive" {
        return invalid("Type must be text or interactive");
    }
    let is_active = flag(form, "isActive")?
        .or(reply.map(|r| r.is_active))
        .unwrap_or(true);
    let is_default = flag(form, "isDefault")?
        .or(reply.map(|r| r.is_default))
        .unwrap_or(false);
    let cooldown_hours = match field("cooldownHours")
        .or_else(|| field("cooldownInHours"))
        .filter(|c| !c.trim().is_empty())
    {
        Some(raw) => match raw.trim().parse::<f64>() {
            Ok(hours) if hours.is_finite() && hours >= 0.0 => hours,
            _ => return invalid("Cooldown must be a number of hours, 0 or more"),
        },
        None => reply.map(|r| r.cooldown_hours).unwrap_or(0.0),
    };
    let match_mode = match field("matchMode").filter(|m| !m.trim().is_empty()) {
        Some(raw) => match MatchMode::parse(raw.trim()) {
            Some(mode) => mode,
            None => return invalid("Match mode must be exact, contains or starts_with"),
        },
        None => reply.map(|r| r.match_mode).unwrap_or_default(),
    };
    let response_text = field("responseText")
        .or_else(|| reply.map(|r| r.response_text.clone()))
        .unwrap_or_default()
        .trim()
        .to_string();
    let caption = field("caption")
        .or_else(|| reply.map(|r| r.caption.clone()))
        .unwrap_or_default()
        .trim()
        .to_string();
    let mut plan = Plan {
        trigger,
        kind,
        response_text,
        caption,
        is_active,
        is_default,
        cooldown_hours,
        match_mode,
        buttons: Vec::new(),
        media: MediaChoice::Keep(None),
        interactive: None,
        steps: None,
    };
    if plan.kind == "text" {
        plan.buttons = match field("quickReplyButtons").filter(|b| !b.trim().is_empty()) {
            Some(raw) => buttons::buttons(&raw, "quickReplyButtons")?,
            None => reply
                .map(|r| r.quick_reply_buttons.clone())
                .unwrap_or_default(),
        };
        plan.media = if let Some(part) = form.file("main_media_file") {
            MediaChoice::New(upload(part)?)
        } else if flag(form, "removeMedia")?.unwrap_or(false) {
            MediaChoice::Keep(None)
        } else {
            MediaChoice::Keep(reply.and_then(|r| r.media.clone()))
        };
        let has_media = !matches!(plan.media, MediaChoice::Keep(None));
        if plan.response_text.is_empty() && !has_media {
            return invalid("Response text is required");
        }
        check_texts("", &plan.response_text, &plan.caption, &plan.buttons)?;
    } else {
        let list = match field("interactive").filter(|i| !i.trim().is_empty()) {
            Some(raw) => serde_json::from_str(&raw)
                .or_else(|_| invalid("The interactive list is not valid JSON"))?,
            None => reply
                .and_then(|r| r.interactive.clone())
                .unwrap_or(Value::Null),
        };
        list::check_list(&list)?;
        plan.interactive = Some(list);
    }
    if let Some(raw) = field("flow_definitions").filter(|f| !f.trim().is_empty()) {
        let stored = current.map(|(_, steps)| steps).unwrap_or_default();
        plan.steps = Some(steps::steps(form, &raw, &plan, stored, other_triggers)?);
    }
    Ok(plan)
}

/// The Cloud API's limits on what a reply or a flow step (`what`, e.g. `Flow step "x" `)
/// sends: the text as a message, the caption under media, and the text as the body of a
/// message with buttons.
fn check_texts(
    what: &str,
    response_text: &str,
    caption: &str,
    buttons: &[QuickReplyButton],
) -> FormResult<()> {
    if response_text.chars().count() > TEXT_MAX {
        return invalid(format!(
            "{what}Response text must be at most {TEXT_MAX} characters"
        ));
    }
    if caption.chars().count() > CAPTION_MAX {
        return invalid(format!(
            "{what}Caption must be at most {CAPTION_MAX} characters"
        ));
    }
    if !buttons.is_empty() && response_text.chars().count() > CAPTION_MAX {
        return invalid(format!(
            "{what}Response text with quick reply buttons must be at most {CAPTION_MAX} characters"
        ));
    }
    Ok(())
}

/// A true/false field; `None` when absent.
fn flag(form: &Form, name: &str) -> FormResult<Option<bool>> {
    match form.text(name).map(|v| v.trim().to_lowercase()) {
        None => Ok(None),
        Some(v) if matches!(v.as_str(), "true" | "1" | "on" | "yes") => Ok(Some(true)),
        Some(v) if matches!(v.as_str(), "false" | "0" | "off" | "no" | "") => Ok(Some(false)),
        Some(_) => invalid(format!("{name} must be true or false")),
    }
}

fn text<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("").trim()
}
