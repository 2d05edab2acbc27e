//! Canned replies over HTTP: create, list, edit, delete; the form's limits; who may write; and
//! isolation between businesses.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::team::agent;

const PATH: &str = "/api/canned-replies";

async fn create(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.post(PATH, body, Some(token)).await
}

async fn edit(app: &TestApp, token: &str, id: &str, body: Value) -> (u16, Value) {
    let path = format!("{PATH}/{id}");
    app.call(reqwest::Method::PATCH, &path, Some(body), Some(token))
        .await
}

async fn delete(app: &TestApp, token: &str, id: &str) -> (u16, Value) {
    let path = format!("{PATH}/{id}");
    app.call(reqwest::Method::DELETE, &path, None, Some(token))
        .await
}

/// The shortcuts of the list at `path`.
async fn shortcuts(app: &TestApp, token: &str, path: &str) -> Vec<String> {
    let (status, body) = app.get(path, token).await;
    assert_eq!(status, 200, "{body}");
    body["canned_replies"]
        .as_array()
        .expect("canned_replies")
        .iter()
        .map(|r| r["shortcut"].as_str().expect("shortcut").to_string())
        .collect()
}

fn assert_refused(status: u16, body: &Value, expected: u16, code: &str) {
    assert_eq!(status, expected, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["detail"].is_string() && body["message"].is_string(),
        "{body}"
    );
}

both_backends!(
    the_owner_creates_lists_edits_and_deletes_a_canned_reply,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedowner").await;
        let (status, made) = create(
            &app,
            &owner.access,
            json!({"shortcut": "hello", "text": "Hi {{name}}, this is {{agent}}."}),
        )
        .await;
        assert_eq!(status, 201, "{made}");
        assert_eq!(made["shortcut"], "hello");
        assert_eq!(made["text"], "Hi {{name}}, this is {{agent}}.");
        let id = made["id"].as_str().expect("id");
        create(
            &app,
            &owner.access,
            json!({"shortcut": "bye", "text": "Bye!"}),
        )
        .await;

        assert_eq!(shortcuts(&app, &owner.access, PATH).await, ["bye", "hello"]);
        let filtered = format!("{PATH}?q=HE");
        assert_eq!(shortcuts(&app, &owner.access, &filtered).await, ["hello"]);

        let (status, edited) = edit(&app, &owner.access, id, json!({"text": "Hello!"})).await;
        assert_eq!(status, 200, "{edited}");
        assert_eq!(
            edited["shortcut"], "hello",
            "a field left out keeps its value"
        );
        assert_eq!(edited["text"], "Hello!");

        let (status, _) = delete(&app, &owner.access, id).await;
        assert_eq!(status, 204);
        assert_eq!(shortcuts(&app, &owner.access, PATH).await, ["bye"]);
        let (status, body) = delete(&app, &owner.access, id).await;
        assert_refused(status, &body, 404, "not_found");
    }
);

both_backends!(
    a_shortcut_is_unique_in_the_business_ignoring_case,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedunique").await;
        let first = json!({"shortcut": "price", "text": "It costs 10."});
        assert_eq!(create(&app, &owner.access, first).await.0, 201);
        let (status, body) = create(
            &app,
            &owner.access,
            json!({"shortcut": "Price", "text": "Other"}),
        )
        .await;
        assert_refused(status, &body, 409, "shortcut_taken");

        let (_, other) = create(&app, &owner.access, json!({"shortcut": "p2", "text": "x"})).await;
        let id = other["id"].as_str().expect("id");
        let (status, body) = edit(&app, &owner.access, id, json!({"shortcut": "PRICE"})).await;
        assert_refused(status, &body, 409, "shortcut_taken");
    }
);

both_backends!(
    shortcuts_that_look_the_same_are_the_same_shortcut,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedforms").await;
        // "café" composed (NFC), then decomposed (e and U+0301, NFD), in either case.
        let first = json!({"shortcut": "caf\u{e9}", "text": "Menu"});
        assert_eq!(create(&app, &owner.access, first).await.0, 201);
        for shortcut in ["cafe\u{301}", "CAFE\u{301}"] {
            let body = json!({"shortcut": shortcut, "text": "Other"});
            let (status, body) = create(&app, &owner.access, body).await;
            assert_refused(status, &body, 409, "shortcut_taken");
        }
        // A decomposed shortcut is kept composed, and found by either form.
        let (status, made) = create(
            &app,
            &owner.access,
            json!({"shortcut": "re\u{301}sume\u{301}", "text": "CV"}),
        )
        .await;
        assert_eq!(status, 201, "{made}");
        assert_eq!(made["shortcut"], "r\u{e9}sum\u{e9}");
        for typed in ["r%C3%A9s", "re%CC%81s", "R%C3%89S"] {
            let found = shortcuts(&app, &owner.access, &format!("{PATH}?q={typed}")).await;
            assert_eq!(found, ["r\u{e9}sum\u{e9}"], "{typed}");
        }
        // Case by Unicode's full folding: "STRASSE" is "straße", and finds it.
        let street = json!({"shortcut": "stra\u{df}e", "text": "Directions"});
        assert_eq!(create(&app, &owner.access, street).await.0, 201);
        let body = json!({"shortcut": "STRASSE", "text": "Other"});
        let (status, body) = create(&app, &owner.access, body).await;
        assert_refused(status, &body, 409, "shortcut_taken");
        let found = shortcuts(&app, &owner.access, &format!("{PATH}?q=STRASS")).await;
        assert_eq!(found, ["stra\u{df}e"]);
        // A shortcut with a character that only hides would pass for another.
        for shortcut in ["pri\u{200B}ce", "\u{2066}price"] {
            let body = json!({"shortcut": shortcut, "text": "x"});
            let (status, body) = create(&app, &owner.access, body).await;
            assert_refused(status, &body, 422, "validation_failed");
            assert!(
                body["detail"]
                    .as_str()
                    .expect("detail")
                    .starts_with("shortcut")
            );
        }
    }
);

both_backends!(
    a_form_breaking_a_rule_is_refused_naming_the_field,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedrules").await;
        let cases = [
            (json!({"text": "no shortcut"}), "shortcut"),
            (json!({"shortcut": "  ", "text": "blank"}), "shortcut"),
            (json!({"shortcut": "two words", "text": "x"}), "shortcut"),
            (json!({"shortcut": "a".repeat(33), "text": "x"}), "shortcut"),
            (json!({"shortcut": "/hello", "text": "x"}), "shortcut"),
            (json!({"shortcut": "\u{301}", "text": "x"}), "shortcut"),
            (json!({"shortcut": "ok"}), "text"),
            (json!({"shortcut": "ok", "text": " \n "}), "text"),
            (json!({"shortcut": "ok", "text": "a".repeat(4097)}), "text"),
        ];
        for (body, field) in cases {
            let (status, answer) = create(&app, &owner.access, body.clone()).await;
            assert_refused(status, &answer, 422, "validation_failed");
            let detail = answer["detail"].as_str().unwrap_or_default();
            assert!(detail.starts_with(field), "{body} → {answer}");
        }
        let longest = json!({"shortcut": "a".repeat(32), "text": "ش".repeat(4096)});
        let (status, made) = create(&app, &owner.access, longest).await;
        assert_eq!(status, 201, "{made}");
        // The composer's `/` comes before a shortcut, never in it: refused on an edit too, with
        // a message that says so.
        let id = made["id"].as_str().expect("id");
        let (status, answer) = edit(&app, &owner.access, id, json!({"shortcut": "/a"})).await;
        assert_refused(status, &answer, 422, "validation_failed");
        let detail = answer["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("must not start with /"), "{answer}");
        assert_eq!(shortcuts(&app, &owner.access, PATH).await.len(), 1);
    }
);

both_backends!(
    an_agent_reads_canned_replies_but_may_not_write_them,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedteam").await;
        let (_, made) = create(
            &app,
            &owner.access,
            json!({"shortcut": "hours", "text": "We open at 9."}),
        )
        .await;
        let id = made["id"].as_str().expect("id");
        let (_, agent) = agent(&app, &owner, "cannedagent").await;

        assert_eq!(shortcuts(&app, &agent.access, PATH).await, ["hours"]);
        let (status, body) =
            create(&app, &agent.access, json!({"shortcut": "x", "text": "y"})).await;
        assert_refused(status, &body, 403, "forbidden");
        let (status, body) = edit(&app, &agent.access, id, json!({"text": "y"})).await;
        assert_refused(status, &body, 403, "forbidden");
        let (status, body) = delete(&app, &agent.access, id).await;
        assert_refused(status, &body, 403, "forbidden");
        assert_eq!(shortcuts(&app, &owner.access, PATH).await, ["hours"]);
    }
);

both_backends!(
    another_business_neither_sees_nor_touches_a_canned_reply,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedmine").await;
        let other = app.register("cannedtheirs").await;
        let (_, made) = create(
            &app,
            &owner.access,
            json!({"shortcut": "mine", "text": "Mine"}),
        )
        .await;
        let id = made["id"].as_str().expect("id");

        assert!(shortcuts(&app, &other.access, PATH).await.is_empty());
        let (status, body) = edit(&app, &other.access, id, json!({"text": "Theirs"})).await;
        assert_refused(status, &body, 404, "not_found");
        let (status, body) = delete(&app, &other.access, id).await;
        assert_refused(status, &body, 404, "not_found");
        // The same shortcut is free in another business.
        let same = json!({"shortcut": "mine", "text": "Theirs"});
        assert_eq!(create(&app, &other.access, same).await.0, 201);
        let (_, mine) = app.get(PATH, &owner.access).await;
        assert_eq!(mine["canned_replies"][0]["text"], "Mine");
    }
);

both_backends!(
    a_new_shortcut_and_a_new_text_sent_at_once_both_stay,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedrace").await;
        let (status, made) = create(
            &app,
            &owner.access,
            json!({"shortcut": "round0", "text": "Text 0"}),
        )
        .await;
        assert_eq!(status, 201, "{made}");
        let id = made["id"].as_str().expect("id");
        for round in 1..=20 {
            let (shortcut, text) = (format!("round{round}"), format!("Text {round}"));
            let (renamed, rewritten) = futures_util::join!(
                edit(&app, &owner.access, id, json!({"shortcut": shortcut})),
                edit(&app, &owner.access, id, json!({"text": text})),
            );
            assert_eq!((renamed.0, rewritten.0), (200, 200), "round {round}");
            let (status, body) = app.get(PATH, &owner.access).await;
            assert_eq!(status, 200, "{body}");
            let reply = &body["canned_replies"][0];
            assert_eq!(
                (&reply["shortcut"], &reply["text"]),
                (&json!(shortcut), &json!(text)),
                "round {round}"
            );
        }
    }
);
