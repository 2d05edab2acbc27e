//! Customers Meta names by business-scoped user id (BSUID) and username, with or without their
//! phone: their conversations, linking a phone and a BSUID, changed numbers and ids, and
//! receipts of messages sent by BSUID. Payloads follow Meta's "Business-scoped user IDs" guide.

use parley_actors::conversation::{
    ConversationKey, ConversationStore, OutgoingMessage, SendOutcome,
};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

pub const BSUID: &str = "US.13491208655302741918";
pub const PHONE: &str = "16505551234";
const USERNAME: &str = "@realsheenanelson";

/// A `messages` change as Meta sends it for a user with a username: `contacts[].user_id` and
/// `profile.username`, and `wa_id` only when `phone` is shared.
pub fn from_username(pnid: &str, phone: Option<&str>, messages: Vec<Value>) -> Value {
    let mut contact = json!({"profile": {"name": "Sheena Nelson", "username": USERNAME},
                             "user_id": BSUID});
    if let Some(phone) = phone {
        contact["wa_id"] = json!(phone);
    }
    json!({"object": "whatsapp_business_account", "entry": [{"id": "waba", "changes": [{
    "field": "messages",
    "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
        "contacts": [contact],
        "messages": messages,
    }}]}]})
}

/// A text from the BSUID, with `from` only when the phone is shared.
pub fn bsuid_text(phone: Option<&str>, id: &str, body: &str, timestamp: &str) -> Value {
    let mut message = json!({"from_user_id": BSUID, "id": id, "timestamp": timestamp,
                             "type": "text", "text": {"body": body}});
    if let Some(phone) = phone {
        message["from"] = json!(phone);
    }
    message
}

async fn users(app: &TestApp, biz: &Business) -> Vec<Value> {
    let (status, list) = app.get("/api/users", &biz.session.access).await;
    assert_eq!(status, 200, "{list}");
    list["data"]["users"].as_array().expect("users").clone()
}

pub async fn history(app: &TestApp, biz: &Business, key: &str) -> Vec<Value> {
    let (status, body) = app
        .get(&format!("/api/conversation/{key}"), &biz.session.access)
        .await;
    assert_eq!(status, 200, "{body}");
    body["messages"].as_array().expect("messages").clone()
}

/// The first event named `name` on the socket.
async fn event_named(ws: &mut WsClient, name: &str) -> Value {
    loop {
        let frame = ws.next_frame().await;
        if frame["event"] == name {
            return frame["data"].clone();
        }
    }
}

both_backends!(
    a_customer_known_only_by_bsuid_has_a_conversation_like_anyone_else,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("bsuid").await;
        let conversation_id = format!("{}_{BSUID}", biz.phone_number_id);
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        ws.subscribe(&conversation_id).await;
        let message = bsuid_text(
            None,
            "wamid.u1",
            "Does it come in another color?",
            "1749416383",
        );
        let (status, body) = app
            .webhook(
                &from_username(&biz.phone_number_id, None, vec![message]),
                &biz.app_secret,
            )
            .await;
        assert_eq!((status, body), (200, json!({"status": "success"})));

        let announced = event_named(&mut ws, "new_contact").await;
        assert_eq!(announced["phone_number"], Value::Null);
        assert_eq!(announced["user_id"], BSUID);
        assert_eq!(announced["username"], USERNAME);
        assert_eq!(announced["conversation_id"], conversation_id.as_str());
        let arrived = event_named(&mut ws, "new_message").await;
        assert_eq!(arrived["conversation_id"], conversation_id.as_str());
        assert_eq!(arrived["message"]["message_id"], "wamid.u1");

        let rows = users(&app, &biz).await;
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["phone_number"], Value::Null);
        assert_eq!(rows[0]["user_id"], BSUID);
        assert_eq!(rows[0]["username"], USERNAME);
        assert_eq!(rows[0]["name"], "Sheena Nelson");
        assert_eq!(rows[0]["conversation_id"], conversation_id.as_str());

        let messages = history(&app, &biz, BSUID).await;
        assert_eq!(messages.len(), 1);
        assert_eq!(
            messages[0]["content"]["text"],
            "Does it come in another color?"
        );
        let (status, _) = app
            .post(
                &format!("/api/conversation/{BSUID}/mark-as-read"),
                json!({}),
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(users(&app, &biz).await[0]["unread_count"], 0);
        // Renamed by an agent: announced with the ids it has, so lists keep its username.
        let rename = json!({"name": "Sheena (VIP)", "phone_number": BSUID});
        let (status, body) = app
            .post("/api/users/update", rename, Some(&biz.session.access))
            .await;
        assert_eq!(status, 200, "{body}");
        let renamed = event_named(&mut ws, "new_contact").await;
        assert_eq!(renamed["name"], "Sheena (VIP)");
        assert_eq!(renamed["user_id"], BSUID);
        assert_eq!(renamed["username"], USERNAME);
        assert_eq!(renamed["renamed"], true);
        let (status, body) = app
            .call(
                reqwest::Method::DELETE,
                &format!("/api/contacts/delete/{BSUID}"),
                None,
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert!(users(&app, &biz).await.is_empty());
        let (status, body) = app
            .get("/api/conversation/US.not-a-bsuid", &biz.session.access)
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(body["code"].is_string(), "{body}");
    }
);

both_backends!(
    a_message_naming_both_phone_and_bsuid_joins_the_two_histories,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("linked").await;
        let pnid = biz.phone_number_id.clone();
        let first = bsuid_text(None, "wamid.l1", "first", "1749416383");
        app.webhook(&from_username(&pnid, None, vec![first]), &biz.app_secret)
            .await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        let second = bsuid_text(Some(PHONE), "wamid.l2", "second", "1749416390");
        let (status, _) = app
            .webhook(
                &from_username(&pnid, Some(PHONE), vec![second]),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200);
        let merged = event_named(&mut ws, "new_contact").await;
        assert_eq!(merged["previous_phone_number"], BSUID);
        assert_eq!(merged["phone_number"], PHONE);
        assert_eq!(merged["user_id"], BSUID);
        assert_eq!(merged["conversation_id"], format!("{pnid}_{PHONE}"));

        // Later messages naming only the BSUID go to the phone's conversation.
        let third = bsuid_text(None, "wamid.l3", "third", "1749416400");
        app.webhook(&from_username(&pnid, None, vec![third]), &biz.app_secret)
            .await;
        let rows = users(&app, &biz).await;
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["phone_number"], PHONE);
        assert_eq!(rows[0]["user_id"], BSUID);
        assert_eq!(rows[0]["unread_count"], 3);
        let texts: Vec<Value> = history(&app, &biz, PHONE)
            .await
            .iter()
            .map(|m| m["content"]["text"].clone())
            .collect();
        assert_eq!(texts, vec![json!("first"), json!("second"), json!("third")]);
        // The BSUID now names the phone's conversation.
        assert_eq!(
            history(&app, &biz, BSUID).await,
            history(&app, &biz, PHONE).await
        );
    }
);

both_backends!(
    a_changed_number_or_bsuid_moves_the_customer_with_their_history,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("moved").await;
        let pnid = biz.phone_number_id.clone();
        let new_phone = "16505559999";
        let new_bsuid = "US.99999208655302741918";
        let hello = text(PHONE, "wamid.m1", "hello");
        app.webhook(&inbound(&pnid, PHONE, "Sam", vec![hello]), &biz.app_secret)
            .await;
        let changed = json!({"from": PHONE, "id": "wamid.m2", "timestamp": "1763700100",
            "type": "system", "system": {"body": "User Sam changed from 16505551234 to 16505559999",
            "wa_id": new_phone, "type": "user_changed_number"}});
        let body = json!({"object": "whatsapp_business_account", "entry": [{"id": "waba",
            "changes": [{"field": "messages", "value": {"messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
            "messages": [changed]}}]}]});
        let (status, _) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200);
        let rows = users(&app, &biz).await;
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["phone_number"], new_phone);
        assert_eq!(rows[0]["name"], "Sam");
        let ids: Vec<Value> = history(&app, &biz, new_phone)
            .await
            .iter()
            .map(|m| m["message_id"].clone())
            .collect();
        assert_eq!(ids, vec![json!("wamid.m1"), json!("wamid.m2")]);

        let new_id = json!({"from": new_phone, "from_user_id": BSUID, "id": "wamid.m3",
            "timestamp": "1763700200", "type": "system", "system": {
            "body": "User Sam changed their user id", "type": "user_changed_user_id",
            "user_id": new_bsuid, "previous_user_id": BSUID}});
        let (status, _) = app
            .webhook(
                &inbound(&pnid, new_phone, "Sam", vec![new_id]),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200);
        let rows = users(&app, &biz).await;
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["phone_number"], new_phone);
        assert_eq!(rows[0]["user_id"], new_bsuid);
        assert_eq!(history(&app, &biz, new_phone).await.len(), 3);
    }
);

both_backends!(
    receipts_by_bsuid_tick_outgoing_messages_and_never_touch_inbound_ones,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        // The message below is recorded as sent by the store itself: nothing is left to send.
        settings.outbox.poll_ms = 600_000;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("ticks").await;
        let pnid = biz.phone_number_id.clone();
        let inbound_message = bsuid_text(None, "wamid.in", "hi", "1763700000");
        app.webhook(
            &from_username(&pnid, None, vec![inbound_message]),
            &biz.app_secret,
        )
        .await;
        let (store, business_id) = store_of(&app, &biz).await;
        let key = ConversationKey {
            business_id,
            phone: BSUID.into(),
        };
        let outgoing = OutgoingMessage {
            client_id: "c-1".into(),
            kind: "text".into(),
            content: json!({"text": "Yes, in blue"}),
            sender_name: "Agent".into(),
            sent_by: None,
            payload: json!({"messaging_product": "whatsapp", "recipient_type": "individual",
                            "recipient": BSUID, "type": "text", "text": {"body": "Yes, in blue"}}),
        };
        store
            .record_outgoing(key.clone(), outgoing)
            .await
            .expect("recorded");
        let accepted = SendOutcome::Accepted {
            client_id: "c-1".into(),
            provider_id: "wamid.out".into(),
        };
        store
            .record_send_outcome(key, accepted)
            .await
            .expect("accepted");

        let status = |id: &str, state: &str, extra: Value| {
            let mut status = json!({"id": id, "status": state, "timestamp": "1763700100",
                                    "recipient_user_id": BSUID});
            if let (Some(status), Value::Object(extra)) = (status.as_object_mut(), extra) {
                status.extend(extra);
            }
            status
        };
        let failed = status(
            "wamid.out",
            "failed",
            json!({"errors": [{"code": 131026,
            "title": "Message undeliverable"}]}),
        );
        let on_inbound = status("wamid.in", "read", json!({}));
        for statuses in [vec![failed, on_inbound]] {
            let (code, _) = app
                .webhook(&receipts(&pnid, statuses), &biz.app_secret)
                .await;
            assert_eq!(code, 200);
        }
        let by_id = |messages: &[Value], id: &str| {
            messages
                .iter()
                .find(|m| m["message_id"] == id)
                .expect(id)
                .clone()
        };
        let messages = history(&app, &biz, BSUID).await;
        assert_eq!(by_id(&messages, "wamid.out")["status"], "failed");
        assert_eq!(by_id(&messages, "wamid.out")["error"]["code"], 131026);
        assert_eq!(by_id(&messages, "wamid.in")["status"], "received");

        let delivered = status("wamid.out", "delivered", json!({}));
        app.webhook(&receipts(&pnid, vec![delivered]), &biz.app_secret)
            .await;
        let messages = history(&app, &biz, BSUID).await;
        assert_eq!(by_id(&messages, "wamid.out")["status"], "delivered");
        assert_eq!(by_id(&messages, "wamid.out")["error"], Value::Null);
    }
);

both_backends!(
    a_user_id_update_moves_a_bsuid_customer_to_their_new_bsuid,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("renewed").await;
        let pnid = biz.phone_number_id.clone();
        let new_bsuid = "US.55555208655302741918";
        let first = bsuid_text(None, "wamid.r1", "hello", "1749416383");
        app.webhook(&from_username(&pnid, None, vec![first]), &biz.app_secret)
            .await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;
        let update = json!({"object": "whatsapp_business_account", "entry": [{"id": "waba",
            "changes": [{"field": "user_id_update", "value": {"messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
            "user_id_update": [{"previous_user_id": BSUID, "user_id": new_bsuid,
                                "timestamp": "1749416400"}]}}]}]});
        let (status, _) = app.webhook(&update, &biz.app_secret).await;
        assert_eq!(status, 200);
        let moved = event_named(&mut ws, "new_contact").await;
        assert_eq!(moved["previous_phone_number"], BSUID);
        assert_eq!(moved["user_id"], new_bsuid);
        assert_eq!(moved["phone_number"], Value::Null);
        let rows = users(&app, &biz).await;
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["conversation_id"], format!("{pnid}_{new_bsuid}"));
        assert_eq!(rows[0]["username"], USERNAME);
        assert_eq!(history(&app, &biz, new_bsuid).await.len(), 1);
    }
);

both_backends!(
    one_delivery_naming_a_bsuid_alone_and_with_its_phone_keeps_one_history,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("together").await;
        let pnid = &biz.phone_number_id;
        let alone = bsuid_text(None, "wamid.t1", "alone", "1749416383");
        let with_phone = bsuid_text(Some(PHONE), "wamid.t2", "with phone", "1749416384");
        // Two changes of one POST: the first withholds the phone, the second shares it.
        let mut body = from_username(pnid, None, vec![alone]);
        let second = from_username(pnid, Some(PHONE), vec![with_phone]);
        let entries = body["entry"].as_array_mut().expect("entries");
        entries.push(second["entry"][0].clone());
        assert_eq!(app.webhook(&body, &biz.app_secret).await.0, 200);
        let rows = users(&app, &biz).await;
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["phone_number"], PHONE);
        assert_eq!(history(&app, &biz, PHONE).await.len(), 2);
    }
);
