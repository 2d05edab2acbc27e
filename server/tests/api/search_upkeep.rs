//! The search index follows contacts as they are renamed, renumbered and deleted, and history
//! stored before the index existed is indexed when the server starts.

use serde_json::json;

use crate::both_backends;
use crate::customers::{BSUID, bsuid_text, from_username};
use crate::helpers::*;
use crate::list_search::found as listed;
use crate::live::*;

const CUSTOMER: &str = "16505551234";
const NEW_NUMBER: &str = "16505559999";

/// The (phone, message id) pairs `q` finds, newest first.
async fn found(app: &TestApp, biz: &Business, q: &str) -> Vec<(String, Option<String>)> {
    found_in(app, biz, q, "").await
}

/// The (phone, message id) pairs `q` finds in the conversation of customer key `conversation`
/// (every conversation when empty), newest first.
async fn found_in(
    app: &TestApp,
    biz: &Business,
    q: &str,
    conversation: &str,
) -> Vec<(String, Option<String>)> {
    let q = url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>();
    let (status, body) = app
        .get(
            &format!("/api/search?q={q}&conversation={conversation}"),
            &biz.session.access,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|hit| {
            (
                hit["phone_number"].as_str().expect("phone").to_string(),
                hit["message_id"].as_str().map(String::from),
            )
        })
        .collect()
}

/// The app's database, for statements of the test's own.
pub async fn database(app: &TestApp) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::AnyPool::connect(&app.settings.database_url())
        .await
        .expect("database")
}

async fn deliver(app: &TestApp, biz: &Business, body: &str) {
    let payload = inbound(
        &biz.phone_number_id,
        CUSTOMER,
        "Sheena",
        vec![text(CUSTOMER, "wamid.kayak", body)],
    );
    let (status, answer) = app.webhook(&payload, &biz.app_secret).await;
    assert_eq!(status, 200, "{answer}");
}

both_backends!(
    a_contact_is_found_by_its_new_name_and_number_and_not_once_deleted,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("renamer").await;
        deliver(&app, &biz, "Two kayaks please").await;
        assert_eq!(
            found(&app, &biz, "sheena").await,
            [(CUSTOMER.to_string(), None)]
        );

        let token = &biz.session.access;
        let (status, body) = app
            .post(
                "/api/users/update",
                json!({"name": "Sheena Brave", "phone_number": CUSTOMER,
                       "new_phone_number": NEW_NUMBER}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let moved = NEW_NUMBER.to_string();
        assert_eq!(found(&app, &biz, "brave").await, [(moved.clone(), None)]);
        assert_eq!(
            found(&app, &biz, "1650555999").await,
            [(moved.clone(), None)]
        );
        assert!(found(&app, &biz, "16505551234").await.is_empty());
        assert_eq!(
            found(&app, &biz, "kayaks").await,
            [(moved.clone(), Some("wamid.kayak".to_string()))],
            "the history moved with the contact"
        );
        assert_eq!(
            found_in(&app, &biz, "kayaks", NEW_NUMBER).await,
            [(moved, Some("wamid.kayak".to_string()))],
            "a search of the conversation under its new key finds its history"
        );
        assert!(found_in(&app, &biz, "kayaks", CUSTOMER).await.is_empty());

        let (status, _) = app
            .call(
                reqwest::Method::DELETE,
                &format!("/api/contacts/delete/{NEW_NUMBER}"),
                None,
                Some(token),
            )
            .await;
        assert_eq!(status, 200);
        assert!(found(&app, &biz, "kayaks").await.is_empty());
        assert!(found(&app, &biz, "sheena").await.is_empty());
    }
);

both_backends!(
    history_stored_before_the_index_is_indexed_at_start,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("older").await;
        deliver(&app, &biz, "An old question about kayaks").await;
        // As a database from before search: no documents, never indexed.
        let pool = database(&app).await;
        for statement in [
            "DELETE FROM search_documents",
            "DELETE FROM search_backfills",
        ] {
            sqlx::query(statement)
                .execute(&pool)
                .await
                .expect(statement);
        }
        assert!(found(&app, &biz, "kayaks").await.is_empty());

        let (store, _) = store_of(&app, &biz).await;
        store.migrate().await.expect("migrations and search index");
        let message = (CUSTOMER.to_string(), Some("wamid.kayak".to_string()));
        assert_eq!(found(&app, &biz, "kayaks").await, [message]);
        assert_eq!(
            found(&app, &biz, "sheena").await,
            [(CUSTOMER.to_string(), None)]
        );
        // Once done, a restart does not index again: a document removed now stays removed.
        sqlx::query("DELETE FROM search_documents")
            .execute(&pool)
            .await
            .expect("delete");
        store.migrate().await.expect("again");
        let none: Vec<(String, Option<String>)> = Vec::new();
        assert_eq!(found(&app, &biz, "kayaks").await, none);
    }
);

/// Makes the message `wamid.kayak`'s document as older folding rules left it, `folded`, and
/// forgets every one-time pass that folded documents again (the history stays indexed).
async fn folded_before(app: &TestApp, folded: &str) {
    let pool = database(app).await;
    sqlx::query("UPDATE search_documents SET folded = $1 WHERE doc_id = 'wamid.kayak'")
        .bind(folded)
        .execute(&pool)
        .await
        .expect("older folding");
    sqlx::query("DELETE FROM search_backfills WHERE name <> 'history'")
        .execute(&pool)
        .await
        .expect("passes forgotten");
}

both_backends!(
    a_word_is_found_whether_its_accents_are_composed_or_not,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("forms").await;
        // "Café" written decomposed (e and U+0301), as some keyboards send it.
        deliver(&app, &biz, "Cafe\u{301} au lait").await;
        let message = (CUSTOMER.to_string(), Some("wamid.kayak".to_string()));
        for typed in ["caf\u{e9}", "CAF\u{c9} au", "cafe\u{301}", "cafe"] {
            assert_eq!(
                found(&app, &biz, typed).await,
                std::slice::from_ref(&message),
                "{typed:?}"
            );
        }
        let (_, body) = app
            .get("/api/search?q=caf%C3%A9", &biz.session.access)
            .await;
        assert_eq!(
            body["results"][0]["snippet"],
            "<mark>Cafe\u{301}</mark> au lait"
        );
    }
);

both_backends!(
    case_folds_fully_so_sharp_s_is_ss_and_older_documents_are_folded_again_once,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("eszett").await;
        let payload = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Jens Strauß",
            vec![text(CUSTOMER, "wamid.kayak", "Grüße aus der Straße")],
        );
        let (status, answer) = app.webhook(&payload, &biz.app_secret).await;
        assert_eq!(status, 200, "{answer}");
        let message = (CUSTOMER.to_string(), Some("wamid.kayak".to_string()));
        for typed in ["strasse", "GRÜSSE STRASSE", "straße", "STRAẞE"] {
            assert_eq!(
                found(&app, &biz, typed).await,
                std::slice::from_ref(&message),
                "{typed:?}"
            );
        }
        // The chat list's name search folds the same way, by words and anywhere in a name.
        let token = &biz.session.access;
        assert_eq!(listed(&app, token, "STRAUSS").await, [CUSTOMER]);
        assert_eq!(listed(&app, token, "trauss").await, [CUSTOMER]);

        // A document folded before full case folding is folded again once, at start.
        folded_before(&app, "grüße aus der straße").await;
        assert!(found(&app, &biz, "strasse").await.is_empty());
        let (store, _) = store_of(&app, &biz).await;
        store.migrate().await.expect("migrations and search index");
        assert_eq!(found(&app, &biz, "strasse").await, [message]);
    }
);

/// Replaces the full-text indexes with the definitions of earlier versions: on SQLite an FTS5
/// table without prefix index and no contacts' table, on Postgres a GIN index over an
/// expression instead of the stored words.
const OLDER_INDEXES: [&str; 2] = [
    "DROP TRIGGER search_contacts_added; DROP TRIGGER search_contacts_removed; \
     DROP TRIGGER search_contacts_changed; DROP TABLE search_contacts; \
     DROP TABLE search_fts; CREATE VIRTUAL TABLE search_fts USING fts5(folded, \
     content='search_documents', content_rowid='rowid', \
     tokenize='unicode61 remove_diacritics 0'); \
     INSERT INTO search_fts(search_fts) VALUES ('rebuild')",
    "ALTER TABLE search_documents DROP COLUMN words; \
     CREATE INDEX search_documents_words ON search_documents \
     USING GIN (to_tsvector('simple', folded))",
];

both_backends!(
    indexes_of_an_older_definition_are_made_again_at_start_and_find_what_they_held,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("upgrade").await;
        deliver(&app, &biz, "An old question about kayaks").await;
        let pool = database(&app).await;
        let older = OLDER_INDEXES[usize::from(matches!(backend, Backend::Postgres))];
        sqlx::raw_sql(sqlx::AssertSqlSafe(older))
            .execute(&pool)
            .await
            .expect("older indexes");

        let (store, _) = store_of(&app, &biz).await;
        store.migrate().await.expect("migrations and search index");
        let message = (CUSTOMER.to_string(), Some("wamid.kayak".to_string()));
        assert_eq!(
            found(&app, &biz, "kayaks").await,
            std::slice::from_ref(&message)
        );
        assert_eq!(found(&app, &biz, "old qu").await, [message]);
        // The list's name search reads the contacts' own index: words in any order, the last
        // a prefix (a text match of the typed string would not find these).
        let token = &biz.session.access;
        assert_eq!(listed(&app, token, "sheena 1650").await, [CUSTOMER]);
        let (status, body) = app
            .post(
                "/api/users/update",
                json!({"name": "Sheena Brave", "phone_number": CUSTOMER}),
                Some(token),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(listed(&app, token, "brave shee").await, [CUSTOMER]);
        // A second start leaves the index as it is.
        store.migrate().await.expect("again");
        assert_eq!(listed(&app, token, "brave shee").await, [CUSTOMER]);
    }
);

/// The contacts' word indexes of the version before the contacts' words had statistics of their
/// own: partial indexes over `words`.
const PARTIAL_CONTACT_INDEXES: &str = "\
    DROP STATISTICS search_names_statistics; DROP INDEX search_names; \
    DROP INDEX search_documents_named; \
    CREATE INDEX search_contact_words ON search_documents USING GIN (words) \
    WHERE kind = 'contact'; \
    CREATE INDEX search_documents_contact ON search_documents (business_id, phone) \
    WHERE kind = 'contact'";

/// The names of `sql`'s rows.
async fn names(pool: &sqlx::AnyPool, sql: &'static str) -> Vec<String> {
    let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(pool).await.expect("catalog");
    rows.into_iter().map(|(name,)| name).collect()
}

#[actix_web::test]
async fn on_postgres_the_contacts_words_get_their_statistics_and_indexes_in_place_of_the_partial_ones()
 {
    let app = spawn_app(Backend::Postgres).await;
    let biz = app.business("names_upgrade").await;
    deliver(&app, &biz, "Hello").await;
    let pool = database(&app).await;
    sqlx::raw_sql(PARTIAL_CONTACT_INDEXES)
        .execute(&pool)
        .await
        .expect("older indexes");

    let (store, _) = store_of(&app, &biz).await;
    store.migrate().await.expect("migrations and search index");
    let indexes = "SELECT indexname::text FROM pg_indexes WHERE tablename = 'search_documents' \
                   AND indexname IN ('search_names', 'search_documents_named', \
                   'search_contact_words', 'search_documents_contact') ORDER BY indexname";
    assert_eq!(
        names(&pool, indexes).await,
        ["search_documents_named", "search_names"]
    );
    // The statistics are there and gathered: the planner counts the contacts' words from them.
    let gathered = "SELECT statistics_name::text FROM pg_stats_ext_exprs \
                    WHERE statistics_name = 'search_names_statistics'";
    assert_eq!(names(&pool, gathered).await, ["search_names_statistics"]);
    assert_eq!(listed(&app, &biz.session.access, "shee").await, [CUSTOMER]);
}

both_backends!(
    a_search_within_a_bsuid_customers_conversation_finds_only_theirs,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("bsuidsearch").await;
        deliver(&app, &biz, "Two kayaks please").await;
        let message = bsuid_text(None, "wamid.bsuid", "A kayak for me too", "1749416383");
        let body = from_username(&biz.phone_number_id, None, vec![message]);
        crate::customer_changes::deliver(&app, &biz, &body).await;
        assert_eq!(
            found_in(&app, &biz, "kayak", BSUID).await,
            [(BSUID.to_string(), Some("wamid.bsuid".to_string()))]
        );
        assert_eq!(
            found_in(&app, &biz, "kayak", CUSTOMER).await,
            [(CUSTOMER.to_string(), Some("wamid.kayak".to_string()))]
        );
        // Another BSUID of the same country holds nothing of theirs.
        assert!(
            found_in(&app, &biz, "kayak", "US.13491208655302741919")
                .await
                .is_empty()
        );
    }
);
