//! Label names: unique in the business whatever their case, Unicode form or spacing, visible,
//! and the fields' rules; keys stored by an older folding rule (labels' and canned replies'
//! shortcuts) are folded again at start.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::labels::label_names;
use crate::live::store_of;
use crate::search_upkeep::database;

both_backends!(
    names_are_unique_per_business_whatever_the_case_and_bad_fields_answer_422,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.business("label_rules").await.session.access;
        let other = app.business("label_rules_other").await.session.access;
        app.label(&owner, "VIP", "#D93F0B").await;
        let billing = app.label(&owner, "Billing", "#0E8A16").await;
        // Another business has its own names.
        app.label(&other, "VIP", "#D93F0B").await;

        let (status, body) = app
            .post(
                "/api/labels",
                json!({"name": "vip", "color": "#000000"}),
                Some(&owner),
            )
            .await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["code"], "conflict");
        let (status, body) = app
            .patch(
                &format!("/api/labels/{billing}"),
                json!({"name": "Vip"}),
                &owner,
            )
            .await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(body["code"], "conflict");
        // Case by Unicode's full folding: "STRASSE" is "Straße".
        app.label(&owner, "Stra\u{df}e", "#000000").await;
        let (status, body) = app
            .post(
                "/api/labels",
                json!({"name": "STRASSE", "color": "#000000"}),
                Some(&owner),
            )
            .await;
        assert_eq!((status, &body["code"]), (409, &json!("conflict")), "{body}");

        let long = "n".repeat(51);
        for (body, field) in [
            (json!({"color": "#000000"}), "name"),
            (json!({"name": "  ", "color": "#000000"}), "name"),
            (json!({"name": long, "color": "#000000"}), "name"),
            (json!({"name": "Ok"}), "color"),
            (json!({"name": "Ok", "color": "red"}), "color"),
            (json!({"name": "Ok", "color": "#12345"}), "color"),
            (json!({"name": "Ok", "color": "#GGGGGG"}), "color"),
        ] {
            let (status, answer) = app.post("/api/labels", body.clone(), Some(&owner)).await;
            assert_eq!(status, 422, "{body} → {answer}");
            assert_eq!(answer["code"], "validation_failed");
            assert!(
                answer["detail"]
                    .as_str()
                    .expect("detail")
                    .starts_with(field),
                "{answer}"
            );
        }
        let (status, answer) = app
            .patch(
                &format!("/api/labels/{billing}"),
                json!({"color": "blue"}),
                &owner,
            )
            .await;
        assert_eq!(status, 422, "{answer}");
        // A name of combining accents only shows no letter: refused as an empty one is.
        let blank = json!({"name": " ", "color": "#000000"});
        let (_, empty) = app.post("/api/labels", blank, Some(&owner)).await;
        for name in ["\u{301}", " \u{301}\u{308} \u{301}"] {
            let body = json!({"name": name, "color": "#000000"});
            let created = app.post("/api/labels", body.clone(), Some(&owner)).await;
            assert_eq!(created, (422, empty.clone()), "{name:?}");
            let renamed = app
                .patch(&format!("/api/labels/{billing}"), body, &owner)
                .await;
            assert_eq!(renamed, (422, empty.clone()), "{name:?}");
        }
        assert_eq!(
            label_names(&app, &owner).await,
            ["Billing", "Stra\u{df}e", "VIP"]
        );
    }
);

both_backends!(
    names_that_look_the_same_are_the_same_label,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.business("label_forms").await.session.access;
        let refused = |name: &'static str, path: String, status: u16| {
            let (app, owner) = (&app, &owner);
            async move {
                let body = json!({"name": name, "color": "#000000"});
                let (got, answer) = match path.as_str() {
                    "/api/labels" => app.post(&path, body, Some(owner)).await,
                    _ => app.patch(&path, body, owner).await,
                };
                assert_eq!(got, status, "{name:?}: {answer}");
                let detail = answer["detail"].as_str().expect("detail");
                assert!(status == 409 || detail.starts_with("name"), "{detail}");
            }
        };
        // "Café" composed (é as one character, NFC), then decomposed (e and U+0301, NFD).
        let cafe = app.label(&owner, "Caf\u{e9}", "#D93F0B").await;
        for name in ["Cafe\u{301}", "CAFE\u{301}"] {
            refused(name, "/api/labels".into(), 409).await;
        }
        // A decomposed name is kept composed, and a rename to the other form is no conflict.
        let resume = app.label(&owner, "Re\u{301}sume\u{301}", "#000000").await;
        let (status, body) = app
            .patch(
                &format!("/api/labels/{resume}"),
                json!({"name": "R\u{c9}SUM\u{c9}"}),
                &owner,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        refused("re\u{301}sume\u{301}", format!("/api/labels/{cafe}"), 409).await;
        // A name of, or with, characters that only hide would pass for another.
        for name in ["\u{200B}", "V\u{200B}IP", "\u{202E}VIP"] {
            refused(name, "/api/labels".into(), 422).await;
        }
        // A joiner inside an emoji sequence is writing.
        app.label(&owner, "\u{1F469}\u{200D}\u{1F4BB}", "#000000")
            .await;
        assert_eq!(
            label_names(&app, &owner).await,
            [
                "Caf\u{e9}",
                "R\u{c9}SUM\u{c9}",
                "\u{1F469}\u{200D}\u{1F4BB}"
            ]
        );
    }
);

both_backends!(
    names_that_differ_only_in_spaces_inside_are_the_same_label,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.business("label_spaces").await.session.access;
        // A tab or a line break inside is kept as one space, and so is a run of spaces.
        let follow = app.label(&owner, "Follow\t\n  up", "#000000").await;
        let billing = app.label(&owner, "Billing", "#000000").await;
        let create = String::from("/api/labels");
        let rename = |id: &str| format!("/api/labels/{id}");
        for (path, name, status) in [
            (&create, "Follow up", 409),
            (&create, "follow   up", 409),
            (&create, "Follow\u{a0}up", 409),
            (&rename(&billing), "FOLLOW \n UP", 409),
            (&rename(&follow), "Call\n\nback", 200),
        ] {
            let body = json!({"name": name, "color": "#000000"});
            let (got, answer) = match path == &create {
                true => app.post(path, body, Some(&owner)).await,
                false => app.patch(path, body, &owner).await,
            };
            assert_eq!(got, status, "{name:?}: {answer}");
        }
        assert_eq!(label_names(&app, &owner).await, ["Billing", "Call back"]);
    }
);

both_backends!(
    keys_of_an_older_folding_rule_are_folded_again_at_start_and_rows_that_meet_both_stay,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("label_refold").await;
        let owner = biz.session.access.clone();
        // Stored before full case folding: `ß` was kept, so "STRASSE" got in beside "Straße".
        let first = app.label(&owner, "Stra\u{df}e", "#000000").await;
        let mass = app.label(&owner, "Ma\u{df}", "#000000").await;
        let reply = json!({"shortcut": "gru\u{df}", "text": "Hallo"});
        let (status, made) = app.post("/api/canned-replies", reply, Some(&owner)).await;
        assert_eq!(status, 201, "{made}");
        let reply = made["id"].as_str().expect("id").to_string();
        let pool = database(&app).await;
        for (sql, id) in [
            (
                "UPDATE labels SET name_key = 'stra\u{df}e' WHERE id = $1",
                first,
            ),
            (
                "UPDATE labels SET name_key = 'ma\u{df}' WHERE id = $1",
                mass,
            ),
            (
                "UPDATE canned_replies SET shortcut_key = 'gru\u{df}' WHERE id = $1",
                reply,
            ),
        ] {
            let done = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(id)
                .execute(&pool);
            assert_eq!(done.await.expect("older key").rows_affected(), 1);
        }
        // As a database from before the pass: it has not run there.
        let pending = "DELETE FROM search_backfills WHERE name = 'caseless_keys'";
        let cleared = sqlx::query(pending).execute(&pool).await;
        assert_eq!(cleared.expect("pass not run").rows_affected(), 1);
        let second = app.label(&owner, "STRASSE", "#000000").await;
        let later = json!({"shortcut": "GRUSS", "text": "Hi"});
        let (status, later) = app.post("/api/canned-replies", later, Some(&owner)).await;
        assert_eq!(status, 201, "{later}");

        let (store, _) = store_of(&app, &biz).await;
        store.migrate().await.expect("keys folded again");
        store.migrate().await.expect("and again, changing nothing");
        let taken = |path: &'static str, body: serde_json::Value| {
            let (app, owner) = (&app, &owner);
            async move {
                let (status, answer) = app.post(path, body.clone(), Some(owner)).await;
                assert_eq!(status, 409, "{body} → {answer}");
            }
        };
        taken("/api/labels", json!({"name": "MASS", "color": "#000000"})).await;
        taken(
            "/api/labels",
            json!({"name": "strasse", "color": "#000000"}),
        )
        .await;
        taken(
            "/api/canned-replies",
            json!({"shortcut": "GRUSS", "text": "x"}),
        )
        .await;
        // The later of the two that now meet stays listed and usable: it can be recoloured and
        // renamed, and the first keeps the name's key.
        let mut names = label_names(&app, &owner).await;
        names.sort();
        assert_eq!(names, ["Ma\u{df}", "STRASSE", "Stra\u{df}e"]);
        let path = format!("/api/labels/{second}");
        let (status, body) = app.patch(&path, json!({"color": "#FFFFFF"}), &owner).await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = app.patch(&path, json!({"name": "Street"}), &owner).await;
        assert_eq!(status, 200, "{body}");
        taken(
            "/api/labels",
            json!({"name": "STRASSE", "color": "#000000"}),
        )
        .await;
        let path = format!("/api/canned-replies/{}", later["id"].as_str().expect("id"));
        let edit = json!({"shortcut": "GRUSS", "text": "Hello"});
        let (status, body) = app
            .call(reqwest::Method::PATCH, &path, Some(edit), Some(&owner))
            .await;
        assert_eq!(status, 200, "{body}");
    }
);
