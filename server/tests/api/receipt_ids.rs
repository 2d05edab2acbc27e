//! A receipt names the customer it went to: `recipient_user_id` (their BSUID) and, on delivered
//! and read receipts, the `contacts` entry with their username (Meta's "Business-scoped user
//! IDs" guide). Both are kept with the customer's contact as a message of theirs would keep
//! them, announced with `new_contact` marked `renamed`; the profile name a receipt carries is
//! not taken (an agent's name for the customer stays).

use serde_json::{Value, json};

use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::{BSUID, PHONE};
use crate::helpers::*;
use crate::kinds::echoes;
use crate::labels::rows;
use crate::live::*;

/// A receipt of `id` for the customer of `PHONE` and `user_id`, with the `contacts` entry
/// Meta sends beside it (none when `username` is `None`, as on a `sent` receipt).
fn receipt(pnid: &str, id: &str, state: &str, user_id: &str, username: Option<&str>) -> Value {
    let status = json!({"id": id, "status": state, "timestamp": "1763700100",
        "recipient_id": PHONE, "recipient_user_id": user_id});
    let mut body = receipts(pnid, vec![status]);
    if let Some(username) = username {
        body["entry"][0]["changes"][0]["value"]["contacts"] = json!([{"wa_id": PHONE,
            "user_id": user_id, "profile": {"name": "Sheena N.", "username": username}}]);
    }
    body
}

/// The list row of `PHONE`.
async fn row(app: &TestApp, biz: &Business) -> Value {
    let listed = rows(app, &biz.session.access, "status=all").await;
    let found = listed.iter().find(|r| r["phone_number"] == PHONE);
    found.expect("the customer's row").clone()
}

/// The business writes to `PHONE` from the WhatsApp Business app: message `id`.
async fn write_from_the_app(app: &TestApp, biz: &Business, id: &str) {
    let echo = json!({"from": "15550000000", "to": PHONE, "id": id, "timestamp": "1763700060",
        "type": "text", "text": {"body": "Your order shipped"}});
    deliver(app, biz, &echoes(&biz.phone_number_id, vec![echo])).await;
}

both_backends!(
    a_receipt_keeps_the_bsuid_and_username_it_names_with_the_contact,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("receipt_ids").await;
        let pnid = biz.phone_number_id.clone();
        let hello = text(PHONE, "wamid.in", "Hi");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![hello])).await;
        write_from_the_app(&app, &biz, "wamid.out").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        // A receipt without `contacts` names the BSUID alone; a later one the username too.
        let delivered = receipt(&pnid, "wamid.out", "delivered", BSUID, None);
        deliver(&app, &biz, &delivered).await;
        let frames = ws.frames_until("message_status_update", 1).await;
        let announced = &frames[0];
        assert_eq!(announced["event"], "new_contact", "{frames:?}");
        assert_eq!(announced["data"]["renamed"], true);
        assert_eq!(announced["data"]["user_id"], BSUID);
        let read = receipt(&pnid, "wamid.out", "read", BSUID, Some("@sheena"));
        deliver(&app, &biz, &read).await;
        let frames = ws.frames_until("message_status_update", 1).await;
        assert_eq!(frames[0]["data"]["username"], "@sheena", "{frames:?}");
        let listed = row(&app, &biz).await;
        assert_eq!(
            (&listed["name"], &listed["user_id"], &listed["username"]),
            (&json!("Sheena"), &json!(BSUID), &json!("@sheena"))
        );

        // The same ids again: nothing to announce before the next message.
        deliver(&app, &biz, &read).await;
        write_from_the_app(&app, &biz, "wamid.out2").await;
        let frames = ws.frames_until("new_message", 1).await;
        let contacts = frames.iter().filter(|f| f["event"] == "new_contact");
        assert_eq!(contacts.count(), 0, "{frames:?}");
    }
);

both_backends!(
    a_bsuid_another_conversation_is_kept_under_is_left_to_the_customers_next_message,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("receipt_split").await;
        let pnid = biz.phone_number_id.clone();
        // The customer wrote once by BSUID alone (its own conversation), once by phone.
        let mut by_bsuid = inbound(&pnid, BSUID, "Sheena", vec![text(BSUID, "wamid.u", "Hi")]);
        let value = &mut by_bsuid["entry"][0]["changes"][0]["value"];
        value["contacts"] = json!([{"user_id": BSUID, "profile": {"name": "Sheena"}}]);
        value["messages"][0]["from_user_id"] = json!(BSUID);
        value["messages"][0]
            .as_object_mut()
            .expect("message")
            .remove("from");
        deliver(&app, &biz, &by_bsuid).await;
        let hello = text(PHONE, "wamid.in", "Hi");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![hello])).await;
        write_from_the_app(&app, &biz, "wamid.out").await;

        let delivered = receipt(&pnid, "wamid.out", "delivered", BSUID, Some("@sheena"));
        deliver(&app, &biz, &delivered).await;
        let listed = row(&app, &biz).await;
        assert_eq!(listed["user_id"], Value::Null, "{listed}");
        assert_eq!(listed["username"], "@sheena", "{listed}");
        let (_, all) = app.get("/api/users?status=all", &biz.session.access).await;
        assert_eq!(
            all["data"]["users"].as_array().map(Vec::len),
            Some(2),
            "{all}"
        );
    }
);

both_backends!(
    a_receipt_that_beats_its_message_keeps_the_ids_it_names_at_once,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("receipt_early").await;
        let pnid = biz.phone_number_id.clone();
        let hello = text(PHONE, "wamid.in", "Hi");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![hello])).await;

        // Delivered before the echo of the message the business wrote from the app.
        let delivered = receipt(&pnid, "wamid.out", "delivered", BSUID, Some("@sheena"));
        deliver(&app, &biz, &delivered).await;
        let listed = row(&app, &biz).await;
        assert_eq!(
            (&listed["user_id"], &listed["username"]),
            (&json!(BSUID), &json!("@sheena")),
            "{listed}"
        );
        write_from_the_app(&app, &biz, "wamid.out").await;
        let (status, page) = app
            .get(&format!("/api/conversation/{PHONE}"), &biz.session.access)
            .await;
        assert_eq!(status, 200, "{page}");
        let out = page["messages"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["message_id"] == "wamid.out").cloned());
        assert_eq!(out.expect("the echo")["status"], "delivered", "{page}");
    }
);

both_backends!(
    a_receipt_that_names_no_customer_finds_its_message_by_id,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("receipt_unnamed").await;
        let pnid = biz.phone_number_id.clone();
        let hello = text(PHONE, "wamid.in", "Hi");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![hello])).await;
        write_from_the_app(&app, &biz, "wamid.out").await;
        write_from_the_app(&app, &biz, "wamid.out2").await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        // Neither `recipient_id` nor `recipient_user_id`; a `recipient_id` that is no customer's;
        // and one for a message recorded after it.
        let read = json!({"id": "wamid.out", "status": "read", "timestamp": "1763700100"});
        let undeliverable = json!({"code": 131026, "title": "Message undeliverable"});
        let failed = json!({"id": "wamid.out2", "status": "failed", "timestamp": "1763700100",
            "recipient_id": "not a customer", "errors": [undeliverable]});
        let early = json!({"id": "wamid.out3", "status": "delivered", "timestamp": "1763700100"});
        deliver(&app, &biz, &receipts(&pnid, vec![read, failed, early])).await;
        let frames = ws.frames_until("message_status_update", 2).await;
        let mut changed: Vec<(&Value, &Value, &Value)> = (frames.iter())
            .filter(|f| f["event"] == "message_status_update")
            .map(|f| {
                (
                    &f["data"]["message_id"],
                    &f["data"]["status"],
                    &f["data"]["phone_number"],
                )
            })
            .collect();
        changed.sort_by_key(|(id, _, _)| id.as_str());
        assert_eq!(
            changed,
            vec![
                (&json!("wamid.out"), &json!("read"), &json!(PHONE)),
                (&json!("wamid.out2"), &json!("failed"), &json!(PHONE)),
            ]
        );
        write_from_the_app(&app, &biz, "wamid.out3").await;

        let (status, page) = app
            .get(&format!("/api/conversation/{PHONE}"), &biz.session.access)
            .await;
        assert_eq!(status, 200, "{page}");
        let stored: Vec<(&Value, &Value, &Value)> = (page["messages"].as_array())
            .expect("messages")
            .iter()
            .map(|m| (&m["message_id"], &m["status"], &m["error"]["code"]))
            .collect();
        assert_eq!(
            stored,
            vec![
                (&json!("wamid.in"), &json!("received"), &Value::Null),
                (&json!("wamid.out"), &json!("read"), &Value::Null),
                (&json!("wamid.out2"), &json!("failed"), &json!(131026)),
                (&json!("wamid.out3"), &json!("delivered"), &Value::Null),
            ]
        );
    }
);
