//! Automated replies over HTTP: create, list, edit, delete, the one default, media and flow
//! steps, and isolation between businesses (the form's limits are `replies_limits`).

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

pub(crate) const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-test-image";
pub(crate) const PDF: &[u8] = b"%PDF-1.4\n% a test document\n";

/// A reply form: text fields, then files as (field, file name, bytes).
pub(crate) fn form(
    fields: &[(&str, &str)],
    files: &[(&str, &str, &[u8])],
) -> reqwest::multipart::Form {
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in fields {
        form = form.text(name.to_string(), value.to_string());
    }
    for (name, file_name, bytes) in files {
        form = form.part(
            name.to_string(),
            reqwest::multipart::Part::bytes(bytes.to_vec()).file_name(file_name.to_string()),
        );
    }
    form
}

pub(crate) async fn send(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: &str,
    form: reqwest::multipart::Form,
) -> (u16, Value) {
    app.call_form(method, path, token, form).await
}

pub(crate) async fn create(
    app: &TestApp,
    token: &str,
    form: reqwest::multipart::Form,
) -> (u16, Value) {
    send(
        app,
        reqwest::Method::POST,
        "/api/automated-replies/",
        token,
        form,
    )
    .await
}

pub(crate) async fn edit(
    app: &TestApp,
    token: &str,
    id: &str,
    form: reqwest::multipart::Form,
) -> (u16, Value) {
    let path = format!("/api/automated-replies/{id}");
    send(app, reqwest::Method::PATCH, &path, token, form).await
}

/// Creates a plain text reply; answers its id.
pub(crate) async fn text_reply(app: &TestApp, token: &str, trigger: &str, default: bool) -> String {
    let is_default = if default { "true" } else { "false" };
    let fields = [
        ("trigger", trigger),
        ("type", "text"),
        ("responseText", "Hi!"),
        ("isActive", "true"),
        ("isDefault", is_default),
        ("cooldownHours", "0"),
    ];
    let (status, body) = create(app, token, form(&fields, &[])).await;
    assert_eq!(status, 201, "{body}");
    body["_id"].as_str().expect("_id").to_string()
}

pub(crate) fn list_json() -> Value {
    json!({
        "type": "list",
        "header": {"type": "text", "text": "Our menu"},
        "body": {"text": "Pick one"},
        "footer": {"text": "Thanks"},
        "action": {"button": "See options", "sections": [
            {"title": "Food", "rows": [
                {"id": "pizza", "title": "Pizza", "description": "Hot"},
                {"id": "salad", "title": "Salad"}
            ]}
        ]}
    })
}

both_backends!(
    a_reply_is_created_listed_edited_and_deleted,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("replier").await.access;
        let buttons = json!([
            {"id": "yes", "title": "Yes"},
            {"id": "", "title": "dropped: no id"},
            {"id": "no", "title": "No"}
        ])
        .to_string();
        let fields = [
            ("trigger", " Hello "),
            ("type", "text"),
            ("responseText", "Welcome! How can we help?"),
            ("caption", ""),
            ("isActive", "true"),
            ("isDefault", "false"),
            ("cooldownInHours", "2"),
            ("quickReplyButtons", buttons.as_str()),
        ];
        let (status, created) = create(&app, &token, form(&fields, &[])).await;
        assert_eq!(status, 201, "{created}");
        let id = created["_id"].as_str().expect("_id").to_string();
        assert_eq!(created["trigger"], "Hello");
        assert_eq!(created["type"], "text");
        assert_eq!(created["responseText"], "Welcome! How can we help?");
        assert_eq!(created["isActive"], true);
        assert_eq!(created["isDefault"], false);
        assert_eq!(created["cooldownHours"], 2);
        assert_eq!(
            created["quickReplyButtons"],
            json!([{"id": "yes", "title": "Yes"}, {"id": "no", "title": "No"}])
        );
        assert_eq!(created["mediaUrl"], Value::Null);
        assert_eq!(created["flowStepCount"], 0);
        assert!(
            created["updatedAt"]
                .as_str()
                .expect("updatedAt")
                .ends_with('Z')
        );

        for path in ["/api/automated-replies/", "/api/automated-replies"] {
            let (status, list) = app.get(path, &token).await;
            assert_eq!(status, 200);
            assert_eq!(list, json!([created.clone()]));
        }

        let fields = [
            ("responseText", "Hello again"),
            ("cooldownHours", "0.5"),
            ("isActive", "false"),
        ];
        let (status, edited) = edit(&app, &token, &id, form(&fields, &[])).await;
        assert_eq!(status, 200, "{edited}");
        assert_eq!(edited["responseText"], "Hello again");
        assert_eq!(edited["cooldownHours"], 0.5);
        assert_eq!(edited["isActive"], false);
        assert_eq!(edited["trigger"], "Hello", "fields left out are kept");
        assert_eq!(edited["quickReplyButtons"], created["quickReplyButtons"]);

        let path = format!("/api/automated-replies/{id}");
        let (status, _) = app
            .call(reqwest::Method::DELETE, &path, None, Some(&token))
            .await;
        assert_eq!(status, 200);
        let (_, list) = app.get("/api/automated-replies/", &token).await;
        assert_eq!(list, json!([]));
        let (status, _) = app
            .call(reqwest::Method::DELETE, &path, None, Some(&token))
            .await;
        assert_eq!(status, 404);
        let (status, _) = edit(&app, &token, &id, form(&[("responseText", "x")], &[])).await;
        assert_eq!(status, 404);
    }
);

both_backends!(
    one_default_reply_and_one_reply_per_trigger,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("defaults").await.access;
        let first = text_reply(&app, &token, "first", true).await;
        let second = text_reply(&app, &token, "second", true).await;
        let (_, list) = app.get("/api/automated-replies/", &token).await;
        let defaults: Vec<&Value> = list
            .as_array()
            .expect("list")
            .iter()
            .filter(|r| r["isDefault"] == true)
            .collect();
        assert_eq!(defaults.len(), 1);
        assert_eq!(defaults[0]["_id"], second.as_str());

        let (status, edited) =
            edit(&app, &token, &first, form(&[("isDefault", "true")], &[])).await;
        assert_eq!(status, 200);
        assert_eq!(edited["isDefault"], true);
        let (_, list) = app.get("/api/automated-replies/", &token).await;
        let default_ids: Vec<&Value> = list
            .as_array()
            .expect("list")
            .iter()
            .filter(|r| r["isDefault"] == true)
            .map(|r| &r["_id"])
            .collect();
        assert_eq!(default_ids, [&json!(first)]);

        let fields = [("trigger", "  FIRST "), ("responseText", "again")];
        let (status, body) = create(&app, &token, form(&fields, &[])).await;
        assert_eq!(status, 409, "{body}");
        assert_eq!(
            body["detail"],
            "An automated reply with the trigger \"FIRST\" already exists"
        );
        let (status, _) = edit(&app, &token, &second, form(&[("trigger", "First")], &[])).await;
        assert_eq!(status, 409);
        let (status, _) = edit(&app, &token, &second, form(&[("trigger", "second")], &[])).await;
        assert_eq!(status, 200, "a reply keeps its own trigger");
    }
);

both_backends!(
    media_and_flow_steps_are_stored_served_and_listed,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("flows").await.access;
        text_reply(&app, &token, "support", false).await;
        let buttons =
            json!([{"id": "prices", "title": "Prices"}, {"id": "support", "title": "Help"}])
                .to_string();
        let flows = json!({
        "prices": {"responseText": "Our prices", "quickReplyButtons": [{"id": "brochure", "title": "Brochure"}]},
        "brochure": {"caption": "The brochure", "quickReplyButtons": []}
    })
    .to_string();
        let fields = [
            ("trigger", "hello"),
            ("type", "text"),
            ("caption", "Our shop"),
            ("isActive", "true"),
            ("isDefault", "false"),
            ("cooldownHours", "0"),
            ("quickReplyButtons", buttons.as_str()),
            ("flow_definitions", flows.as_str()),
        ];
        let files: [(&str, &str, &[u8]); 2] = [
            ("main_media_file", "shop.png", PNG),
            ("flow_media_brochure", "brochure.pdf", PDF),
        ];
        let (status, created) = create(&app, &token, form(&fields, &files)).await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["mediaType"], "image");
        assert_eq!(created["caption"], "Our shop");
        assert_eq!(created["flowStepCount"], 2);
        let id = created["_id"].as_str().expect("id").to_string();
        let media_url = created["mediaUrl"].as_str().expect("mediaUrl").to_string();
        assert!(media_url.starts_with("/api/media/"), "{media_url}");
        let served = app
            .client
            .get(app.url(&media_url))
            .bearer_auth(&token)
            .send()
            .await
            .expect("sent");
        assert_eq!(served.status().as_u16(), 200);
        assert_eq!(served.bytes().await.expect("bytes").as_ref(), PNG);

        let (status, steps) = app
            .get(&format!("/api/automated-replies/{id}/flows"), &token)
            .await;
        assert_eq!(status, 200);
        let steps = steps.as_array().expect("steps").clone();
        assert_eq!(steps.len(), 2);
        // Listed by trigger.
        assert_eq!(steps[1]["trigger"], "prices");
        assert_eq!(steps[1]["mediaUrl"], Value::Null);
        assert_eq!(
            steps[1]["quickReplyButtons"],
            json!([{"id": "brochure", "title": "Brochure"}])
        );
        assert_eq!(steps[0]["trigger"], "brochure");
        assert_eq!(steps[0]["mediaType"], "document");
        let brochure_url = steps[0]["mediaUrl"]
            .as_str()
            .expect("step media")
            .to_string();
        let served = app
            .client
            .get(app.url(&brochure_url))
            .bearer_auth(&token)
            .send()
            .await
            .expect("sent");
        assert_eq!(served.bytes().await.expect("bytes").as_ref(), PDF);

        // An edit that sends the steps back keeps the step's file by its URL, and removes main media.
        let flows = json!({
        "prices": {"responseText": "New prices", "quickReplyButtons": [{"id": "brochure", "title": "Brochure"}]},
        "brochure": {"caption": "Still here", "mediaUrl": brochure_url, "mediaType": "document"}
    })
    .to_string();
        let fields = [
            ("removeMedia", "true"),
            ("responseText", "Welcome"),
            ("flow_definitions", flows.as_str()),
        ];
        let (status, edited) = edit(&app, &token, &id, form(&fields, &[])).await;
        assert_eq!(status, 200, "{edited}");
        assert_eq!(edited["mediaUrl"], Value::Null);
        let (_, steps) = app
            .get(&format!("/api/automated-replies/{id}/flows"), &token)
            .await;
        assert_eq!(steps[1]["responseText"], "New prices");
        assert_eq!(steps[0]["mediaUrl"], brochure_url.as_str());

        // A step may not take another reply's trigger: that button opens the other reply.
        let flows = json!({"support": {"responseText": "shadow"}}).to_string();
        let (status, body) = edit(
            &app,
            &token,
            &id,
            form(&[("flow_definitions", flows.as_str())], &[]),
        )
        .await;
        assert_eq!(status, 422);
        assert_eq!(
            body["detail"],
            "Flow step \"support\" is another reply's trigger; that button opens that reply"
        );
        // Left out, flow_definitions keeps the steps.
        let (_, edited) = edit(&app, &token, &id, form(&[("caption", "")], &[])).await;
        assert_eq!(edited["flowStepCount"], 2);
    }
);

both_backends!(
    another_business_never_sees_or_touches_a_reply,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("owner_a").await.access;
        let stranger = app.register("owner_b").await.access;
        let id = text_reply(&app, &owner, "hello", true).await;
        let (status, list) = app.get("/api/automated-replies/", &stranger).await;
        assert_eq!((status, list), (200, json!([])));
        let path = format!("/api/automated-replies/{id}");
        let (status, _) = edit(&app, &stranger, &id, form(&[("responseText", "mine")], &[])).await;
        assert_eq!(status, 404);
        let (status, _) = app
            .call(reqwest::Method::DELETE, &path, None, Some(&stranger))
            .await;
        assert_eq!(status, 404);
        let (status, _) = app.get(&format!("{path}/flows"), &stranger).await;
        assert_eq!(status, 404);
        // The same trigger and a default of its own are fine in another business.
        text_reply(&app, &stranger, "hello", true).await;
        let (_, list) = app.get("/api/automated-replies/", &owner).await;
        assert_eq!(list[0]["isDefault"], true);
        assert_eq!(list[0]["responseText"], "Hi!");
        let (status, _) = app.get("/api/automated-replies/", "not-a-token").await;
        assert_eq!(status, 401);
    }
);
