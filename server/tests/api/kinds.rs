//! Every inbound kind kept and applied: edits and deletions change the message in place,
//! coexistence echoes are the business's own messages, and newer content shapes are stored whole.
//! Payloads follow Meta's documented webhook shapes.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505551234";
/// 2025-11-21T04:40:00Z, the time of the originals; edits come a minute later.
const SENT: &str = "1763700000";
const CHANGED: &str = "1763700060";

fn edit(from: &str, id: &str, original: &str, body: &str) -> Value {
    json!({"from": from, "id": id, "timestamp": CHANGED, "type": "edit",
           "edit": {"original_message_id": original,
                    "message": {"type": "text", "text": {"body": body}}}})
}

fn revoke(from: &str, id: &str, original: &str) -> Value {
    json!({"from": from, "id": id, "timestamp": CHANGED, "type": "revoke",
           "revoke": {"original_message_id": original}})
}

/// The envelope of a `smb_message_echoes` change: messages the business sent from its phone.
pub fn echoes(pnid: &str, echoes: Vec<Value>) -> Value {
    json!({"object": "whatsapp_business_account", "entry": [{"id": "waba", "changes": [{
    "field": "smb_message_echoes",
    "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "15550000000", "phone_number_id": pnid},
        "message_echoes": echoes,
    }}]}]})
}

/// Delivers `messages` from the customer and checks the webhook took them.
async fn deliver(app: &TestApp, biz: &Business, messages: Vec<Value>) {
    let body = inbound(&biz.phone_number_id, CUSTOMER, "Sheena", messages);
    let (status, answer) = app.webhook(&body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

/// The conversation's messages, oldest first.
pub async fn history(app: &TestApp, biz: &Business, customer: &str) -> Vec<Value> {
    let (status, body) = app
        .get(
            &format!("/api/conversation/{customer}?limit=50"),
            &biz.session.access,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["messages"].as_array().expect("messages").clone()
}

both_backends!(
    an_edit_replaces_the_content_sets_edited_at_and_is_pushed_live,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("editor").await;
        deliver(&app, &biz, vec![text(CUSTOMER, "wamid.orig", "Hello")]).await;
        let channel = format!("{}_{}", biz.phone_number_id, CUSTOMER);
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&channel).await;
        let all = "/api/events/stream/notifications/all";
        let mut sse = SseClient::open(&app, all, &biz.session.access, None).await;

        deliver(
            &app,
            &biz,
            vec![edit(CUSTOMER, "wamid.edit", "wamid.orig", "Hello, world")],
        )
        .await;

        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        assert_eq!(frame["data"]["conversation_id"], channel);
        assert_eq!(frame["data"]["phone_number"], CUSTOMER);
        let updated = &frame["data"]["message"];
        assert_eq!(updated["message_id"], "wamid.orig");
        assert_eq!(updated["content"], json!({"text": "Hello, world"}));
        assert_eq!(updated["edited_at"], "2025-11-21T04:41:00.000Z");
        let event = sse.next_event().await;
        assert_eq!(event.name, "message_updated");
        assert_eq!(event.data["message"]["content"]["text"], "Hello, world");

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored.len(), 1, "an edit is no message of its own");
        assert_eq!(stored[0]["message_id"], "wamid.orig");
        assert_eq!(stored[0]["content"], json!({"text": "Hello, world"}));
        assert_eq!(stored[0]["edited_at"], "2025-11-21T04:41:00.000Z");
        assert_eq!(stored[0]["timestamp"], "2025-11-21T04:40:00.000Z");
        assert!(stored[0].get("revoked_at").is_none(), "{}", stored[0]);

        // A redelivered edit changes nothing: the next event is the next message's.
        deliver(
            &app,
            &biz,
            vec![edit(CUSTOMER, "wamid.edit", "wamid.orig", "Hello, world")],
        )
        .await;
        deliver(
            &app,
            &biz,
            vec![text(CUSTOMER, "wamid.next", "Still there?")],
        )
        .await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_message", "{frame}");
        assert_eq!(frame["data"]["message"]["message_id"], "wamid.next");
    }
);

both_backends!(
    a_revoke_clears_the_content_and_the_list_preview,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("revoker").await;
        deliver(
            &app,
            &biz,
            vec![text(CUSTOMER, "wamid.secret", "My PIN is 1234")],
        )
        .await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        deliver(
            &app,
            &biz,
            vec![revoke(CUSTOMER, "wamid.rev", "wamid.secret")],
        )
        .await;

        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        let updated = &frame["data"]["message"];
        assert_eq!(updated["message_id"], "wamid.secret");
        assert_eq!(updated["content"], json!({"text": null, "revoked": true}));
        assert_eq!(updated["revoked_at"], "2025-11-21T04:41:00.000Z");

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0]["type"], "text");
        assert_eq!(stored[0]["content"], json!({"text": null, "revoked": true}));
        assert_eq!(stored[0]["revoked_at"], "2025-11-21T04:41:00.000Z");
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        let row = &list["data"]["users"][0];
        assert_eq!(row["last_message_content"]["text"], Value::Null, "{row}");

        // A deleted message stays deleted: a late edit changes nothing.
        deliver(
            &app,
            &biz,
            vec![edit(CUSTOMER, "wamid.late", "wamid.secret", "again")],
        )
        .await;
        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored[0]["content"], json!({"text": null, "revoked": true}));
        assert!(stored[0].get("edited_at").is_none(), "{}", stored[0]);
    }
);

both_backends!(
    an_edit_delivered_with_its_original_applies_to_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("sameday").await;
        let channel = format!("{}_{}", biz.phone_number_id, CUSTOMER);
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&channel).await;

        let messages = vec![
            text(CUSTOMER, "wamid.first", "teh price?"),
            edit(CUSTOMER, "wamid.fix", "wamid.first", "the price?"),
        ];
        deliver(&app, &biz, messages).await;

        let created = ws.next_frame().await;
        assert_eq!(created["event"], "new_message", "{created}");
        assert_eq!(created["data"]["message"]["content"]["text"], "teh price?");
        let updated = ws.next_frame().await;
        assert_eq!(updated["event"], "message_updated", "{updated}");
        assert_eq!(updated["data"]["message"]["content"]["text"], "the price?");
        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0]["content"]["text"], "the price?");
    }
);

both_backends!(
    edits_of_unknown_or_other_customers_messages_change_nothing,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("strict").await;
        deliver(&app, &biz, vec![text(CUSTOMER, "wamid.mine", "mine")]).await;
        let other = "447700900123";
        let stranger = vec![
            revoke(other, "wamid.x1", "wamid.mine"),
            edit(other, "wamid.x2", "wamid.nowhere", "ghost"),
        ];
        let body = inbound(&biz.phone_number_id, other, "Other", stranger);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");

        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0]["content"], json!({"text": "mine"}));
        assert!(stored[0].get("revoked_at").is_none());
        assert!(history(&app, &biz, other).await.is_empty());
    }
);

both_backends!(
    an_echo_is_an_outgoing_message_from_the_app_pushed_live_once,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("coexist").await;
        deliver(&app, &biz, vec![text(CUSTOMER, "wamid.ask", "Open today?")]).await;
        let channel = format!("{}_{}", biz.phone_number_id, CUSTOMER);
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&channel).await;

        let echo = json!({"from": "15550000000", "to": CUSTOMER, "id": "wamid.echo1",
                          "timestamp": CHANGED, "type": "text",
                          "text": {"body": "Yes, until 6pm"}});
        let body = echoes(&biz.phone_number_id, vec![echo]);
        for _ in 0..2 {
            let (status, answer) = app.webhook(&body, &biz.app_secret).await;
            assert_eq!(status, 200, "{answer}");
        }

        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_message", "{frame}");
        let pushed = &frame["data"]["message"];
        assert_eq!(pushed["message_id"], "wamid.echo1");
        assert_eq!(pushed["direction"], "outgoing");
        assert_eq!(pushed["status"], "sent");
        assert_eq!(pushed["sender_name"], "WhatsApp app");
        assert_eq!(
            pushed["content"],
            json!({"text": "Yes, until 6pm", "echo": true})
        );

        let stored = history(&app, &biz, CUSTOMER).await;
        let ids: Vec<&Value> = stored.iter().map(|m| &m["message_id"]).collect();
        assert_eq!(ids, [&json!("wamid.ask"), &json!("wamid.echo1")]);
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        let row = &list["data"]["users"][0];
        assert_eq!(row["last_message_content"]["text"], "Yes, until 6pm");
        assert_eq!(row["unread_count"], 1, "an echo is not unread: {row}");

        // The redelivery published nothing: the next event is the next message's.
        deliver(&app, &biz, vec![text(CUSTOMER, "wamid.thanks", "Thanks")]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["data"]["message"]["message_id"], "wamid.thanks");
    }
);

both_backends!(
    an_echo_whose_read_receipt_came_first_is_stored_as_read,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("early_echo").await;
        deliver(&app, &biz, vec![text(CUSTOMER, "wamid.hi", "Hi")]).await;
        let read = json!({"id": "wamid.echo2", "status": "read", "timestamp": CHANGED,
                          "recipient_id": CUSTOMER});
        let (status, answer) = app
            .webhook(&receipts(&biz.phone_number_id, vec![read]), &biz.app_secret)
            .await;
        assert_eq!(status, 200, "{answer}");
        let echo = json!({"from": "15550000000", "to": CUSTOMER, "id": "wamid.echo2",
                          "timestamp": CHANGED, "type": "text", "text": {"body": "On my way"}});
        let (status, answer) = app
            .webhook(&echoes(&biz.phone_number_id, vec![echo]), &biz.app_secret)
            .await;
        assert_eq!(status, 200, "{answer}");
        let stored = history(&app, &biz, CUSTOMER).await;
        let echoed = stored
            .iter()
            .find(|m| m["message_id"] == "wamid.echo2")
            .expect("the echo");
        assert_eq!(echoed["status"], "read", "{echoed}");
    }
);

/// A message of `kind` with `body` under its type's key.
fn message(id: &str, kind: &str, body: Value) -> Value {
    let mut m = json!({"from": CUSTOMER, "id": id, "timestamp": SENT, "type": kind});
    m[kind] = body;
    m
}

both_backends!(
    newer_content_shapes_are_stored_whole,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("shapes").await;
        let card = json!({"name": {"formatted_name": "Ana Ruiz", "first_name": "Ana",
                                   "last_name": "Ruiz"},
                          "phones": [{"phone": "+1 650 555 0101", "wa_id": "16505550101",
                                      "type": "CELL"}],
                          "emails": [{"email": "ana@example.com", "type": "WORK"}],
                          "org": {"company": "Acme", "title": "Buyer"},
                          "urls": [{"url": "https://acme.example", "type": "WORK"}]});
        let referral = json!({"source_url": "https://fb.me/abc", "source_id": "120",
                              "source_type": "ad", "headline": "Summer sale",
                              "body": "20% off", "media_type": "image",
                              "image_url": "https://cdn.example/ad.jpg", "ctwa_clid": "ARAk"});
        let mut from_ad = text(CUSTOMER, "wamid.ad", "Is this still on?");
        from_ad["referral"] = referral.clone();
        let errors = json!([{"code": 131060, "title": "Interactive reply not supported"}]);
        let mut with_errors = message(
            "wamid.err",
            "interactive",
            json!({"type": "button_reply", "button_reply": {"id": "b1", "title": "Yes"}}),
        );
        with_errors["errors"] = errors.clone();
        let unsupported = json!({"from": CUSTOMER, "id": "wamid.unsup", "timestamp": SENT,
                                 "type": "unsupported",
                                 "errors": [{"code": 131051, "title": "Message type unknown"}]});
        let messages = vec![
            message(
                "wamid.flow",
                "interactive",
                json!({"type": "nfm_reply", "nfm_reply": {"name": "flow", "body": "Sent",
                       "response_json": "{\"flow_token\":\"t1\",\"size\":\"M\"}"}}),
            ),
            message(
                "wamid.flowraw",
                "interactive",
                json!({"type": "nfm_reply", "nfm_reply": {"name": "flow", "body": "Sent",
                       "response_json": "not json"}}),
            ),
            message(
                "wamid.call",
                "interactive",
                json!({"type": "call_permission_reply", "call_permission_reply": {
                       "response": "accept", "expiration_timestamp": 1764304800,
                       "response_source": "user_action"}}),
            ),
            message("wamid.card", "contacts", json!([card])),
            from_ad,
            with_errors,
            unsupported.clone(),
        ];
        deliver(&app, &biz, messages).await;

        let stored = history(&app, &biz, CUSTOMER).await;
        let content = |id: &str| {
            let found = stored.iter().find(|m| m["message_id"] == id).expect(id);
            found["content"].clone()
        };
        assert_eq!(
            content("wamid.flow"),
            json!({"text": "Sent", "interactive": {"type": "nfm_reply", "name": "flow",
                   "body": "Sent", "response": {"flow_token": "t1", "size": "M"}}})
        );
        assert_eq!(
            content("wamid.flowraw")["interactive"]["response"],
            "not json"
        );
        assert_eq!(
            content("wamid.call"),
            json!({"text": null, "interactive": {"type": "call_permission_reply",
                   "response": "accept", "expiration_timestamp": 1764304800,
                   "response_source": "user_action"}})
        );
        assert_eq!(
            content("wamid.card"),
            json!({"text": null, "contacts": [card]})
        );
        assert_eq!(
            content("wamid.ad"),
            json!({"text": "Is this still on?", "referral": referral})
        );
        let answered = content("wamid.err");
        assert_eq!(answered["interactive"]["id"], "b1");
        assert_eq!(answered["errors"], errors);
        let unknown = content("wamid.unsup");
        assert_eq!(unknown["text"], Value::Null);
        assert_eq!(unknown["errors"][0]["code"], 131051);
        assert_eq!(unknown["raw"], unsupported);
    }
);
