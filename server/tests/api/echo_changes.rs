//! Reactions, edits and deletions the business makes in the WhatsApp Business app reach Parley as
//! echoes (`smb_message_echoes`): they change the message they name, as the customer's do, and
//! are no messages of their own. Each side changes only its own messages.

use serde_json::{Value, json};

use crate::amendments::reaction;
use crate::both_backends;
use crate::helpers::*;
use crate::kinds::{echoes, history};
use crate::live::*;

const CUSTOMER: &str = "16505551234";
/// The business's number, the echoes' `from`.
const BUSINESS: &str = "15550000000";
/// One, two and three minutes after the originals (`text` sends them at 2025-11-21T04:40:00Z).
const FIRST: &str = "1763700060";
const SECOND: &str = "1763700120";
const THIRD: &str = "1763700180";

/// An echo of a text the business sent from the app.
fn echoed_text(id: &str, body: &str) -> Value {
    json!({"from": BUSINESS, "to": CUSTOMER, "id": id, "timestamp": FIRST, "type": "text",
           "text": {"body": body}})
}

/// An edit (to `body`) of `original` by `from`, at `timestamp`; an echo when `from` is the
/// business.
fn edit(from: &str, id: &str, original: &str, body: &str, timestamp: &str) -> Value {
    let mut edit = json!({"from": from, "id": id, "timestamp": timestamp, "type": "edit",
                          "edit": {"original_message_id": original,
                                   "message": {"type": "text", "text": {"body": body}}}});
    if from == BUSINESS {
        edit["to"] = json!(CUSTOMER);
    }
    edit
}

/// A deletion for everyone of `original` by `from`; an echo when `from` is the business.
fn revoke(from: &str, id: &str, original: &str) -> Value {
    let mut revoke = json!({"from": from, "id": id, "timestamp": THIRD, "type": "revoke",
                            "revoke": {"original_message_id": original}});
    if from == BUSINESS {
        revoke["to"] = json!(CUSTOMER);
    }
    revoke
}

/// The business's reaction from the app, as an echo.
fn echoed_reaction(id: &str, target: &str, emoji: &str, timestamp: &str) -> Value {
    let mut echo = reaction(BUSINESS, id, target, emoji, timestamp);
    echo["to"] = json!(CUSTOMER);
    echo
}

/// Posts a signed webhook body; it must be taken.
async fn post(app: &TestApp, biz: &Business, body: &Value) {
    let (status, answer) = app.webhook(body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

async fn from_customer(app: &TestApp, biz: &Business, messages: Vec<Value>) {
    post(
        app,
        biz,
        &inbound(&biz.phone_number_id, CUSTOMER, "Sheena", messages),
    )
    .await;
}

async fn from_app(app: &TestApp, biz: &Business, messages: Vec<Value>) {
    post(app, biz, &echoes(&biz.phone_number_id, messages)).await;
}

/// The next `message_updated` frame's message; any other frame fails.
async fn updated(ws: &mut WsClient) -> Value {
    let frame = ws.next_frame().await;
    assert_eq!(frame["event"], "message_updated", "{frame}");
    frame["data"]["message"].clone()
}

fn ids(messages: &[Value]) -> Vec<&str> {
    let ids = messages.iter().map(|m| m["message_id"].as_str());
    ids.map(Option::unwrap_or_default).collect()
}

both_backends!(
    an_echoed_reaction_edit_and_deletion_change_the_message_they_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("echo_changes").await;
        from_customer(&app, &biz, vec![text(CUSTOMER, "wamid.ask", "Open today?")]).await;
        from_app(&app, &biz, vec![echoed_text("wamid.echo1", "Until 6pm")]).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe(&format!("{}_{}", biz.phone_number_id, CUSTOMER))
            .await;

        let thumbs = echoed_reaction("wamid.er1", "wamid.ask", "👍", SECOND);
        from_app(&app, &biz, vec![thumbs.clone()]).await;
        let reacted = updated(&mut ws).await;
        assert_eq!(reacted["message_id"], "wamid.ask");
        assert_eq!(
            reacted["content"],
            json!({"text": "Open today?", "reactions": {"business": "👍"}})
        );
        let fix = edit(BUSINESS, "wamid.ee1", "wamid.echo1", "Until 7pm", SECOND);
        from_app(&app, &biz, vec![fix.clone()]).await;
        let edited = updated(&mut ws).await;
        assert_eq!(edited["message_id"], "wamid.echo1");
        assert_eq!(
            edited["content"],
            json!({"text": "Until 7pm", "echo": true})
        );
        assert_eq!(edited["edited_at"], "2025-11-21T04:42:00.000Z");
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        let row = &list["data"]["users"][0];
        assert_eq!(row["last_message_content"]["text"], "Until 7pm", "{row}");

        // Taken off later; the older reaction redelivered does not bring it back.
        let off = echoed_reaction("wamid.er2", "wamid.ask", "", THIRD);
        from_app(&app, &biz, vec![off]).await;
        assert!(updated(&mut ws).await["content"].get("reactions").is_none());
        from_app(&app, &biz, vec![thumbs.clone()]).await;
        let gone = revoke(BUSINESS, "wamid.ev1", "wamid.echo1");
        from_app(&app, &biz, vec![gone.clone()]).await;
        let revoked = updated(&mut ws).await;
        assert_eq!(revoked["message_id"], "wamid.echo1");
        assert_eq!(revoked["content"], json!({"text": null, "revoked": true}));
        assert_eq!(revoked["revoked_at"], "2025-11-21T04:43:00.000Z");

        // Everything redelivered at once changes nothing: the next event is the next message's.
        let again = vec![echoed_text("wamid.echo1", "Until 6pm"), thumbs, fix, gone];
        from_app(&app, &biz, again).await;
        let mut thanks = text(CUSTOMER, "wamid.thanks", "Thanks");
        thanks["timestamp"] = json!(THIRD);
        from_customer(&app, &biz, vec![thanks]).await;
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_message", "{frame}");
        assert_eq!(frame["data"]["message"]["message_id"], "wamid.thanks");
        let stored = history(&app, &biz, CUSTOMER).await;
        assert_eq!(ids(&stored), ["wamid.ask", "wamid.echo1", "wamid.thanks"]);
        assert_eq!(stored[0]["content"], json!({"text": "Open today?"}));
    }
);

both_backends!(
    each_side_edits_and_deletes_only_its_own_messages,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("echo_sides").await;
        from_customer(&app, &biz, vec![text(CUSTOMER, "wamid.mine", "mine")]).await;
        from_app(&app, &biz, vec![echoed_text("wamid.ours", "ours")]).await;

        let by_customer = vec![
            edit(CUSTOMER, "wamid.c1", "wamid.ours", "hijacked", SECOND),
            revoke(CUSTOMER, "wamid.c2", "wamid.ours"),
        ];
        from_customer(&app, &biz, by_customer).await;
        let by_business = vec![
            edit(BUSINESS, "wamid.b1", "wamid.mine", "hijacked", SECOND),
            revoke(BUSINESS, "wamid.b2", "wamid.mine"),
            // An edit of an echo not delivered yet waits for it.
            edit(BUSINESS, "wamid.b3", "wamid.later", "fixed", SECOND),
        ];
        from_app(&app, &biz, by_business).await;
        from_app(&app, &biz, vec![echoed_text("wamid.later", "fxied")]).await;

        let mut stored = Vec::new();
        for _ in 0..50 {
            stored = history(&app, &biz, CUSTOMER).await;
            if stored.iter().any(|m| m["edited_at"].is_string()) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(ids(&stored), ["wamid.mine", "wamid.ours", "wamid.later"]);
        assert_eq!(stored[0]["content"], json!({"text": "mine"}));
        assert_eq!(stored[1]["content"], json!({"text": "ours", "echo": true}));
        assert_eq!(stored[2]["content"], json!({"text": "fixed", "echo": true}));
        for message in &stored[..2] {
            assert!(message.get("edited_at").is_none(), "{message}");
            assert!(message.get("revoked_at").is_none(), "{message}");
        }
    }
);
