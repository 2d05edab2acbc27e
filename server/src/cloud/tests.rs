//! The model against Meta-shaped payloads (CLOUD_API.md), and the catch-alls.

use serde_json::{Value, json};

use super::*;
use crate::cloud::graph::GraphErrorBody;
use crate::cloud::message::{Location, Text};

fn envelope(field: &str, value: Value) -> Envelope {
    let body = json!({"object": "whatsapp_business_account", "entry": [{"id": "102290129340398",
        "changes": [{"field": field, "value": value}]}]});
    Envelope::read(body.to_string().as_bytes()).expect("envelope")
}

fn messages_of(value: Value) -> MessagesValue {
    let mut envelope = envelope("messages", value);
    match envelope.entry.remove(0).changes.remove(0) {
        Change::Messages(value) => *value,
        other => panic!("not a messages change: {other:?}"),
    }
}

fn message(message: Value) -> Message {
    serde_json::from_value(message).expect("a message always reads")
}

const METADATA: &str =
    r#"{"display_phone_number":"15550783881","phone_number_id":"106540352242922"}"#;

#[test]
fn a_text_message_reads_with_its_envelope_and_sender() {
    let value = json!({"messaging_product": "whatsapp",
        "metadata": serde_json::from_str::<Value>(METADATA).expect("json"),
        "contacts": [{"profile": {"name": "Sheena Nelson"}, "wa_id": "16505551234"}],
        "messages": [{"from": "16505551234", "id": "wamid.HBg", "timestamp": "1749416383",
            "type": "text", "text": {"body": "Does it come in another color?"},
            "context": {"from": "15550783881", "id": "wamid.quoted"}}]});
    let body = json!({"object": "whatsapp_business_account", "entry": [{"id": "102290129340398",
        "changes": [{"field": "messages", "value": value.clone()}]}]});
    let read = Envelope::read(body.to_string().as_bytes()).expect("envelope");
    assert_eq!(read.object.as_deref(), Some("whatsapp_business_account"));
    assert_eq!(read.entry[0].id.as_deref(), Some("102290129340398"));
    let value = messages_of(value);
    assert_eq!(
        value.metadata.phone_number_id.as_deref(),
        Some("106540352242922")
    );
    assert_eq!(value.contacts[0].wa_id.as_deref(), Some("16505551234"));
    assert_eq!(
        value.contacts[0].profile.name.as_deref(),
        Some("Sheena Nelson")
    );
    let message = &value.messages[0];
    assert_eq!(message.timestamp, Some(1_749_416_383));
    assert_eq!(
        message.kind,
        Kind::Text {
            text: Text {
                body: "Does it come in another color?".into()
            }
        }
    );
    let (kind, content) = message.stored();
    assert_eq!(kind, "text");
    assert_eq!(
        content,
        json!({"text": "Does it come in another color?",
               "context": {"from": "15550783881", "id": "wamid.quoted"}})
    );
}

#[test]
fn a_username_and_bsuid_read_without_a_phone() {
    let value = messages_of(json!({"messaging_product": "whatsapp",
        "metadata": serde_json::from_str::<Value>(METADATA).expect("json"),
        "contacts": [{"profile": {"name": "Sheena Nelson", "username": "@realsheenanelson"},
                      "user_id": "US.13491208655302741918"}],
        "messages": [{"from_user_id": "US.13491208655302741918", "id": "wamid.b",
                      "timestamp": "1749416383", "type": "text", "text": {"body": "hi"}}]}));
    let contact = &value.contacts[0];
    assert_eq!(contact.wa_id, None);
    assert_eq!(contact.user_id.as_deref(), Some("US.13491208655302741918"));
    assert_eq!(
        contact.profile.username.as_deref(),
        Some("@realsheenanelson")
    );
    assert_eq!(value.messages[0].from, None);
    assert_eq!(
        value.messages[0].from_user_id.as_deref(),
        Some("US.13491208655302741918")
    );
}

#[test]
fn media_location_and_replies_store_the_inbox_shapes() {
    let voice = message(
        json!({"from": "1", "id": "w1", "timestamp": "1", "type": "audio",
        "audio": {"mime_type": "audio/ogg; codecs=opus", "sha256": "x", "id": "m1", "voice": true}}),
    );
    assert_eq!(
        voice.stored().1,
        json!({"audio": {"media_id": "m1", "media_url": "/api/media/m1",
                         "mime_type": "audio/ogg; codecs=opus", "sha256": "x", "voice": true}})
    );
    let doc = message(
        json!({"from": "1", "id": "w2", "timestamp": "1", "type": "document",
        "document": {"caption": "invoice", "filename": "inv.pdf", "mime_type": "application/pdf",
                     "sha256": "x", "id": "m2"}}),
    );
    assert_eq!(
        doc.stored().1,
        json!({"caption": "invoice", "document": {"media_id": "m2", "media_url": "/api/media/m2",
               "mime_type": "application/pdf", "sha256": "x", "filename": "inv.pdf"}})
    );
    let place = json!({"latitude": 37.44, "longitude": -122.16, "name": "HQ", "address": "1 Main"});
    let location = message(
        json!({"from": "1", "id": "w3", "timestamp": "1", "type": "location",
        "location": place.clone()}),
    );
    assert!(matches!(
        location.kind,
        Kind::Location {
            location: Location { .. }
        }
    ));
    assert_eq!(location.stored().1, json!({"location": place}));
    let row = message(
        json!({"from": "1", "id": "w4", "timestamp": "1", "type": "interactive",
        "interactive": {"type": "list_reply",
                        "list_reply": {"id": "r1", "title": "Row one", "description": "first"}}}),
    );
    assert_eq!(
        row.stored().1,
        json!({"text": "Row one", "interactive": {"type": "list_reply", "id": "r1",
               "title": "Row one", "description": "first"}})
    );
    let flow = message(
        json!({"from": "1", "id": "w5", "timestamp": "1", "type": "interactive",
        "interactive": {"type": "nfm_reply", "nfm_reply": {"name": "flow", "body": "Sent",
                        "response_json": "{\"a\":1}"}}}),
    );
    assert!(matches!(
        flow.kind,
        Kind::Interactive {
            interactive: Interactive::NfmReply { .. }
        }
    ));
    // A file without its id has nothing to fetch.
    let no_id = message(
        json!({"from": "1", "id": "w8", "timestamp": "1", "type": "image",
        "image": {"mime_type": "image/jpeg", "caption": "lost"}}),
    );
    assert_eq!(no_id.stored().1["image"]["media_url"], Value::Null);
    // Answers sent as the object itself are kept as they are, beside the body.
    let answers = json!({"size": "L", "flow_token": "t1"});
    let flow_object = message(
        json!({"from": "1", "id": "w7", "timestamp": "1", "type": "interactive",
        "interactive": {"type": "nfm_reply", "nfm_reply": {"name": "flow", "body": "Sent",
                        "response_json": answers.clone()}}}),
    );
    assert_eq!(
        flow_object.stored().1,
        json!({"text": "Sent", "interactive": {"type": "nfm_reply", "name": "flow",
               "body": "Sent", "response": answers}})
    );
    let order = json!({"catalog_id": "c1", "text": "mine", "product_items": [
        {"product_retailer_id": "sku1", "quantity": 2, "item_price": 9.5, "currency": "USD"}]});
    let ordered = message(
        json!({"from": "1", "id": "w6", "timestamp": "1", "type": "order",
        "order": order.clone()}),
    );
    assert_eq!(ordered.stored().1, json!({"text": "mine", "order": order}));
}

#[test]
fn an_unknown_type_keeps_the_raw_message() {
    let raw = json!({"from": "1", "id": "wamid.future", "timestamp": "1763700000",
                     "type": "hologram", "hologram": {"x": 1}});
    let read = message(raw.clone());
    assert_eq!(read.kind, Kind::Unknown(raw.clone()));
    assert_eq!(read.id.as_deref(), Some("wamid.future"));
    let (kind, content) = read.stored();
    assert_eq!(kind, "hologram");
    assert_eq!(content, json!({"text": null, "errors": null, "raw": raw}));

    let unsupported = json!({"from": "1", "id": "w", "timestamp": "1", "type": "unsupported",
        "errors": [{"code": 131051, "title": "Message type unknown"}]});
    let (kind, content) = message(unsupported.clone()).stored();
    assert_eq!(kind, "unsupported");
    assert_eq!(content["errors"][0]["code"], 131051);
    assert_eq!(content["raw"], unsupported);
}

#[test]
fn a_malformed_message_keeps_its_raw_json_and_spares_the_others() {
    let bad = json!({"from": "1", "id": "w2", "timestamp": "1", "type": "image", "image": "oops"});
    let value = messages_of(json!({"metadata": {"phone_number_id": "1"}, "messages": [
        {"from": "1", "id": "w1", "timestamp": "1", "type": "text", "text": {"body": "a"}},
        bad.clone(),
        {"from": "1", "id": "w3", "timestamp": "x", "type": "text", "text": {"body": "c"}},
    ]}));
    assert_eq!(value.messages.len(), 3);
    assert_eq!(value.messages[1].kind, Kind::Unknown(bad));
    assert_eq!(value.messages[1].type_name, "image");
    assert_eq!(
        value.messages[1].stored().1.get("image"),
        None,
        "no file to keep"
    );
    assert!(matches!(value.messages[2].kind, Kind::Text { .. }));
    assert_eq!(value.messages[2].timestamp, None, "an odd time is no error");
}

#[test]
fn statuses_read_with_their_pricing_and_errors() {
    let value = messages_of(json!({"metadata": {"phone_number_id": "1"}, "statuses": [
        {"id": "wamid.s", "status": "failed", "timestamp": "1749416383",
         "recipient_id": "16505551234", "recipient_user_id": "US.1",
         "conversation": {"id": "c1", "expiration_timestamp": "1749502783",
                          "origin": {"type": "service"}},
         "pricing": {"billable": true, "pricing_model": "PMP", "category": "service"},
         "errors": [{"code": 131047, "title": "Re-engagement message",
                     "error_data": {"details": "More than 24 hours"}}]}]}));
    let status = &value.statuses[0];
    assert_eq!(status.status.as_deref(), Some("failed"));
    assert_eq!(status.recipient_user_id.as_deref(), Some("US.1"));
    let origin = status.conversation.as_ref().and_then(|c| c.origin.as_ref());
    assert_eq!(origin.and_then(|o| o.category.as_deref()), Some("service"));
    assert_eq!(status.pricing.as_ref().and_then(|p| p.billable), Some(true));
    assert_eq!(status.errors[0]["code"], 131047);
}

#[test]
fn template_decisions_and_unknown_fields_are_changes_of_their_own() {
    let decided = envelope(
        "message_template_status_update",
        json!({"event": "APPROVED",
        "message_template_id": 1_234_567, "message_template_name": "welcome",
        "message_template_language": "en_US", "reason": "NONE"}),
    );
    let Change::TemplateStatus(update) = &decided.entry[0].changes[0] else {
        panic!("not a template decision");
    };
    assert_eq!(update.event.as_deref(), Some("APPROVED"));
    assert_eq!(update.message_template_id, Some(json!(1_234_567)));

    let echoes = json!({"metadata": {"phone_number_id": "106540352242922"},
                        "message_echoes": [{"from": "1555", "to": "1650", "id": "wamid.e",
                                            "timestamp": "1", "type": "text",
                                            "text": {"body": "On my way"}}]});
    let change = &envelope("smb_message_echoes", echoes).entry[0].changes[0];
    let Change::Echoes(value) = change else {
        panic!("not read as echoes");
    };
    assert_eq!(value.message_echoes[0].to.as_deref(), Some("1650"));
    assert_eq!(
        value.message_echoes[0].message.stored().1,
        json!({"text": "On my way"})
    );
    assert_eq!(change.phone_number_id(), Some("106540352242922"));

    let history = json!({"metadata": {"phone_number_id": "1"}, "history": []});
    let change = &envelope("history", history.clone()).entry[0].changes[0];
    let Change::Unknown { field, value } = change else {
        panic!("not kept as sent");
    };
    assert_eq!((field.as_str(), value), ("history", &history));
}

#[test]
fn the_app_address_book_names_customers_by_full_or_first_name() {
    let synced = json!({"metadata": {"phone_number_id": "106540352242922"}, "state_sync": [
        {"type": "contact", "action": "add", "metadata": {"timestamp": "1739321024"},
         "contact": {"full_name": "Pablo Morales", "first_name": "Pablo", "phone_number": "16505551234"}},
        {"type": "contact", "action": "add", "contact": {"first_name": "Ana", "phone_number": "+1 650 555 0000"}},
        {"type": "contact", "action": "remove", "contact": {"phone_number": "16505551234"}},
        {"type": "contact", "action": "add", "contact": {"full_name": "No phone"}},
    ]});
    let change = &envelope("smb_app_state_sync", synced).entry[0].changes[0];
    let Change::StateSync(value) = change else {
        panic!("not read as an address book change");
    };
    assert_eq!(change.phone_number_id(), Some("106540352242922"));
    let named: Vec<(String, String)> = (value.state_sync.iter())
        .filter_map(|item| item.named_contact())
        .map(|(phone, name)| (phone.into_string(), name))
        .collect();
    assert_eq!(
        named,
        [
            ("16505551234".to_string(), "Pablo Morales".to_string()),
            ("16505550000".to_string(), "Ana".to_string()),
        ]
    );
}

#[test]
fn only_a_body_that_is_not_a_json_object_is_refused() {
    assert!(matches!(
        Envelope::read(b"{not json"),
        Err(EnvelopeError::NotJson(_))
    ));
    assert!(matches!(
        Envelope::read(b"[1, 2]"),
        Err(EnvelopeError::NotObject)
    ));
    for empty in [
        &br#"{"entry": {}}"#[..],
        br#"{"object": "whatsapp_business_account"}"#,
    ] {
        assert!(Envelope::read(empty).expect("read").entry.is_empty());
    }
    let odd = Envelope::read(br#"{"entry": [5, {"id": "w", "changes": 3}]}"#).expect("read");
    assert_eq!(odd.entry.len(), 2);
}

#[test]
fn graph_errors_read_their_code_and_details() {
    let body: GraphErrorBody = serde_json::from_value(json!({"error": {"message": "(#131047)",
        "type": "OAuthException", "code": 131047,
        "error_data": {"details": "Message failed to send"}, "fbtrace_id": "A"}}))
    .expect("error body");
    assert_eq!(body.error.code, 131047);
    assert_eq!(
        body.error.error_data.details.as_deref(),
        Some("Message failed to send")
    );
}

#[test]
fn a_numeric_text_body_reads_as_its_digits() {
    let read = message(
        json!({"from": "1", "id": "w", "timestamp": "1", "type": "text",
        "text": {"body": 12345}}),
    );
    assert_eq!(
        read.kind,
        Kind::Text {
            text: Text {
                body: "12345".into()
            }
        }
    );
}

#[test]
fn an_edits_new_message_without_its_type_is_read_by_the_body_it_carries() {
    let edit: Message = serde_json::from_value(json!({"from": "16505551234",
        "id": "wamid.e1", "timestamp": "1763700000", "type": "edit",
        "edit": {"original_message_id": "wamid.1",
                 "message": {"text": {"body": "fixed"}}}}))
    .expect("an edit");
    let Kind::Edit { edit } = edit.kind else {
        panic!("an edit: {:?}", edit.kind)
    };
    assert_eq!(edit.message.type_name, "text");
    assert!(
        matches!(&edit.message.kind, Kind::Text { text } if text.body == "fixed"),
        "{:?}",
        edit.message.kind
    );
    // A type given is kept, even when it does not fit the body.
    let odd: Message = serde_json::from_value(json!({"type": "hologram", "text": {"body": "x"}}))
        .expect("a message");
    assert_eq!(odd.type_name, "hologram");
    assert!(matches!(odd.kind, Kind::Unknown(_)));
}
