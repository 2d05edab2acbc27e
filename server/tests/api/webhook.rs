//! Odd deliveries: one item the model cannot read never costs the rest of a webhook.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::sending::open_window;

const CUSTOMER: &str = "16505551234";

both_backends!(
    a_malformed_message_is_kept_raw_and_the_rest_of_its_batch_is_stored,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("odd").await;
        let malformed = json!({"from": CUSTOMER, "id": "wamid.odd", "timestamp": "1763700000",
                               "type": "image", "image": "not an object"});
        let messages = vec![
            text(CUSTOMER, "wamid.first", "first"),
            malformed.clone(),
            text(CUSTOMER, "wamid.last", "last"),
        ];
        let (status, body) = app
            .webhook(
                &inbound(&biz.phone_number_id, CUSTOMER, "Odd", messages),
                &biz.app_secret,
            )
            .await;
        assert_eq!((status, body), (200, json!({"status": "success"})));

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let stored = history["messages"].as_array().expect("messages");
        assert_eq!(stored.len(), 3);
        let by_id = |id: &str| stored.iter().find(|m| m["message_id"] == id).expect(id);
        assert_eq!(by_id("wamid.first")["content"]["text"], "first");
        assert_eq!(by_id("wamid.last")["content"]["text"], "last");
        assert_eq!(by_id("wamid.odd")["content"]["raw"], malformed);
    }
);

both_backends!(
    odd_items_are_skipped_or_kept_and_the_delivery_is_still_taken,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("tolerant").await;
        let pnid = biz.phone_number_id.clone();
        let no_sender = json!({"id": "wamid.nobody", "timestamp": "1763700000", "type": "text",
                               "text": {"body": "from no one"}});
        let no_id = json!({"from": CUSTOMER, "timestamp": "1763700001", "type": "text",
                           "text": {"body": "without an id"}});
        let messages = vec![no_sender, no_id.clone(), text(CUSTOMER, "wamid.ok", "fine")];
        let delivery = inbound(&pnid, CUSTOMER, "Odd", messages);
        for _ in 0..2 {
            let (status, body) = app.webhook(&delivery, &biz.app_secret).await;
            assert_eq!((status, body), (200, json!({"status": "success"})));
        }
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let stored = history["messages"].as_array().expect("messages");
        let texts: Vec<&Value> = stored.iter().map(|m| &m["content"]["text"]).collect();
        assert_eq!(texts, vec![&json!("fine"), &json!("without an id")]);
        assert!(stored.iter().all(|m| m["message_id"] != "wamid.nobody"));

        // A receipt naming no customer, an envelope without entries, a number no business owns.
        let incomplete = receipts(&pnid, vec![json!({"id": "wamid.ok", "status": "read"})]);
        let stranger = inbound(
            "999000999",
            CUSTOMER,
            "Odd",
            vec![text(CUSTOMER, "wamid.x", "x")],
        );
        for body in [
            incomplete,
            json!({"object": "whatsapp_business_account"}),
            stranger,
        ] {
            let (status, answer) = app.webhook(&body, &biz.app_secret).await;
            assert_eq!(status, 200, "{body} answered {answer}");
        }
        let (status, answer) = app.webhook(&json!([1, 2]), &biz.app_secret).await;
        assert_eq!(status, 400, "{answer}");
        assert!(answer["code"].is_string(), "{answer}");
        let (_, again) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(again["messages"], history["messages"]);
    }
);

both_backends!(
    messages_keep_the_providers_time_and_a_late_one_moves_nothing_back,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("timely").await;
        let pnid = biz.phone_number_id.clone();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_secs() as i64;
        let at = |id: &str, body: &str, secs: i64| {
            let mut message = text(CUSTOMER, id, body);
            message["timestamp"] = json!(secs.to_string());
            message
        };
        let recent = vec![
            at("wamid.a", "recent", now - 3600),
            at("wamid.b", "same second", now - 3600),
        ];
        app.webhook(&inbound(&pnid, CUSTOMER, "T", recent), &biz.app_secret)
            .await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let late = vec![at("wamid.late", "late", now - 25 * 3600)];
        app.webhook(&inbound(&pnid, CUSTOMER, "T", late), &biz.app_secret)
            .await;
        let notice = loop {
            let frame = ws.next_frame().await;
            if frame["event"] == "notification" {
                break frame["data"].clone();
            }
        };

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let stored = history["messages"].as_array().expect("messages");
        let ids: Vec<&Value> = stored.iter().map(|m| &m["message_id"]).collect();
        assert_eq!(ids, vec!["wamid.late", "wamid.a", "wamid.b"]);
        let times: Vec<&str> = stored
            .iter()
            .map(|m| m["timestamp"].as_str().expect("time"))
            .collect();
        assert!(times[1] < times[2], "{times:?}");

        let (_, list) = app.get("/api/users", &biz.session.access).await;
        let row = &list["data"]["users"][0];
        assert_eq!(row["last_message_content"]["text"], "same second");
        assert_eq!(row["last_message_timestamp"].as_str(), Some(times[2]));
        assert_eq!(row["last_incoming_timestamp"].as_str(), Some(times[2]));
        // The late message's notification keeps the list's newer preview and time.
        assert_eq!(notice["preview"], "same second");
        assert_eq!(notice["last_message_timestamp"].as_str(), Some(times[2]));
        assert_eq!(notice["unread_count"], 3);

        // Only a message from 25 hours ago: the reply window stays closed.
        let other = "16505550000";
        let old = vec![
            json!({"from": other, "id": "wamid.old", "timestamp": (now - 25 * 3600).to_string(),
                              "type": "text", "text": {"body": "old"}}),
        ];
        app.webhook(&inbound(&pnid, other, "O", old), &biz.app_secret)
            .await;
        let form = reqwest::multipart::Form::new()
            .text("to", other)
            .text("message_id", "c-late")
            .text("message_type", "text")
            .text("text", "hello?");
        let (status, body) = app
            .post_form("/api/send-message", &biz.session.access, form)
            .await;
        assert_eq!(status, 422, "{body}");
    }
);

both_backends!(
    messages_of_one_second_in_separate_webhooks_each_keep_a_time_of_their_own,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("crowded").await;
        let pnid = biz.phone_number_id.clone();
        let second = 1_763_700_000_i64;
        let at = |id: String, secs: i64| {
            let mut message = text(CUSTOMER, &id, &id);
            message["timestamp"] = json!(secs.to_string());
            message
        };
        // A whole second taken, and the first millisecond of the next.
        let mut full: Vec<Value> = (0..1000)
            .map(|n| at(format!("wamid.s{n}"), second))
            .collect();
        full.push(at("wamid.next".into(), second + 1));
        app.webhook(&inbound(&pnid, CUSTOMER, "C", full), &biz.app_secret)
            .await;
        // In later webhooks: one more of the full second moves into the next one, past the
        // stored message there; then two of the next second.
        let late = vec![at("wamid.more".into(), second)];
        app.webhook(&inbound(&pnid, CUSTOMER, "C", late), &biz.app_secret)
            .await;
        let next = vec![
            at("wamid.n1".into(), second + 1),
            at("wamid.n2".into(), second + 1),
        ];
        app.webhook(&inbound(&pnid, CUSTOMER, "C", next), &biz.app_secret)
            .await;

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}?limit=6"),
                &biz.session.access,
            )
            .await;
        let stored: Vec<(&str, &str)> = history["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| {
                let id = m["message_id"].as_str().expect("id");
                (id, m["timestamp"].as_str().expect("time"))
            })
            .collect();
        assert_eq!(
            stored,
            vec![
                ("wamid.s998", "2025-11-21T04:40:00.998Z"),
                ("wamid.s999", "2025-11-21T04:40:00.999Z"),
                ("wamid.next", "2025-11-21T04:40:01.000Z"),
                ("wamid.more", "2025-11-21T04:40:01.001Z"),
                ("wamid.n1", "2025-11-21T04:40:01.002Z"),
                ("wamid.n2", "2025-11-21T04:40:01.003Z"),
            ]
        );
    }
);

both_backends!(
    messages_of_an_outbound_messages_second_keep_their_time_or_follow_the_seconds_latest,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("gapped").await;
        let token = &biz.session.access;
        open_window(&app, &biz, CUSTOMER).await;
        let (status, body) = app.send_text(token, CUSTOMER, "out-1", "on its way").await;
        assert_eq!(status, 200, "{body}");
        let path = format!("/api/conversation/{CUSTOMER}?limit=50");
        let stored = |history: &Value| -> Vec<(String, i64)> {
            let messages = history["messages"].as_array().expect("messages");
            let time = |m: &Value| {
                let at = m["timestamp"].as_str().expect("time");
                chrono::DateTime::parse_from_rfc3339(at)
                    .expect("RFC 3339")
                    .timestamp_millis()
            };
            messages
                .iter()
                .map(|m| (m["message_id"].as_str().expect("id").to_string(), time(m)))
                .collect()
        };
        let (_, history) = app.get(&path, token).await;
        let mut taken: Vec<i64> = stored(&history).iter().map(|(_, at)| *at).collect();
        let second = taken.iter().max().expect("the reply").div_euclid(1000);
        // Three messages of the reply's second, each in a webhook of its own: the first keeps
        // the second's first millisecond (unless the reply holds it), the others follow the
        // second's latest message, the reply among them, in the order they came.
        // Then one five seconds later, one of the reply's second again (the conversation's
        // latest message is later now), and a webhook with one of each second.
        let mut expected = Vec::new();
        let later = second + 5;
        let webhooks = [
            vec![second],
            vec![second],
            vec![second],
            vec![later],
            vec![second],
            vec![second, later],
        ];
        for (n, seconds) in webhooks.iter().enumerate() {
            let mut messages = Vec::new();
            for (i, wanted) in seconds.iter().enumerate() {
                let id = format!("wamid.g{n}-{i}");
                let mut message = text(CUSTOMER, &id, "again");
                message["timestamp"] = json!(wanted.to_string());
                messages.push(message);
                // A taken time follows its second's latest; past the second's last millisecond
                // it carries into the next second, and follows that one's latest if taken too.
                let mut at = wanted * 1000;
                while taken.contains(&at) {
                    let second = at.div_euclid(1000);
                    let latest = taken.iter().filter(|t| t.div_euclid(1000) == second).max();
                    at = latest.expect("the second's first") + 1;
                }
                taken.push(at);
                expected.push((id, at));
            }
            let body = inbound(&biz.phone_number_id, CUSTOMER, "C", messages);
            let (status, answer) = app.webhook(&body, &biz.app_secret).await;
            assert_eq!(status, 200, "{answer}");
        }
        let (_, history) = app.get(&path, token).await;
        let now = stored(&history);
        for message in &expected {
            assert!(now.contains(message), "{message:?} in {now:?}");
        }
        let mut times: Vec<i64> = now.iter().map(|(_, at)| *at).collect();
        times.sort_unstable();
        times.dedup();
        assert_eq!(times.len(), now.len(), "{now:?}");
    }
);
