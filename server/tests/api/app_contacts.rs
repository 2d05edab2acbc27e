//! Contacts the business adds, edits or removes in the WhatsApp Business app's address book
//! (`smb_app_state_sync`, on a number shared by the app and the API) name the inbox's
//! customers; a removal keeps the customer and their history; one odd item never costs the rest.

use serde_json::{Value, json};

use crate::both_backends;
use crate::customer_changes::deliver;
use crate::customers::history;
use crate::helpers::*;
use crate::labels::rows;
use crate::live::{Business, WsClient, inbound, text};

const SHEENA: &str = "16505551234";
const PABLO: &str = "16505550000";

/// A `smb_app_state_sync` change for `pnid` with these `state_sync` items.
fn state_sync(pnid: &str, items: Value) -> Value {
    json!({"object": "whatsapp_business_account", "entry": [{"id": "102290129340398",
        "changes": [{"field": "smb_app_state_sync", "value": {
            "messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "15550783881", "phone_number_id": pnid},
            "state_sync": items}}]}]})
}

/// One address-book change as Meta sends it.
fn contact(action: &str, full_name: Option<&str>, first_name: Option<&str>, phone: &str) -> Value {
    let mut contact = json!({"phone_number": phone});
    if let Some(full) = full_name {
        contact["full_name"] = json!(full);
    }
    if let Some(first) = first_name {
        contact["first_name"] = json!(first);
    }
    json!({"type": "contact", "contact": contact, "action": action,
           "metadata": {"timestamp": "1739321024"}})
}

/// The list's (number, name) pairs, by number.
pub(crate) async fn names(app: &TestApp, biz: &Business) -> Vec<(String, String)> {
    let users = rows(app, &biz.session.access, "page=1").await;
    let mut names: Vec<(String, String)> = users
        .iter()
        .map(|row| {
            let phone = row["phone_number"].as_str().expect("phone").to_string();
            (phone, row["name"].as_str().unwrap_or_default().to_string())
        })
        .collect();
    names.sort();
    names
}

both_backends!(
    the_app_address_book_names_customers_and_a_removal_keeps_them,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("coexistence").await;
        let first = inbound(
            &biz.phone_number_id,
            SHEENA,
            "Sheena",
            vec![text(SHEENA, "wamid.hello", "Hello")],
        );
        deliver(&app, &biz, &first).await;
        let mut ws = WsClient::connect(&app, &biz.session.access).await;
        ws.subscribe("notifications/all").await;

        // A known customer renamed, a new one added by their first name alone.
        let added = state_sync(
            &biz.phone_number_id,
            json!([
                contact("add", Some("Sheena Nelson (shop)"), Some("Sheena"), SHEENA),
                contact("add", None, Some("Pablo"), &format!("+{PABLO}")),
            ]),
        );
        deliver(&app, &biz, &added).await;
        assert_eq!(
            names(&app, &biz).await,
            [
                (PABLO.to_string(), "Pablo".to_string()),
                (SHEENA.to_string(), "Sheena Nelson (shop)".to_string()),
            ]
        );
        // Both are announced live, in the address book's order: the rename marked as one (a
        // list renames a conversation it holds and adds none), then the new contact.
        let renamed = ws.next_frame().await;
        assert_eq!(renamed["event"], "new_contact", "{renamed}");
        assert_eq!(renamed["data"]["phone_number"], SHEENA);
        assert_eq!(renamed["data"]["name"], "Sheena Nelson (shop)");
        assert_eq!(renamed["data"]["renamed"], true);
        let frame = ws.next_frame().await;
        assert_eq!(frame["event"], "new_contact", "{frame}");
        assert_eq!(frame["data"]["phone_number"], PABLO);
        assert_eq!(frame["data"]["name"], "Pablo");
        assert!(frame["data"].get("renamed").is_none(), "{frame}");

        // Removed from the address book: the conversation, its history and name stay.
        let removed = state_sync(
            &biz.phone_number_id,
            json!([{"type": "contact", "contact": {"phone_number": SHEENA}, "action": "remove",
                    "metadata": {"timestamp": "1739321100"}}]),
        );
        deliver(&app, &biz, &removed).await;
        assert!(
            names(&app, &biz)
                .await
                .contains(&(SHEENA.to_string(), "Sheena Nelson (shop)".to_string()))
        );
        let stored = history(&app, &biz, SHEENA).await;
        assert_eq!(stored.len(), 1, "{stored:?}");
        assert_eq!(stored[0]["message_id"], "wamid.hello");
    }
);

both_backends!(
    odd_address_book_items_are_skipped_and_the_rest_applied,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("oddbook").await;
        let items = json!([
            contact("add", Some("No Number"), None, ""),
            contact("add", Some("Letters"), None, "call me"),
            contact("add", None, None, "16505550001"),
            contact("add", Some("   "), Some(""), "16505550002"),
            contact("rename", Some("Odd Action"), None, "16505550003"),
            {"type": "label", "label": {"name": "VIP"}, "action": "add"},
            "not an object",
            {"type": "contact", "contact": "Pablo", "action": "add"},
            contact("add", Some("Pablo Morales"), Some("Pablo"), PABLO),
        ]);
        deliver(&app, &biz, &state_sync(&biz.phone_number_id, items)).await;
        assert_eq!(
            names(&app, &biz).await,
            [(PABLO.to_string(), "Pablo Morales".to_string())]
        );
        // Not a list, or for a number no business owns: nothing, and still taken.
        deliver(
            &app,
            &biz,
            &state_sync(&biz.phone_number_id, json!({"a": 1})),
        )
        .await;
        let elsewhere = state_sync("999999", json!([contact("add", Some("X"), None, SHEENA)]));
        deliver(&app, &biz, &elsewhere).await;
        assert_eq!(names(&app, &biz).await.len(), 1);
    }
);

both_backends!(
    a_whole_address_book_in_one_delivery_is_taken,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("wholebook").await;
        let phone = |i: usize| format!("1650560{i:04}");
        let items: Vec<Value> = (0..1_200)
            .map(|i| contact("add", Some(&format!("Customer {i}")), None, &phone(i)))
            .collect();
        deliver(&app, &biz, &state_sync(&biz.phone_number_id, json!(items))).await;
        for i in [0, 499, 500, 1_199] {
            let found = rows(
                &app,
                &biz.session.access,
                &format!("page=1&search_query={}", phone(i)),
            )
            .await;
            assert_eq!(found.len(), 1, "{i}: {found:?}");
            assert_eq!(found[0]["name"], format!("Customer {i}"));
        }
    }
);
