//! The conversation list's search and filters: numbers as people type them, names by their
//! words, and filtered pages in the list's order.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::labels::{labels_path, rows};
use crate::live::*;
use crate::phone_numbers::set_business_number;

/// Customers who write in, oldest first: (number, name).
const CUSTOMERS: [(&str, &str); 5] = [
    ("447700900123", "Sara Khan"),
    ("447700900456", "Omar Haddad"),
    ("15550100002", "سارة أحمد"),
    ("4915112345678", "Lena Sarafian"),
    ("447700911111", "Khalid Noor"),
];

/// Each customer writes once, a minute after the one before.
async fn customers_write(app: &TestApp, biz: &Business) {
    for (i, (phone, name)) in CUSTOMERS.iter().enumerate() {
        let mut message = text(phone, &format!("wamid.ls{i}"), "hello");
        message["timestamp"] = json!((1_763_700_000 + 60 * i).to_string());
        let (status, body) = app
            .webhook(
                &inbound(&biz.phone_number_id, phone, name, vec![message]),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
}

/// The numbers of the list's rows, in order.
fn numbers(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .map(|row| row["phone_number"].as_str().expect("phone"))
        .collect()
}

/// The numbers a list search finds, in the list's order.
pub async fn found(app: &TestApp, token: &str, typed: &str) -> Vec<String> {
    let query: String = url::form_urlencoded::byte_serialize(typed.as_bytes()).collect();
    let rows = rows(app, token, &format!("status=all&search_query={query}")).await;
    numbers(&rows).into_iter().map(String::from).collect()
}

both_backends!(
    the_list_finds_numbers_as_typed_and_names_by_their_words,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_search").await;
        let token = &biz.session.access;
        // A British business: numbers written with a leading 0 are British.
        set_business_number(&app, token, "+44 20 7946 0000").await;
        customers_write(&app, &biz).await;

        let uk = ["447700911111", "447700900456", "447700900123"];
        assert_eq!(found(&app, token, "447700").await, uk);
        assert_eq!(found(&app, token, "+44 7700 9").await, uk);
        assert_eq!(found(&app, token, "0044 7700").await, uk);
        assert_eq!(found(&app, token, "07700 900").await, uk[1..]);
        assert_eq!(
            found(&app, token, "(0)7700-900 123").await,
            ["447700900123"]
        );
        // Names by their words, the last one as a prefix, in any order.
        assert_eq!(
            found(&app, token, "sara").await,
            ["4915112345678", "447700900123"]
        );
        assert_eq!(
            found(&app, token, "KHA").await,
            ["447700911111", "447700900123"]
        );
        assert_eq!(found(&app, token, "khan sa").await, ["447700900123"]);
        // Arabic as the search folds it: ة and ه are one letter.
        assert_eq!(found(&app, token, "ساره").await, ["15550100002"]);
        // Nothing starts with these: they are found anywhere in the number or name instead.
        assert_eq!(found(&app, token, "0100").await, ["15550100002"]);
        assert_eq!(found(&app, token, "rafia").await, ["4915112345678"]);
        assert!(found(&app, token, "zz").await.is_empty());

        // Another business's customers are never found.
        let other = app.business("list_search_other").await;
        assert!(found(&app, &other.session.access, "4477").await.is_empty());
        assert!(found(&app, &other.session.access, "sara").await.is_empty());
    }
);

both_backends!(
    filtered_pages_come_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_filters").await;
        let token = &biz.session.access;
        customers_write(&app, &biz).await;
        let vip = app.label(token, "VIP", "#D93F0B").await;
        for (phone, _) in CUSTOMERS.iter().step_by(2) {
            let (status, body) = app
                .put(&labels_path(phone), json!({"labels": [vip]}), token)
                .await;
            assert_eq!(status, 200, "{body}");
        }
        let first = rows(&app, token, &format!("label={vip}&limit=2")).await;
        assert_eq!(numbers(&first), ["447700911111", "15550100002"]);
        let second = rows(&app, token, &format!("label={vip}&limit=2&page=2")).await;
        assert_eq!(numbers(&second), ["447700900123"]);

        // Resolving one leaves the open pages and joins the resolved one, still in order.
        let (status, body) = app
            .patch(
                "/api/conversation/15550100002/status",
                json!({"status": "resolved"}),
                token,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let open = rows(&app, token, &format!("label={vip}&assignee=unassigned")).await;
        assert_eq!(numbers(&open), ["447700911111", "447700900123"]);
        let resolved = rows(&app, token, "status=resolved").await;
        assert_eq!(numbers(&resolved), ["15550100002"]);
        let unassigned = rows(&app, token, "assignee=unassigned&limit=3&page=2").await;
        assert_eq!(numbers(&unassigned), ["447700900123"]);
        let searched = rows(&app, token, &format!("label={vip}&search_query=4477")).await;
        assert_eq!(numbers(&searched), ["447700911111", "447700900123"]);
    }
);

both_backends!(
    a_number_many_customers_share_pages_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_many").await;
        let token = &biz.session.access;
        // 250 customers whose numbers share a start, one webhook, each a second after the last.
        let phones: Vec<String> = (0..250).map(|i| format!("4477009{i:05}")).collect();
        let contacts: Vec<Value> = phones
            .iter()
            .map(|phone| json!({"profile": {"name": "Many"}, "wa_id": phone}))
            .collect();
        let messages: Vec<Value> = phones
            .iter()
            .enumerate()
            .map(|(i, phone)| {
                let mut message = text(phone, &format!("wamid.many{i}"), "hi");
                message["timestamp"] = json!((1_763_700_000 + i).to_string());
                message
            })
            .collect();
        let mut webhook = inbound(&biz.phone_number_id, &phones[0], "Many", messages);
        webhook["entry"][0]["changes"][0]["value"]["contacts"] = json!(contacts);
        let (status, body) = app.webhook(&webhook, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");

        let first = rows(&app, token, "search_query=%2B44%20770%200900&limit=100").await;
        let newest: Vec<&str> = phones.iter().rev().take(100).map(String::as_str).collect();
        assert_eq!(numbers(&first), newest);
        let last = rows(&app, token, "search_query=44770090&limit=100&page=3").await;
        let oldest: Vec<&str> = phones.iter().rev().skip(200).map(String::as_str).collect();
        assert_eq!(numbers(&last), oldest);
        let few = rows(&app, token, "search_query=44770090020").await;
        let tens: Vec<&str> = phones[200..210].iter().rev().map(String::as_str).collect();
        assert_eq!(numbers(&few), tens);
    }
);
