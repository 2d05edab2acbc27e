//! Webhook ingest, the conversation list and history, and live pushes over WebSocket and SSE.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505551234";

/// One message of every inbound kind the inbox displays, as the Cloud API sends them.
fn every_kind(from: &str) -> Vec<Value> {
    let base = |id: &str, kind: &str, body: Value| {
        let mut m = json!({"from": from, "id": id, "timestamp": "1763700000", "type": kind});
        m[kind] = body;
        m
    };
    vec![
        base("wamid.text", "text", json!({"body": "hello there"})),
        base(
            "wamid.image",
            "image",
            json!({"caption": "a cat", "mime_type": "image/jpeg", "sha256": "x", "id": "media-img"}),
        ),
        base(
            "wamid.video",
            "video",
            json!({"mime_type": "video/mp4", "sha256": "x", "id": "media-vid"}),
        ),
        base(
            "wamid.audio",
            "audio",
            json!({"mime_type": "audio/ogg; codecs=opus", "sha256": "x", "id": "media-aud", "voice": true}),
        ),
        base(
            "wamid.doc",
            "document",
            json!({"caption": "invoice", "filename": "inv.pdf", "mime_type": "application/pdf", "sha256": "x", "id": "media-doc"}),
        ),
        base(
            "wamid.loc",
            "location",
            json!({"latitude": 37.44, "longitude": -122.16, "name": "HQ", "address": "1 Main St"}),
        ),
        base(
            "wamid.btnreply",
            "interactive",
            json!({"type": "button_reply", "button_reply": {"id": "yes", "title": "Yes please"}}),
        ),
        base(
            "wamid.listreply",
            "interactive",
            json!({"type": "list_reply", "list_reply": {"id": "r1", "title": "Row one", "description": "first"}}),
        ),
        base(
            "wamid.button",
            "button",
            json!({"payload": "STOP", "text": "Stop promotions"}),
        ),
        base(
            "wamid.order",
            "order",
            json!({"catalog_id": "cat1", "text": "my order", "product_items": [{"product_retailer_id": "sku1", "quantity": 2, "item_price": 9.5, "currency": "USD"}]}),
        ),
        base(
            "wamid.sticker",
            "sticker",
            json!({"mime_type": "image/webp", "sha256": "x", "id": "media-stk", "animated": false}),
        ),
        json!({"from": from, "id": "wamid.unsup", "timestamp": "1763700000", "type": "unsupported",
               "errors": [{"code": 131051, "title": "Message type unknown"}]}),
        json!({"from": from, "id": "wamid.future", "timestamp": "1763700000", "type": "hologram",
               "hologram": {"x": 1}}),
    ]
}

both_backends!(
    every_inbound_kind_is_stored_and_pushed_live,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("shop").await;
        let channel = format!("{}_{}", biz.phone_number_id, CUSTOMER);
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&channel).await;
        let mut sse = SseClient::open(
            &app,
            &format!("/api/events/stream/{channel}"),
            &biz.session.access,
            None,
        )
        .await;

        let messages = every_kind(CUSTOMER);
        let (status, body) = app
            .webhook(
                &inbound(&biz.phone_number_id, CUSTOMER, "Sheena", messages.clone()),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200, "{body}");

        for expected in &messages {
            let frame = ws.next_frame().await;
            assert_eq!(frame["event"], "new_message");
            assert_eq!(frame["channel"], channel);
            assert_eq!(frame["data"]["message"]["message_id"], expected["id"]);
            let event = sse.next_event().await;
            assert_eq!(event.name, "new_message");
            assert_eq!(event.id, frame["seq"].as_i64());
            assert_eq!(event.data["message"]["message_id"], expected["id"]);
        }

        let (status, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}?limit=30"),
                &biz.session.access,
            )
            .await;
        assert_eq!(status, 200);
        let stored = history["messages"].as_array().expect("messages");
        assert_eq!(stored.len(), messages.len());
        assert_eq!(history["has_more_older"], false);
        let by_id = |id: &str| {
            stored
                .iter()
                .find(|m| m["message_id"] == id)
                .expect(id)
                .clone()
        };
        assert_eq!(by_id("wamid.text")["content"]["text"], "hello there");
        assert_eq!(by_id("wamid.text")["direction"], "incoming");
        assert_eq!(by_id("wamid.text")["sender_name"], "Sheena");
        assert_eq!(by_id("wamid.text")["conversation_id"], channel);
        assert_eq!(by_id("wamid.image")["content"]["caption"], "a cat");
        assert_eq!(
            by_id("wamid.image")["content"]["image"]["media_url"],
            "/api/media/media-img"
        );
        assert_eq!(by_id("wamid.audio")["content"]["audio"]["voice"], true);
        assert_eq!(
            by_id("wamid.doc")["content"]["document"]["filename"],
            "inv.pdf"
        );
        assert_eq!(by_id("wamid.loc")["content"]["location"]["latitude"], 37.44);
        assert_eq!(
            by_id("wamid.btnreply")["content"]["interactive"]["id"],
            "yes"
        );
        assert_eq!(by_id("wamid.listreply")["content"]["text"], "Row one");
        assert_eq!(by_id("wamid.button")["content"]["payload"], "STOP");
        assert_eq!(
            by_id("wamid.order")["content"]["order"]["product_items"][0]["quantity"],
            2
        );
        assert_eq!(by_id("wamid.sticker")["type"], "sticker");
        assert_eq!(by_id("wamid.unsup")["type"], "unsupported");
        assert_eq!(by_id("wamid.future")["type"], "hologram");
        // Times are unique and increasing, so paging by time is exact.
        let times: Vec<&str> = stored
            .iter()
            .map(|m| m["timestamp"].as_str().expect("ts"))
            .collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    }
);

both_backends!(
    conversation_list_pages_searches_and_counts_unread,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("lister").await;
        for (i, name) in ["Alice Doe", "Bob Roe", "Carol Poe"].iter().enumerate() {
            let phone = format!("1555000000{i}");
            let id = format!("wamid.list{i}");
            let (status, _) = app
                .webhook(
                    &inbound(
                        &biz.phone_number_id,
                        &phone,
                        name,
                        vec![text(&phone, &id, "hi")],
                    ),
                    &biz.app_secret,
                )
                .await;
            assert_eq!(status, 200);
        }
        let token = &biz.session.access;
        let (_, page) = app.get("/api/users?page=1&limit=2", token).await;
        let users = page["data"]["users"].as_array().expect("users");
        assert_eq!(users.len(), 2);
        assert_eq!(page["data"]["has_more"], true);
        assert_eq!(page["data"]["total_unread"], 3);
        assert_eq!(users[0]["unread_count"], 1);
        assert_eq!(users[0]["last_message_content"]["text"], "hi");
        let (_, second) = app.get("/api/users?page=2&limit=2", token).await;
        assert_eq!(second["data"]["users"].as_array().expect("users").len(), 1);
        assert_eq!(second["data"]["has_more"], false);

        let (_, found) = app.get("/api/users?search_query=bOB", token).await;
        let found = found["data"]["users"].as_array().expect("users").clone();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0]["name"], "Bob Roe");
        let (_, by_phone) = app.get("/api/users?search_query=0002", token).await;
        assert_eq!(by_phone["data"]["users"][0]["name"], "Carol Poe");
        let (_, none) = app.get("/api/users?search_query=%25", token).await;
        assert_eq!(none["data"]["users"].as_array().expect("users").len(), 0);

        // Mark-as-read zeroes the count and tells the business's other sessions.
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;
        let (status, read) = app
            .post(
                "/api/conversation/15550000001/mark-as-read",
                json!({}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(read, json!({"status": "success", "modified_count": 1}));
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "notification");
        assert_eq!(frame["data"]["unread_count"], 0);
        assert_eq!(frame["data"]["total_unread"], 2);
        let (_, again) = app
            .post(
                "/api/conversation/15550000001/mark-as-read",
                json!({}),
                Some(token),
            )
            .await;
        assert_eq!(again["modified_count"], 0);

        // The total follows a contact that moves and drops with one deleted unread.
        let (status, _) = app
            .post(
                "/api/users/update",
                json!({"phone_number": "15550000000", "name": "Alice Doe",
                       "new_phone_number": "15550000009"}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        let (_, page) = app.get("/api/users", token).await;
        assert_eq!(page["data"]["total_unread"], 2);
        let (status, _) = app
            .call(
                reqwest::Method::DELETE,
                "/api/contacts/delete/15550000009",
                None,
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        let (_, page) = app.get("/api/users", token).await;
        assert_eq!(page["data"]["total_unread"], 1);
    }
);

both_backends!(history_pages_backwards_without_gaps, |backend| async move {
    let app = spawn_app(backend).await;
    let biz = app.business("pager").await;
    let batch: Vec<Value> = (0..45)
        .map(|i| text(CUSTOMER, &format!("wamid.p{i}"), &format!("m{i}")))
        .collect();
    let (status, _) = app
        .webhook(
            &inbound(&biz.phone_number_id, CUSTOMER, "P", batch),
            &biz.app_secret,
        )
        .await;
    assert_eq!(status, 200);
    let token = &biz.session.access;
    let (_, newest) = app
        .get(&format!("/api/conversation/{CUSTOMER}?limit=30"), token)
        .await;
    let newest = newest.clone();
    let first = newest["messages"].as_array().expect("page");
    assert_eq!(first.len(), 30);
    assert_eq!(newest["has_more_older"], true);
    assert_eq!(first[29]["content"]["text"], "m44");
    let before = first[0]["timestamp"].as_str().expect("ts");
    let (_, older) = app
        .get(
            &format!("/api/conversation/{CUSTOMER}?limit=30&before_timestamp={before}"),
            token,
        )
        .await;
    let older_msgs = older["messages"].as_array().expect("page");
    assert_eq!(older_msgs.len(), 15);
    assert_eq!(older["has_more_older"], false);
    assert_eq!(older_msgs[0]["content"]["text"], "m0");
    assert_eq!(older_msgs[14]["content"]["text"], "m14");
    let (status, bad) = app
        .get(
            &format!("/api/conversation/{CUSTOMER}?before_timestamp=yesterday"),
            token,
        )
        .await;
    assert_eq!(status, 422, "{bad}");
    let (status, _) = app.get("/api/conversation/not-a-phone", token).await;
    assert_eq!(status, 422);
});

both_backends!(
    redelivered_webhooks_create_nothing_twice,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("dedupe").await;
        let body = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "D",
            vec![text(CUSTOMER, "wamid.once", "only once")],
        );
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;
        for _ in 0..3 {
            let (status, _) = app.webhook(&body, &biz.app_secret).await;
            assert_eq!(status, 200);
        }
        assert_eq!(
            ws.next_frame().await["data"]["message"]["message_id"],
            "wamid.once"
        );
        ws.assert_quiet(Duration::from_millis(500)).await;
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        assert_eq!(history["messages"].as_array().expect("messages").len(), 1);
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        assert_eq!(list["data"]["users"][0]["unread_count"], 1);
    }
);

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
    a_business_never_receives_another_businesss_events,
    |backend| async move {
        let app = spawn_app(backend).await;
        let a = app.business("tenanta").await;
        let b = app.business("tenantb").await;
        let mut ws_b = WsClient::connect(&app, &b.session.access).await;
        ws_b.subscribe("notifications/all").await;
        // B even names A's conversation channel: the hub scopes channels by business.
        ws_b.subscribe(&format!("{}_{}", a.phone_number_id, CUSTOMER))
            .await;
        let (status, _) = app
            .webhook(
                &inbound(
                    &a.phone_number_id,
                    CUSTOMER,
                    "A's customer",
                    vec![text(CUSTOMER, "wamid.fora", "for A")],
                ),
                &a.app_secret,
            )
            .await;
        assert_eq!(status, 200);
        ws_b.assert_quiet(Duration::from_millis(700)).await;
        let (_, list_b) = app.get("/api/users", &b.session.access).await;
        assert_eq!(list_b["data"]["users"].as_array().expect("users").len(), 0);
        let (_, history_b) = app
            .get(&format!("/api/conversation/{CUSTOMER}"), &b.session.access)
            .await;
        assert_eq!(history_b["messages"].as_array().expect("messages").len(), 0);
        // A's signature does not open B's door either.
        let (status, _) = app
            .webhook(
                &inbound(
                    &b.phone_number_id,
                    CUSTOMER,
                    "x",
                    vec![text(CUSTOMER, "wamid.x", "x")],
                ),
                &a.app_secret,
            )
            .await;
        assert_eq!(status, 403);
    }
);

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
        contact_name: name.map(String::from),
        user_id: None,
        username: None,
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
            // A redelivery that carries a newer profile name: the name is kept, nothing else.
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
        let expected = [&message[..], &["new_contact"], &message, &message, &message].concat();
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
