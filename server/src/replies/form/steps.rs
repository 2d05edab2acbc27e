//! `flow_definitions`: the steps a reply's buttons open, each with its text, buttons and media.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::buttons::buttons_of;
use super::list::list_row_ids;
use super::upload::upload;
use super::{FormResult, MediaChoice, Plan, StepPlan, check_texts, invalid, text};
use crate::multipart::Form;
use crate::store::{FlowStep, ReplyMedia, trigger_key};

pub const FLOW_STEPS_MAX: usize = 50;

/// `flow_definitions`: steps keyed by the button id that opens them (kept in key order), each reachable from the
/// reply's buttons (or list rows) or from another step's buttons, none named like another
/// reply's trigger (such a button opens that reply instead).
pub(super) fn steps<'a>(
    form: &'a Form,
    raw: &str,
    plan: &Plan<'_>,
    stored: &[FlowStep],
    other_triggers: &HashSet<String>,
) -> FormResult<Vec<StepPlan<'a>>> {
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
        let caption = text(step, "caption").to_string();
        check_texts(
            &format!("Flow step \"{trigger}\": "),
            &response_text,
            &caption,
            &buttons,
        )?;
        planned.push(StepPlan {
            trigger,
            response_text,
            caption,
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
