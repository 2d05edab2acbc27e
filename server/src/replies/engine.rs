//! Which automated reply answers an inbound message (docs/AUTOMATED_REPLIES.md). Pure: the
//! conversation actor loads the replies, the steps and the cooldown memory, asks, and sends.

use std::collections::HashMap;

use super::answer::Answer;
use crate::cloud::{Interactive, Kind};
use crate::search_text::folded_words;
use crate::store::{FlowStep, MatchMode, Reply, trigger_key};

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
    /// A notice WhatsApp writes about the customer (a changed number or id), not something they
    /// sent: no reply answers it.
    Notice,
}

impl<'a> From<&'a Kind> for InboundKind<'a> {
    fn from(kind: &'a Kind) -> InboundKind<'a> {
        match kind {
            Kind::Text { text } => InboundKind::Text(&text.body),
            Kind::System { .. } | Kind::RequestWelcome => InboundKind::Notice,
            Kind::Interactive { interactive } => match interactive {
                Interactive::ButtonReply { button_reply: c } => InboundKind::Button {
                    id: &c.id,
                    title: &c.title,
                },
                Interactive::ListReply { list_reply: c } => InboundKind::ListRow {
                    id: &c.id,
                    title: &c.title,
                },
                Interactive::NfmReply { .. }
                | Interactive::CallPermissionReply { .. }
                | Interactive::Unknown(_) => InboundKind::Other,
            },
            Kind::Button { button } => InboundKind::Button {
                id: button.payload.as_deref().unwrap_or_default(),
                title: button.text.as_deref().unwrap_or_default(),
            },
            Kind::Image { .. }
            | Kind::Video { .. }
            | Kind::Audio { .. }
            | Kind::Document { .. }
            | Kind::Sticker { .. }
            | Kind::Location { .. }
            | Kind::Order { .. }
            | Kind::Reaction { .. }
            | Kind::Contacts { .. }
            | Kind::Edit { .. }
            | Kind::Revoke { .. }
            | Kind::Unknown(_) => InboundKind::Other,
        }
    }
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

/// The reply chosen, and what it sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub reply_id: String,
    /// The flow step's trigger, when a step answers.
    pub step: Option<String>,
    pub reason: Reason,
    pub answer: Answer,
}

/// Chooses the reply to `inbound`, or `None`.
///
/// - `steps`: every flow step of the business;
/// - `last_sent`: when each reply (by id) last answered this customer, Unix ms;
/// - `now`: Unix ms.
///
/// Rules, in order: a typed text that answers an active reply's trigger in its match mode (an
/// `exact` reply before the others) picks that reply; a button or list id names a flow step of an active reply (the reply that
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
    // A reply that matches the whole text wins over one that matches part of it.
    let by_text = |text: &str| {
        let active = || replies.iter().filter(|r| r.is_active);
        active()
            .find(|r| r.match_mode == MatchMode::Exact && answers(r, text))
            .or_else(|| active().find(|r| answers(r, text)))
    };
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
            if let Some(reply) = by_text(text) {
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
        InboundKind::Notice => return None,
    }
    replies
        .iter()
        .find(|r| r.is_active && r.is_default)
        .filter(|r| cooled(r))
        .map(|r| choice(r, None, Reason::Default))
}

/// Whether a typed text answers the reply's trigger in its match mode, both folded as search
/// folds them. A trigger of no letters or digits (an emoji) matches the whole text only.
fn answers(reply: &Reply, text: &str) -> bool {
    let trigger = folded_words(&reply.trigger);
    if trigger.is_empty() {
        return trigger_key(&reply.trigger) == trigger_key(text);
    }
    let text = folded_words(text);
    match reply.match_mode {
        MatchMode::Exact => text == trigger,
        MatchMode::StartsWith => text == trigger || text.starts_with(&format!("{trigger} ")),
        MatchMode::Contains => format!(" {text} ").contains(&format!(" {trigger} ")),
    }
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
pub(crate) mod tests {
    use super::*;

    pub(crate) fn reply(id: &str, trigger: &str) -> Reply {
        Reply {
            id: id.into(),
            trigger: trigger.into(),
            kind: "text".into(),
            response_text: format!("answer of {id}"),
            caption: String::new(),
            is_active: true,
            is_default: false,
            cooldown_hours: 0.0,
            match_mode: MatchMode::Exact,
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
    fn a_trigger_matches_without_latin_accents_either_way() {
        let replies = [reply("a", "Café"), reply("b", "precio")];
        for (typed, id) in [("cafe", "a"), ("CAFÉ", "a"), ("PRÉCIO", "b")] {
            let chosen = pick(&replies, &[], InboundKind::Text(typed)).expect(typed);
            assert_eq!(chosen.reply_id, id, "{typed}");
        }
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
        assert!(pick(&replies, &[], InboundKind::Notice).is_none());

        let sent = HashMap::from([("a".to_string(), 9 * HOUR)]);
        let inbound = InboundKind::Text("hello");
        assert!(choose_reply(&replies, &[], &inbound, &sent, 10 * HOUR).is_none());
        let later = choose_reply(&replies, &[], &inbound, &sent, 11 * HOUR).expect("cooled");
        assert_eq!(later.reply_id, "a");
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
