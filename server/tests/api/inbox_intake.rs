//! Webhook intake: signatures and verification, concurrent deliveries, and batches in which one
//! message fails alone or all are stored as if written one by one.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::inbox::CUSTOMER;
use crate::live::*;

both_backends!(
    bad_signatures_and_malformed_payloads_are_refused_and_store_nothing,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("guarded").await;
        let body = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "X",
            vec![text(CUSTOMER, "wamid.forged", "forged")],
        );
        let (status, err) = app.webhook(&body, "not-the-secret").await;
        assert_eq!(status, 403);
        assert_eq!(err["detail"], "Invalid webhook signature");
        // A body naming no business is checked against every business's secret.
        let nobody = inbound(
            "999000999",
            CUSTOMER,
            "X",
            vec![text(CUSTOMER, "wamid.n", "n")],
        );
        let empty = json!({"object": "whatsapp_business_account", "entry": []});
        for unnamed in [&nobody, &empty] {
            let (status, err) = app.webhook(unnamed, "not-the-secret").await;
            assert_eq!(status, 403, "{unnamed}");
            assert_eq!(err["detail"], "Invalid webhook signature");
            let (status, _) = app.webhook(unnamed, &biz.app_secret).await;
            assert_eq!(status, 200, "{unnamed}");
        }

        let unsigned = app
            .client
            .post(app.url("/webhook"))
            .body(body.to_string())
            .send()
            .await
            .expect("sent");
        assert_eq!(unsigned.status().as_u16(), 401);
        let err: Value = unsigned.json().await.expect("json");
        assert!(
            err["detail"]
                .as_str()
                .expect("detail")
                .contains("X-Hub-Signature-256")
        );

        let raw = "{not json";
        let malformed = app
            .client
            .post(app.url("/webhook"))
            .header("X-Hub-Signature-256", sign(&biz.app_secret, raw.as_bytes()))
            .body(raw)
            .send()
            .await
            .expect("sent");
        assert_eq!(malformed.status().as_u16(), 400);
        let err: Value = malformed.json().await.expect("json");
        assert!(
            err["message"]
                .as_str()
                .expect("message")
                .contains("not JSON")
        );

        let no_from = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "X",
            vec![json!({"id": "wamid.nofrom", "type": "text", "text": {"body": "x"}})],
        );
        // A message naming no sender is skipped, not refused: a refusal is redelivered for days.
        let (status, _) = app.webhook(&no_from, &biz.app_secret).await;
        assert_eq!(status, 200);

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(history["messages"].as_array().expect("messages").len(), 0);
    }
);

both_backends!(
    webhook_verification_echoes_the_challenge_for_a_known_token,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("verifier").await;
        let (_, profile) = app.get("/identity/users/profile", &session.access).await;
        let token = profile["verifyToken"].as_str().expect("verify token");
        let ok = app
            .client
            .get(app.url(&format!(
                "/webhook?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token={token}"
            )))
            .send()
            .await
            .expect("sent");
        assert_eq!(ok.status().as_u16(), 200);
        assert_eq!(ok.text().await.expect("body"), "1158201444");
        let bad = app
            .client
            .get(app.url("/webhook?hub.mode=subscribe&hub.challenge=1&hub.verify_token=wrong"))
            .send()
            .await
            .expect("sent");
        assert_eq!(bad.status().as_u16(), 403);
    }
);

both_backends!(
    concurrent_webhooks_are_each_stored_once_with_dense_ordered_seqs,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("burst").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let customers: Vec<String> = (0..20).map(|i| format!("1650555{i:04}")).collect();
        let post = |phone: &String| {
            let body = inbound(
                &biz.phone_number_id,
                phone,
                "Burst",
                vec![text(phone, &format!("wamid.burst{phone}"), "hi")],
            );
            let (app, secret) = (&app, &biz.app_secret);
            async move { app.webhook(&body, secret).await.0 }
        };
        // Each message twice, all at once: the writer takes whatever is waiting as one batch.
        let statuses =
            futures_util::future::join_all(customers.iter().chain(&customers).map(post)).await;
        assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");

        // A new contact and a notification per customer, nothing more.
        let mut frames = Vec::new();
        for _ in 0..customers.len() * 2 {
            frames.push(ws.next_frame().await);
        }
        ws.assert_quiet(Duration::from_millis(400)).await;
        let seqs: Vec<i64> = frames
            .iter()
            .map(|f| f["seq"].as_i64().expect("seq"))
            .collect();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
        // Three events per message (contact, message, notification), none skipped: this
        // channel sees the first and the last, and nothing of the business came before.
        assert_eq!(
            (seqs[0], seqs[seqs.len() - 1]),
            (1, 3 * customers.len() as i64)
        );
        let notifications: Vec<&Value> = frames
            .iter()
            .filter(|f| f["event"] == "notification")
            .collect();
        assert_eq!(notifications.len(), customers.len());
        let totals: Vec<i64> = notifications
            .iter()
            .map(|f| f["data"]["total_unread"].as_i64().expect("total"))
            .collect();
        assert_eq!(totals, (1..=customers.len() as i64).collect::<Vec<_>>());
    }
);

/// Keeps what the store publishes.
#[derive(Default)]
struct Collected(std::sync::Mutex<Vec<parley_actors::events::Event>>);

impl parley_actors::hub::EventBus for Collected {
    fn publish(&self, events: Vec<parley_actors::events::Event>) {
        self.0.lock().expect("events").extend(events);
    }

    /// The store never revokes anyone.
    fn revoke(&self, _: parley_actors::hub::Revocation) {}
}

impl Collected {
    fn take(&self) -> Vec<parley_actors::events::Event> {
        std::mem::take(&mut self.0.lock().expect("events"))
    }
}

/// A text message from a customer as the webhook hands it on.
fn inbound_text(
    id: &str,
    name: Option<&str>,
) -> std::sync::Arc<parley_actors::conversation::InboundMessage> {
    std::sync::Arc::new(parley_actors::conversation::InboundMessage {
        provider_id: id.into(),
        // The provider time `text` gives its messages.
        timestamp_ms: 1_763_700_000_000,
        kind: "text".into(),
        content: json!({"text": id}),
        profile: parley_actors::conversation::CustomerProfile {
            name: name.map(String::from),
            ..Default::default()
        },
    })
}

fn conversation(business_id: &str, phone: &str) -> parley_actors::conversation::ConversationKey {
    parley_actors::conversation::ConversationKey {
        business_id: business_id.into(),
        phone: phone.into(),
    }
}

both_backends!(
    a_message_that_cannot_be_stored_fails_alone,
    |backend| async move {
        use parley_actors::conversation::ConversationStore;
        use std::sync::Arc;
        let app = spawn_app(backend).await;
        let biz = app.business("poison").await;
        let (store, business_id) = store_of(&app, &biz).await;
        // Queued together, so the writer takes them as one batch; the unknown business breaks
        // its transaction.
        let bus = Arc::new(Collected::default());
        let (bad, good) = futures_util::join!(
            store.record_inbound(
                conversation("no-such-business", CUSTOMER),
                inbound_text("wamid.bad", None),
                bus.clone()
            ),
            store.record_inbound(
                conversation(&business_id, CUSTOMER),
                inbound_text("wamid.good", None),
                bus.clone()
            ),
        );
        assert!(bad.is_err());
        assert!(good.expect("the good message is stored"), "new");
        let published = bus.take();
        assert!(published.iter().any(|e| e.name == "new_message"));
        assert!(published.iter().all(|e| e.business_id == business_id));
        let (status, page) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(status, 200, "{page}");
        assert!(page.to_string().contains("wamid.good"), "{page}");
    }
);

both_backends!(
    a_batch_of_messages_is_stored_as_if_written_one_by_one,
    |backend| async move {
        use parley_actors::conversation::ConversationStore;
        use std::sync::Arc;
        const ANN: &str = "15550001001";
        const BEA: &str = "15550001002";
        let app = spawn_app(backend).await;
        let biz = app.business("batcher").await;
        let token = &biz.session.access;
        let (status, _) = app
            .webhook(
                &inbound(
                    &biz.phone_number_id,
                    ANN,
                    "Ann",
                    vec![text(ANN, "wamid.a0", "hi")],
                ),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200);
        let (store, business_id) = store_of(&app, &biz).await;
        let bus = Arc::new(Collected::default());
        let writes = [
            (ANN, inbound_text("wamid.a1", Some("Ann"))),
            (BEA, inbound_text("wamid.b1", Some("Bea"))),
            // A redelivery that carries a newer profile name: the name is kept, nothing else, and
            // announced before Ann's next message.
            (ANN, inbound_text("wamid.a0", Some("Annie"))),
            (BEA, inbound_text("wamid.b2", None)),
            (ANN, inbound_text("wamid.a2", None)),
            // The same message twice in one batch.
            (BEA, inbound_text("wamid.b1", Some("Bea"))),
        ];
        // All queued before the writer runs: one batch.
        let answers = futures_util::future::join_all(writes.into_iter().map(|(phone, m)| {
            store.record_inbound(conversation(&business_id, phone), m, bus.clone())
        }))
        .await;
        let answers: Vec<bool> = answers.into_iter().map(|a| a.expect("stored")).collect();
        assert_eq!(answers, [true, true, false, true, true, false]);

        let published = bus.take();
        let names: Vec<&str> = published.iter().map(|e| e.name.as_str()).collect();
        let message = ["new_message", "notification"];
        let contact = ["new_contact"];
        let expected = [
            &message[..],
            &contact,
            &message,
            &message,
            &contact,
            &message,
        ]
        .concat();
        assert_eq!(names, expected);
        assert!(published.windows(2).all(|w| w[0].seq + 1 == w[1].seq));
        let data = |name: &str| -> Vec<Value> {
            published
                .iter()
                .filter(|e| e.name == name)
                .map(|e| serde_json::from_str(e.data.get()).expect("event data is JSON"))
                .collect()
        };
        let notifications = data("notification");
        let notices: Vec<(&Value, &Value, &Value)> = notifications
            .iter()
            .map(|d| (&d["phone_number"], &d["unread_count"], &d["total_unread"]))
            .collect();
        assert_eq!(
            notices,
            [
                (&json!(ANN), &json!(2), &json!(2)),
                (&json!(BEA), &json!(1), &json!(3)),
                (&json!(BEA), &json!(2), &json!(4)),
                (&json!(ANN), &json!(3), &json!(5)),
            ]
        );
        let messages = data("new_message");
        let senders: Vec<&Value> = messages
            .iter()
            .map(|d| &d["message"]["sender_name"])
            .collect();
        assert_eq!(
            senders,
            [&json!("Ann"), &json!("Bea"), &json!("Bea"), &json!("Annie")]
        );

        let (_, page) = app.get("/api/users", token).await;
        assert_eq!(page["data"]["total_unread"], 5, "{page}");
        let users = page["data"]["users"].as_array().expect("users");
        let user = |phone: &str| {
            users
                .iter()
                .find(|u| u["phone_number"] == phone)
                .expect(phone)
        };
        assert_eq!(
            (&user(ANN)["name"], &user(ANN)["unread_count"]),
            (&json!("Annie"), &json!(3))
        );
        assert_eq!(
            (&user(BEA)["name"], &user(BEA)["unread_count"]),
            (&json!("Bea"), &json!(2))
        );
        assert_eq!(user(ANN)["last_message_content"]["text"], "wamid.a2");
        let (_, history) = app.get(&format!("/api/conversation/{ANN}"), token).await;
        let ids: Vec<&Value> = history["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| &m["message_id"])
            .collect();
        // Oldest first, and a1 and a2 (same provider time) one after the other.
        assert_eq!(
            ids,
            [&json!("wamid.a0"), &json!("wamid.a1"), &json!("wamid.a2")]
        );
    }
);
