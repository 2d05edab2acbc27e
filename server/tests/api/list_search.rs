//! The conversation list's search and filters: numbers as people type them, names by their
//! words, and filtered pages in the list's order.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::kinds::echoes;
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
    write_in(app, biz, &CUSTOMERS, 1_763_700_000).await;
}

/// Each of `customers` writes once, the first at `first_at` (seconds), each a minute after the
/// one before.
async fn write_in(app: &TestApp, biz: &Business, customers: &[(&str, &str)], first_at: usize) {
    for (i, (phone, name)) in customers.iter().enumerate() {
        let mut message = text(phone, &format!("wamid.ls{phone}"), "hello");
        message["timestamp"] = json!((first_at + 60 * i).to_string());
        let (status, body) = app
            .webhook(
                &inbound(&biz.phone_number_id, phone, name, vec![message]),
                &biz.app_secret,
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
}

/// `customers` (number, name) write in, in webhooks of 700: each once, the first at `first_at`
/// (seconds), each a second after the one before.
pub async fn write_many(
    app: &TestApp,
    biz: &Business,
    customers: &[(String, String)],
    first_at: usize,
) {
    for (batch, chunk) in customers.chunks(700).enumerate() {
        let contacts: Vec<Value> = chunk
            .iter()
            .map(|(phone, name)| json!({"profile": {"name": name}, "wa_id": phone}))
            .collect();
        let messages: Vec<Value> = chunk
            .iter()
            .enumerate()
            .map(|(i, (phone, _))| {
                let mut message = text(phone, &format!("wamid.many{phone}"), "hi");
                message["timestamp"] = json!((first_at + batch * 700 + i).to_string());
                message
            })
            .collect();
        let (phone, name) = &chunk[0];
        let mut webhook = inbound(&biz.phone_number_id, phone, name, messages);
        webhook["entry"][0]["changes"][0]["value"]["contacts"] = json!(contacts);
        let (status, body) = app.webhook(&webhook, &biz.app_secret).await;
        assert_eq!(status, 200, "{body}");
    }
}

/// The numbers of the list's rows, in order.
pub fn numbers(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .map(|row| row["phone_number"].as_str().expect("phone"))
        .collect()
}

/// Puts `label` on the conversations with `phones`, as their only label.
pub async fn label_all<'a>(
    app: &TestApp,
    token: &str,
    phones: impl IntoIterator<Item = &'a str>,
    label: &str,
) {
    for phone in phones {
        let (status, body) = app
            .put(&labels_path(phone), json!({"labels": [label]}), token)
            .await;
        assert_eq!(status, 200, "{body}");
    }
}

/// Resolves the conversation with `phone`.
pub async fn resolve(app: &TestApp, token: &str, phone: &str) {
    let path = format!("/api/conversation/{phone}/status");
    let (status, body) = app.patch(&path, json!({"status": "resolved"}), token).await;
    assert_eq!(status, 200, "{body}");
}

/// A page of the list for a query: its rows and whether more follow.
pub async fn page_of(app: &TestApp, token: &str, query: &str) -> (Vec<Value>, bool) {
    let (status, body) = app.get(&format!("/api/users?{query}"), token).await;
    assert_eq!(status, 200, "{body}");
    let users = body["data"]["users"].as_array().expect("users").clone();
    (users, body["data"]["has_more"] == true)
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
    a_name_search_keeps_to_the_filters_and_pages_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("name_filters").await;
        let token = &biz.session.access;
        customers_write(&app, &biz).await;
        let later = [
            ("447700922222", "Salim Haddad"),
            ("447700933333", "Ali Noor"),
        ];
        write_in(&app, &biz, &later, 1_763_800_000).await;
        resolve(&app, token, "447700922222").await;
        let search = |query: &'static str| page_of(&app, token, query);

        // A name's matches page in the list's order, newest activity first.
        let (first, more) = search("status=all&search_query=sara&limit=1").await;
        assert_eq!((numbers(&first), more), (vec!["4915112345678"], true));
        let (second, more) = search("status=all&search_query=sara&limit=1&page=2").await;
        assert_eq!((numbers(&second), more), (vec!["447700900123"], false));
        let (past, more) = search("status=all&search_query=sara&limit=1&page=3").await;
        assert!(past.is_empty() && !more);

        // The index finds "ali" as a word (Ali Noor): the text inside other names (Salim,
        // Khalid) is not searched then, with or without a filter that leaves nobody.
        let (all, _) = search("status=all&search_query=ali").await;
        assert_eq!(numbers(&all), ["447700933333"]);
        let (resolved, _) = search("status=resolved&search_query=ali").await;
        assert!(resolved.is_empty(), "{resolved:?}");
        // No name has a word starting with "alim": the text is found inside Salim's, under the
        // filters.
        let (resolved, _) = search("status=resolved&search_query=alim").await;
        assert_eq!(numbers(&resolved), ["447700922222"]);
        let (open, _) = search("status=open&search_query=alim").await;
        assert!(open.is_empty(), "{open:?}");
        let (open, _) = search("search_query=noor").await;
        assert_eq!(numbers(&open), ["447700933333", "447700911111"]);

        // Under a label, a name finds only the conversations that carry it.
        let vip = app.label(token, "VIP", "#D93F0B").await;
        label_all(&app, token, ["447700900123", "447700933333"], &vip).await;
        for (typed, found) in [("sara", "447700900123"), ("noor", "447700933333")] {
            let query = format!("label={vip}&search_query={typed}");
            let (labelled, _) = page_of(&app, token, &query).await;
            assert_eq!(numbers(&labelled), [found], "{typed}");
        }
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
        label_all(
            &app,
            token,
            CUSTOMERS.iter().step_by(2).map(|(phone, _)| *phone),
            &vip,
        )
        .await;
        let first = rows(&app, token, &format!("label={vip}&limit=2")).await;
        assert_eq!(numbers(&first), ["447700911111", "15550100002"]);
        let second = rows(&app, token, &format!("label={vip}&limit=2&page=2")).await;
        assert_eq!(numbers(&second), ["447700900123"]);

        // Resolving one leaves the open pages and joins the resolved one, still in order.
        resolve(&app, token, "15550100002").await;
        let open = rows(&app, token, &format!("label={vip}&assignee=unassigned")).await;
        assert_eq!(numbers(&open), ["447700911111", "447700900123"]);
        let resolved = rows(&app, token, "status=resolved").await;
        assert_eq!(numbers(&resolved), ["15550100002"]);
        // The label alone, every status and assignee: nothing else filters the page.
        let every = rows(&app, token, &format!("label={vip}&status=all")).await;
        assert_eq!(
            numbers(&every),
            ["447700911111", "15550100002", "447700900123"]
        );
        let unassigned = rows(&app, token, "assignee=unassigned&limit=3&page=2").await;
        assert_eq!(numbers(&unassigned), ["447700900123"]);
        // A page far past the end, of the list or of a label, is empty.
        let far = "page=9223372036854775807";
        assert!(rows(&app, token, far).await.is_empty());
        assert!(
            rows(&app, token, &format!("label={vip}&{far}"))
                .await
                .is_empty()
        );
        let searched = rows(&app, token, &format!("label={vip}&search_query=4477")).await;
        assert_eq!(numbers(&searched), ["447700911111", "447700900123"]);

        // New activity takes a labelled conversation to the top of the label's pages: a
        // customer's message, then one the business sent from the WhatsApp Business app.
        let mut again = text("447700900123", "wamid.ls-again", "again");
        again["timestamp"] = json!("1763700600");
        let body = inbound(
            &biz.phone_number_id,
            "447700900123",
            "Sara Khan",
            vec![again],
        );
        let (status, answer) = app.webhook(&body, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        let every = rows(&app, token, &format!("label={vip}&status=all")).await;
        assert_eq!(
            numbers(&every),
            ["447700900123", "447700911111", "15550100002"]
        );
        let echo = echoes(
            &biz.phone_number_id,
            vec![
                json!({"from": "15550000000", "to": "15550100002", "id": "wamid.ls-echo",
                        "timestamp": "1763700660", "type": "text",
                        "text": {"body": "We are on it"}}),
            ],
        );
        let (status, answer) = app.webhook(&echo, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        let every = rows(&app, token, &format!("label={vip}&status=all&limit=2")).await;
        assert_eq!(numbers(&every), ["15550100002", "447700900123"]);
    }
);

both_backends!(
    a_number_many_customers_share_pages_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_many").await;
        let token = &biz.session.access;
        // 2,100 customers whose numbers share a start (enough for either backend to check the
        // search along the list's order), each a second after the last.
        let phones: Vec<String> = (0..2_100).map(|i| format!("4477009{i:05}")).collect();
        let customers: Vec<(String, String)> = phones
            .iter()
            .map(|phone| (phone.clone(), "Many".to_string()))
            .collect();
        write_many(&app, &biz, &customers, 1_763_700_000).await;
        let first = rows(&app, token, "search_query=%2B44%20770%20090&limit=100").await;
        let newest: Vec<&str> = phones.iter().rev().take(100).map(String::as_str).collect();
        assert_eq!(numbers(&first), newest);
        let last = rows(&app, token, "search_query=44770090&limit=100&page=21").await;
        let oldest: Vec<&str> = phones
            .iter()
            .rev()
            .skip(2_000)
            .map(String::as_str)
            .collect();
        assert_eq!(numbers(&last), oldest);
        let few = rows(&app, token, "search_query=44770090020").await;
        let tens: Vec<&str> = phones[200..210].iter().rev().map(String::as_str).collect();
        assert_eq!(numbers(&few), tens);
    }
);

both_backends!(
    a_label_with_a_status_and_an_assignee_pages_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("list_combined").await;
        let token = &biz.session.access;
        customers_write(&app, &biz).await;
        let (status, me) = app.get("/identity/users/profile", token).await;
        assert_eq!(status, 200, "{me}");
        let vip = app.label(token, "VIP", "#D93F0B").await;
        // Every customer but the German one carries the label; the owner holds three of them
        // and resolves one.
        let not_german = CUSTOMERS.iter().map(|(phone, _)| *phone);
        label_all(
            &app,
            token,
            not_german.filter(|phone| !phone.starts_with("49")),
            &vip,
        )
        .await;
        for phone in ["447700911111", "447700900456", "447700900123"] {
            let (status, body) = app
                .patch(
                    &format!("/api/conversation/{phone}/assignment"),
                    json!({"assignee_id": me["_id"]}),
                    token,
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        resolve(&app, token, "447700900456").await;
        // Two of them carry a second label: a page still counts conversations, each once.
        let billing = app.label(token, "Billing", "#0E8A16").await;
        for phone in ["447700911111", "447700900123"] {
            let (status, body) = app
                .put(
                    &labels_path(phone),
                    json!({"labels": [vip, billing]}),
                    token,
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }

        let mine = format!("label={vip}&status=open&assignee=me&limit=1");
        let first = page_of(&app, token, &mine).await;
        assert_eq!(numbers(&first.0), ["447700911111"]);
        assert!(first.1, "more after the first page");
        let names: Vec<&Value> = first.0[0]["labels"]
            .as_array()
            .expect("labels")
            .iter()
            .map(|label| &label["name"])
            .collect();
        assert_eq!(names, [&json!("Billing"), &json!("VIP")]);
        assert_eq!(
            first.0[0]["conversation_id"],
            format!("{}_447700911111", biz.phone_number_id)
        );
        let second = page_of(&app, token, &format!("{mine}&page=2")).await;
        assert_eq!(numbers(&second.0), ["447700900123"]);
        assert!(!second.1, "nothing after the second page");
        assert!(
            rows(&app, token, &format!("{mine}&page=3"))
                .await
                .is_empty()
        );

        let open = rows(&app, token, &format!("label={vip}&assignee=unassigned")).await;
        assert_eq!(numbers(&open), ["15550100002"]);
        let all_mine = rows(&app, token, &format!("label={vip}&status=all&assignee=me")).await;
        assert_eq!(
            numbers(&all_mine),
            ["447700911111", "447700900456", "447700900123"]
        );
        let resolved = rows(
            &app,
            token,
            &format!("label={vip}&status=resolved&assignee=me"),
        )
        .await;
        assert_eq!(numbers(&resolved), ["447700900456"]);
        // A number typed with + and spaces, with the same filters.
        let typed = rows(
            &app,
            token,
            &format!("label={vip}&assignee=me&search_query=%2B44%207700%209"),
        )
        .await;
        assert_eq!(numbers(&typed), ["447700911111", "447700900123"]);
        assert!(typed.iter().all(|row| {
            let labels = row["labels"].as_array().expect("labels");
            labels.iter().any(|label| label["id"] == vip.as_str())
        }));
    }
);
