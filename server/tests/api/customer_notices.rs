//! Notices about a customer (a new number, a new BSUID, a new security code) are shown in their
//! conversation but are not something they wrote: never unread, no start of the 24-hour reply
//! window, no push, no reopening, and no message in reports. A chain of number changes in one
//! webhook carries every item to the last number.

use serde_json::{Value, json};

use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::history;
use crate::helpers::*;
use crate::labels::rows;
use crate::live::{Business, WsClient, inbound, text};
use crate::push::{Browser, push_setup, subscribed};
use crate::reports::overview;
use crate::sending::chrono_now_secs;

const PHONE: &str = "16505551234";
const NEW_PHONE: &str = "16505559999";

/// A `system` notice from `from` at `timestamp`.
fn notice(from: &str, id: &str, timestamp: i64, system: Value) -> Value {
    json!({"from": from, "id": id, "timestamp": timestamp.to_string(), "type": "system",
           "system": system})
}

/// `from`'s notice at `timestamp` that their security code changed.
fn security_change(from: &str, id: &str, timestamp: i64) -> Value {
    let system = json!({"body": "Sam's security code changed",
                        "type": "customer_identity_changed", "customer": from,
                        "identity": "aGVsbG8="});
    notice(from, id, timestamp, system)
}

/// `from`'s notice at `timestamp` that they changed their number to `to`.
fn number_change(from: &str, id: &str, timestamp: i64, to: &str) -> Value {
    let body = format!("Sam changed from {from} to {to}");
    let system = json!({"body": body, "wa_id": to, "type": "user_changed_number"});
    notice(from, id, timestamp, system)
}

/// The one row of the list, and the business's unread total.
async fn only_row(app: &TestApp, biz: &Business) -> (Value, Value) {
    let (status, list) = app.get("/api/users?status=all", &biz.session.access).await;
    assert_eq!(status, 200, "{list}");
    let users = list["data"]["users"].as_array().expect("users");
    assert_eq!(users.len(), 1, "{list}");
    (users[0].clone(), list["data"]["total_unread"].clone())
}

both_backends!(
    a_notice_about_the_customer_is_shown_but_is_not_unread_and_opens_no_reply_window,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("notices").await;
        let pnid = biz.phone_number_id.clone();
        let now = chrono_now_secs();
        // The customer last wrote two days ago: the reply window is closed.
        let mut hello = text(PHONE, "wamid.hello", "hello");
        hello["timestamp"] = json!((now - 2 * 24 * 60 * 60).to_string());
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", vec![hello])).await;
        let (before, _) = only_row(&app, &biz).await;

        let security = security_change(PHONE, "wamid.security", now - 60);
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", vec![security])).await;
        let changed = number_change(PHONE, "wamid.number", now, NEW_PHONE);
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", vec![changed])).await;

        let messages = history(&app, &biz, NEW_PHONE).await;
        let ids: Vec<&Value> = messages.iter().map(|m| &m["message_id"]).collect();
        assert_eq!(ids, ["wamid.hello", "wamid.security", "wamid.number"]);
        let (row, total) = only_row(&app, &biz).await;
        assert_eq!(row["phone_number"], NEW_PHONE);
        assert_eq!(
            (&row["unread_count"], &total),
            (&json!(1), &json!(1)),
            "{row}"
        );
        assert_eq!(
            row["last_incoming_timestamp"],
            before["last_incoming_timestamp"]
        );
        assert_eq!(row["last_message_timestamp"], messages[2]["timestamp"]);
        let (status, body) = app
            .send_text(&biz.session.access, NEW_PHONE, "client-n", "Hi Sam")
            .await;
        assert_eq!(status, 422, "the window stays closed: {body}");
    }
);

/// Delivers `messages` from Sam in one webhook whose `contacts` name each of `phones`.
async fn deliver_from(app: &TestApp, biz: &Business, phones: &[&str], messages: Vec<Value>) {
    let mut body = inbound(&biz.phone_number_id, phones[0], "Sam", messages);
    let contacts = body["entry"][0]["changes"][0]["value"]["contacts"]
        .as_array_mut()
        .expect("contacts");
    for phone in &phones[1..] {
        contacts.push(json!({"profile": {"name": "Sam"}, "wa_id": phone}));
    }
    deliver(app, biz, &body).await;
}

/// The history of the list's only conversation, which is `key`'s.
async fn the_one_conversation(app: &TestApp, biz: &Business, key: &str) -> Vec<Value> {
    let list = rows(app, &biz.session.access, "status=all").await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["phone_number"], key);
    history(app, biz, key).await
}

/// A text from `from`, `ago` seconds before now.
fn text_ago(from: &str, id: &str, ago: i64) -> Value {
    let mut message = text(from, id, id);
    message["timestamp"] = json!((chrono_now_secs() - ago).to_string());
    message
}

both_backends!(
    a_chain_of_number_changes_in_one_webhook_carries_every_item_to_the_last_number,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("chained_moves").await;
        let last_phone = "16505557777";
        let now = chrono_now_secs();
        let first = number_change(PHONE, "wamid.first", now - 8, NEW_PHONE);
        let second = number_change(NEW_PHONE, "wamid.second", now - 4, last_phone);
        let fix = json!({"from": PHONE, "id": "wamid.fix", "timestamp": (now - 2).to_string(),
            "type": "edit", "edit": {"original_message_id": "wamid.before",
            "message": {"type": "text", "text": {"body": "hello!"}}}});
        let before = text_ago(PHONE, "wamid.before", 10);
        let between = text_ago(NEW_PHONE, "wamid.between", 6);
        let messages = vec![before, first, between, second, fix];
        deliver_from(&app, &biz, &[PHONE, NEW_PHONE, last_phone], messages).await;

        // As if each had come in a webhook of its own: one customer, under the last number.
        let messages = the_one_conversation(&app, &biz, last_phone).await;
        let ids: Vec<&Value> = messages.iter().map(|m| &m["message_id"]).collect();
        let expected = [
            "wamid.before",
            "wamid.first",
            "wamid.between",
            "wamid.second",
        ];
        assert_eq!(ids, expected);
        assert_eq!(messages[0]["content"]["text"], "hello!");
        for old in [PHONE, NEW_PHONE] {
            assert!(history(&app, &biz, old).await.is_empty(), "{old}");
        }
    }
);

both_backends!(
    a_number_change_and_back_in_one_webhook_ends_under_the_first_number,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("moved_back").await;
        let now = chrono_now_secs();
        let away = number_change(PHONE, "wamid.away", now - 8, NEW_PHONE);
        let back = number_change(NEW_PHONE, "wamid.back", now - 6, PHONE);
        let before = text_ago(PHONE, "wamid.before", 10);
        let after = text_ago(NEW_PHONE, "wamid.after", 4);
        let messages = vec![before, away, back, after];
        deliver_from(&app, &biz, &[PHONE, NEW_PHONE], messages).await;

        let messages = the_one_conversation(&app, &biz, PHONE).await;
        let ids: Vec<&Value> = messages.iter().map(|m| &m["message_id"]).collect();
        let expected = ["wamid.before", "wamid.away", "wamid.back", "wamid.after"];
        assert_eq!(ids, expected);
    }
);

both_backends!(
    a_notice_is_not_pushed_reopens_nothing_and_is_no_message_in_reports,
    |backend| async move {
        let (app, mut service, biz) = push_setup(backend, "notice_push").await;
        let token = &biz.session.access;
        let browser = Browser::new(&service, "/owner");
        subscribed(&app, token, &browser).await;
        let pnid = biz.phone_number_id.clone();
        let writes = |phone: &str, message: Value| inbound(&pnid, phone, "Sam", vec![message]);
        // Two customers wrote and were answered: both conversations are resolved.
        for (phone, id) in [(PHONE, "wamid.one"), (NEW_PHONE, "wamid.two")] {
            deliver(&app, &biz, &writes(phone, text_ago(phone, id, 120))).await;
            let push = service.next_to("/owner").await;
            assert_eq!(browser.open(&push)["message_id"], id);
            let path = format!("/api/conversation/{phone}/status");
            let (status, body) = app.patch(&path, json!({"status": "resolved"}), token).await;
            assert_eq!(status, 200, "{body}");
        }
        let mut ws = WsClient::connect(&app, token).await;
        ws.subscribe("notifications/all").await;
        // The first one's security code changes; then the second writes again.
        let security = security_change(PHONE, "wamid.code", chrono_now_secs());
        deliver(&app, &biz, &writes(PHONE, security)).await;
        let again = text_ago(NEW_PHONE, "wamid.again", 0);
        deliver(&app, &biz, &writes(NEW_PHONE, again)).await;
        // The follow-up takes conversations in the order they were written to: once the
        // second is reopened, the notice has been followed up too.
        loop {
            let frame = ws.next_frame().await;
            if frame["event"] == "conversation_updated" {
                assert_eq!(frame["data"]["phone_number"], NEW_PHONE, "{frame}");
                break;
            }
        }
        let push = service.next_to("/owner").await;
        assert_eq!(browser.open(&push)["message_id"], "wamid.again");
        let list = rows(&app, token, "status=all").await;
        let status = |phone: &str| {
            let row = list.iter().find(|r| r["phone_number"] == phone);
            row.map(|r| r["status"].clone())
        };
        assert_eq!(status(PHONE), Some(json!("resolved")), "{list:?}");
        assert_eq!(status(NEW_PHONE), Some(json!("open")), "{list:?}");

        let totals = &overview(&app, token, "").await["totals"];
        assert_eq!(totals["messages_in"], 3, "{totals}");
        assert_eq!(totals["conversations_opened"], 3, "{totals}");
    }
);

both_backends!(
    a_customer_opening_a_chat_for_the_first_time_is_a_notice_in_a_new_conversation,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("welcome").await;
        let opened = json!({"from": PHONE, "id": "wamid.welcome",
                            "timestamp": chrono_now_secs().to_string(),
                            "type": "request_welcome"});
        let body = inbound(&biz.phone_number_id, PHONE, "Sam", vec![opened]);
        deliver(&app, &biz, &body).await;

        let (row, total) = only_row(&app, &biz).await;
        assert_eq!(
            (&row["name"], &row["unread_count"]),
            (&json!("Sam"), &json!(0))
        );
        assert_eq!(total, 0);
        let messages = history(&app, &biz, PHONE).await;
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert_eq!(messages[0]["type"], "system", "{}", messages[0]);
        assert_eq!(messages[0]["content"]["system"]["type"], "request_welcome");
        // Nothing the customer wrote: no reply window opens.
        let (status, answer) = (app.send_text(&biz.session.access, PHONE, "client-w", "Hi")).await;
        assert_eq!(status, 422, "{answer}");
    }
);
