//! Latin letters are found without their accents, as people type them: the chat list's name
//! search and full-history search alike, with the snippet showing the text as written; a
//! database indexed before is folded again once, at start.

use serde_json::Value;

use crate::both_backends;
use crate::helpers::*;
use crate::list_search::found as listed;
use crate::live::*;
use crate::search::{found, search};
use crate::search_upkeep::database;

const CUSTOMER: &str = "34612345678";

/// "Lucía Pérez" writes "José llegó mañana".
async fn lucia_writes(app: &TestApp, biz: &Business) {
    let message = text(CUSTOMER, "wamid.manana", "José llegó mañana");
    let body = inbound(&biz.phone_number_id, CUSTOMER, "Lucía Pérez", vec![message]);
    let (status, answer) = app.webhook(&body, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

/// The first result of the full-history search for `q`.
async fn first_hit(app: &TestApp, biz: &Business, q: &str) -> Value {
    let q = url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>();
    let (status, body) = search(app, biz, &format!("q={q}")).await;
    assert_eq!(status, 200, "{body}");
    body["results"][0].clone()
}

both_backends!(
    a_contact_and_a_message_are_found_without_their_accents,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("acentos").await;
        lucia_writes(&app, &biz).await;
        let token = &biz.session.access;

        // The chat list: by the name's words, and anywhere in it when no word starts so.
        for typed in [
            "lucia",
            "perez",
            "LUCÍA",
            "Lucia Pe",
            "ucia",
            "EREZ",
            "+34 612 345",
        ] {
            assert_eq!(listed(&app, token, typed).await, [CUSTOMER], "{typed:?}");
        }
        assert!(listed(&app, token, "lucio").await.is_empty());

        // Full-history search: the message, its snippet as written.
        assert_eq!(
            found(&app, &biz, "jose llego manana").await,
            ["wamid.manana"]
        );
        assert_eq!(found(&app, &biz, "JOSÉ LLEGO").await, ["wamid.manana"]);
        let hit = first_hit(&app, &biz, "jose llego manana").await;
        assert_eq!(
            hit["snippet"],
            "<mark>José</mark> <mark>llegó</mark> <mark>mañana</mark>"
        );
        // The contact's name, marked as written.
        let hit = first_hit(&app, &biz, "lucia perez").await;
        assert_eq!(hit["message_id"], Value::Null);
        assert_eq!(
            hit["snippet"],
            format!("<mark>Lucía</mark> <mark>Pérez</mark> {CUSTOMER}")
        );
    }
);

both_backends!(
    documents_indexed_with_their_accents_are_folded_again_once_at_start,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("refold").await;
        lucia_writes(&app, &biz).await;
        // As a database whose documents the rules before kept accented: every earlier pass done.
        let pool = database(&app).await;
        let contact = format!("contact:{CUSTOMER}");
        let older = [
            ("wamid.manana", "josé llegó mañana".to_string()),
            (contact.as_str(), format!("lucía pérez {CUSTOMER}")),
        ];
        for (doc_id, folded) in older {
            sqlx::query("UPDATE search_documents SET folded = $1 WHERE doc_id = $2")
                .bind(folded)
                .bind(doc_id)
                .execute(&pool)
                .await
                .expect("older folding");
        }
        for statement in [
            "DELETE FROM search_backfills WHERE name <> 'history'",
            "INSERT INTO search_backfills (name, finished_at) \
             VALUES ('composed_marks', 0), ('full_case_folding', 0)",
        ] {
            sqlx::query(statement)
                .execute(&pool)
                .await
                .expect(statement);
        }
        assert!(found(&app, &biz, "jose").await.is_empty());
        let token = &biz.session.access;
        assert!(listed(&app, token, "lucia").await.is_empty());

        let (store, _) = store_of(&app, &biz).await;
        store.migrate().await.expect("migrations and search index");
        assert_eq!(found(&app, &biz, "jose manana").await, ["wamid.manana"]);
        assert_eq!(listed(&app, token, "lucia").await, [CUSTOMER]);
        assert_eq!(listed(&app, token, "ucia").await, [CUSTOMER]);
    }
);
