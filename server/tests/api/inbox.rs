//! Webhook ingest, the conversation list and history, and isolation between businesses; live
//! streams are `inbox_streams`, intake under load and refusals `inbox_intake`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

pub(crate) const CUSTOMER: &str = "16505551234";

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
