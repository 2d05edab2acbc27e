//! Live streams: WebSocket and SSE clients that resume without a gap, expiry, closing, refusals.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::inbox::CUSTOMER;
use crate::live::*;

/// Posts `count` texts one webhook each and answers the seq of the last event seen.
async fn post_texts(app: &TestApp, biz: &Business, prefix: &str, count: usize) {
    for i in 0..count {
        let id = format!("wamid.{prefix}{i}");
        let (status, _) = app
            .webhook(
                &inbound(
                    &biz.phone_number_id,
                    CUSTOMER,
                    "R",
                    vec![text(CUSTOMER, &id, &format!("{prefix}{i}"))],
                ),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200);
    }
}

both_backends!(
    a_websocket_client_that_resumes_gets_exactly_the_missed_events_in_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("resumer").await;
        let channel = format!("{}_{}", biz.phone_number_id, CUSTOMER);
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&channel).await;
        post_texts(&app, &biz, "live", 1).await;
        let last_seen = ws.next_frame().await["seq"].as_i64().expect("seq");
        drop(ws);

        post_texts(&app, &biz, "missed", 10).await;

        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&channel).await;
        ws.send(json!({"op": "resume", "after": last_seen})).await;
        let mut texts = Vec::new();
        let mut seqs = Vec::new();
        for _ in 0..10 {
            let frame = ws.next_frame().await;
            assert_eq!(frame["event"], "new_message");
            seqs.push(frame["seq"].as_i64().expect("seq"));
            texts.push(
                frame["data"]["message"]["content"]["text"]
                    .as_str()
                    .expect("text")
                    .to_string(),
            );
        }
        let expected: Vec<String> = (0..10).map(|i| format!("missed{i}")).collect();
        assert_eq!(texts, expected);
        assert!(seqs.windows(2).all(|w| w[0] < w[1]));
        ws.assert_quiet(Duration::from_millis(400)).await;
        // Live events follow the replay.
        post_texts(&app, &biz, "after", 1).await;
        assert_eq!(
            ws.next_frame().await["data"]["message"]["content"]["text"],
            "after0"
        );
    }
);

both_backends!(
    an_sse_client_that_resumes_with_last_event_id_gets_exactly_the_missed_events,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("sseresumer").await;
        let path = format!("/api/events/stream/{}_{}", biz.phone_number_id, CUSTOMER);
        let mut sse = SseClient::open(&app, &path, &biz.session.access, None).await;
        post_texts(&app, &biz, "live", 1).await;
        let last_seen = sse.next_event().await.id.expect("id");
        drop(sse);

        post_texts(&app, &biz, "missed", 10).await;

        let mut sse = SseClient::open(&app, &path, &biz.session.access, Some(last_seen)).await;
        for i in 0..10 {
            let event = sse.next_event().await;
            assert_eq!(event.name, "new_message");
            assert_eq!(
                event.data["message"]["content"]["text"],
                format!("missed{i}")
            );
        }
        post_texts(&app, &biz, "after", 1).await;
        assert_eq!(
            sse.next_event().await.data["message"]["content"]["text"],
            "after0"
        );
    }
);

both_backends!(
    a_resume_older_than_the_log_gets_reset,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("staler").await;
        post_texts(&app, &biz, "old", 3).await;
        // As if the retention window had passed: the pruning pass empties the log.
        let store = parley_server::store::Store::connect(&app.settings)
            .await
            .expect("store");
        store.prune_events(0).await.expect("prune");
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        ws.send(json!({"op": "resume", "after": 1})).await;
        assert_eq!(ws.next_frame().await["event"], "reset");
        let mut sse = SseClient::open(
            &app,
            "/api/events/stream/notifications/all",
            &biz.session.access,
            Some(1),
        )
        .await;
        assert_eq!(sse.next_event().await.name, "reset");
    }
);

both_backends!(an_expired_token_ends_the_stream, |backend| async move {
    let (mut settings, dir) = test_settings(backend).await;
    settings.auth.access_token_ttl_secs = 2;
    let app = spawn_with(settings, dir).await;
    let session = app.register("expiring").await;
    let mut ws = WsClient::connect(&app, &session.access).await;
    assert_eq!(ws.closed_reason().await, "token expired");
    let (status, body) = app.get("/api/auth/protected-route", &session.access).await;
    assert_eq!(status, 403);
    assert_eq!(body["message"], "Forbidden: Token expired");
    let refused = app
        .client
        .get(app.url(&format!(
            "/api/events/stream/notifications/all?token={}",
            session.access
        )))
        .send()
        .await
        .expect("sent");
    assert_eq!(refused.status().as_u16(), 403);
});

both_backends!(
    closing_a_channel_ends_the_callers_sse_stream,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("closer").await;
        let mut sse = SseClient::open(
            &app,
            "/api/events/stream/notifications/all",
            &biz.session.access,
            None,
        )
        .await;
        let (status, body) = app
            .post(
                "/api/events/close",
                json!({"channel": "notifications/all"}),
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(body["closed"], 1);
        let event = sse.next_event().await;
        assert_eq!(event.name, "close");
        assert_eq!(event.data["reason"], "closed by the client");
    }
);

both_backends!(
    websocket_refusals_are_json_errors_and_a_client_close_is_answered,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("refused").await;
        // An upgrade request as a browser sends it.
        let upgrade_as = |path: String, version: &str| {
            app.client
                .get(format!("{}{path}", app.address))
                .header("Connection", "Upgrade")
                .header("Upgrade", "websocket")
                .header("Sec-WebSocket-Version", version)
                .header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
        };
        let upgrade = |path: String| upgrade_as(path, "13");
        let token = &biz.session.access;
        let cases = [
            (
                upgrade(format!("/api/nowhere?token={token}")),
                404,
                "No route for GET /api/nowhere".to_string(),
            ),
            (upgrade("/api/ws".into()), 401, "Missing token".into()),
            (
                upgrade("/api/ws?token=forged".into()),
                401,
                "Invalid token".into(),
            ),
            (
                upgrade_as(format!("/api/ws?token={token}"), "8"),
                400,
                "Not a WebSocket handshake: unsupported WebSocket version".into(),
            ),
            (
                app.client
                    .get(format!("{}/api/ws?token={token}", app.address)),
                400,
                "This endpoint takes WebSocket upgrades only".into(),
            ),
        ];
        for (request, status, detail) in cases {
            let response = request.send().await.expect("answered");
            assert_eq!(response.status().as_u16(), status);
            assert!(response.headers().contains_key("x-request-id"));
            let body: Value = response.json().await.expect("JSON error body");
            assert_eq!(body["detail"], detail, "{body}");
            assert_eq!(body["message"], detail, "{body}");
        }
        // The refusals left the endpoint working.
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;
        post_texts(&app, &biz, "still", 1).await;
        assert_eq!(ws.next_frame().await["event"], "new_message");
        assert!(
            ws.close_cleanly().await,
            "the server answers a client's close"
        );
    }
);

both_backends!(
    a_message_the_business_sends_reaches_sessions_that_follow_only_the_list,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_only").await;
        let mut hello = text(CUSTOMER, "wamid.list-1", "hello");
        hello["timestamp"] = json!(chrono::Utc::now().timestamp().to_string());
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Sheena", vec![hello]);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        let (status, answer) = app
            .send_text(&biz.session.access, CUSTOMER, "client-list-1", "On it")
            .await;
        assert_eq!(status, 200, "{answer}");
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_message", "{frame}");
        assert_eq!(frame["channel"], "notifications/all", "{frame}");
        assert_eq!(frame["data"]["phone_number"], CUSTOMER);
        assert_eq!(frame["data"]["message"]["direction"], "outgoing");
        assert_eq!(frame["data"]["message"]["content"]["text"], "On it");

        let echo = json!({"from": "15550000000", "to": CUSTOMER, "id": "wamid.list-echo",
                          "timestamp": chrono::Utc::now().timestamp().to_string(),
                          "type": "text", "text": {"body": "From the phone"}});
        let body = crate::kinds::echoes(&biz.phone_number_id, vec![echo]);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        loop {
            let frame = ws.next_frame().await;
            if frame["event"] != "new_message" {
                continue; // The send's receipts.
            }
            assert_eq!(frame["data"]["message"]["message_id"], "wamid.list-echo");
            break;
        }
    }
);
