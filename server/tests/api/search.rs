//! Full-history search: every word of the query (the last as a prefix), case and Arabic marks
//! and letter forms ignored, snippets escaped with the hits marked, kept in step with edits,
//! deletions, notes and sends, paged by cursor, scoped to a conversation and to the business.
//! Inbound payloads follow Meta's documented webhook shapes.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;
use crate::team::customer_writes;

const CUSTOMER: &str = "16505551234";
const OTHER: &str = "966555123456";

/// Delivers `messages` from `from` and checks the webhook took them.
pub async fn deliver(app: &TestApp, biz: &Business, from: &str, messages: Vec<Value>) {
    let body = inbound(&biz.phone_number_id, from, "Sheena", messages);
    let (status, answer) = app.webhook(&body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

/// A customer's text at `seconds` after the first message.
pub fn text_at(from: &str, id: &str, body: &str, seconds: i64) -> Value {
    let mut message = text(from, id, body);
    message["timestamp"] = json!((1_763_700_000 + seconds).to_string());
    message
}

/// `GET /api/search?{query}`; answers (status, body).
pub async fn search(app: &TestApp, biz: &Business, query: &str) -> (u16, Value) {
    app.get(&format!("/api/search?{query}"), &biz.session.access)
        .await
}

/// The message ids `q` finds, newest first (contacts left out).
pub async fn found(app: &TestApp, biz: &Business, q: &str) -> Vec<String> {
    let q = url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>();
    let (status, body) = search(app, biz, &format!("q={q}")).await;
    assert_eq!(status, 200, "{body}");
    body["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["message_id"].as_str().map(String::from))
        .collect()
}

both_backends!(
    english_is_found_case_insensitively_by_every_word_and_a_prefix_of_the_last,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("finder").await;
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![
                text_at(CUSTOMER, "wamid.a", "The Helicopter lands at noon", 0),
                text_at(CUSTOMER, "wamid.b", "helicopter PARTS arrived", 10),
                text_at(CUSTOMER, "wamid.c", "Nothing to see", 20),
            ],
        )
        .await;

        assert_eq!(found(&app, &biz, "HELIC").await, ["wamid.b", "wamid.a"]);
        assert_eq!(found(&app, &biz, "helicopter no").await, ["wamid.a"]);
        assert_eq!(found(&app, &biz, "parts Helicopter").await, ["wamid.b"]);
        assert!(
            found(&app, &biz, "helic see").await.is_empty(),
            "all words must match"
        );
        assert!(
            found(&app, &biz, "heli noon").await.is_empty(),
            "only the last is a prefix"
        );

        let (_, body) = search(&app, &biz, "q=noon").await;
        let hit = &body["results"][0];
        assert_eq!(
            hit["conversation_id"],
            format!("{}_{CUSTOMER}", biz.phone_number_id)
        );
        assert_eq!(hit["phone_number"], CUSTOMER);
        assert_eq!(hit["name"], "Sheena");
        assert_eq!(hit["timestamp"], "2025-11-21T04:40:00.000Z");
        assert_eq!(hit["snippet"], "The Helicopter lands at <mark>noon</mark>");
        assert_eq!(body["next_cursor"], Value::Null);
    }
);

both_backends!(
    arabic_is_found_whatever_its_marks_tatweel_and_letter_forms,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("arabic").await;
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![
                text_at(
                    CUSTOMER,
                    "wamid.ar",
                    "مُحَمَّد يسأل عن المدرسة في مستشفى إبراهيم",
                    0,
                ),
                text_at(CUSTOMER, "wamid.num", "رقم الطلب ٤٥٦٧٨", 10),
            ],
        )
        .await;
        deliver(
            &app,
            &biz,
            OTHER,
            vec![text_at(OTHER, "wamid.o", "مرحبا", 20)],
        )
        .await;

        for query in [
            "محمد",
            "مـحـمـد",
            "يسال",
            "ابراهيم",
            "أبراهيم",
            "مستشفي",
            "المدرسه",
            "المدر",
        ] {
            assert_eq!(found(&app, &biz, query).await, ["wamid.ar"], "{query}");
        }
        // Arabic-Indic digits are digits, in the text and in the query.
        assert_eq!(found(&app, &biz, "45678").await, ["wamid.num"]);
        assert_eq!(found(&app, &biz, "٤٥٦").await, ["wamid.num"]);
        assert_eq!(found(&app, &biz, "۴۵۶۷۸").await, ["wamid.num"]);

        // A customer's number, typed in Arabic-Indic digits with separators, finds the contact.
        let q = url::form_urlencoded::byte_serialize("+٩٦٦ ٥٥٥-١٢".as_bytes()).collect::<String>();
        let (status, body) = search(&app, &biz, &format!("q={q}")).await;
        assert_eq!(status, 200, "{body}");
        let results = body["results"].as_array().expect("results");
        assert_eq!(results.len(), 1, "{body}");
        assert_eq!(results[0]["message_id"], Value::Null);
        assert_eq!(results[0]["phone_number"], OTHER);
        assert_eq!(
            results[0]["snippet"],
            format!("Sheena <mark>{OTHER}</mark>")
        );
    }
);

both_backends!(
    a_snippet_is_escaped_with_the_hit_marked,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("escaper").await;
        let body = "<script>alert(1)</script> hello";
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![text_at(CUSTOMER, "wamid.x", body, 0)],
        )
        .await;
        let (status, answer) = search(&app, &biz, "q=hello").await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(
            answer["results"][0]["snippet"],
            "&lt;script&gt;alert(1)&lt;/script&gt; <mark>hello</mark>"
        );
    }
);

both_backends!(
    an_edited_message_is_found_by_its_new_text_and_a_deleted_one_not_at_all,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("changer").await;
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![
                text_at(CUSTOMER, "wamid.orig", "Meet at the bakery", 0),
                text_at(CUSTOMER, "wamid.secret", "My PIN is 1234", 10),
            ],
        )
        .await;
        deliver(&app, &biz, CUSTOMER, vec![
            json!({"from": CUSTOMER, "id": "wamid.edit", "timestamp": "1763700060", "type": "edit",
                   "edit": {"original_message_id": "wamid.orig",
                            "message": {"type": "text", "text": {"body": "Meet at the library"}}}}),
            json!({"from": CUSTOMER, "id": "wamid.rev", "timestamp": "1763700060", "type": "revoke",
                   "revoke": {"original_message_id": "wamid.secret"}}),
        ])
        .await;
        assert_eq!(found(&app, &biz, "library").await, ["wamid.orig"]);
        assert!(found(&app, &biz, "bakery").await.is_empty());
        assert!(found(&app, &biz, "PIN").await.is_empty());
        assert!(found(&app, &biz, "1234").await.is_empty());
    }
);

both_backends!(
    notes_sends_captions_and_file_names_are_found,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("everything").await;
        let customer = crate::team::CUSTOMER;
        customer_writes(&app, &biz, "wamid.hello").await;
        let token = &biz.session.access;
        let (status, note) = app
            .post(
                &format!("/api/conversation/{customer}/notes"),
                json!({"text": "Refund approved by finance"}),
                Some(token),
            )
            .await;
        assert_eq!(status, 201, "{note}");
        let form = reqwest::multipart::Form::new()
            .text("to", customer.to_string())
            .text("message_id", "client-1")
            .text("message_type", "text")
            .text("text", "Your parcel ships tomorrow");
        let (status, sent) = app.post_form("/api/send-message", token, form).await;
        assert_eq!(status, 200, "{sent}");
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![json!({
            "from": CUSTOMER, "id": "wamid.doc", "timestamp": "1763700000", "type": "document",
            "document": {"caption": "Signed contract", "filename": "lease-agreement.pdf",
                         "mime_type": "application/pdf", "sha256": "abc", "id": "media-1"}})],
        )
        .await;

        assert_eq!(
            found(&app, &biz, "refund finance").await,
            [note["message_id"].as_str().expect("note id")]
        );
        let shipped = found(&app, &biz, "parcel").await;
        assert_eq!(shipped.len(), 1, "{shipped:?}");
        assert_eq!(found(&app, &biz, "signed contr").await, ["wamid.doc"]);
        assert_eq!(
            found(&app, &biz, "lease agreement pdf").await,
            ["wamid.doc"]
        );
    }
);

both_backends!(
    pages_follow_the_cursor_and_a_conversation_and_time_scope,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("pager").await;
        let mine: Vec<Value> = (0..25)
            .map(|i| {
                text_at(
                    CUSTOMER,
                    &format!("wamid.{i:02}"),
                    &format!("apple number {i}"),
                    i,
                )
            })
            .collect();
        deliver(&app, &biz, CUSTOMER, mine).await;
        deliver(
            &app,
            &biz,
            OTHER,
            vec![text_at(OTHER, "wamid.other", "apple pie", 100)],
        )
        .await;

        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let after = cursor
                .as_ref()
                .map(|c| format!("&cursor={c}"))
                .unwrap_or_default();
            let (status, body) = search(&app, &biz, &format!("q=apple&limit=10{after}")).await;
            assert_eq!(status, 200, "{body}");
            pages += 1;
            for hit in body["results"].as_array().expect("results") {
                seen.push(hit["message_id"].as_str().expect("id").to_string());
            }
            match body["next_cursor"].as_str() {
                Some(next) => {
                    cursor = Some(url::form_urlencoded::byte_serialize(next.as_bytes()).collect())
                }
                None => break,
            }
        }
        assert_eq!(pages, 3);
        let mut expected: Vec<String> = (0..25).rev().map(|i| format!("wamid.{i:02}")).collect();
        expected.insert(0, "wamid.other".into());
        assert_eq!(seen, expected, "newest first, each once");

        let (_, body) = search(&app, &biz, &format!("q=apple&conversation={OTHER}")).await;
        assert_eq!(
            body["results"].as_array().expect("results").len(),
            1,
            "{body}"
        );
        assert_eq!(body["results"][0]["message_id"], "wamid.other");
        // From and to: ISO 8601 or Unix seconds, both ends included.
        let (_, body) = search(
            &app,
            &biz,
            "q=apple&from=2025-11-21T04:40:20Z&to=1763700022",
        )
        .await;
        let ids: Vec<&str> = body["results"]
            .as_array()
            .expect("results")
            .iter()
            .filter_map(|r| r["message_id"].as_str())
            .collect();
        assert_eq!(ids, ["wamid.22", "wamid.21", "wamid.20"], "{body}");
        // A date alone is its whole day (UTC) at either end.
        let (status, body) = search(&app, &biz, "q=apple&from=2025-11-21&to=2025-11-21").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["results"][0]["message_id"], "wamid.other", "{body}");
        let (status, body) = search(&app, &biz, "q=apple&to=2025-11-20").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["results"], json!([]), "{body}");
    }
);

both_backends!(
    another_business_finds_nothing_and_bad_queries_are_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("owner-one").await;
        let other = app.business("owner-two").await;
        deliver(
            &app,
            &biz,
            CUSTOMER,
            vec![text_at(CUSTOMER, "wamid.p", "private plans", 0)],
        )
        .await;
        assert_eq!(found(&app, &biz, "private").await, ["wamid.p"]);
        // An agent of the business searches it too.
        let (_, agent) = crate::team::agent(&app, &biz.session, "searching-agent").await;
        let (status, body) = app.get("/api/search?q=plans", &agent.access).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["results"][0]["message_id"], "wamid.p");
        assert!(found(&app, &other, "private").await.is_empty());
        assert!(found(&app, &other, "165055").await.is_empty());

        for query in [
            "q=",
            "q=%20%20",
            "q=%3F%21",
            "q=a&limit=101",
            "q=a&limit=0",
            "q=a&cursor=nonsense",
            "q=a&from=yesterday",
            "q=a&conversation=abc",
        ] {
            let (status, body) = search(&app, &biz, query).await;
            assert!(status == 422 || status == 400, "{query}: {status} {body}");
            assert!(
                body["code"].is_string() && body["detail"].is_string(),
                "{query}: {body}"
            );
        }
        let (status, _) = app
            .call(reqwest::Method::GET, "/api/search?q=a", None, None)
            .await;
        assert_eq!(status, 401);
    }
);
