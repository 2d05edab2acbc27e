//! The Cloud API webhook model: any bytes, any JSON, and valid deliveries with one value changed
//! read without a panic; a message of a type Parley does not know is kept as sent.

use parley_server::cloud::{Change, Envelope, Kind};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::strategies::{json, mutated, word};

/// A delivery in Meta's shape: a text, an image with a caption, a button reply and a receipt.
fn delivery() -> Value {
    json!({"object": "whatsapp_business_account", "entry": [{"id": "102290129340398",
        "changes": [{"field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550783881",
                         "phone_number_id": "106540352242922"},
            "contacts": [{"profile": {"name": "Sheena Nelson"}, "wa_id": "16505551234"}],
            "messages": [
                {"from": "16505551234", "id": "wamid.1", "timestamp": "1749416383",
                 "type": "text", "text": {"body": "Does it come in another color?"},
                 "context": {"from": "15550783881", "id": "wamid.quoted"}},
                {"from": "16505551234", "id": "wamid.2", "timestamp": "1749416384",
                 "type": "image", "image": {"id": "1003383421387256", "mime_type": "image/jpeg",
                 "sha256": "abc", "caption": "this one"}},
                {"from": "16505551234", "id": "wamid.3", "timestamp": "1749416385",
                 "type": "interactive", "interactive": {"type": "button_reply",
                 "button_reply": {"id": "yes", "title": "Yes"}}}],
            "statuses": [{"id": "wamid.out", "status": "delivered", "timestamp": "1749416386",
                          "recipient_id": "16505551234"}]}}]}]})
}

/// Everything the inbox asks of a message, so a panic anywhere in it shows.
fn read_all(body: &[u8]) {
    let Ok(envelope) = Envelope::read(body) else {
        return;
    };
    for entry in &envelope.entry {
        for change in &entry.changes {
            let _ = change.phone_number_id();
            if let Change::Messages(value) = change {
                for message in &value.messages {
                    let _ = message.sender(&value.contacts);
                    let _ = message.stored();
                    let _ = message.amends();
                }
            }
        }
    }
}

fn messages_of(envelope: &Envelope) -> Vec<&parley_server::cloud::Message> {
    envelope
        .entry
        .iter()
        .flat_map(|entry| &entry.changes)
        .flat_map(|change| match change {
            Change::Messages(value) => value.messages.iter().collect(),
            _ => Vec::new(),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_bytes_read_without_a_panic(body in prop::collection::vec(any::<u8>(), 0..512)) {
        read_all(&body);
    }

    #[test]
    fn any_json_reads_without_a_panic(doc in json()) {
        read_all(doc.to_string().as_bytes());
    }

    #[test]
    fn a_valid_delivery_with_one_value_changed_reads_without_a_panic(doc in mutated(delivery())) {
        read_all(doc.to_string().as_bytes());
    }

    #[test]
    fn any_objects_as_messages_are_each_kept(
        messages in prop::collection::vec(
            prop::collection::btree_map(word(), json(), 0..6), 0..5),
    ) {
        let mut doc = delivery();
        doc["entry"][0]["changes"][0]["value"]["messages"] = json!(messages);
        let envelope = Envelope::read(doc.to_string().as_bytes()).expect("an object reads");
        prop_assert_eq!(messages_of(&envelope).len(), messages.len());
    }

    #[test]
    fn a_message_of_an_unknown_type_is_kept_as_sent(
        kind in "[a-z_]{1,16}".prop_filter("a type Parley reads", |k| !KNOWN.contains(&k.as_str())),
        content in json(),
    ) {
        let mut doc = delivery();
        let mut message = json!({"from": "16505551234", "id": "wamid.odd",
                                 "timestamp": "1749416390", "type": kind});
        message[kind.as_str()] = content;
        doc["entry"][0]["changes"][0]["value"]["messages"] = json!([message]);
        let envelope = Envelope::read(doc.to_string().as_bytes()).expect("an object reads");
        let read = messages_of(&envelope);
        prop_assert_eq!(read.len(), 1);
        prop_assert_eq!(&read[0].type_name, &kind);
        prop_assert!(matches!(&read[0].kind, Kind::Unknown(raw) if raw["type"] == json!(kind)));
    }
}

/// The types the model reads into a kind of their own.
const KNOWN: &[&str] = &[
    "text",
    "image",
    "video",
    "audio",
    "document",
    "sticker",
    "location",
    "interactive",
    "button",
    "contacts",
    "reaction",
    "order",
    "system",
    "edit",
    "revoke",
];
