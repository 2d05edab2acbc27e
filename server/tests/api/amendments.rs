//! Reactions and edits change only what they name: a redelivered or older reaction never brings
//! back one taken off since, and an edit replaces the text but keeps the quote and the
//! reactions, keeps the file when only its caption changes, and never adds a quote. A reaction's
//! profile name renames the customer as a message's does. Payloads follow Meta's documented
//! webhook shapes.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::kinds::history;
use crate::live::*;

const CUSTOMER: &str = "16505551234";
/// A minute and two after the originals (`text` sends them at 2025-11-21T04:40:00Z).
const FIRST: &str = "1763700060";
const SECOND: &str = "1763700120";

/// The customer's reaction `id` on `target` at `timestamp`; an empty emoji takes it off.
pub fn reaction(from: &str, id: &str, target: &str, emoji: &str, timestamp: &str) -> Value {
    json!({"from": from, "id": id, "timestamp": timestamp, "type": "reaction",
           "reaction": {"message_id": target, "emoji": emoji}})
}

/// Delivers `messages` from the customer and checks the webhook took them.
async fn deliver(app: &TestApp, biz: &Business, messages: Vec<Value>) {
    let body = inbound(&biz.phone_number_id, CUSTOMER, "Sheena", messages);
    let (status, answer) = app.webhook(&body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

/// The stored message `id`'s content.
async fn content_of(app: &TestApp, biz: &Business, id: &str) -> Value {
    let stored = history(app, biz, CUSTOMER).await;
    let found = stored.iter().find(|m| m["message_id"] == id);
    found.expect(id)["content"].clone()
}

both_backends!(
    a_redelivered_or_older_reaction_never_brings_back_a_removed_one,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("reorder_reactions").await;
        let originals = ["wamid.a1", "wamid.a2"].map(|id| text(CUSTOMER, id, "Open today?"));
        deliver(&app, &biz, originals.to_vec()).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;

        let add = reaction(CUSTOMER, "wamid.radd", "wamid.a1", "👍", FIRST);
        deliver(&app, &biz, vec![add.clone()]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        let shown = &frame["data"]["message"]["content"]["reactions"];
        assert_eq!(shown, &json!({"customer": "👍"}));
        // The same reaction again, at its own time: no change, no event.
        deliver(&app, &biz, vec![add.clone()]).await;
        let off = reaction(CUSTOMER, "wamid.rrem", "wamid.a1", "", SECOND);
        deliver(&app, &biz, vec![off]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        let taken_off = &frame["data"]["message"]["content"];
        assert!(taken_off.get("reactions").is_none(), "{frame}");

        // The add redelivered after its removal changes nothing.
        deliver(&app, &biz, vec![add]).await;
        // A removal that overtook its older add on the way keeps it off.
        let off = reaction(CUSTOMER, "wamid.rrem2", "wamid.a2", "", SECOND);
        let late = reaction(CUSTOMER, "wamid.radd2", "wamid.a2", "❤️", FIRST);
        deliver(&app, &biz, vec![off]).await;
        deliver(&app, &biz, vec![late]).await;

        let next = text(CUSTOMER, "wamid.next", "Hello?");
        deliver(&app, &biz, vec![next]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_message", "nothing before it: {frame}");
        for id in ["wamid.a1", "wamid.a2"] {
            let content = content_of(&app, &biz, id).await;
            assert_eq!(content, json!({"text": "Open today?"}), "{id}");
        }
        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored.len(), 3, "reactions are no messages: {stored:?}");
    }
);

both_backends!(
    an_edit_keeps_the_quote_and_the_reactions,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("edit_keeps").await;
        let mut reply = text(CUSTOMER, "wamid.reply", "Is tihs one in red?");
        reply["context"] = json!({"from": "15550000000", "id": "wamid.a1"});
        deliver(
            &app,
            &biz,
            vec![text(CUSTOMER, "wamid.a1", "We have it in blue")],
        )
        .await;
        deliver(&app, &biz, vec![reply]).await;
        let love = reaction(CUSTOMER, "wamid.love", "wamid.reply", "❤️", FIRST);
        deliver(&app, &biz, vec![love]).await;
        let before = content_of(&app, &biz, "wamid.reply").await;
        assert_eq!(before["context"]["quoted"]["text"], "We have it in blue");
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;

        let edit = json!({"from": CUSTOMER, "id": "wamid.fix", "timestamp": SECOND,
                          "type": "edit", "edit": {"original_message_id": "wamid.reply",
                          "message": {"type": "text", "text": {"body": "Is this one in red?"}}}});
        deliver(&app, &biz, vec![edit]).await;

        let expected = json!({"text": "Is this one in red?", "context": before["context"],
                              "reactions": {"customer": "❤️"}});
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        assert_eq!(frame["data"]["message"]["content"], expected);
        let stored = history(&app, &biz, CUSTOMER).await;
        let edited = stored.iter().find(|m| m["message_id"] == "wamid.reply");
        let edited = edited.expect("the reply");
        assert_eq!(edited["content"], expected);
        assert!(edited["edited_at"].is_string(), "{edited}");
    }
);

both_backends!(
    a_reaction_alone_renames_the_customer_as_a_message_does,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("reaction_renames").await;
        deliver(&app, &biz, vec![text(CUSTOMER, "wamid.a1", "Open today?")]).await;
        let like = reaction(CUSTOMER, "wamid.like", "wamid.a1", "👍", FIRST);
        let body = inbound(&biz.phone_number_id, CUSTOMER, "Sheena Nelson", vec![like]);
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");

        let (status, list) = app.get("/api/users", &biz.session.access).await;
        assert_eq!(status, 200, "{list}");
        assert_eq!(list["data"]["users"][0]["name"], "Sheena Nelson", "{list}");
        let content = content_of(&app, &biz, "wamid.a1").await;
        assert_eq!(content["reactions"], json!({"customer": "👍"}));
    }
);

/// The customer's edit `id` of `original` to `message`, at `SECOND`.
fn edit(id: &str, original: &str, message: Value) -> Value {
    json!({"from": CUSTOMER, "id": id, "timestamp": SECOND, "type": "edit",
           "edit": {"original_message_id": original, "message": message}})
}

both_backends!(
    an_edit_of_the_caption_alone_keeps_the_file,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("caption_edit").await;
        let photo = json!({"from": CUSTOMER, "id": "wamid.photo", "timestamp": FIRST,
            "type": "image", "image": {"caption": "Red one", "mime_type": "image/jpeg",
            "sha256": "c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2",
            "id": "1479537139650973"}});
        deliver(&app, &biz, vec![photo]).await;
        let before = content_of(&app, &biz, "wamid.photo").await;
        assert_eq!(before["image"]["media_id"], "1479537139650973", "{before}");

        let caption = json!({"type": "image", "image": {"caption": "The blue one"}});
        deliver(&app, &biz, vec![edit("wamid.fix", "wamid.photo", caption)]).await;

        let mut expected = before.clone();
        expected["caption"] = json!("The blue one");
        assert_eq!(content_of(&app, &biz, "wamid.photo").await, expected);
        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(stored[0]["type"], "image", "{stored:?}");
        assert!(stored[0]["edited_at"].is_string(), "{stored:?}");
    }
);

both_backends!(
    an_edit_that_names_a_quote_does_not_make_a_message_a_reply,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("edit_no_quote").await;
        let first = text(CUSTOMER, "wamid.a1", "We have it in blue");
        let plain = text(CUSTOMER, "wamid.plain", "Is tihs one in red?");
        deliver(&app, &biz, vec![first, plain]).await;

        let context = json!({"from": CUSTOMER, "id": "wamid.a1"});
        let quoted = json!({"type": "text", "text": {"body": "Is this one in red?"},
                            "context": context.clone()});
        let mut fix = edit("wamid.fix", "wamid.plain", quoted);
        fix["context"] = context;
        deliver(&app, &biz, vec![fix]).await;

        let plain = content_of(&app, &biz, "wamid.plain").await;
        assert_eq!(plain, json!({"text": "Is this one in red?"}));
    }
);

both_backends!(
    a_deleted_unread_message_leaves_the_unread_counts_and_the_sessions_are_told,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("deleted_unread").await;
        let token = &biz.session.access;
        let originals = ["wamid.u1", "wamid.u2"].map(|id| text(CUSTOMER, id, "Open today?"));
        deliver(&app, &biz, originals.to_vec()).await;
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;

        let revoke = |id: &str, original: &str| {
            json!({"from": CUSTOMER, "id": id, "timestamp": FIRST, "type": "revoke",
                   "revoke": {"original_message_id": original}})
        };
        deliver(&app, &biz, vec![revoke("wamid.del1", "wamid.u1")]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "notification", "{frame}");
        assert_eq!(frame["data"]["unread_count"], 1, "{frame}");
        assert_eq!(frame["data"]["total_unread"], 1, "{frame}");
        let (_, page) = app.get("/api/users", token).await;
        assert_eq!(page["data"]["total_unread"], 1, "{page}");
        assert_eq!(page["data"]["users"][0]["unread_count"], 1, "{page}");

        // A redelivered deletion counts nothing twice; one of a read message leaves the counts.
        deliver(&app, &biz, vec![revoke("wamid.del1", "wamid.u1")]).await;
        let read = format!("/api/conversation/{CUSTOMER}/mark-as-read");
        let (status, _) = app.post(&read, json!({}), Some(token)).await;
        assert_eq!(status, 200);
        let frame = ws.next_frame().await;
        assert_eq!(frame["data"]["total_unread"], 0, "{frame}");
        deliver(&app, &biz, vec![revoke("wamid.del2", "wamid.u2")]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "message_updated", "{frame}");
        let next = text(CUSTOMER, "wamid.u3", "Hello?");
        deliver(&app, &biz, vec![next]).await;
        let frames = ws.frames_until("notification", 1).await;
        let last = frames.last().expect("a notification");
        assert_eq!(last["data"]["unread_count"], 1, "{last}");
        assert_eq!(last["data"]["total_unread"], 1, "{last}");
    }
);
