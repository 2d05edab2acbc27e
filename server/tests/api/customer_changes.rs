//! Edits, deletions and coexistence echoes find their customer the way messages do: by phone or
//! by BSUID, and a BSUID already linked to a phone reaches the phone's conversation.

use serde_json::{Value, json};

use crate::both_backends;
use crate::customers::{BSUID, PHONE, bsuid_text, from_username, history};
use crate::helpers::*;
use crate::labels::{labels_path, rows};
use crate::live::{Business, inbound, text};

/// 2025-11-21T04:40:00Z and a minute later.
const SENT: &str = "1763700000";
const LATER: &str = "1763700060";

/// A `smb_message_echoes` change: a message the business sent from its phone to `to_user_id`.
fn echo_to_user_id(pnid: &str, id: &str, body: &str) -> Value {
    json!({"object": "whatsapp_business_account", "entry": [{"id": "waba", "changes": [{
    "field": "smb_message_echoes",
    "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
        "message_echoes": [{"from": "15550783881", "to_user_id": BSUID, "id": id,
                            "timestamp": LATER, "type": "text", "text": {"body": body}}],
    }}]}]})
}

/// Posts a signed webhook body; it must be taken.
pub async fn deliver(app: &TestApp, biz: &Business, body: &Value) {
    let (status, answer) = app.webhook(body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

fn ids(messages: &[Value]) -> Vec<&str> {
    messages
        .iter()
        .map(|m| m["message_id"].as_str().unwrap_or_default())
        .collect()
}

both_backends!(
    an_edit_and_an_echo_by_bsuid_only_reach_a_customer_known_by_bsuid,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("bsuid_changes").await;
        let pnid = biz.phone_number_id.clone();
        let first = bsuid_text(None, "wamid.first", "Blue, please", SENT);
        deliver(&app, &biz, &from_username(&pnid, None, vec![first])).await;

        let edit = json!({"from_user_id": BSUID, "id": "wamid.edit", "timestamp": LATER,
                          "type": "edit", "edit": {"original_message_id": "wamid.first",
                          "message": {"type": "text", "text": {"body": "Red, please"}}}});
        deliver(&app, &biz, &from_username(&pnid, None, vec![edit])).await;
        deliver(
            &app,
            &biz,
            &echo_to_user_id(&pnid, "wamid.echo", "Red it is"),
        )
        .await;

        let messages = history(&app, &biz, BSUID).await;
        assert_eq!(ids(&messages), ["wamid.first", "wamid.echo"]);
        assert_eq!(messages[0]["content"]["text"], "Red, please");
        assert!(messages[0]["edited_at"].is_string(), "{}", messages[0]);
        assert_eq!(messages[1]["direction"], "outgoing");
        assert_eq!(messages[1]["sender_name"], "WhatsApp app");
    }
);

both_backends!(
    a_revoke_and_an_echo_by_bsuid_reach_the_phone_it_is_linked_to,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("linked_changes").await;
        let pnid = biz.phone_number_id.clone();
        // Phone and BSUID arrive together once: the customer is kept under the phone.
        let first = bsuid_text(Some(PHONE), "wamid.first", "Blue, please", SENT);
        deliver(&app, &biz, &from_username(&pnid, Some(PHONE), vec![first])).await;

        let revoke = json!({"from_user_id": BSUID, "id": "wamid.revoke", "timestamp": LATER,
                            "type": "revoke", "revoke": {"original_message_id": "wamid.first"}});
        deliver(&app, &biz, &from_username(&pnid, None, vec![revoke])).await;
        deliver(
            &app,
            &biz,
            &echo_to_user_id(&pnid, "wamid.echo", "No problem"),
        )
        .await;

        let messages = history(&app, &biz, PHONE).await;
        assert_eq!(ids(&messages), ["wamid.first", "wamid.echo"]);
        assert_eq!(
            messages[0]["content"],
            json!({"text": null, "revoked": true})
        );
        assert!(messages[0]["revoked_at"].is_string(), "{}", messages[0]);
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        let rows = list["data"]["users"].as_array().expect("rows");
        assert_eq!(rows.len(), 1, "one customer, one row: {list}");
    }
);

/// The names of a list row's labels, sorted.
fn label_names(row: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = row["labels"]
        .as_array()
        .expect("labels")
        .iter()
        .map(|l| l["name"].as_str().unwrap_or_default())
        .collect();
    names.sort_unstable();
    names
}

both_backends!(
    a_bsuid_conversation_joined_to_its_phone_keeps_its_labels_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("joined_labels").await;
        let (pnid, owner) = (biz.phone_number_id.clone(), biz.session.access.clone());
        let other = "4915187654321";
        let at = |from: &str, id: &str, timestamp: &str| {
            let mut message = text(from, id, "hello");
            message["timestamp"] = json!(timestamp);
            message
        };
        // The phone writes first, then the same customer by BSUID alone, then someone else.
        let by_phone = at(PHONE, "wamid.phone", "1749416100");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![by_phone])).await;
        let by_bsuid = bsuid_text(None, "wamid.bsuid", "it's me", "1749416200");
        deliver(&app, &biz, &from_username(&pnid, None, vec![by_bsuid])).await;
        let by_other = at(other, "wamid.other", "1749416300");
        deliver(&app, &biz, &inbound(&pnid, other, "Olu", vec![by_other])).await;
        let refund = app.label(&owner, "Refund", "#D93F0B").await;
        let vip = app.label(&owner, "VIP", "#0E8A16").await;
        for (key, labels) in [
            (BSUID, vec![&refund]),
            (PHONE, vec![&vip]),
            (other, vec![&refund]),
        ] {
            let (status, body) = app
                .put(&labels_path(key), json!({"labels": labels}), &owner)
                .await;
            assert_eq!(status, 200, "{body}");
        }

        // A message naming both joins the BSUID's conversation to the phone's: one row, with
        // both conversations' labels, listed by its new message under either label.
        let both = bsuid_text(Some(PHONE), "wamid.both", "still me", "1749416400");
        deliver(&app, &biz, &from_username(&pnid, Some(PHONE), vec![both])).await;
        let all = rows(&app, &owner, "status=all").await;
        let keys: Vec<&Value> = all.iter().map(|r| &r["phone_number"]).collect();
        assert_eq!(keys, [&json!(PHONE), &json!(other)], "{all:?}");
        assert_eq!(label_names(&all[0]), ["Refund", "VIP"]);
        let refunds = rows(&app, &owner, &format!("status=all&label={refund}")).await;
        let keys: Vec<&Value> = refunds.iter().map(|r| &r["phone_number"]).collect();
        assert_eq!(keys, [&json!(PHONE), &json!(other)], "{refunds:?}");
        let vips = rows(&app, &owner, &format!("status=all&label={vip}")).await;
        assert_eq!(vips.len(), 1, "{vips:?}");
        assert_eq!(vips[0]["phone_number"], PHONE);
    }
);

both_backends!(
    a_reply_after_two_histories_join_follows_the_later_dated_one,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("joined_times").await;
        let pnid = biz.phone_number_id.clone();
        let now = crate::sending::chrono_now_secs();
        // The BSUID's history holds a message dated two minutes ahead; the phone's, one of now.
        let ahead = (now + 120).to_string();
        let first = bsuid_text(None, "wamid.ahead", "from a fast clock", &ahead);
        deliver(&app, &biz, &from_username(&pnid, None, vec![first])).await;
        let mut by_phone = text(PHONE, "wamid.phone", "hello");
        by_phone["timestamp"] = json!(now.to_string());
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sheena", vec![by_phone])).await;
        let both = bsuid_text(Some(PHONE), "wamid.both", "it is me", &now.to_string());
        deliver(&app, &biz, &from_username(&pnid, Some(PHONE), vec![both])).await;
        // The BSUID now names the phone's conversation.
        assert_eq!(
            history(&app, &biz, BSUID).await,
            history(&app, &biz, PHONE).await
        );

        let (status, body) = app
            .send_text(&biz.session.access, &format!("+{PHONE}"), "client-r", "Hi")
            .await;
        assert_eq!(status, 200, "{body}");
        let joined = history(&app, &biz, PHONE).await;
        let reply = body["response"]["messages"][0]["id"].as_str().expect("id");
        assert_eq!(ids(&joined)[joined.len() - 2..], ["wamid.ahead", reply]);
    }
);

both_backends!(
    the_older_customer_changed_number_moves_the_customer_too,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("oldshape").await;
        let pnid = biz.phone_number_id.clone();
        let new_phone = "16505550444";
        let hello = text(PHONE, "wamid.o1", "hello");
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", vec![hello])).await;
        let changed = json!({"from": PHONE, "id": "wamid.o2", "timestamp": LATER,
            "type": "system", "system": {"body": "Sam changed their number",
            "new_wa_id": new_phone, "type": "customer_changed_number"}});
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", vec![changed])).await;
        let after = json!({"from": new_phone, "id": "wamid.o3", "timestamp": "1763700120",
            "type": "text", "text": {"body": "from the new number"}});
        deliver(&app, &biz, &inbound(&pnid, new_phone, "Sam", vec![after])).await;
        let listed = rows(&app, &biz.session.access, "status=all").await;
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0]["phone_number"], new_phone);
        let moved = history(&app, &biz, new_phone).await;
        assert_eq!(ids(&moved), ["wamid.o1", "wamid.o2", "wamid.o3"]);
        assert!(history(&app, &biz, PHONE).await.is_empty());
    }
);

both_backends!(
    an_edit_or_deletion_that_came_before_its_message_is_applied_once_it_is_stored,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("reordered").await;
        let pnid = biz.phone_number_id.clone();
        let stranger = "447700900777";
        let change = |kind: &str, from: &str, id: &str, original: &str| {
            let mut change = json!({"from": from, "id": id, "timestamp": LATER, "type": kind});
            change[kind] = match kind {
                "edit" => json!({"original_message_id": original,
                                 "message": {"type": "text", "text": {"body": "fixed"}}}),
                _ => json!({"original_message_id": original}),
            };
            change
        };
        let early = vec![
            change("revoke", PHONE, "wamid.r1", "wamid.late1"),
            change("edit", PHONE, "wamid.e1", "wamid.late2"),
        ];
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", early)).await;
        // Another customer's deletion of a message that turns out to be Sam's changes nothing.
        let theirs = vec![change("revoke", stranger, "wamid.r2", "wamid.late3")];
        deliver(&app, &biz, &inbound(&pnid, stranger, "Eve", theirs)).await;
        let originals = vec![
            text(PHONE, "wamid.late1", "secret"),
            text(PHONE, "wamid.late2", "tpyo"),
            text(PHONE, "wamid.late3", "keep me"),
        ];
        deliver(&app, &biz, &inbound(&pnid, PHONE, "Sam", originals)).await;

        let mut stored = Vec::new();
        for _ in 0..50 {
            stored = history(&app, &biz, PHONE).await;
            if stored.iter().all(|m| {
                m["message_id"] == "wamid.late3"
                    || m["edited_at"].is_string()
                    || m["revoked_at"].is_string()
            }) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let by_id = |id: &str| stored.iter().find(|m| m["message_id"] == id).cloned();
        let deleted = by_id("wamid.late1").expect("late1");
        assert!(deleted["revoked_at"].is_string(), "{deleted}");
        assert_eq!(deleted["content"]["revoked"], true);
        let edited = by_id("wamid.late2").expect("late2");
        assert!(edited["edited_at"].is_string(), "{edited}");
        assert_eq!(edited["content"]["text"], "fixed");
        let kept = by_id("wamid.late3").expect("late3");
        assert_eq!(kept["content"]["text"], "keep me", "{kept}");
        assert!(kept.get("revoked_at").is_none(), "{kept}");
    }
);

both_backends!(
    a_number_change_moves_the_messages_delivered_before_it_in_the_same_webhook,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("moved_in_one").await;
        let pnid = biz.phone_number_id.clone();
        let new_phone = "16505559999";
        let changed = json!({"from": PHONE, "id": "wamid.changed", "timestamp": LATER,
            "type": "system", "system": {"body": "User Sam changed from 16505551234 to 16505559999",
            "wa_id": new_phone, "type": "user_changed_number"}});
        let mut after = text(new_phone, "wamid.after", "new number, same Sam");
        after["timestamp"] = json!("1763700120");
        let fix = json!({"from": PHONE, "id": "wamid.fix", "timestamp": SENT, "type": "edit",
            "edit": {"original_message_id": "wamid.before",
                     "message": {"type": "text", "text": {"body": "hello!"}}}});
        let before = text(PHONE, "wamid.before", "hello");
        let messages = vec![before, fix, changed, after];
        let mut body = inbound(&pnid, PHONE, "Sam", messages);
        let contacts = &mut body["entry"][0]["changes"][0]["value"]["contacts"];
        let second = json!({"profile": {"name": "Sam"}, "wa_id": new_phone});
        contacts.as_array_mut().expect("contacts").push(second);
        deliver(&app, &biz, &body).await;

        // As if each had come in a webhook of its own: one customer, under the new number.
        let list = rows(&app, &biz.session.access, "").await;
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(list[0]["phone_number"], new_phone);
        let messages = history(&app, &biz, new_phone).await;
        assert_eq!(
            ids(&messages),
            ["wamid.before", "wamid.changed", "wamid.after"]
        );
        assert_eq!(messages[0]["content"]["text"], "hello!");
        assert!(history(&app, &biz, PHONE).await.is_empty());
    }
);

both_backends!(
    an_edit_and_an_echo_by_bsuid_only_join_the_phone_their_webhook_names_it_with,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("together_changes").await;
        let pnid = biz.phone_number_id.clone();
        let first = bsuid_text(Some(PHONE), "wamid.first", "Blue, please", SENT);
        let edit = json!({"from_user_id": BSUID, "id": "wamid.edit", "timestamp": LATER,
                          "type": "edit", "edit": {"original_message_id": "wamid.first",
                          "message": {"type": "text", "text": {"body": "Red, please"}}}});
        // One POST: the message shares the phone, the edit and the echo name the BSUID alone.
        let mut body = from_username(&pnid, Some(PHONE), vec![first]);
        let entries = body["entry"].as_array_mut().expect("entries");
        entries.push(from_username(&pnid, None, vec![edit])["entry"][0].clone());
        entries.push(echo_to_user_id(&pnid, "wamid.echo", "Red it is")["entry"][0].clone());
        deliver(&app, &biz, &body).await;

        let list = rows(&app, &biz.session.access, "").await;
        assert_eq!(list.len(), 1, "one customer, one row: {list:?}");
        assert_eq!(list[0]["phone_number"], PHONE);
        let messages = history(&app, &biz, PHONE).await;
        assert_eq!(ids(&messages), ["wamid.first", "wamid.echo"]);
        assert_eq!(messages[0]["content"]["text"], "Red, please");
    }
);

both_backends!(
    a_user_id_update_moves_the_messages_its_own_webhook_carries_from_the_old_bsuid,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("renewed_in_one").await;
        let pnid = biz.phone_number_id.clone();
        let new_bsuid = "US.55555208655302741918";
        let first = bsuid_text(None, "wamid.old", "hello", SENT);
        let mut body = from_username(&pnid, None, vec![first]);
        let update = json!({"field": "user_id_update", "value": {"messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
            "user_id_update": [{"previous_user_id": BSUID, "user_id": new_bsuid,
                                "timestamp": LATER}]}});
        let changes = body["entry"][0]["changes"].as_array_mut().expect("changes");
        changes.push(update);
        deliver(&app, &biz, &body).await;

        let list = rows(&app, &biz.session.access, "").await;
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(list[0]["conversation_id"], format!("{pnid}_{new_bsuid}"));
        assert_eq!(ids(&history(&app, &biz, new_bsuid).await), ["wamid.old"]);
    }
);

both_backends!(
    a_user_id_update_of_a_customer_known_by_phone_keeps_one_history,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("renewed_by_phone").await;
        let pnid = biz.phone_number_id.clone();
        let new_bsuid = "US.55555208655302741918";
        let first = bsuid_text(Some(PHONE), "wamid.p1", "hello", SENT);
        deliver(&app, &biz, &from_username(&pnid, Some(PHONE), vec![first])).await;
        let update = json!({"object": "whatsapp_business_account", "entry": [{"id": "waba",
            "changes": [{"field": "user_id_update", "value": {"messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
            "user_id_update": [{"wa_id": PHONE, "previous_user_id": BSUID,
                                "user_id": new_bsuid, "timestamp": LATER}]}}]}]});
        deliver(&app, &biz, &update).await;
        let list = rows(&app, &biz.session.access, "").await;
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(list[0]["user_id"], new_bsuid, "{list:?}");

        // Their next message names only the new BSUID: it joins the phone's history.
        let mut next = bsuid_text(None, "wamid.p2", "still me", LATER);
        next["from_user_id"] = json!(new_bsuid);
        let mut body = from_username(&pnid, None, vec![next]);
        body["entry"][0]["changes"][0]["value"]["contacts"][0]["user_id"] = json!(new_bsuid);
        deliver(&app, &biz, &body).await;
        let list = rows(&app, &biz.session.access, "").await;
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(
            ids(&history(&app, &biz, PHONE).await),
            ["wamid.p1", "wamid.p2"]
        );
    }
);
