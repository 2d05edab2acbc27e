//! What an automated reply sends: the answer chosen, as a Cloud API message and as the inbox
//! shows it.

use serde_json::{Value, json};

use crate::customer::address;
use crate::outbox::UPLOAD_KEY;
use crate::store::{FlowStep, QuickReplyButton, Reply, ReplyMedia};

/// What to send back.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// `text` or `interactive` (a list).
    pub kind: String,
    pub text: String,
    pub caption: String,
    pub buttons: Vec<QuickReplyButton>,
    pub media: Option<ReplyMedia>,
    pub interactive: Option<Value>,
}

impl Answer {
    pub(super) fn of_reply(reply: &Reply) -> Answer {
        Answer {
            kind: reply.kind.clone(),
            text: reply.response_text.clone(),
            caption: reply.caption.clone(),
            buttons: reply.quick_reply_buttons.clone(),
            media: reply.media.clone(),
            interactive: reply.interactive.clone(),
        }
    }

    pub(super) fn of_step(step: &FlowStep) -> Answer {
        Answer {
            kind: "text".into(),
            text: step.response_text.clone(),
            caption: step.caption.clone(),
            buttons: step.quick_reply_buttons.clone(),
            media: step.media.clone(),
            interactive: None,
        }
    }
}

/// A message ready for the outbox: what the inbox shows and the provider request body.
#[derive(Clone, Debug, PartialEq)]
pub struct OutgoingReply {
    /// The message type the inbox stores (`text`, `image`, …, `interactive`).
    pub kind: String,
    /// What the inbox shows.
    pub content: Value,
    /// The Cloud API body; a stored file is named under `UPLOAD_KEY` for the outbox to upload.
    pub payload: Value,
}

/// What a body may hold when a message needs one and the reply has no text (the Cloud API
/// refuses an empty interactive body).
const EMPTY_BODY: &str = "\u{2026}";

impl Answer {
    /// The Cloud API message to `to`: a list, buttons (with the media as their header, audio
    /// excepted), a media message with its caption, or text.
    pub fn message(&self, to: &str) -> OutgoingReply {
        let envelope = |kind: &str| {
            let mut envelope = json!({"messaging_product": "whatsapp", "recipient_type": "individual", "type": kind});
            address(&mut envelope, to);
            envelope
        };
        // With media the form's text is a caption; without, the response text.
        let (first, second) = if self.media.is_some() {
            (&self.caption, &self.text)
        } else {
            (&self.text, &self.caption)
        };
        let body = if first.is_empty() { second } else { first }.clone();
        if let Some(list) = self
            .interactive
            .as_ref()
            .filter(|_| self.kind == "interactive")
        {
            let mut payload = envelope("interactive");
            payload["interactive"] = list.clone();
            payload["interactive"]["type"] = json!("list");
            let shown = list.pointer("/body/text").cloned().unwrap_or(json!(""));
            return OutgoingReply {
                kind: "interactive".into(),
                content: json!({"text": shown, "interactive": list}),
                payload,
            };
        }
        let media = self.media.as_ref();
        if !self.buttons.is_empty() {
            let buttons: Vec<Value> = self
                .buttons
                .iter()
                .map(|b| json!({"type": "reply", "reply": {"id": b.id, "title": b.title}}))
                .collect();
            let text = if body.is_empty() {
                EMPTY_BODY.to_string()
            } else {
                body
            };
            let mut interactive = json!({"type": "button", "body": {"text": text},
                                         "action": {"buttons": buttons}});
            let mut payload = envelope("interactive");
            let mut content = json!({"text": text, "buttons": self.buttons});
            if let Some(media) = media.filter(|m| m.media_type != "audio") {
                let kind = media.media_type.as_str();
                interactive["header"] = json!({"type": kind, kind: {"id": ""}});
                payload[UPLOAD_KEY] = json!({"media_id": media.id,
                                             "pointer": format!("/interactive/header/{kind}/id")});
                content[kind] = json!({"media_url": media.url()});
            }
            payload["interactive"] = interactive;
            return OutgoingReply {
                kind: "interactive".into(),
                content,
                payload,
            };
        }
        if let Some(media) = media {
            let kind = media.media_type.as_str();
            let mut inner = json!({"id": ""});
            let mut content = json!({ kind: {"media_url": media.url()} });
            if kind != "audio" && !body.is_empty() {
                inner["caption"] = json!(body);
                content["caption"] = json!(body);
            }
            let mut payload = envelope(kind);
            payload[kind] = inner;
            payload[UPLOAD_KEY] = json!({"media_id": media.id, "pointer": format!("/{kind}/id")});
            return OutgoingReply {
                kind: kind.to_string(),
                content,
                payload,
            };
        }
        let mut payload = envelope("text");
        payload["text"] = json!({"preview_url": true, "body": body});
        OutgoingReply {
            kind: "text".into(),
            content: json!({"text": body}),
            payload,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replies::engine::tests::reply;

    #[test]
    fn answers_become_cloud_api_messages() {
        let mut text = reply("a", "hi");
        let message = Answer::of_reply(&text).message("15550001111");
        assert_eq!(message.kind, "text");
        assert_eq!(message.payload["text"]["body"], "answer of a");
        assert_eq!(message.payload["to"], "15550001111");

        text.quick_reply_buttons = vec![QuickReplyButton {
            id: "yes".into(),
            title: "Yes".into(),
        }];
        text.media = Some(ReplyMedia {
            id: "m1".into(),
            media_type: "image".into(),
        });
        let message = Answer::of_reply(&text).message("1");
        assert_eq!(message.payload["interactive"]["type"], "button");
        assert_eq!(
            message.payload["interactive"]["action"]["buttons"][0]["reply"]["id"],
            "yes"
        );
        assert_eq!(
            message.payload[UPLOAD_KEY]["pointer"],
            "/interactive/header/image/id"
        );
        assert!(
            message
                .payload
                .pointer("/interactive/header/image/id")
                .is_some(),
            "the pointer names a slot that exists"
        );

        text.quick_reply_buttons.clear();
        text.caption = "A photo".into();
        let message = Answer::of_reply(&text).message("1");
        assert_eq!(message.kind, "image");
        assert_eq!(message.payload["image"]["caption"], "A photo");
        assert!(message.payload.pointer("/image/id").is_some());

        let mut list = reply("l", "menu");
        list.kind = "interactive".into();
        list.interactive =
            Some(json!({"body": {"text": "Pick"}, "action": {"button": "Go", "sections": []}}));
        let message = Answer::of_reply(&list).message("1");
        assert_eq!(message.payload["interactive"]["type"], "list");
        assert_eq!(message.content["text"], "Pick");
    }
}
