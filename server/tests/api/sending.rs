//! Sending through the sandbox over HTTP, the outbox, receipts and the 24-hour window (media is
//! `sending_media`).

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

pub(crate) const CUSTOMER: &str = "447700900123";

impl TestApp {
    /// Sends a text through `/api/send-message`; answers (status, body).
    pub async fn send_text(
        &self,
        token: &str,
        to: &str,
        client_id: &str,
        text: &str,
    ) -> (u16, Value) {
        let form = reqwest::multipart::Form::new()
            .text("to", to.to_string())
            .text("message_id", client_id.to_string())
            .text("message_type", "text")
            .text("text", text.to_string());
        self.send_form(token, form).await
    }

    pub async fn send_form(&self, token: &str, form: reqwest::multipart::Form) -> (u16, Value) {
        self.post_form("/api/send-message", token, form).await
    }

    /// What the sandbox accepted for the business's number.
    pub async fn sandbox_sent(&self, biz: &Business) -> Vec<Value> {
        let (_, profile) = self
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let token = profile["accessToken"].as_str().expect("provider token");
        let response = self
            .client
            .get(self.url(&format!(
                "/sandbox/sent?phone_number_id={}",
                biz.phone_number_id
            )))
            .bearer_auth(token)
            .send()
            .await
            .expect("sent");
        let body: Value = response.json().await.expect("json");
        body["messages"].as_array().expect("messages").clone()
    }
}

/// The receipts of one message, skipping other events, until `status` (or a timeout).
pub(crate) async fn statuses_until(ws: &mut WsClient, message_id: &str, last: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let frame = ws.next_frame().await;
        if frame["event"] == "message_status_update" && frame["data"]["message_id"] == message_id {
            let status = frame["data"]["status"]
                .as_str()
                .expect("status")
                .to_string();
            seen.push(status.clone());
            if status == last {
                return seen;
            }
        }
    }
}

pub fn recent_text(from: &str, id: &str) -> Value {
    let mut message = text(from, id, "hello");
    message["timestamp"] = json!((chrono_now_secs()).to_string());
    message
}

pub fn chrono_now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs() as i64
}

pub async fn open_window(app: &TestApp, biz: &Business, from: &str) {
    let body = inbound(
        &biz.phone_number_id,
        from,
        "Customer",
        vec![recent_text(from, &format!("wamid.in-{from}"))],
    );
    let (status, answer) = app.webhook(&body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

both_backends!(
    a_send_goes_through_the_sandbox_and_receipts_tick_in_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("sender").await;
        open_window(&app, &biz, CUSTOMER).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;

        let (status, body) = app
            .send_text(
                &biz.session.access,
                &format!("+{CUSTOMER}"),
                "client-1",
                "Your order shipped",
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let id = body["response"]["messages"][0]["id"]
            .as_str()
            .expect("id")
            .to_string();
        assert!(id.starts_with("wamid."), "{id}");

        let created = ws.next_frame().await;
        assert_eq!(created["event"], "new_message");
        assert_eq!(created["data"]["message"]["message_id"], "client-1");
        assert_eq!(created["data"]["message"]["direction"], "outgoing");
        assert_eq!(created["data"]["message"]["status"], "sending");
        // Under the client's own id it carries no second one.
        assert!(
            created["data"]["message"]
                .get("client_message_id")
                .is_none()
        );
        assert_eq!(
            statuses_until(&mut ws, &id, "read").await,
            vec!["sent", "delivered", "read"]
        );

        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let sent = history["messages"]
            .as_array()
            .expect("messages")
            .last()
            .expect("one")
            .clone();
        assert_eq!(sent["message_id"], id);
        // A client that lost the send's answer finds its own id on the stored message.
        assert_eq!(sent["client_message_id"], "client-1");
        assert_eq!(sent["status"], "read");
        assert_eq!(sent["content"]["text"], "Your order shipped");
        let received = &history["messages"][0];
        assert_eq!(received["direction"], "incoming");
        assert!(received.get("client_message_id").is_none(), "{received}");
        let provider_saw = app.sandbox_sent(&biz).await;
        assert_eq!(provider_saw.len(), 1);
        assert_eq!(
            provider_saw[0]["body"]["text"]["body"],
            "Your order shipped"
        );
        assert_eq!(provider_saw[0]["body"]["to"], CUSTOMER);
    }
);

both_backends!(
    a_retried_send_is_stored_and_sent_once,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("retrier").await;
        open_window(&app, &biz, CUSTOMER).await;
        let (s1, first) = app
            .send_text(&biz.session.access, CUSTOMER, "same-id", "once")
            .await;
        let (s2, second) = app
            .send_text(&biz.session.access, CUSTOMER, "same-id", "once")
            .await;
        assert_eq!((s1, s2), (200, 200));
        assert_eq!(
            first["response"]["messages"][0]["id"],
            second["response"]["messages"][0]["id"]
        );
        assert_eq!(app.sandbox_sent(&biz).await.len(), 1);
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let outgoing = history["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .filter(|m| m["direction"] == "outgoing")
            .count();
        assert_eq!(outgoing, 1);
    }
);

both_backends!(
    a_client_id_over_128_characters_is_refused_not_a_server_error,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("longclientid").await;
        open_window(&app, &biz, CUSTOMER).await;
        let token = &biz.session.access;
        let long = unrepeated_letters(3000, 3);
        let (status, body) = app.send_text(token, CUSTOMER, &long, "hello").await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["detail"], "message_id must be at most 128 characters");
        assert!(app.sandbox_sent(&biz).await.is_empty());
        let (status, body) = app.send_text(token, CUSTOMER, &long[..128], "hello").await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    a_closed_window_refuses_free_form_messages,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("windowed").await;
        // Never wrote in.
        let (status, body) = app
            .send_text(&biz.session.access, CUSTOMER, "c-closed", "hi")
            .await;
        assert_eq!(status, 422);
        assert!(
            body["detail"].as_str().expect("detail").contains("24-hour"),
            "{body}"
        );
        // Wrote two days ago.
        let mut old = text(CUSTOMER, "wamid.old", "old");
        old["timestamp"] = json!((chrono_now_secs() - 2 * 86_400).to_string());
        app.webhook(
            &inbound(&biz.phone_number_id, CUSTOMER, "C", vec![old]),
            &biz.app_secret,
        )
        .await;
        let (status, _) = app
            .send_text(&biz.session.access, CUSTOMER, "c-closed-2", "hi")
            .await;
        assert_eq!(status, 422);
        nothing_sent(&app, &biz).await;
    }
);

/// Nothing reached the sandbox, and the conversation holds no outgoing message.
async fn nothing_sent(app: &TestApp, biz: &Business) {
    assert!(app.sandbox_sent(biz).await.is_empty());
    let (_, history) = app
        .get(
            &format!("/api/conversation/{CUSTOMER}"),
            &biz.session.access,
        )
        .await;
    assert!(
        history["messages"]
            .as_array()
            .expect("m")
            .iter()
            .all(|m| m["direction"] == "incoming")
    );
}

both_backends!(
    the_outbox_meets_the_sandbox_rate_limit_without_losing_a_message,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        settings.sandbox.rate_per_second = 4.0;
        settings.outbox.rate_per_second = 1000.0;
        settings.outbox.first_retry_ms = 200;
        settings.outbox.max_retry_ms = 500;
        settings.outbox.max_attempts = 100;
        settings.outbox.poll_ms = 50;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("burster").await;
        open_window(&app, &biz, CUSTOMER).await;
        let sends = (0..12).map(|i| {
            let app = &app;
            let token = biz.session.access.clone();
            async move {
                app.send_text(&token, CUSTOMER, &format!("burst-{i}"), &format!("n{i}"))
                    .await
            }
        });
        let answers = futures_util::future::join_all(sends).await;
        let queued = answers.iter().filter(|(status, _)| *status == 202).count();
        assert!(
            queued > 0,
            "the burst should have hit the limit: {answers:?}"
        );
        assert!(
            answers
                .iter()
                .all(|(status, _)| *status == 200 || *status == 202),
            "{answers:?}"
        );
        // Every message gets through, each exactly once.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let sent = app.sandbox_sent(&biz).await;
            if sent.len() >= 12 || std::time::Instant::now() > deadline {
                let mut texts: Vec<String> = sent
                    .iter()
                    .map(|m| m["body"]["text"]["body"].as_str().expect("t").to_string())
                    .collect();
                texts.sort();
                let mut expected: Vec<String> = (0..12).map(|i| format!("n{i}")).collect();
                expected.sort();
                assert_eq!(texts, expected);
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
);

both_backends!(
    receipts_only_move_forward_and_a_payment_failure_alerts_the_business,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        // The sandbox's own receipts would race the ones this test posts.
        settings.sandbox.sent_delay_ms = 600_000;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("receipts").await;
        open_window(&app, &biz, CUSTOMER).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let (_, first) = app
            .send_text(&biz.session.access, CUSTOMER, "r-1", "one")
            .await;
        let id = first["response"]["messages"][0]["id"]
            .as_str()
            .expect("id")
            .to_string();
        assert_eq!(statuses_until(&mut ws, &id, "sent").await, vec!["sent"]);
        let status = |s: &str| json!({"id": id, "status": s, "timestamp": "1763700000", "recipient_id": CUSTOMER});
        for s in ["read", "delivered", "sent"] {
            let (code, _) = app
                .webhook(
                    &receipts(&biz.phone_number_id, vec![status(s)]),
                    &biz.app_secret,
                )
                .await;
            assert_eq!(code, 200);
        }
        assert_eq!(statuses_until(&mut ws, &id, "read").await, vec!["read"]);
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(
            history["messages"]
                .as_array()
                .expect("m")
                .last()
                .expect("m")["status"],
            "read"
        );

        let (_, second) = app
            .send_text(&biz.session.access, CUSTOMER, "r-2", "two")
            .await;
        let id2 = second["response"]["messages"][0]["id"]
            .as_str()
            .expect("id")
            .to_string();
        let failed = json!({"id": id2, "status": "failed", "timestamp": "1763700001", "recipient_id": CUSTOMER,
        "errors": [{"code": 131042, "title": "Business eligibility payment issue"}]});
        app.webhook(
            &receipts(&biz.phone_number_id, vec![failed]),
            &biz.app_secret,
        )
        .await;
        loop {
            let frame = ws.next_frame().await;
            if frame["event"] == "system_notification" {
                assert_eq!(frame["data"]["type"], "payment_error");
                assert_eq!(frame["data"]["message_id"], id2);
                break;
            }
        }
        // A receipt for a message nobody knows is accepted, not an error.
        let (code, _) = app.webhook(&receipts(&biz.phone_number_id, vec![json!({"id": "wamid.unknown", "status": "read", "timestamp": "1", "recipient_id": CUSTOMER})]), &biz.app_secret).await;
        assert_eq!(code, 200);
    }
);

both_backends!(
    a_note_and_a_reply_written_after_a_later_dated_message_follow_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("dated").await;
        let token = &biz.session.access;
        // The customer's phone dates the message two minutes ahead.
        let mut ahead = text(CUSTOMER, "wamid.ahead", "from a fast clock");
        ahead["timestamp"] = json!((chrono_now_secs() + 120).to_string());
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Customer", vec![ahead]);
        let (status, _) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200);
        let notes = format!("/api/conversation/{CUSTOMER}/notes");
        let (status, note) = app
            .post(&notes, json!({"text": "checking"}), Some(token))
            .await;
        assert_eq!(status, 201, "{note}");
        let (status, body) = app
            .send_text(token, &format!("+{CUSTOMER}"), "client-after", "Done")
            .await;
        assert_eq!(status, 200, "{body}");
        let history = crate::customers::history(&app, &biz, CUSTOMER).await;
        let order: Vec<&Value> = history.iter().map(|m| &m["message_id"]).collect();
        assert_eq!(
            order,
            [
                &json!("wamid.ahead"),
                &note["message_id"],
                &body["response"]["messages"][0]["id"]
            ]
        );
        let times: Vec<&str> = history
            .iter()
            .map(|m| m["timestamp"].as_str().expect("time"))
            .collect();
        assert!(times.windows(2).all(|pair| pair[0] < pair[1]), "{times:?}");
    }
);

both_backends!(
    a_message_of_an_unknown_type_is_refused_naming_the_types_and_nothing_is_sent,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("banana").await;
        open_window(&app, &biz, CUSTOMER).await;
        let form = reqwest::multipart::Form::new()
            .text("to", CUSTOMER)
            .text("message_id", "fruit-1")
            .text("message_type", "banana")
            .text("text", "Not a kind of message");
        let (status, body) = app.send_form(&biz.session.access, form).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["code"], "validation_failed", "{body}");
        assert_eq!(
            body["detail"],
            "message_type must be one of text, image, video, audio, document, not \"banana\"",
        );
        assert_eq!(body["message"], body["detail"]);
        nothing_sent(&app, &biz).await;
    }
);
