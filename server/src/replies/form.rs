//! The automated reply form (spec sections 3, 5 and 7) read into a plan: what to store, which
//! uploads to keep, and the first rule broken as a 422 (a trigger in use is a 409).
//!
//! On edit, a field the form leaves out keeps its stored value; `flow_definitions`, when sent,
//! replaces every step of the reply.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::media::{FileKind, sniff};
use crate::multipart::{Form, Part};
use crate::store::{FlowStep, QuickReplyButton, Reply, ReplyMedia, trigger_key};

pub const TRIGGER_MAX: usize = 256;
pub const QUICK_REPLY_MAX: usize = 3;
/// The Cloud API's limit on a reply button's title.
pub const BUTTON_TITLE_MAX: usize = 20;
pub const SECTIONS_MAX: usize = 10;
pub const ROWS_MAX: usize = 10;
pub const FLOW_STEPS_MAX: usize = 50;
const MB: u64 = 1024 * 1024;

/// A file of the form that passed the checks, to be written and recorded.
pub struct Upload<'a> {
    pub part: &'a Part,
    pub mime_type: &'static str,
    /// `image`, `video`, `audio` or `document`.
    pub media_type: &'static str,
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
    pub buttons: Vec<QuickReplyButton>,
    pub media: MediaChoice<'a>,
    pub interactive: Option<Value>,
    /// `None` keeps the stored steps.
    pub steps: Option<Vec<StepPlan<'a>>>,
}

fn invalid<T>(message: impl Into<String>) -> ApiResult<T> {
    Err(ApiError::Unprocessable(message.into()))
}

/// Reads the form. `current` is the reply being edited with its steps; `other_triggers` are
/// the trigger keys of the business's other replies.
pub fn plan<'a>(
    form: &'a Form,
    current: Option<(&Reply, &[FlowStep])>,
    other_triggers: &HashSet<String>,
) -> ApiResult<Plan<'a>> {
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
        return Err(ApiError::Conflict(format!(
            "An automated reply with the trigger \"{trigger}\" already exists"
        )));
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
        buttons: Vec::new(),
        media: MediaChoice::Keep(None),
        interactive: None,
        steps: None,
    };
    if plan.kind == "text" {
        plan.buttons = match field("quickReplyButtons").filter(|b| !b.trim().is_empty()) {
            Some(raw) => buttons(&raw, "quickReplyButtons")?,
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
    } else {
        let list = match field("interactive").filter(|i| !i.trim().is_empty()) {
            Some(raw) => serde_json::from_str(&raw)
                .or_else(|_| invalid("The interactive list is not valid JSON"))?,
            None => reply
                .and_then(|r| r.interactive.clone())
                .unwrap_or(Value::Null),
        };
        check_list(&list)?;
        plan.interactive = Some(list);
    }
    if let Some(raw) = field("flow_definitions").filter(|f| !f.trim().is_empty()) {
        let stored = current.map(|(_, steps)| steps).unwrap_or_default();
        plan.steps = Some(steps(form, &raw, &plan, stored, other_triggers)?);
    }
    Ok(plan)
}

/// A true/false field; `None` when absent.
fn flag(form: &Form, name: &str) -> ApiResult<Option<bool>> {
    match form.text(name).map(|v| v.trim().to_lowercase()) {
        None => Ok(None),
        Some(v) if matches!(v.as_str(), "true" | "1" | "on" | "yes") => Ok(Some(true)),
        Some(v) if matches!(v.as_str(), "false" | "0" | "off" | "no" | "") => Ok(Some(false)),
        Some(_) => invalid(format!("{name} must be true or false")),
    }
}

/// Quick-reply buttons from JSON: only entries with both id and title count, at most 3.
fn buttons(raw: &str, what: &str) -> ApiResult<Vec<QuickReplyButton>> {
    let list: Vec<Value> = serde_json::from_str(raw)
        .or_else(|_| invalid(format!("{what} must be a JSON list of {{id, title}}")))?;
    buttons_of(&list)
}

fn buttons_of(list: &[Value]) -> ApiResult<Vec<QuickReplyButton>> {
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

fn text<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("").trim()
}

/// Checks a text field of the list: required or not, and within the Cloud API's limit.
fn list_text(value: &Value, key: &str, label: &str, required: bool, max: usize) -> ApiResult<()> {
    let found = text(value, key);
    if required && found.is_empty() {
        return invalid(format!("{label} is required"));
    }
    if found.chars().count() > max {
        return invalid(format!("{label} must be at most {max} characters"));
    }
    Ok(())
}

/// The interactive list: header, body and button label required, 1–10 sections of 1–10 rows,
/// each section titled, each row with an id and a title.
pub fn check_list(list: &Value) -> ApiResult<()> {
    if !list.is_object() {
        return invalid("The interactive list is required");
    }
    if !matches!(text(list, "type"), "" | "list") {
        return invalid("Only interactive lists are supported");
    }
    let none = Value::Null;
    list_text(
        list.get("header").unwrap_or(&none),
        "text",
        "List header text",
        true,
        60,
    )?;
    list_text(
        list.get("body").unwrap_or(&none),
        "text",
        "List body text",
        true,
        1024,
    )?;
    list_text(
        list.get("footer").unwrap_or(&none),
        "text",
        "List footer text",
        false,
        60,
    )?;
    let action = list.get("action").unwrap_or(&none);
    list_text(action, "button", "List button label", true, 20)?;
    let sections = action
        .get("sections")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if sections.is_empty() {
        return invalid("A list needs at least one section");
    }
    if sections.len() > SECTIONS_MAX {
        return invalid("A list can have at most 10 sections");
    }
    let mut ids = HashSet::new();
    for (i, section) in sections.iter().enumerate() {
        let n = i + 1;
        list_text(section, "title", &format!("Section {n} title"), true, 24)?;
        let rows = section
            .get("rows")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if rows.is_empty() {
            return invalid(format!("Section {n} needs at least one row"));
        }
        if rows.len() > ROWS_MAX {
            return invalid(format!("Section {n} can have at most 10 rows"));
        }
        for (j, row) in rows.iter().enumerate() {
            let m = j + 1;
            if text(row, "id").is_empty() || text(row, "title").is_empty() {
                return invalid(format!("Section {n}, row {m} needs an id and a title"));
            }
            list_text(row, "id", &format!("Section {n}, row {m} id"), true, 200)?;
            list_text(
                row,
                "title",
                &format!("Section {n}, row {m} title"),
                true,
                24,
            )?;
            list_text(
                row,
                "description",
                &format!("Section {n}, row {m} description"),
                false,
                72,
            )?;
            if !ids.insert(text(row, "id").to_string()) {
                return invalid("List row ids must be unique");
            }
        }
    }
    Ok(())
}

/// The ids a list's rows send back.
fn list_row_ids(list: &Value) -> Vec<String> {
    list.pointer("/action/sections")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("rows").and_then(Value::as_array))
        .flatten()
        .map(|r| text(r, "id").to_string())
        .collect()
}

/// `flow_definitions`: steps keyed by the button id that opens them (kept in key order), each reachable from the
/// reply's buttons (or list rows) or from another step's buttons, none named like another
/// reply's trigger (such a button opens that reply instead).
fn steps<'a>(
    form: &'a Form,
    raw: &str,
    plan: &Plan<'_>,
    stored: &[FlowStep],
    other_triggers: &HashSet<String>,
) -> ApiResult<Vec<StepPlan<'a>>> {
    let definitions: Map<String, Value> = serde_json::from_str(raw)
        .or_else(|_| invalid("flow_definitions must be a JSON object keyed by trigger"))?;
    if definitions.len() > FLOW_STEPS_MAX {
        return invalid("A reply can have at most 50 flow steps");
    }
    let mut planned = Vec::new();
    for (key, step) in &definitions {
        let trigger = key.trim().to_string();
        if trigger.is_empty() {
            return invalid("A flow step needs a trigger");
        }
        if other_triggers.contains(&trigger_key(&trigger)) {
            return invalid(format!(
                "Flow step \"{trigger}\" is another reply's trigger; that button opens that reply"
            ));
        }
        let buttons = match step.get("quickReplyButtons") {
            Some(Value::Array(list)) => buttons_of(list)?,
            None | Some(Value::Null) => Vec::new(),
            Some(_) => {
                return invalid(format!(
                    "Flow step \"{trigger}\" quickReplyButtons must be a list"
                ));
            }
        };
        let media = if let Some(part) = form.file(&format!("flow_media_{key}")) {
            MediaChoice::New(upload(part)?)
        } else if step.get("removeMedia").and_then(Value::as_bool) == Some(true) {
            MediaChoice::Keep(None)
        } else {
            MediaChoice::Keep(kept_media(step, stored, plan))
        };
        let response_text = text(step, "responseText").to_string();
        if response_text.is_empty() && matches!(media, MediaChoice::Keep(None)) {
            return invalid(format!(
                "Flow step \"{trigger}\" needs a response text or media"
            ));
        }
        planned.push(StepPlan {
            trigger,
            response_text,
            caption: text(step, "caption").to_string(),
            buttons,
            media,
        });
    }
    let mut reachable: HashSet<String> = plan.buttons.iter().map(|b| b.id.clone()).collect();
    if let Some(list) = &plan.interactive {
        reachable.extend(list_row_ids(list));
    }
    for step in &planned {
        reachable.extend(step.buttons.iter().map(|b| b.id.clone()));
    }
    if let Some(step) = planned.iter().find(|s| !reachable.contains(&s.trigger)) {
        return invalid(format!(
            "Flow step \"{}\" is not linked to any button",
            step.trigger
        ));
    }
    Ok(planned)
}

/// A step's stored media named by its `mediaUrl`: only files this reply already uses.
fn kept_media(step: &Value, stored: &[FlowStep], plan: &Plan<'_>) -> Option<ReplyMedia> {
    let url = text(step, "mediaUrl");
    let id = url.rsplit_once("/api/media/").map(|(_, id)| id)?;
    stored
        .iter()
        .filter_map(|s| s.media.as_ref())
        .chain(match &plan.media {
            MediaChoice::Keep(Some(media)) => Some(media),
            _ => None,
        })
        .find(|m| m.id == id)
        .cloned()
}

/// An uploaded file the reply may send: its type from its bytes (and, for Office files, the
/// name), within the Cloud API's limit for that type.
pub fn upload(part: &Part) -> ApiResult<Upload<'_>> {
    let extension = part
        .filename
        .as_deref()
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    let (mime_type, media_type) = match (sniff(&part.bytes), extension.as_str()) {
        (FileKind::Png, _) => ("image/png", "image"),
        (FileKind::Jpeg, _) => ("image/jpeg", "image"),
        (FileKind::Mp4, _) => ("video/mp4", "video"),
        (FileKind::ThreeGp, _) => ("video/3gpp", "video"),
        (FileKind::Mp3, _) => ("audio/mpeg", "audio"),
        (FileKind::Ogg, _) => ("audio/ogg", "audio"),
        (FileKind::Amr, _) => ("audio/amr", "audio"),
        (FileKind::Aac, _) => ("audio/aac", "audio"),
        (FileKind::M4a, _) => ("audio/mp4", "audio"),
        (FileKind::Pdf, _) => ("application/pdf", "document"),
        (FileKind::Ole, "doc") => ("application/msword", "document"),
        (FileKind::Ole, "xls") => ("application/vnd.ms-excel", "document"),
        (FileKind::Ole, "ppt") => ("application/vnd.ms-powerpoint", "document"),
        (FileKind::Zip, "docx") => (
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "document",
        ),
        (FileKind::Zip, "xlsx") => (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "document",
        ),
        (FileKind::Zip, "pptx") => (
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "document",
        ),
        _ => {
            return invalid(
                "Unsupported media file: use an image (PNG, JPEG), a video (MP4, 3GP), audio \
                 (MP3, OGG, AAC, AMR, M4A), or a PDF, Word, Excel or PowerPoint document",
            );
        }
    };
    let limit = match media_type {
        "image" => 5 * MB,
        "video" | "audio" => 16 * MB,
        _ => 100 * MB,
    };
    if part.size() > limit {
        return invalid(format!(
            "The {media_type} file must be at most {} MB",
            limit / MB
        ));
    }
    Ok(Upload {
        part,
        mime_type,
        media_type,
    })
}
