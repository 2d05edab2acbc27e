//! A customer's message, reaction, edit or deletion updates their known contact alike: the
//! profile name, the BSUID (`contacts[].user_id`) and the username (`contacts[].profile.username`)
//! it comes with, announced with `new_contact` marked `renamed`, a change's even when it comes
//! before the message it changes. An echo of the business's, which carries
//! no profile of the customer, keeps the BSUID it was sent to (`to_user_id`). Payloads follow
//! Meta's "Business-scoped user IDs" guide.

use serde_json::{Value, json};

use crate::amendments::reaction;
use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::{BSUID, PHONE};
use crate::helpers::*;
use crate::kinds::{echoes, history};
use crate::labels::rows;
use crate::live::*;

/// A minute, two and three after the originals (`text` sends them at 2025-11-21T04:40:00Z).
const FIRST: &str = "1763700060";
const SECOND: &str = "1763700120";
const THIRD: &str = "1763700180";

/// A `messages` change from the customer of `PHONE` and `BSUID`, named `name` with `username`.
fn described(pnid: &str, name: &str, username: &str, messages: Vec<Value>) -> Value {
    let mut body = inbound(pnid, PHONE, name, messages);
    let contact = &mut body["entry"][0]["changes"][0]["value"]["contacts"][0];
    contact["user_id"] = json!(BSUID);
    contact["profile"]["username"] = json!(username);
    body
}

/// The customer's edit `id` of `original` to the text `body`.
fn edit(id: &str, original: &str, body: &str, timestamp: &str) -> Value {
    json!({"from": PHONE, "id": id, "timestamp": timestamp, "type": "edit",
           "edit": {"original_message_id": original,
                    "message": {"type": "text", "text": {"body": body}}}})
}

/// A list row's BSUID and username.
fn ids(row: &Value) -> (&Value, &Value) {
    (&row["user_id"], &row["username"])
}

/// The first `new_contact` on the socket.
async fn new_contact(ws: &mut WsClient) -> Value {
    loop {
        let frame = ws.next_frame().await;
        if frame["event"] == "new_contact" {
            return frame["data"].clone();
        }
    }
}

/// The list's only row.
async fn only_row(app: &TestApp, biz: &Business) -> Value {
    let listed = rows(app, &biz.session.access, "status=all").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    listed[0].clone()
}

both_backends!(
    a_reaction_edit_or_deletion_keeps_the_customers_bsuid_and_username_as_a_message_does,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("change_ids").await;
        let pnid = biz.phone_number_id.clone();
        let originals = ["wamid.a1", "wamid.a2"].map(|id| text(PHONE, id, "Open today?"));
        deliver(
            &app,
            &biz,
            &inbound(&pnid, PHONE, "Sheena", originals.to_vec()),
        )
        .await;
        let before = only_row(&app, &biz).await;
        assert_eq!(ids(&before), (&Value::Null, &Value::Null));
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        let mut like = reaction(PHONE, "wamid.like", "wamid.a1", "👍", FIRST);
        like["from_user_id"] = json!(BSUID);
        deliver(
            &app,
            &biz,
            &described(&pnid, "Sheena", "@sheena", vec![like]),
        )
        .await;
        let announced = new_contact(&mut ws).await;
        assert_eq!(announced["renamed"], true, "{announced}");
        assert_eq!(announced["phone_number"], PHONE);
        assert_eq!(announced["user_id"], BSUID);
        assert_eq!(announced["username"], "@sheena");
        assert_eq!(announced["name"], "Sheena");
        let row = only_row(&app, &biz).await;
        assert_eq!(ids(&row), (&json!(BSUID), &json!("@sheena")));

        // An edit and a deletion: a new username, then a new name with it.
        let fix = edit("wamid.fix", "wamid.a1", "Open tomorrow?", SECOND);
        deliver(
            &app,
            &biz,
            &described(&pnid, "Sheena", "@sheena.n", vec![fix]),
        )
        .await;
        assert_eq!(new_contact(&mut ws).await["username"], "@sheena.n");
        let gone = json!({"from": PHONE, "id": "wamid.gone", "timestamp": THIRD, "type": "revoke",
                          "revoke": {"original_message_id": "wamid.a2"}});
        let body = described(&pnid, "Sheena Nelson", "@realsheenanelson", vec![gone]);
        deliver(&app, &biz, &body).await;
        let announced = new_contact(&mut ws).await;
        assert_eq!(announced["name"], "Sheena Nelson", "{announced}");
        assert_eq!(announced["username"], "@realsheenanelson");
        let row = only_row(&app, &biz).await;
        assert_eq!(row["name"], "Sheena Nelson");
        assert_eq!(row["username"], "@realsheenanelson");
        assert_eq!(row["user_id"], BSUID);
        let stored = history(&app, &biz, PHONE).await;
        assert_eq!(stored[0]["content"]["text"], "Open tomorrow?", "{stored:?}");
        assert!(stored[1]["revoked_at"].is_string(), "{stored:?}");
    }
);

both_backends!(
    a_change_that_comes_before_its_message_updates_the_known_contact_at_once_and_creates_none,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("early_change_ids").await;
        let pnid = biz.phone_number_id.clone();
        // An unknown customer's early change creates no contact: their message will.
        let early = edit("wamid.fix0", "wamid.a1", "Open today?", FIRST);
        deliver(
            &app,
            &biz,
            &described(&pnid, "Sheena", "@sheena", vec![early]),
        )
        .await;
        assert!(
            rows(&app, &biz.session.access, "status=all")
                .await
                .is_empty()
        );
        let first = text(PHONE, "wamid.a1", "Open tody?");
        deliver(
            &app,
            &biz,
            &described(&pnid, "Sheena", "@sheena", vec![first]),
        )
        .await;
        let row = only_row(&app, &biz).await;
        assert_eq!(ids(&row), (&json!(BSUID), &json!("@sheena")));

        // A known customer's change to a message not come yet: the contact follows at once.
        let fix = edit("wamid.fix", "wamid.late", "See you at 5", THIRD);
        let body = described(&pnid, "Sheena Nelson", "@realsheenanelson", vec![fix]);
        deliver(&app, &biz, &body).await;
        let row = only_row(&app, &biz).await;
        assert_eq!(row["name"], "Sheena Nelson", "{row}");
        assert_eq!(row["username"], "@realsheenanelson");
        assert_eq!(history(&app, &biz, PHONE).await.len(), 1);

        // Its message, without a username, keeps the one the change gave; the edit applies.
        let mut late = text(PHONE, "wamid.late", "See you at 4");
        late["timestamp"] = json!(SECOND);
        deliver(
            &app,
            &biz,
            &inbound(&pnid, PHONE, "Sheena Nelson", vec![late]),
        )
        .await;
        let mut stored = Vec::new();
        for _ in 0..50 {
            stored = history(&app, &biz, PHONE).await;
            if stored
                .iter()
                .any(|m| m["edited_at"].is_string() && m["message_id"] == "wamid.late")
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let late = stored.iter().find(|m| m["message_id"] == "wamid.late");
        assert_eq!(late.expect("late")["content"]["text"], "See you at 5");
        let row = only_row(&app, &biz).await;
        assert_eq!(ids(&row), (&json!(BSUID), &json!("@realsheenanelson")));
    }
);

both_backends!(
    an_echo_keeps_the_bsuid_it_was_sent_to_and_nothing_it_did_not_send,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("echo_ids").await;
        let pnid = biz.phone_number_id.clone();
        let other = "4915112345678";
        let other_bsuid = "DE.77777208655302741918";
        deliver(
            &app,
            &biz,
            &inbound(&pnid, PHONE, "Sheena", vec![text(PHONE, "wamid.a1", "Hi")]),
        )
        .await;
        deliver(
            &app,
            &biz,
            &inbound(&pnid, other, "Olu", vec![text(other, "wamid.b1", "Hey")]),
        )
        .await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        // The business's reaction from the app: no message, so `new_contact` marked `renamed`.
        let mut like = reaction("15550000000", "wamid.like", "wamid.a1", "👍", FIRST);
        like["to"] = json!(PHONE);
        like["to_user_id"] = json!(BSUID);
        deliver(&app, &biz, &echoes(&pnid, vec![like])).await;
        let announced = new_contact(&mut ws).await;
        assert_eq!(announced["renamed"], true, "{announced}");
        assert_eq!(announced["phone_number"], PHONE);
        assert_eq!(announced["user_id"], BSUID);
        assert_eq!(
            (&announced["name"], &announced["username"]),
            (&json!("Sheena"), &Value::Null)
        );
        // A text from the app to the other customer.
        let reply = json!({"from": "15550000000", "to": other, "to_user_id": other_bsuid,
            "id": "wamid.echo", "timestamp": FIRST, "type": "text", "text": {"body": "Hello"}});
        deliver(&app, &biz, &echoes(&pnid, vec![reply])).await;

        let listed = rows(&app, &biz.session.access, "status=all").await;
        let row = |key: &str| listed.iter().find(|r| r["phone_number"] == key).cloned();
        let sheena = row(PHONE).expect("sheena");
        assert_eq!(
            (&sheena["name"], &sheena["user_id"]),
            (&json!("Sheena"), &json!(BSUID))
        );
        assert_eq!(sheena["username"], Value::Null);
        let olu = row(other).expect("olu");
        assert_eq!(
            (&olu["name"], &olu["user_id"]),
            (&json!("Olu"), &json!(other_bsuid))
        );
        let stored = history(&app, &biz, PHONE).await;
        assert_eq!(stored[0]["content"]["reactions"], json!({"business": "👍"}));
    }
);

both_backends!(
    a_message_that_changes_a_known_contacts_ids_announces_them_once_before_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("message_ids").await;
        let pnid = biz.phone_number_id.clone();
        let hello = text(PHONE, "wamid.a1", "Hi");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![hello])).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        // Two messages with a username the contact did not have: one announcement, first.
        let two = ["wamid.a2", "wamid.a3"].map(|id| text(PHONE, id, "Still there?"));
        let body = described(&pnid, "Sheena", "@sheena", two.to_vec());
        deliver(&app, &biz, &body).await;
        let events = ws.frames_until("notification", 2).await;
        assert_eq!(events[0]["event"], "new_contact", "{events:?}");
        let announced = &events[0]["data"];
        assert_eq!(announced["renamed"], true, "{announced}");
        assert_eq!(ids(announced), (&json!(BSUID), &json!("@sheena")));
        let contacts = events.iter().filter(|e| e["event"] == "new_contact");
        assert_eq!(contacts.count(), 1, "{events:?}");

        // The same ids again: nothing to announce.
        let again = text(PHONE, "wamid.a4", "Hello?");
        let body = described(&pnid, "Sheena", "@sheena", vec![again]);
        deliver(&app, &biz, &body).await;
        let events = ws.frames_until("notification", 1).await;
        assert!(
            events.iter().all(|e| e["event"] != "new_contact"),
            "{events:?}"
        );
    }
);

both_backends!(
    a_redelivery_with_a_newer_profile_announces_it_and_adds_no_message,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("redelivered_ids").await;
        let pnid = biz.phone_number_id.clone();
        let first = text(PHONE, "wamid.a1", "Open today?");
        deliver(
            &app,
            &biz,
            &inbound(&pnid, PHONE, "Sheena", vec![first.clone()]),
        )
        .await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        // Meta retries the whole delivery after the customer took a username and a new name.
        let again = described(&pnid, "Sheena Nelson", "@realsheenanelson", vec![first]);
        deliver(&app, &biz, &again).await;
        let announced = new_contact(&mut ws).await;
        assert_eq!(announced["renamed"], true, "{announced}");
        assert_eq!(announced["name"], "Sheena Nelson");
        assert_eq!(
            (&announced["user_id"], &announced["username"]),
            (&json!(BSUID), &json!("@realsheenanelson"))
        );
        let row = only_row(&app, &biz).await;
        assert_eq!(row["name"], "Sheena Nelson", "{row}");
        assert_eq!(row["unread_count"], 1, "{row}");
        assert_eq!(history(&app, &biz, PHONE).await.len(), 1);

        // The next message is the first the socket hears of after the announcement.
        let next = text(PHONE, "wamid.a2", "Still open?");
        let body = described(&pnid, "Sheena Nelson", "@realsheenanelson", vec![next]);
        deliver(&app, &biz, &body).await;
        let frames = ws.frames_until("notification", 1).await;
        let names: Vec<&Value> = frames.iter().map(|f| &f["event"]).collect();
        assert_eq!(names, [&json!("notification")], "{frames:?}");
        assert_eq!(frames[0]["data"]["preview"], "Still open?");
        assert_eq!(frames[0]["data"]["unread_count"], 2);
    }
);

/// Another node's batch writing the customer's username while a reaction of theirs comes in here:
/// the reaction's update of the contact waits for it and keeps the username it wrote.
#[actix_web::test]
async fn a_change_takes_turns_with_another_nodes_write_of_the_contact() {
    use sqlx::Connection;

    let (settings, data_dir) = test_settings(Backend::Postgres).await;
    let url = settings.database.url.clone();
    let app = spawn_with(settings, data_dir).await;
    let biz = app.business("change_turns").await;
    let pnid = biz.phone_number_id.clone();
    let first = text(PHONE, "wamid.a1", "Open today?");
    deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![first])).await;

    let mut other = sqlx::PgConnection::connect(&url)
        .await
        .expect("another node's connection");
    let mut batch = other.begin().await.expect("begin");
    sqlx::query("UPDATE contacts SET username = '@sheena' WHERE phone = $1")
        .bind(PHONE)
        .execute(&mut *batch)
        .await
        .expect("the other node's write");
    let like = reaction(PHONE, "wamid.like", "wamid.a1", "👍", FIRST);
    let renamed = inbound(&pnid, PHONE, "Sheena Nelson", vec![like]);
    let other_commits = async {
        // Time for the reaction's batch to reach the contact before the other node commits.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        batch.commit().await.expect("commit");
    };
    tokio::join!(deliver(&app, &biz, &renamed), other_commits);

    let row = only_row(&app, &biz).await;
    assert_eq!(row["name"], "Sheena Nelson", "{row}");
    assert_eq!(row["username"], "@sheena", "{row}");
}
