//! What the inbox stores of an inbound message: its kind and content (docs/API.md shapes).
//! Adding a kind means a `Kind` variant and its arms here; the compiler lists the matches.

use serde_json::{Value, json};

use super::message::{Interactive, Kind, Media, Message};

impl Message {
    /// The stored kind (the `type` as sent) and content.
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
            Kind::Unknown(raw) => json!({"text": null, "errors": raw.get("errors"), "raw": raw}),
        };
        if let Some(context) = &self.context {
            content["context"] = context.clone();
        }
        (kind, content)
    }

    /// The provider's id of the file this message carries, to keep while its URL lasts.
    pub fn media_id(&self) -> Option<&str> {
        match &self.kind {
            Kind::Image { image: media }
            | Kind::Video { video: media }
            | Kind::Audio { audio: media }
            | Kind::Document { document: media }
            | Kind::Sticker { sticker: media } => Some(&media.id),
            Kind::Text { .. }
            | Kind::Location { .. }
            | Kind::Interactive { .. }
            | Kind::Button { .. }
            | Kind::Order { .. }
            | Kind::Reaction { .. }
            | Kind::System { .. }
            | Kind::Unknown(_) => None,
        }
    }
}

/// `{<kind>: {media_id, media_url, mime_type, …}, caption?}`: the file is served by Parley.
fn media_content(kind: &str, media: &Media) -> Value {
    let mut file = json!({
        "media_id": media.id,
        "media_url": format!("/api/media/{}", media.id),
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

/// The chosen button or row, with its title as the text the inbox shows.
fn interactive_content(interactive: &Interactive) -> Value {
    let (reply_type, id, title, description) = match interactive {
        Interactive::ButtonReply { button_reply: c } => (
            "button_reply",
            json!(c.id),
            json!(c.title),
            json!(c.description),
        ),
        Interactive::ListReply { list_reply: c } => (
            "list_reply",
            json!(c.id),
            json!(c.title),
            json!(c.description),
        ),
        Interactive::NfmReply { .. } => ("nfm_reply", Value::Null, Value::Null, Value::Null),
        Interactive::Unknown(raw) => {
            let reply_type = raw.get("type").and_then(Value::as_str).unwrap_or_default();
            let reply = raw.get(reply_type).unwrap_or(&Value::Null);
            let field = |name: &str| reply.get(name).cloned().unwrap_or(Value::Null);
            (
                reply_type,
                field("id"),
                field("title"),
                field("description"),
            )
        }
    };
    json!({
        "text": title,
        "interactive": {"type": reply_type, "id": id, "title": title, "description": description},
    })
}
