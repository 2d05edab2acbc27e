//! What the inbox stores of an inbound message: its kind and content (docs/API.md shapes).
//! Adding a kind means a `Kind` variant and its arms here; the compiler lists the matches.

use parley_actors::conversation::NOTICE_KIND;
use serde_json::{Value, json};

use super::message::{Choice, Interactive, Kind, Media, Message};

impl Message {
    /// The stored kind (the `type` as sent) and content. An edit answers the message as it reads
    /// now; a deletion answers what a deleted message keeps.
    pub fn stored(&self) -> (String, Value) {
        let kind = self.type_name.clone();
        let mut content = match &self.kind {
            Kind::Text { text } => json!({"text": text.body}),
            Kind::Image { image: media }
            | Kind::Video { video: media }
            | Kind::Audio { audio: media }
            | Kind::Document { document: media }
            | Kind::Sticker { sticker: media } => media_content(&kind, media),
            Kind::Location { location } => json!({"location": location}),
            Kind::Interactive { interactive } => interactive_content(interactive),
            Kind::Button { button } => json!({"text": button.text, "payload": button.payload}),
            Kind::Order { order } => json!({"text": order.text, "order": order}),
            Kind::Reaction { reaction } => json!({"reaction": reaction}),
            Kind::System { system } => json!({"text": system.body, "system": system}),
            Kind::Contacts { contacts } => json!({"text": null, "contacts": contacts}),
            Kind::Edit { edit } => return edit.message.stored(),
            Kind::Revoke { .. } => return (kind, json!({"text": null, "revoked": true})),
            Kind::RequestWelcome => {
                let notice = json!({"text": null, "system": {"type": "request_welcome"}});
                return (NOTICE_KIND.into(), notice);
            }
            Kind::Unknown(raw) => json!({"text": null, "errors": raw.get("errors"), "raw": raw}),
        };
        if let Some(context) = &self.context {
            content["context"] = context.clone();
        }
        if let Some(referral) = &self.referral {
            content["referral"] = json!(referral);
        }
        if !self.errors.is_empty() {
            content["errors"] = json!(self.errors);
        }
        (kind, content)
    }

    /// The id of the earlier message an edit, a deletion or a reaction changes; `None` for a
    /// message of its own.
    pub fn amends(&self) -> Option<&str> {
        match &self.kind {
            Kind::Edit { edit } => Some(&edit.original_message_id),
            Kind::Revoke { revoke } => Some(&revoke.original_message_id),
            Kind::Reaction { reaction } => Some(&reaction.message_id),
            Kind::Text { .. }
            | Kind::Image { .. }
            | Kind::Video { .. }
            | Kind::Audio { .. }
            | Kind::Document { .. }
            | Kind::Sticker { .. }
            | Kind::Location { .. }
            | Kind::Interactive { .. }
            | Kind::Button { .. }
            | Kind::Order { .. }
            | Kind::System { .. }
            | Kind::Contacts { .. }
            | Kind::RequestWelcome
            | Kind::Unknown(_) => None,
        }
    }
}

/// `{<kind>: {media_id, media_url, mime_type, …}, caption?}`: the file is served by Parley
/// (`media_url` is null for a file that came without its id: there is nothing to fetch).
fn media_content(kind: &str, media: &Media) -> Value {
    let url = (!media.id.is_empty()).then(|| format!("/api/media/{}", media.id));
    let mut file = json!({
        "media_id": media.id,
        "media_url": url,
        "mime_type": media.mime_type,
    });
    let extras = [
        ("filename", media.filename.as_ref().map(|v| json!(v))),
        ("voice", media.voice.map(|v| json!(v))),
        ("animated", media.animated.map(|v| json!(v))),
        ("sha256", media.sha256.as_ref().map(|v| json!(v))),
    ];
    for (name, value) in extras {
        if let Some(value) = value {
            file[name] = value;
        }
    }
    let mut content = json!({ kind: file });
    if let Some(caption) = &media.caption {
        content["caption"] = json!(caption);
    }
    content
}

/// The customer's answer: a chosen button or row (its title is the text the inbox shows), a
/// flow's answers, or a call permission.
fn interactive_content(interactive: &Interactive) -> Value {
    let choice = |reply_type: &str, c: &Choice| {
        json!({
            "text": c.title,
            "interactive": {"type": reply_type, "id": c.id, "title": c.title, "description": c.description},
        })
    };
    match interactive {
        Interactive::ButtonReply { button_reply: c } => choice("button_reply", c),
        Interactive::ListReply { list_reply: c } => choice("list_reply", c),
        Interactive::NfmReply { nfm_reply: flow } => {
            // The answers are a JSON string; one that is not JSON is kept as the string, and
            // answers sent as an object are taken as they are.
            let response = flow.response_json.as_ref().map(|answers| match answers {
                Value::String(raw) => {
                    serde_json::from_str::<Value>(raw).unwrap_or_else(|_| json!(raw))
                }
                answers => answers.clone(),
            });
            json!({
                "text": flow.body,
                "interactive": {"type": "nfm_reply", "name": flow.name, "body": flow.body, "response": response},
            })
        }
        Interactive::CallPermissionReply {
            call_permission_reply: permission,
        } => {
            let mut answer = json!(permission);
            answer["type"] = json!("call_permission_reply");
            json!({"text": null, "interactive": answer})
        }
        Interactive::Unknown(raw) => {
            let reply_type = raw.get("type").and_then(Value::as_str).unwrap_or_default();
            let reply = raw.get(reply_type).unwrap_or(&Value::Null);
            let field = |name: &str| reply.get(name).cloned().unwrap_or(Value::Null);
            // What the inbox does not read is kept as sent, so nothing of the answer is lost.
            json!({
                "text": field("title"),
                "interactive": {
                    "type": reply_type, "id": field("id"), "title": field("title"),
                    "description": field("description"),
                },
                "raw": raw,
            })
        }
    }
}
