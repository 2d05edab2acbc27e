//! Real-world webhook shapes nobody here wrote: numbers where Meta's reference has strings and
//! strings where it has numbers, and one POST that mixes entries and change fields. What a user
//! reads back through the conversation list and history matches what the payload says.

use serde_json::{Value, json};

use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::{BSUID, PHONE, bsuid_text, from_username};
use crate::helpers::*;
use crate::kinds::history;
use crate::labels::rows;
use crate::live::*;

const CUSTOMER: &str = "16505551234";
const OTHER: &str = "447700900123";
/// 2025-11-21T04:40:00Z.
const SENT: &str = "1763700000";

/// A message of `kind` from `from` whose body is `body`.
fn message(from: &str, id: &str, kind: &str, body: Value) -> Value {
    let mut message = json!({"from": from, "id": id, "timestamp": SENT, "type": kind});
    message[kind] = body;
    message
}

/// One change of `field` for the number `pnid`.
fn change(field: &str, pnid: &str, mut value: Value) -> Value {
    value["messaging_product"] = json!("whatsapp");
    value["metadata"] = json!({"display_phone_number": "15550000000", "phone_number_id": pnid});
    json!({"field": field, "value": value})
}

/// The stored content of the message `id`.
fn content_of(stored: &[Value], id: &str) -> Value {
    let found = stored.iter().find(|m| m["message_id"] == id);
    found.unwrap_or_else(|| panic!("{id} not in {stored:?}"))["content"].clone()
}

both_backends!(
    coordinates_and_cart_numbers_sent_as_strings_are_stored_as_numbers,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("strings").await;
        let messages = vec![
            message(
                CUSTOMER,
                "wamid.pin",
                "location",
                json!({"latitude": "37.44", "longitude": "-122.16"}),
            ),
            message(
                CUSTOMER,
                "wamid.cart",
                "order",
                json!({"catalog_id": 1207, "text": "my order", "product_items": [
                    {"product_retailer_id": "sku1", "quantity": "2", "item_price": "9.50",
                     "currency": "USD"}]}),
            ),
        ];
        deliver(
            &app,
            &biz,
            &inbound(&biz.phone_number_id, CUSTOMER, "Ana", messages),
        )
        .await;

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(
            content_of(&stored, "wamid.pin"),
            json!({"location": {"latitude": 37.44, "longitude": -122.16}})
        );
        assert_eq!(
            content_of(&stored, "wamid.cart"),
            json!({"text": "my order", "order": {"catalog_id": "1207", "text": "my order",
                   "product_items": [{"product_retailer_id": "sku1", "quantity": 2,
                                      "item_price": 9.5, "currency": "USD"}]}})
        );
    }
);

both_backends!(
    ids_and_texts_sent_as_json_numbers_are_read_as_their_digits,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("numbers").await;
        let number: u64 = CUSTOMER.parse().expect("digits");
        let mut from_number = message(CUSTOMER, "wamid.n1", "text", json!({"body": "hello"}));
        from_number["from"] = json!(number);
        from_number["timestamp"] = json!(1763700000);
        let captioned = message(
            CUSTOMER,
            "wamid.n2",
            "image",
            json!({"id": "media-1", "mime_type": "image/jpeg", "caption": 2025}),
        );
        let mut body = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Ana",
            vec![from_number, captioned],
        );
        body["entry"][0]["changes"][0]["value"]["contacts"][0]["wa_id"] = json!(number);
        deliver(&app, &biz, &body).await;

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored.len(), 2, "{stored:?}");
        assert_eq!(content_of(&stored, "wamid.n1"), json!({"text": "hello"}));
        assert_eq!(stored[0]["sender_name"], "Ana");
        let image = content_of(&stored, "wamid.n2");
        assert_eq!(image["caption"], "2025");
        assert_eq!(image["image"]["media_url"], "/api/media/media-1");

        // A number change whose new number comes as a JSON number moves the customer.
        let changed = message(
            CUSTOMER,
            "wamid.n3",
            "system",
            json!({"body": "Ana changed their number", "type": "user_changed_number",
                   "wa_id": OTHER.parse::<u64>().expect("digits")}),
        );
        deliver(
            &app,
            &biz,
            &inbound(&biz.phone_number_id, CUSTOMER, "Ana", vec![changed]),
        )
        .await;
        let listed = rows(&app, &biz.session.access, "status=all").await;
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0]["phone_number"], OTHER);
        assert_eq!(history(&app, &biz, OTHER).await.len(), 3);
    }
);

both_backends!(
    one_post_of_many_entries_and_fields_keeps_every_item_once_even_redelivered,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("mixed").await;
        let pnid = biz.phone_number_id.clone();
        let body = json!({"object": "whatsapp_business_account", "entry": [
            {"id": "waba-1", "changes": [
                change("messages", &pnid, json!({
                    "contacts": [{"profile": {"name": "Ana"}, "wa_id": CUSTOMER},
                                 {"profile": {"name": "Bob"}, "wa_id": OTHER}],
                    "messages": [
                        message(CUSTOMER, "wamid.a1", "text", json!({"body": "from Ana"})),
                        message(OTHER, "wamid.b1", "text", json!({"body": "from Bob"})),
                        message(CUSTOMER, "wamid.odd", "image", json!("not an object")),
                    ]})),
                change("messages", &pnid, json!({"statuses": [
                    {"id": "wamid.never-sent", "status": "delivered", "timestamp": SENT,
                     "recipient_id": CUSTOMER}]})),
                change("messages", &pnid, json!({"errors": [
                    {"code": 131000, "title": "Something went wrong"}]})),
                change("account_update", &pnid, json!({"event": "VERIFIED_ACCOUNT"})),
                change("message_template_status_update", &pnid, json!({
                    "event": "APPROVED", "message_template_id": 1, "message_template_name": "x",
                    "message_template_language": "en_US", "reason": "NONE"})),
            ]},
            {"id": "waba-1", "changes": [
                change("smb_message_echoes", &pnid, json!({"message_echoes": [
                    {"from": "15550000000", "to": OTHER, "id": "wamid.e1", "timestamp": SENT,
                     "type": "text", "text": {"body": "from the app"}}]})),
                change("smb_app_state_sync", &pnid, json!({"state_sync": [
                    {"type": "contact", "action": "add",
                     "contact": {"full_name": "Cara", "phone_number": "33612345678"}}]})),
                change("messages", &pnid, json!({
                    "contacts": [{"profile": {"name": "Ana"}, "wa_id": CUSTOMER}],
                    "messages": [{"from": CUSTOMER, "id": "wamid.a2", "timestamp": SENT,
                                  "type": "reaction",
                                  "reaction": {"message_id": "wamid.a1", "emoji": "👍"}}]})),
            ]},
        ]});
        for _ in 0..2 {
            deliver(&app, &biz, &body).await;
        }
        let ana = history(&app, &biz, CUSTOMER).await;
        let ids: Vec<&Value> = ana.iter().map(|m| &m["message_id"]).collect();
        assert_eq!(ids, vec![&json!("wamid.a1"), &json!("wamid.odd")]);
        assert_eq!(
            content_of(&ana, "wamid.a1"),
            json!({"text": "from Ana", "reactions": {"customer": "👍"}})
        );
        let bob = history(&app, &biz, OTHER).await;
        let texts: Vec<(&Value, &Value)> = (bob.iter())
            .map(|m| (&m["direction"], &m["content"]["text"]))
            .collect();
        assert_eq!(
            texts,
            vec![
                (&json!("incoming"), &json!("from Bob")),
                (&json!("outgoing"), &json!("from the app")),
            ]
        );
        let listed = rows(&app, &biz.session.access, "status=all").await;
        let mut names: Vec<&str> = (listed.iter())
            .map(|r| r["name"].as_str().unwrap_or_default())
            .collect();
        names.sort();
        assert_eq!(names, vec!["Ana", "Bob", "Cara"]);
    }
);

both_backends!(
    times_sent_as_json_numbers_or_with_a_fraction_keep_their_second,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("fractions").await;
        let at = |id: &str, timestamp: Value| {
            let mut message = message(CUSTOMER, id, "text", json!({"body": id}));
            message["timestamp"] = timestamp;
            message
        };
        let messages = vec![
            at("wamid.t1", json!(1763700001)),
            at("wamid.t2", json!(1763700002.5)),
            at("wamid.t3", json!("1763700003.0")),
        ];
        deliver(
            &app,
            &biz,
            &inbound(&biz.phone_number_id, CUSTOMER, "Ana", messages),
        )
        .await;

        let stored = history(&app, &biz, CUSTOMER).await;
        let times: Vec<(&Value, &Value)> = (stored.iter())
            .map(|m| (&m["message_id"], &m["timestamp"]))
            .collect();
        assert_eq!(
            times,
            vec![
                (&json!("wamid.t1"), &json!("2025-11-21T04:40:01.000Z")),
                (&json!("wamid.t2"), &json!("2025-11-21T04:40:02.000Z")),
                (&json!("wamid.t3"), &json!("2025-11-21T04:40:03.000Z")),
            ]
        );
    }
);

both_backends!(
    a_new_number_brings_a_new_bsuid_and_a_message_naming_only_it_joins_the_new_number,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("renumbered").await;
        let pnid = biz.phone_number_id.clone();
        let new_bsuid = "US.77700000000000000001";
        let first = from_username(
            &pnid,
            Some(PHONE),
            vec![bsuid_text(Some(PHONE), "wamid.r1", "hello", SENT)],
        );
        deliver(&app, &biz, &first).await;
        // As Meta's system messages reference has it: no contacts, the new number in `wa_id`
        // and the BSUID it regenerated in `user_id`.
        let mut changed = inbound(
            &pnid,
            PHONE,
            "Sheena",
            vec![message(
                PHONE,
                "wamid.r2",
                "system",
                json!({"body": "User Sheena changed from 16505551234 to 447700900123",
                             "type": "user_changed_number", "wa_id": OTHER,
                             "user_id": new_bsuid, "previous_user_id": BSUID}),
            )],
        );
        changed["entry"][0]["changes"][0]["value"]
            .as_object_mut()
            .expect("value")
            .remove("contacts");
        deliver(&app, &biz, &changed).await;
        // The customer's next message withholds the new number.
        let mut next = bsuid_text(None, "wamid.r3", "it's me", "1763700060");
        next["from_user_id"] = json!(new_bsuid);
        let mut withheld = from_username(&pnid, None, vec![next]);
        withheld["entry"][0]["changes"][0]["value"]["contacts"][0]["user_id"] = json!(new_bsuid);
        deliver(&app, &biz, &withheld).await;

        let listed = rows(&app, &biz.session.access, "status=all").await;
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0]["phone_number"], OTHER);
        assert_eq!(listed[0]["user_id"], new_bsuid);
        let ids: Vec<Value> = (history(&app, &biz, OTHER).await.iter())
            .map(|m| m["message_id"].clone())
            .collect();
        assert_eq!(
            ids,
            vec![json!("wamid.r1"), json!("wamid.r2"), json!("wamid.r3")]
        );
    }
);

both_backends!(
    a_contact_card_with_a_part_of_an_odd_shape_keeps_the_rest_and_one_with_none_is_left_out,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("cards").await;
        let odd = json!({"name": {"formatted_name": "Ana Ruiz"}, "birthday": "1990-01-01",
                         "phones": [{"phone": 16505550101u64, "wa_id": "16505550101",
                                     "type": "CELL"}],
                         "org": "Acme", "emails": {"email": "ana@example.com"}});
        let plain = json!({"name": {"formatted_name": "Bo", "first_name": "Bo"},
                           "phones": [{"phone": "+44 7700 900123", "type": "HOME"}]});
        let shared = message(
            CUSTOMER,
            "wamid.cards",
            "contacts",
            json!([odd, "not a card", {"name": "Bo"}, plain.clone()]),
        );
        deliver(
            &app,
            &biz,
            &inbound(&biz.phone_number_id, CUSTOMER, "Ana", vec![shared]),
        )
        .await;

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(
            content_of(&stored, "wamid.cards"),
            json!({"text": null, "contacts": [
                {"name": {"formatted_name": "Ana Ruiz"}, "birthday": "1990-01-01",
                 "phones": [{"phone": "16505550101", "wa_id": "16505550101", "type": "CELL"}]},
                plain,
            ]})
        );
    }
);

both_backends!(
    a_sender_whose_profile_writes_their_number_otherwise_keeps_its_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("ninth_digit").await;
        // Meta: a user's phone number (`from`) and WhatsApp id (`wa_id`) may not match, as a
        // Brazilian mobile's with and without its ninth digit.
        let (from, wa_id) = ("5511987654321", "551187654321");
        let hello = message(from, "wamid.oi", "text", json!({"body": "oi"}));
        deliver(
            &app,
            &biz,
            &inbound(&biz.phone_number_id, wa_id, "João", vec![hello]),
        )
        .await;

        let listed = rows(&app, &biz.session.access, "status=all").await;
        let named: Vec<(&Value, &Value)> = (listed.iter())
            .map(|r| (&r["phone_number"], &r["name"]))
            .collect();
        assert_eq!(named, vec![(&json!(from), &json!("João"))]);
        assert_eq!(history(&app, &biz, from).await[0]["sender_name"], "João");

        // With messages from two senders, the one profile names only the one it names.
        let messages = vec![
            message(OTHER, "wamid.bob", "text", json!({"body": "hi"})),
            message(
                "4915112345678",
                "wamid.eve",
                "text",
                json!({"body": "hallo"}),
            ),
        ];
        deliver(
            &app,
            &biz,
            &inbound(&biz.phone_number_id, OTHER, "Bob", messages),
        )
        .await;
        let listed = rows(&app, &biz.session.access, "status=all").await;
        let name_of = |phone: &str| {
            let row = listed.iter().find(|r| r["phone_number"] == phone);
            row.map(|r| r["name"].clone())
        };
        assert_eq!(name_of(OTHER), Some(json!("Bob")));
        assert_eq!(name_of("4915112345678"), Some(json!("")));
    }
);
