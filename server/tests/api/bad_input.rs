//! Bad input answers the same on SQLite and Postgres: client text with a control character is
//! refused with 422 naming the field; Meta's text is kept with U+0000 replaced; a page past the
//! end is an empty page.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::live::*;

const CUSTOMER: &str = "16505551234";
const NUL: &str = "a\u{0}b";

/// 422 in the error shape, naming `field`.
fn assert_refused((status, body): (u16, Value), field: &str) {
    assert_eq!(status, 422, "{field}: {body}");
    assert_eq!(body["code"], "validation_failed", "{body}");
    assert_eq!(body["detail"], body["message"], "{body}");
    let message = body["message"].as_str().expect("message");
    assert!(message.starts_with(field), "{field}: {message}");
}

fn form(fields: &[(&str, &str)]) -> reqwest::multipart::Form {
    fields
        .iter()
        .fold(reqwest::multipart::Form::new(), |f, (k, v)| {
            f.text(k.to_string(), v.to_string())
        })
}

both_backends!(
    identity_requests_with_a_control_character_are_refused_by_field,
    |backend| async move {
        let app = spawn_app(backend).await;
        let register = json!({"firstName": NUL, "lastName": "x", "username": "nul",
                              "email": "nul@example.com", "password": PASSWORD});
        assert_refused(
            app.post("/identity/auth/register", register, None).await,
            "firstName",
        );
        app.register("owner").await;
        assert_refused(app.login(NUL, PASSWORD).await, "emailOrUsername");
        assert_refused(app.login("owner", "pass\u{7f}").await, "password");
    }
);

both_backends!(
    api_requests_with_a_control_character_are_refused_by_field,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("refuser").await;
        let token = &biz.session.access;
        let contact = json!({"name": NUL, "phone_number": CUSTOMER});
        assert_refused(
            app.post("/api/contacts/add", contact.clone(), Some(token))
                .await,
            "name",
        );
        assert_refused(
            app.post("/api/users/update", contact.clone(), Some(token))
                .await,
            "name",
        );
        let import =
            json!({"contacts": [{"name": "fine", "phone_number": "16505550000"}, contact]});
        assert_refused(
            app.post("/api/contacts/import", import, Some(token)).await,
            "contacts[1].name",
        );
        assert_refused(
            app.get("/api/users?search_query=a%00b", token).await,
            "search_query",
        );
        let note = json!({"text": NUL});
        assert_refused(
            app.post(
                &format!("/api/conversation/{CUSTOMER}/notes"),
                note,
                Some(token),
            )
            .await,
            "text",
        );
        let reply = form(&[
            ("trigger", "hello"),
            ("type", "text"),
            ("responseText", NUL),
            ("isActive", "true"),
        ]);
        assert_refused(
            app.post_form("/api/automated-replies/", token, reply).await,
            "responseText",
        );
        // Escaped inside the template's JSON, the character is only seen once it is read.
        let template = json!({"name": "nul_body", "language": "en_US", "category": "UTILITY",
                              "components": [{"type": "BODY", "text": NUL}]});
        assert_refused(app.create_template(token, &template).await, "template");
        let send = form(&[("to", CUSTOMER), ("message_type", "text"), ("text", NUL)]);
        assert_refused(
            app.post_form("/api/send-message", token, send).await,
            "text",
        );
    }
);

both_backends!(
    meta_text_with_nul_is_stored_with_the_replacement_character,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("keeper").await;
        let image = json!({"from": CUSTOMER, "id": "wamid.image", "timestamp": "1763700000",
            "type": "image", "image": {"caption": NUL, "mime_type": "image/jpeg", "sha256": "x",
            "id": "media-img"}});
        // A backslash before `u0000` is text, not an escape, and stays as it is.
        let messages = vec![
            text(CUSTOMER, "wamid.text", NUL),
            text(CUSTOMER, "wamid.slash", "\\u0000"),
            image,
        ];
        let delivery = inbound(&biz.phone_number_id, CUSTOMER, NUL, messages);
        let (status, body) = app.webhook(&delivery, &biz.app_secret).await;
        assert_eq!((status, body), (200, json!({"status": "success"})));

        let kept = "a\u{FFFD}b";
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let stored = history["messages"].as_array().expect("messages");
        let by_id = |id: &str| stored.iter().find(|m| m["message_id"] == id).expect(id);
        assert_eq!(by_id("wamid.text")["content"]["text"], kept);
        assert_eq!(by_id("wamid.slash")["content"]["text"], "\\u0000");
        assert_eq!(by_id("wamid.image")["content"]["caption"], kept);
        let (_, list) = app.get("/api/users", &biz.session.access).await;
        assert_eq!(list["data"]["users"][0]["name"], kept, "{list}");
    }
);

both_backends!(
    pages_past_the_end_or_below_one_never_fail,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("pager").await;
        let delivery = inbound(
            &biz.phone_number_id,
            CUSTOMER,
            "Pat",
            vec![text(CUSTOMER, "wamid.1", "hi")],
        );
        app.webhook(&delivery, &biz.app_secret).await;
        let token = &biz.session.access;
        for page in ["99999999999999", "9223372036854775807"] {
            let (status, body) = app
                .get(&format!("/api/users?page={page}&limit=100"), token)
                .await;
            assert_eq!(status, 200, "page {page}: {body}");
            assert_eq!(body["data"]["users"], json!([]), "page {page}");
            assert_eq!(body["data"]["has_more"], false);
        }
        for page in ["0", "-5", "-9223372036854775808"] {
            let (status, body) = app.get(&format!("/api/users?page={page}"), token).await;
            assert_eq!(status, 200, "page {page}: {body}");
            assert_eq!(body["data"]["users"].as_array().map(Vec::len), Some(1));
        }
        let (status, body) = app.get("/api/users?page=1e99", token).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["code"], "bad_request");
        let (status, _) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}?limit=9223372036854775807"),
                token,
            )
            .await;
        assert_eq!(status, 200);
    }
);

both_backends!(
    an_assignment_without_assignee_id_is_refused_and_changes_nothing,
    |backend| async move {
        let t = crate::team::team(spawn_app(backend).await, "no_assignee").await;
        let owner = &t.biz.session.access;
        let (agent_id, _) = &t.agents[0];
        let path = format!("/api/conversation/{}/assignment", crate::team::CUSTOMER);
        let (status, body) = t
            .app
            .patch(&path, json!({"assignee_id": agent_id}), owner)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_refused(t.app.patch(&path, json!({}), owner).await, "assignee_id");
        let (_, history) = t
            .app
            .get(
                &format!("/api/conversation/{}", crate::team::CUSTOMER),
                owner,
            )
            .await;
        assert_eq!(history["conversation"]["assignee"]["id"], json!(agent_id));
        // Null is nobody.
        let (status, row) = t
            .app
            .patch(&path, json!({"assignee_id": null}), owner)
            .await;
        assert_eq!(status, 200, "{row}");
        assert_eq!(row["assignee"], Value::Null);
    }
);

both_backends!(
    a_list_page_size_outside_one_to_a_hundred_is_taken_within_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("sizes").await;
        for (n, customer) in ["15550001001", "15550001002"].iter().enumerate() {
            let delivery = inbound(
                &biz.phone_number_id,
                customer,
                "Pat",
                vec![text(customer, &format!("wamid.size{n}"), "hi")],
            );
            app.webhook(&delivery, &biz.app_secret).await;
        }
        let token = &biz.session.access;
        for (limit, rows) in [
            ("0", 1),
            ("-1", 1),
            ("1", 1),
            ("101", 2),
            ("9223372036854775807", 2),
        ] {
            let (status, body) = app
                .get(&format!("/api/users?status=all&limit={limit}"), token)
                .await;
            assert_eq!(status, 200, "{limit}: {body}");
            let users = body["data"]["users"].as_array().map(Vec::len);
            assert_eq!(users, Some(rows), "{limit}: {body}");
        }
    }
);
