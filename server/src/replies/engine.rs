//! Which automated reply answers an inbound message (docs/AUTOMATED_REPLIES.md). Pure: the
//! conversation actor loads the replies, the steps and the cooldown memory, asks, and sends.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::outbox::UPLOAD_KEY;
use crate::store::{FlowStep, QuickReplyButton, Reply, ReplyMedia, trigger_key};

/// What the customer sent, as far as matching cares.
#[derive(Clone, Copy, Debug)]
pub enum InboundKind<'a> {
    /// A typed text message.
    Text(&'a str),
    /// A press of a quick-reply button (`interactive.button_reply` or a template's `button`).
    Button { id: &'a str, title: &'a str },
    /// A pick from an interactive list (`interactive.list_reply`).
    ListRow { id: &'a str, title: &'a str },
    /// Media, location, reactions and the rest: only the default reply may answer.
    Other,
}

/// Why a reply was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The text equals the reply's trigger.
    Trigger,
    /// A button or list row id names a flow step.
    FlowStep,
    /// A button or list row id names a reply's trigger.
    Linked,
    /// Nothing matched.
    Default,
}

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

/// The reply chosen, and what it sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub reply_id: String,
    /// The flow step's trigger, when a step answers.
    pub step: Option<String>,
    pub reason: Reason,
    pub answer: Answer,
}

impl Answer {
    fn of_reply(reply: &Reply) -> Answer {
        Answer {
            kind: reply.kind.clone(),
            text: reply.response_text.clone(),
            caption: reply.caption.clone(),
            buttons: reply.quick_reply_buttons.clone(),
            media: reply.media.clone(),
            interactive: reply.interactive.clone(),
        }
    }

    fn of_step(step: &FlowStep) -> Answer {
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
            json!({"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
                   "type": kind})
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

/// Chooses the reply to `inbound`, or `None`.
///
/// - `steps`: every flow step of the business;
/// - `last_sent`: when each reply (by id) last answered this customer, Unix ms;
/// - `now`: Unix ms.
///
/// Rules, in order: a typed text equal to an active reply's trigger (both trimmed, any case)
/// picks that reply; a button or list id names a flow step of an active reply (the reply that
/// last answered this customer wins a tie), or else an active reply's trigger; when nothing
/// matches, the active default reply. A typed trigger and the default honour the cooldown; a
/// press does not, as the customer asked for exactly that answer.
pub fn choose_reply(
    replies: &[Reply],
    steps: &[FlowStep],
    inbound: &InboundKind<'_>,
    last_sent: &HashMap<String, i64>,
    now: i64,
) -> Option<Choice> {
    let active = |id: &str| replies.iter().find(|r| r.id == id && r.is_active);
    let by_trigger = |key: &str| {
        replies
            .iter()
            .find(|r| r.is_active && trigger_key(&r.trigger) == key)
    };
    let cooled = |reply: &Reply| {
        let window = (reply.cooldown_hours * 3_600_000.0) as i64;
        match last_sent.get(&reply.id) {
            Some(sent) if window > 0 => now - sent >= window,
            _ => true,
        }
    };
    match inbound {
        InboundKind::Text(text) => {
            if let Some(reply) = by_trigger(&trigger_key(text)) {
                // A matched reply in its cooldown answers nothing, not even the default.
                return cooled(reply).then(|| choice(reply, None, Reason::Trigger));
            }
        }
        InboundKind::Button { id, title } | InboundKind::ListRow { id, title } => {
            let id = id.trim();
            let mut candidates: Vec<(&FlowStep, &Reply)> = steps
                .iter()
                .filter(|s| s.trigger.trim() == id)
                .filter_map(|s| active(&s.reply_id).map(|r| (s, r)))
                .collect();
            candidates.sort_by_key(|(_, r)| std::cmp::Reverse(last_sent.get(&r.id).copied()));
            if let Some((step, reply)) = candidates.first() {
                return Some(choice(reply, Some(step), Reason::FlowStep));
            }
            let linked = by_trigger(&trigger_key(id)).or_else(|| by_trigger(&trigger_key(title)));
            if let Some(reply) = linked {
                return Some(choice(reply, None, Reason::Linked));
            }
        }
        InboundKind::Other => {}
    }
    replies
        .iter()
        .find(|r| r.is_active && r.is_default)
        .filter(|r| cooled(r))
        .map(|r| choice(r, None, Reason::Default))
}

fn choice(reply: &Reply, step: Option<&FlowStep>, reason: Reason) -> Choice {
    Choice {
        reply_id: reply.id.clone(),
        step: step.map(|s| s.trigger.clone()),
        reason,
        answer: step.map_or_else(|| Answer::of_reply(reply), Answer::of_step),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(id: &str, trigger: &str) -> Reply {
        Reply {
            id: id.into(),
            trigger: trigger.into(),
            kind: "text".into(),
            response_text: format!("answer of {id}"),
            caption: String::new(),
            is_active: true,
            is_default: false,
            cooldown_hours: 0.0,
            quick_reply_buttons: Vec::new(),
            media: None,
            interactive: None,
            flow_step_count: 0,
            updated_at: 0,
        }
    }

    fn step(reply_id: &str, trigger: &str) -> FlowStep {
        FlowStep {
            reply_id: reply_id.into(),
            trigger: trigger.into(),
            response_text: format!("step {trigger}"),
            caption: String::new(),
            quick_reply_buttons: Vec::new(),
            media: None,
        }
    }

    const HOUR: i64 = 3_600_000;

    fn pick(replies: &[Reply], steps: &[FlowStep], inbound: InboundKind<'_>) -> Option<Choice> {
        choose_reply(replies, steps, &inbound, &HashMap::new(), 10 * HOUR)
    }

    #[test]
    fn a_trigger_matches_the_whole_message_in_any_case() {
        let replies = [reply("a", "Hello"), reply("b", "price list")];
        let chosen = pick(&replies, &[], InboundKind::Text("  hELLo ")).expect("matched");
        assert_eq!(
            (chosen.reply_id.as_str(), chosen.reason),
            ("a", Reason::Trigger)
        );
        assert_eq!(chosen.answer.text, "answer of a");
        assert!(pick(&replies, &[], InboundKind::Text("hello there")).is_none());
        assert!(pick(&replies, &[], InboundKind::Text("price")).is_none());
    }

    #[test]
    fn inactive_replies_never_answer() {
        let mut off = reply("a", "hello");
        off.is_active = false;
        assert!(pick(&[off], &[], InboundKind::Text("hello")).is_none());
    }

    #[test]
    fn a_button_walks_a_flow_step_or_opens_a_linked_reply() {
        let replies = [reply("a", "menu"), reply("b", "opening hours")];
        let steps = [step("a", "menu_prices"), step("a", "menu_more")];
        let pressed = InboundKind::Button {
            id: "menu_prices",
            title: "Prices",
        };
        let chosen = pick(&replies, &steps, pressed).expect("step");
        assert_eq!(chosen.step.as_deref(), Some("menu_prices"));
        assert_eq!(chosen.answer.text, "step menu_prices");
        let linked = InboundKind::ListRow {
            id: "Opening Hours",
            title: "Hours",
        };
        let chosen = pick(&replies, &steps, linked).expect("linked");
        assert_eq!(
            (chosen.reply_id.as_str(), chosen.reason),
            ("b", Reason::Linked)
        );
    }

    #[test]
    fn the_default_covers_the_rest_and_the_cooldown_holds_repeats() {
        let mut hello = reply("a", "hello");
        hello.cooldown_hours = 2.0;
        let mut fallback = reply("d", "anything");
        fallback.is_default = true;
        let replies = [hello, fallback];
        let chosen = pick(&replies, &[], InboundKind::Text("what?")).expect("default");
        assert_eq!(
            (chosen.reply_id.as_str(), chosen.reason),
            ("d", Reason::Default)
        );
        assert_eq!(
            pick(&replies, &[], InboundKind::Other).map(|c| c.reply_id),
            Some("d".into())
        );

        let sent = HashMap::from([("a".to_string(), 9 * HOUR)]);
        let inbound = InboundKind::Text("hello");
        assert!(choose_reply(&replies, &[], &inbound, &sent, 10 * HOUR).is_none());
        let later = choose_reply(&replies, &[], &inbound, &sent, 11 * HOUR).expect("cooled");
        assert_eq!(later.reply_id, "a");
    }

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

    #[test]
    fn the_reply_that_last_answered_wins_a_shared_step_id() {
        let replies = [reply("a", "one"), reply("b", "two")];
        let steps = [step("a", "yes"), step("b", "yes")];
        let sent = HashMap::from([("a".to_string(), HOUR), ("b".to_string(), 2 * HOUR)]);
        let pressed = InboundKind::Button {
            id: "yes",
            title: "Yes",
        };
        let chosen = choose_reply(&replies, &steps, &pressed, &sent, 3 * HOUR).expect("step");
        assert_eq!(chosen.reply_id, "b");
    }
}
