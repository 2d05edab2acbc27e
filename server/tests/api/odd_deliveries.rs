//! Deliveries with an item no message can be: a time out of any range, half a UTF-16 pair, a
//! profile name no name can be, a message id too long for an index key. The item is kept as best it can be and never costs the rest of
//! the delivery, or the next one.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505551234";

/// `CUSTOMER`'s conversation as the API answers it.
async fn conversation(app: &TestApp, biz: &Business) -> Value {
    let (status, page) = app
        .get(
            &format!("/api/conversation/{CUSTOMER}"),
            &biz.session.access,
        )
        .await;
    assert_eq!(status, 200, "{page}");
    page
}

/// The history of `CUSTOMER`'s conversation: (message id, timestamp, text), oldest first.
async fn history(app: &TestApp, biz: &Business) -> Vec<(String, String, String)> {
    let page = conversation(app, biz).await;
    let mut messages: Vec<(String, String, String)> = page["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| {
            let text = m["content"]["text"].as_str().unwrap_or_default();
            let field = |name: &str| m[name].as_str().expect(name).to_string();
            (field("message_id"), field("timestamp"), text.to_string())
        })
        .collect();
    messages.sort();
    messages
}

fn text_at(id: &str, timestamp: Value) -> Value {
    json!({"from": CUSTOMER, "id": id, "timestamp": timestamp, "type": "text",
           "text": {"body": id}})
}

both_backends!(
    a_time_no_message_can_have_counts_as_now_and_stops_nothing,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("oddtimes").await;
        let now_ms = chrono::Utc::now().timestamp_millis();
        let messages = vec![
            text_at("wamid.t1", json!("1763700000")),
            text_at("wamid.huge", json!("99999999999999999")),
            text_at("wamid.number", json!(99_999_999_999_999_999_i64)),
            text_at("wamid.edge", json!("9223372036854775")),
            text_at("wamid.millis", json!(now_ms.to_string())),
            text_at("wamid.negative", json!("-5")),
        ];
        let payload = inbound(&biz.phone_number_id, CUSTOMER, "Odd", messages);
        let (status, body) = app.webhook(&payload, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");
        // The writer took them and takes what follows.
        let later = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Odd",
            vec![text_at("wamid.t2", json!("1763700001"))],
        );
        let (status, body) = app.webhook(&later, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");

        let stored = history(&app, &biz).await;
        let ids: Vec<&str> = stored.iter().map(|(id, ..)| id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "wamid.edge",
                "wamid.huge",
                "wamid.millis",
                "wamid.negative",
                "wamid.number",
                "wamid.t1",
                "wamid.t2"
            ]
        );
        let received = chrono::Utc::now();
        for (id, timestamp, _) in &stored {
            let at = chrono::DateTime::parse_from_rfc3339(timestamp)
                .unwrap_or_else(|_| panic!("{id}: {timestamp} is RFC 3339"));
            if !["wamid.t1", "wamid.t2"].contains(&id.as_str()) {
                let age = received.signed_duration_since(at).num_seconds();
                assert!(
                    (0..600).contains(&age),
                    "{id} counts as sent now: {timestamp}"
                );
            }
        }
    }
);

both_backends!(
    half_a_utf16_pair_is_kept_as_the_replacement_character_with_the_rest,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("surrogates").await;
        let payload = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Half",
            vec![
                text_at("wamid.lone", json!("1763700000")),
                text_at("wamid.fine", json!("1763700001")),
            ],
        );
        // Written by hand: JSON text that no reader takes as a string as it stands.
        let raw = payload
            .to_string()
            .replace("\"body\":\"wamid.lone\"", "\"body\":\"a\\ud800b\\udc00c\"")
            .replace(
                "\"body\":\"wamid.fine\"",
                "\"body\":\"\\ud83d\\ude00 fine\"",
            );
        let (status, body) = app.webhook_text(raw, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");

        let stored = history(&app, &biz).await;
        let texts: Vec<(&str, &str)> = stored
            .iter()
            .map(|(id, _, text)| (id.as_str(), text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                ("wamid.fine", "😀 fine"),
                ("wamid.lone", "a\u{FFFD}b\u{FFFD}c")
            ]
        );
    }
);

both_backends!(
    a_profile_name_too_long_or_with_hidden_characters_is_shown_cleaned_and_cut,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("oddnames").await;
        let long = format!("\u{202E}Reza\u{200B}\n{}", "x".repeat(5_000));
        let messages = vec![text_at("wamid.n1", json!("1763700000"))];
        let payload = inbound(&biz.phone_number_id, CUSTOMER, &long, messages);
        let (status, body) = app.webhook(&payload, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");
        let other = "16505550000";
        let mut joined = inbound(&biz.phone_number_id, other, "Sara 👩\u{200D}💻", vec![]);
        joined["entry"][0]["changes"][0]["value"]["messages"] = json!([{"from": other, "id": "wamid.n2", "timestamp": "1763700001",
                    "type": "text", "text": {"body": "hi"}}]);
        let (status, body) = app.webhook(&joined, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");

        let (status, body) = app.get("/api/users", &biz.session.access).await;
        assert_eq!(status, 200, "{body}");
        let names: Vec<(&str, &str)> = (body["data"]["users"].as_array().expect("users"))
            .iter()
            .map(|row| {
                (
                    row["phone_number"].as_str().expect("phone"),
                    row["name"].as_str().expect("name"),
                )
            })
            .collect();
        let cut = format!("Reza{}", "x".repeat(96));
        assert_eq!(
            names,
            [(other, "Sara 👩\u{200D}💻"), (CUSTOMER, cut.as_str())]
        );
        assert_eq!(history(&app, &biz).await.len(), 1, "the message is kept");
    }
);

both_backends!(
    a_text_too_long_to_index_whole_is_kept_and_found_by_its_start,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("longtext").await;
        // About 1.9 MB of distinct words: more than one Postgres full-text entry holds.
        let long: String = (0..250_000).map(|i| format!("w{i} ")).collect();
        let mut essay = text_at("wamid.essay", json!("1763700000"));
        essay["text"]["body"] = json!(format!("opening {long}"));
        let messages = vec![essay, text_at("wamid.next", json!("1763700001"))];
        let payload = inbound(&biz.phone_number_id, CUSTOMER, "Long", messages);
        let (status, body) = app.webhook(&payload, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");

        let stored = history(&app, &biz).await;
        let ids: Vec<&str> = stored.iter().map(|(id, ..)| id.as_str()).collect();
        assert_eq!(ids, ["wamid.essay", "wamid.next"]);
        assert!(stored[0].2.ends_with("w249999 "), "kept whole");
        let (status, found) = app.get("/api/search?q=opening", &biz.session.access).await;
        assert_eq!(status, 200, "{found}");
        assert!(found.to_string().contains("wamid.essay"), "{found}");
    }
);

both_backends!(
    a_message_id_longer_than_an_index_key_stops_nothing,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("longids").await;
        // Numbers that do not compress, so the key is as long as it looks.
        let long_id: String = (0..1_500u64)
            .map(|n| format!("{:x}", n.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48))
            .collect();
        let messages = vec![
            text_at("wamid.before", json!("1763700000")),
            text_at(&long_id, json!("1763700001")),
            text_at("wamid.after", json!("1763700002")),
        ];
        let payload = inbound(&biz.phone_number_id, CUSTOMER, "Long", messages);
        let (status, body) = app.webhook(&payload, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");
        let stored = history(&app, &biz).await;
        let ids: Vec<&str> = stored.iter().map(|(id, ..)| id.as_str()).collect();
        assert!(ids.contains(&"wamid.before"), "{ids:?}");
        assert!(ids.contains(&"wamid.after"), "{ids:?}");
        let kept: Vec<&&str> = ids.iter().filter(|id| id.len() > 100).collect();
        assert!(kept.is_empty(), "{kept:?}");
        assert_eq!(ids.len(), 3, "{ids:?}");

        // A redelivery is the same message; a reaction to it and a quote of it find it.
        let again = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Long",
            vec![text_at(&long_id, json!("1763700001"))],
        );
        let (status, body) = app.webhook(&again, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");
        let reaction = json!({"from": CUSTOMER, "id": "wamid.react", "timestamp": "1763700003",
            "type": "reaction", "reaction": {"message_id": long_id, "emoji": "👍"}});
        let quote = json!({"from": CUSTOMER, "id": "wamid.quote", "timestamp": "1763700004",
            "type": "text", "text": {"body": "this one"},
            "context": {"from": CUSTOMER, "id": long_id}});
        let payload = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Long",
            vec![reaction, quote],
        );
        let (status, body) = app.webhook(&payload, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");
        let page = conversation(&app, &biz).await;
        let messages = page["messages"].as_array().expect("messages");
        assert_eq!(messages.len(), 4, "{page}");
        let long = messages
            .iter()
            .find(|m| m["message_id"] == kept_id(&ids))
            .expect("long");
        assert!(
            long["content"]["reactions"].to_string().contains("👍"),
            "{long}"
        );
        let quote = messages
            .iter()
            .find(|m| m["message_id"] == "wamid.quote")
            .expect("quote");
        assert_eq!(quote["content"]["context"]["id"], kept_id(&ids), "{quote}");
    }
);

/// The one id of `ids` that is none of the short ones the test sent.
fn kept_id(ids: &[&str]) -> String {
    ids.iter()
        .find(|id| !id.starts_with("wamid."))
        .expect("the long message")
        .to_string()
}
